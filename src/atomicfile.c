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

#include "atomicfile.h"

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

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	const char *p = data;
	int fd, err = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	while (len && !err) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno != EINTR)
			err = -errno;
		else if (w > 0) {
			p += w;
			len -= (size_t)w;
		}
	}
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
