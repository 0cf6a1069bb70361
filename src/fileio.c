// SPDX-License-Identifier: GPL-2.0
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int read_small_file(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used == len - 1) {
			ret = -EBADMSG;		/* far bigger than expected */
			goto out;
		}
	}
	buf[used] = '\0';
	if (memchr(buf, '\0', used))
		ret = -EBADMSG;
out:
	close(fd);
	return ret;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno != EINTR)
			return -errno;
		if (w > 0) {
			p += w;
			len -= (size_t)w;
		}
	}
	return 0;
}
