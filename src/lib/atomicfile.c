// SPDX-License-Identifier: GPL-2.0
/* Write a file to a temporary name, fsync, rename, fsync the directory. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/fileio.h"

int fsync_dir_of(const char *path)
{
	char copy[PATH_MAX];
	int fd, err = 0;

	if ((size_t)snprintf(copy, sizeof(copy), "%s", path) >= sizeof(copy))
		return -ENAMETOOLONG;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

int atomic_write_fd(const char *path, mode_t mode,
		    int (*fill)(int fd, const void *arg), const void *arg)
{
	char tmp[PATH_MAX];
	int fd, err;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	err = fill(fd, arg);
	if (!err && fchmod(fd, mode))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	return fsync_dir_of(path);
}

struct bytes {
	const char *p;
	size_t len;
};

static int write_bytes(int fd, const void *arg)
{
	const struct bytes *b = arg;

	return write_full(fd, b->p, b->len);
}

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	struct bytes b = { data, len };

	return atomic_write_fd(path, mode, write_bytes, &b);
}

int atomic_write_stream(const char *path, mode_t mode,
			int (*fill)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -errno;
	err = fill(f, arg);
	if (fclose(f) && !err)
		err = -EIO;
	if (!err)
		err = atomic_write_file(path, buf, len, mode);
	free(buf);
	return err;
}
