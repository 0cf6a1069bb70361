/* SPDX-License-Identifier: GPL-2.0 */
/* Small files of procfs, sysfs and tracefs. */
#ifndef RAFLEET_FILEIO_H
#define RAFLEET_FILEIO_H

#include <stddef.h>

/*
 * Read all of the file at @path into @buf (@len bytes, at least 1) and
 * NUL-terminate it.  -EBADMSG if it does not fit or holds a NUL byte,
 * -errno if it cannot be read.
 */
int read_small_file(const char *path, char *buf, size_t len);

/* Write all @len bytes of @buf to @fd (restarting on EINTR).  0 or -errno. */
int write_full(int fd, const void *buf, size_t len);

#endif
