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

/* fsync() the directory that holds @path.  0 or -errno. */
int fsync_dir_of(const char *path);

/*
 * Replace @path, mode @mode, with what @fill writes to the temporary
 * file's descriptor (@fill returns 0 or -errno).  0 or -errno; on failure
 * @path is as it was and no temporary file is left.
 */
int atomic_write_fd(const char *path, mode_t mode,
		    int (*fill)(int fd, const void *arg), const void *arg);

/* The same with @len bytes of @data. */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode);

/* The same with what @fill writes to a stream (a JSON document, an SVG). */
int atomic_write_stream(const char *path, mode_t mode,
			int (*fill)(FILE *f, const void *arg), const void *arg);

#endif
