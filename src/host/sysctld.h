/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What systemd-sysctl would write at boot, worked out from the files of
 * sysctl.d(5): *.conf in /etc/sysctl.d, /run/sysctl.d,
 * /usr/local/lib/sysctl.d and /usr/lib/sysctl.d (a name in an earlier
 * directory hides the same name in a later one; a symlink to /dev/null
 * masks it), read in the order of their file names whatever the
 * directory, then /etc/sysctl.conf.  The last assignment to a key wins;
 * a key assigned explicitly is never set by a glob.
 */
#ifndef RAFLEET_SYSCTLD_H
#define RAFLEET_SYSCTLD_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/warnings.h"

struct sysctld_file {
	char *path;		/* as the host sees it: /etc/sysctl.d/x.conf */
	bool masked;		/* /dev/null (or empty): hides, sets nothing */
};

struct sysctld_setting {
	char *key;		/* normalized: "vm/readahead_x", or a glob */
	char *written;		/* the key as the file spells it, no '-' */
	char *value;		/* NULL for "-KEY": KEY is kept from globs */
	const char *file;	/* a files[].path */
	unsigned int line;
	bool ignore_failure;	/* "-KEY = VALUE" */
};

struct sysctld {
	struct sysctld_file *files;	/* in the order they are read */
	size_t nr_files;
	struct sysctld_setting *set;	/* in the order they are written */
	size_t nr_set;
};

/*
 * Read the files under @root.  A file or line that cannot be used is a
 * warning in @w; the result is 0, or -ENOMEM.
 */
int sysctld_load(struct sysctld *s, const char *root, struct warnings *w);

/*
 * The setting systemd-sysctl would write to @name (dotted or slashed) at
 * boot, or NULL if none would: the kernel's default stays.
 */
const struct sysctld_setting *sysctld_boot_value(const struct sysctld *s,
						 const char *name);

void sysctld_free(struct sysctld *s);

/*
 * A key in the form systemd-sysctl keeps it, in place: if the first
 * separator is a dot, dots and slashes swap ("vm.a/b" is "vm/a.b"); no
 * empty, leading or trailing path components.
 */
char *sysctld_normalize(char *key);

#endif
