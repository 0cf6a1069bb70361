/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files that are never seen half-written: written to a temporary name in
 * the same directory, fsynced, renamed over the old one, and the directory
 * fsynced, so that after a crash the path holds the old or the new content.
 */
#ifndef RAFLEET_ATOMICFILE_H
#define RAFLEET_ATOMICFILE_H

#include <stddef.h>
#include <sys/types.h>

/* fsync() the directory that holds @path.  0 or -errno. */
int fsync_dir_of(const char *path);

/*
 * Replace @path with @len bytes of @data, mode @mode.  0 or -errno; on
 * failure @path is as it was and no temporary file is left.
 */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode);

#endif
