/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way rafleet runs another program (kexec, systemctl, grub-editenv,
 * rafleet bench, fio, the canary, health checks) and waits for it, with a
 * time limit: past it, its whole process group is killed.
 */
#ifndef RAFLEET_RUNCMD_H
#define RAFLEET_RUNCMD_H

#include <stddef.h>

#define RUNCMD_TIMED_OUT (-1000)	/* past the time limit, killed */
#define RUNCMD_SIGNALED 256		/* + the signal that killed it */

/*
 * Run @argv (argv[0] an absolute path, or a bare name that runcmd_find()
 * finds: never looked up in PATH or the current directory; a relative
 * path is refused, as a program that cannot be started: 127), its standard
 * output to @out_fd when that is >= 0, else to our standard error (ours
 * is rafleet's report, JSON or a table: a child never writes into it),
 * for at most @timeout_s seconds (0: no limit).  Its exit status
 * (0..255; 127 if it could not be started), RUNCMD_SIGNALED + N if signal
 * N killed it, RUNCMD_TIMED_OUT, or -errno if it could not be forked.
 */
int run_command(char *const argv[], int out_fd, unsigned int timeout_s);

/*
 * Where a child's standard streams go, and what it gets in its
 * environment besides ours: stdin and stderr < 0 are left as ours,
 * stdout < 0 is our standard error (as above); @env is a NULL-
 * terminated list of "NAME=value" (NULL: nothing added).
 */
struct run_io {
	int in_fd, out_fd, err_fd;
	char *const *env;
};

/* run_command() with @io's streams and environment. */
int run_command_io(char *const argv[], const struct run_io *io, unsigned int timeout_s);

/*
 * The system's program @name: the first of /usr/sbin, /usr/bin, /sbin and
 * /bin where @name leads, through directories and symlinks only root can
 * have written, to an executable regular file owned by root and writable
 * by no one else (trust_path() of lib/trust.h); its real path, no symlink
 * in it, in @out.  0, or -ENOENT (@out then holds @name, for messages),
 * also for a @name with a '/'.
 */
int runcmd_find(const char *name, char *out, size_t len);

/* "exit 3", "killed by signal 9", "timed out": for messages. */
const char *run_command_result(int rc, char *buf, size_t len);

#endif
