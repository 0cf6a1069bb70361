/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one lock of rafleet: an exclusive flock(2) on a file, STATEDIR/lock
 * for the rollout (one rafleet at a time), STATEDIR/tune.json.lock for
 * rafleet tune (udev starts one per disk at once).  The
 * holder writes "PID COMMAND" into the file, so that the one turned away
 * can say who holds it.  The lock goes with the file descriptor: a holder
 * killed with SIGKILL leaves no stale lock behind.
 */
#ifndef RAFLEET_LOCKFILE_H
#define RAFLEET_LOCKFILE_H

#include <limits.h>
#include <sys/types.h>

#define LOCKFILE_NAME "lock"
/* a wait_ms that waits as long as it takes */
#define LOCKFILE_WAIT_FOREVER UINT_MAX

struct lockfile {
	int fd;			/* -1 when not held */
	char path[PATH_MAX];
};

/*
 * Take the lock for @who (the command, as "canary"), waiting up to
 * @wait_ms milliseconds for it (0: not at all).  0; -EBUSY if another
 * process holds it (lockfile_busy() says who, for the caller to print);
 * -EPERM if the lock file or its directory is not root's own or another
 * user can write it (lib/trust.h; the file is opened O_NOFOLLOW and
 * O_NONBLOCK: a symlink is -ELOOP); another -errno if it cannot be
 * opened.  Prints nothing.
 */
int lockfile_take(struct lockfile *l, const char *who, unsigned int wait_ms);

/* The same for the lock file at @path (made if missing; its directory is not). */
int lockfile_take_path(struct lockfile *l, const char *path, const char *who,
		       unsigned int wait_ms);

/*
 * After -EBUSY: "another rafleet (pid N, 'WHO') holds PATH" (or without
 * the holder, when its file names none) in @msg.
 */
void lockfile_busy(const struct lockfile *l, char *msg, size_t len);

/* Let it go (the file stays, empty).  Harmless if not held. */
void lockfile_release(struct lockfile *l);

/*
 * Who holds the lock at @path, as its file says: *@pid (0 if unknown) and
 * the command in @who.  Reads only; does not tell if the lock is held.
 */
void lockfile_holder(const char *path, pid_t *pid, char *who, size_t len);

#endif
