/* SPDX-License-Identifier: GPL-2.0 */
/* Reading whole files: the small ones of procfs, sysfs and tracefs, and the state's. */
#ifndef RAFLEET_FILEIO_H
#define RAFLEET_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/*
 * Read all of the file at @path into @buf (@len bytes, at least 1) and
 * NUL-terminate it.  -EBADMSG if it does not fit or holds a NUL byte,
 * -EINVAL if a FIFO or socket stands in its place (never waited on),
 * -errno if it cannot be read.
 */
int read_small_file(const char *path, char *buf, size_t len);

/*
 * Read all of the file at @path, at most @max bytes, into a new
 * NUL-terminated buffer *@out (free() it) of *@lenp bytes (@lenp may be
 * NULL).  -EFBIG if it is bigger, -EBADMSG if it holds a NUL byte, -ENOMEM,
 * -EINVAL for a FIFO or socket (not waited on), or -errno if it cannot be
 * read; *@out is NULL on error.
 */
int read_whole_file(const char *path, size_t max, char **out, size_t *lenp);

/*
 * open(@path, @flags) that never blocks on a FIFO or socket in a file's
 * place: those are refused (-EINVAL); the descriptor, blocking again, with
 * its fstat() in *@st, or -errno.
 */
struct stat;
int open_input(const char *path, int flags, struct stat *st);

/*
 * A configuration file to read line by line: NULL with *@err -ENOENT and
 * the like, -EINVAL for a FIFO, socket or device in its place (but
 * /dev/null, which reads as empty; never waited on), -EFBIG for a file
 * of more than @max bytes.
 */
FILE *fopen_input(const char *path, size_t max, int *err);

/* The same, of open @fd from where it is to its end (not closed). */
int read_whole_fd(int fd, size_t max, char **out, size_t *lenp);

/* Write all @len bytes of @buf to @fd (restarting on EINTR).  0 or -errno. */
int write_full(int fd, const void *buf, size_t len);

/*
 * The base page size: what mincore() reports per byte and a mapping
 * faults in (4 KiB on x86-64; 4 or 64 KiB on arm64, by the kernel's
 * config, never known at build time).
 */
size_t page_size(void);

/* The folio order of @bytes in pages of @page bytes (rounded up): 2 MiB
 * is order 9 on 4K pages and order 5 on 64K; 0 for a page or less. */
int page_order(size_t bytes, size_t page);

/* The pages of @page bytes in @bytes (both powers of two), at least one:
 * for sizes stated in bytes, since 1024 pages are 4 MiB on x86-64 and
 * 64 MiB on an arm64 kernel with 64K pages. */
size_t pages_in(size_t bytes, size_t page);

#endif
