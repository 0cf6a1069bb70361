/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files that are never seen half-written: written to a temporary name in
 * the same directory, fsynced, renamed over the old one, and the directory
 * fsynced, so that after a crash the path holds the old or the new content.
 */
#ifndef RAFLEET_ATOMICFILE_H
#define RAFLEET_ATOMICFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* fsync() the file or directory @path (opened read-only).  0 or -errno. */
int fsync_path(const char *path);

/* fsync() the directory that holds @path.  0 or -errno. */
int fsync_dir_of(const char *path);

/*
 * Remove @path and fsync its directory: 0 if it is gone (or never was),
 * else -errno.
 */
int atomic_remove(const char *path);

/*
 * Replace @path, mode @mode, with what @fill writes to the temporary
 * file's descriptor (@fill returns 0 or -errno).  0 or -errno; on failure
 * @path is as it was and no temporary file is left.
 */
int atomic_write_fd(const char *path, mode_t mode,
		    int (*fill)(int fd, const void *arg), const void *arg);

/* The same with @len bytes of @data. */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode);

/*
 * The same, passing failpoint @fp.after-temp (the temporary file written
 * and fsynced, not yet renamed) and @fp.after-rename (renamed, its
 * directory not yet fsynced): for the crash tests of a file whose
 * filesystem has no journal (lib/failpoint.h).
 */
int atomic_write_file_fp(const char *path, const void *data, size_t len, mode_t mode,
			 const char *fp);

/*
 * Remove what a crashed writer of @path left beside it: the files named
 * BASENAME@infix followed by the six characters of mkstemp() (".tmp." for
 * this file's writers).  Only for a path that no one else writes at the
 * same time (rafleet's lock held).  The number removed, or -errno.
 */
int atomic_leftovers_remove(const char *path, const char *infix);

/* The same with what @fill writes to a stream (a JSON document, an SVG). */
int atomic_write_stream(const char *path, mode_t mode,
			int (*fill)(FILE *f, const void *arg), const void *arg);

/*
 * The same, but only if @path does not exist: the temporary file is
 * link()ed to @path, not renamed over it, so that of two writers at once
 * exactly one makes it.  -EEXIST (@path as it was) if it exists.
 */
int atomic_create_stream(const char *path, mode_t mode,
			 int (*fill)(FILE *f, const void *arg), const void *arg);

#endif
