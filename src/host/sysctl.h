/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Setting sysctls for a while: each change is remembered and undone by
 * sysctl_restore_all(), on the way out, on error, and from the handler of
 * SIGINT and SIGTERM (it only uses open, write and close).
 */
#ifndef RAFLEET_SYSCTL_H
#define RAFLEET_SYSCTL_H

#include <stddef.h>

#define SYSCTL_MAX_SAVED 16

/* "vm.readahead_async_keep_half" -> "/proc/sys/vm/readahead_async_keep_half"
 * (or under $RAFLEET_PROCSYS: host_path()).  -EINVAL for a name that is not a plain
 * dotted path. */
int sysctl_path(const char *name, char *out, size_t len);

/* Read the value, without its trailing newline. */
int sysctl_get(const char *name, char *val, size_t len);

/*
 * Write @val as it is (one write(), "1\n"): the one writer of /proc/sys,
 * for a change meant to stay (feature_set()).  0 or the kernel's -errno.
 */
int sysctl_set(const char *name, const char *val);

/* Write @val; the old value is saved first, to be restored later. */
int sysctl_set_saved(const char *name, const char *val);

/* Put back every saved value, newest first; 0 or the first error. */
int sysctl_restore_all(void);

/* Restore on SIGINT/SIGTERM, then die of the signal as before. */
void sysctl_restore_on_signals(void);

#endif
