/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of `rafleet guard`, parsed (no side effects). */
#ifndef RAFLEET_GUARD_ARGS_H
#define RAFLEET_GUARD_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "guard/band.h"
#include "guard/window.h"
#include "host/syscount.h"

#define GUARD_DEFAULT_WINDOW 60
#define GUARD_MAX_WINDOW 86400
#define GUARD_DEFAULT_MIN_READ_MIB 1.0
#define GUARD_DEFAULT_MIN_FOLIOS 256

struct guard_args {
	unsigned int window_s;
	uint64_t windows;		/* 0: until SIGINT/SIGTERM */
	bool learn, act, json, help;
	struct band_opts band;
	struct guard_thresholds min;
	const char *dev[SC_MAX_DEVS];
	int nr_dev;			/* 0: the default devices */
	char error[160];		/* what was wrong, when parsing fails */
};

/*
 * Parse argv of `rafleet guard` (argv[0] is "guard").  Strings are pointed
 * at, not copied.  0, or -EINVAL with a->error set.
 */
int guard_parse_args(int argc, char **argv, struct guard_args *a);

/* `rafleet guard --help`: the usage, its option list from the parser's table. */
void guard_usage(FILE *f);

#endif /* RAFLEET_GUARD_ARGS_H */
