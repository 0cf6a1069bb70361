/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rafleet, run as root, may read, map or run: a file only root (or
 * the user rafleet runs as) can have written.  A file is trusted when it
 * is a regular file owned by root or by us, writable by no one else, and
 * its directory is trusted; a directory is trusted when it is owned by
 * root or by us and either writable by no one else or sticky (/var/tmp:
 * another user can add names there but cannot replace or remove ours).
 * Files are opened O_NOFOLLOW and O_NONBLOCK (a FIFO in a file's place
 * is refused, not waited on).  docs/security.md says why.
 */
#ifndef RAFLEET_TRUST_H
#define RAFLEET_TRUST_H

#include <stddef.h>
#include <sys/stat.h>

/* 0 if @st (of a file or a directory) is ours as above, else -EPERM. */
int trust_stat(const struct stat *st);

/*
 * Is the directory @dir trusted?  0; -EPERM with @why saying whose it is
 * and what mode; -errno (-ENOENT) if it cannot be looked at.
 */
int trust_dir(const char *dir, char *why, size_t len);

/* The same for the directory that holds @path. */
int trust_dir_of(const char *path, char *why, size_t len);

/*
 * Open @path (O_RDONLY or O_RDWR in @flags; O_CREAT is refused) without
 * following a symlink and without blocking on a FIFO, and check that it
 * and its directory are trusted: the descriptor (blocking again), or
 * -errno: -ELOOP for a symlink, -EINVAL for a file that is not a regular
 * one, -EPERM for one another user owns or can write, each with @why.
 */
int trust_open(const char *path, int flags, char *why, size_t len);

/*
 * What @path names, as the host under @root ("/" for this host, else
 * $RAFLEET_ROOT) sees it, followed from the real / one name at a time, and
 * nothing on the way that another user could have written: every
 * directory passed through trusted (as trust_dir()), every symlink owned
 * by root or us (in a sticky directory its owner can replace it) and
 * followed by hand, an absolute target under @root (at most 40), and what
 * it ends at owned by root or us and writable by no other user.  With
 * TRUST_NO_STICKY, what it ends at is writable by no other user even if it
 * is a sticky directory: a directory whose names are programs to run, where
 * a name another user adds (a hard link to a program of root's) would be
 * run.  A symlink to /dev/null (the way to mask a file) ends the walk
 * there: @out is "/dev/null".
 *
 * 0 with the real path it ends at in @out, no symlink in it (what to open
 * or run); -ENOENT when a name on the way is missing, every directory
 * before it trusted (so no other user can make it appear); -EPERM when
 * another user could have written a part, @why saying which, whose and
 * what mode; -EINVAL for a relative @root or @path; -ELOOP, -ENOTDIR,
 * -ENAMETOOLONG, -errno, each with @why.
 * Nothing is opened: run the program by @out, which another user cannot
 * change (only root could swap a part of it between the check and the run).
 */
#define TRUST_NO_STICKY 1u
int trust_path(const char *root, const char *path, unsigned int flags, char *out,
	       size_t outlen, char *why, size_t len);

#endif
