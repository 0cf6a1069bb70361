/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The readahead features of the rafleet kernel, one sysctl each under
 * /proc/sys/vm (or $RAFLEET_PROCSYS/vm, for tests), read and written by
 * host/sysctl.c.
 */
#ifndef RAFLEET_FEATURE_H
#define RAFLEET_FEATURE_H

#include <stdbool.h>

struct feature {
	const char *name;	/* the sysctl, without "vm." */
	const char *seed;	/* the seed post it comes from */
	const char *what;	/* what 1 means */
};

extern const struct feature features[];
extern const int nr_features;

/* The feature called @name, with or without the "vm." prefix; NULL if none. */
const struct feature *feature_find(const char *name);

/*
 * The feature's state: 0 or 1, -ENOENT if this kernel has no such sysctl,
 * another negative errno if it cannot be read or holds something else.
 */
int feature_get(const struct feature *f);

/* Set it to @on; negative errno (the kernel's) on failure. */
int feature_set(const struct feature *f, bool on);

#endif
