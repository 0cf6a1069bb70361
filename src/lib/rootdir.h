/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The root that `rafleet status` looks at: $RAFLEET_ROOT, "/" by default,
 * so that tests (and a mounted image) can be read like the running host.
 * Paths are written as the host under that root sees them ("/etc/...").
 */
#ifndef RAFLEET_ROOTDIR_H
#define RAFLEET_ROOTDIR_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/warnings.h"

/*
 * The kernel's files a test (or an image) moves, one variable a tree:
 *	/proc/sys		$RAFLEET_PROCSYS
 *	/proc/self/mountinfo	$RAFLEET_MOUNTINFO
 *	/proc			$RAFLEET_PROC
 *	/sys/kernel/tracing	$RAFLEET_TRACEFS
 *	/sys			$RAFLEET_SYSFS
 *	/dev/kmsg		$RAFLEET_KMSG
 * The longest of these prefixes that @path starts with (at a '/') decides:
 * its variable, when set, replaces that prefix; unset, @path is left as it
 * is (so /proc/sys/x is the real one whatever $RAFLEET_PROC says).  Any
 * other path is copied.  0, or -ENAMETOOLONG.
 */
int host_path(const char *path, char *out, size_t len);

/* $RAFLEET_ROOT, or "/" when it is unset or empty. */
const char *rootdir_get(void);

/* @root joined with the absolute @path ("/" + "/etc" is "/etc"). */
int root_path(const char *root, const char *path, char *out, size_t len);

/*
 * The file to open for @path under @root.  A symlink in the last component
 * is followed by hand (up to 8 times), so that an absolute target such as
 * /etc/sysctl.conf is looked up under @root too, not on the host.
 * *@devnull is set if it ends at /dev/null, the way to mask a file.
 * 0, or -ENAMETOOLONG.
 */
int root_resolve(const char *root, const char *path, char *out, size_t len,
		 bool *devnull);

/*
 * opendir() of @dir under @root; its full path is left in @path.  A missing
 * directory is NULL quietly, any other failure NULL and a warning in @w.
 */
DIR *root_opendir(const char *root, const char *dir, char *path, size_t len,
		  struct warnings *w);

#endif
