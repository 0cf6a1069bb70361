/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Setting sysctls for a while: each change is remembered and undone by
 * sysctl_restore_all(), on the way out, on error, and from the handler of
 * SIGINT and SIGTERM (it only uses open, write and close).
 */
#ifndef RAFLEET_SYSCTL_H
#define RAFLEET_SYSCTL_H

#include <stddef.h>
#include <sys/types.h>

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

/*
 * Write @val; the old value is saved first, to be restored later, and
 * recorded on disk (STATEDIR/SYSCTL_UNDO_FILE, written atomically) before
 * the write, so that a SIGKILL is undone by sysctl_undo_recover().  0,
 * the kernel's -errno, or the record's -errno (nothing changed then; a
 * read-only state directory, -EROFS, records nothing and goes on).
 *
 * One writer at a time: the record is made only where there is none, so
 * -EBUSY while another process's record stands (it runs, or it was killed
 * and 'rafleet recover' has not put its values back yet), whether or not
 * either holds the rollout lock; sysctl_saved_strerror() says whose.
 */
int sysctl_set_saved(const char *name, const char *val);

/* sysctl_set_saved()'s @err in words: for -EBUSY, whose record stands. */
const char *sysctl_saved_strerror(int err);

/* Put back every saved value, newest first, then remove the record; 0 or the first error. */
int sysctl_restore_all(void);

#define SYSCTL_UNDO_FILE "sysctl-undo.json"
#define SYSCTL_UNDO_SCHEMA "rafleet-sysctl-undo/1"
#define SYSCTL_UNDO_MAX_BYTES (64 << 10)

/*
 * What a killed canary, calibrate or bench --sysctl left: put its values
 * back (same boot, its writer gone) or drop its record (a boot since).
 * 0 nothing was left; 1 done, @msg says what; -EBUSY its writer still
 * runs; -EBADMSG a record that cannot be read (@msg); another -errno.
 */
int sysctl_undo_recover(char *msg, size_t len);

/*
 * A process's start time (field 22 of /proc/PID/stat), 0 if unknown: with
 * the pid, what names a record's writer.
 */
unsigned long long sysctl_writer_start_time(pid_t pid);

/* Restore on SIGINT/SIGTERM, then die of the signal as before. */
void sysctl_restore_on_signals(void);

#endif
