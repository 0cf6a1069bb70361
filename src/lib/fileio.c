// SPDX-License-Identifier: GPL-2.0
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* One read(2), retried on EINTR: the count, 0 at the end, or -errno. */
static ssize_t read_once(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int open_input(const char *path, int flags, struct stat *st)
{
	int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		err = -errno;
		goto fail;
	}
	if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode)) {
		err = -EINVAL;
		goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		err = -errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

FILE *fopen_input(const char *path, size_t max, int *err)
{
	struct stat st;
	FILE *f;
	int fd = open_input(path, O_RDONLY, &st);

	if (fd < 0) {
		*err = fd;
		return NULL;
	}
	*err = 0;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max)
		*err = -EFBIG;
	/* /dev/null reads as empty; another device (/dev/zero) never ends */
	else if (!S_ISREG(st.st_mode) && !(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)))
		*err = -EINVAL;
	if (*err) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "re");
	if (!f) {
		*err = -errno;
		close(fd);
	}
	return f;
}

int read_small_file(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;
	struct stat st;
	int fd, ret = 0;

	fd = open_input(path, O_RDONLY, &st);
	if (fd < 0)
		return fd;
	while ((n = read_once(fd, buf + used, len - 1 - used)) > 0) {
		used += (size_t)n;
		if (used == len - 1) {
			/* full: it fits only if nothing follows */
			char more;

			n = read_once(fd, &more, 1);
			if (n > 0)
				n = -EBADMSG;
			break;
		}
	}
	if (n < 0) {
		ret = (int)n;
		goto out;
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

int read_whole_fd(int fd, size_t max, char **out, size_t *lenp)
{
	size_t cap = 4096, used = 0;
	char *buf = NULL;
	int ret = 0;

	*out = NULL;
	for (;;) {
		ssize_t n;

		if (!buf || used == cap) {
			char *grown;

			if (buf)
				cap *= 2;
			if (cap > max + 1)
				cap = max + 1;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				ret = -ENOMEM;
				goto out;
			}
			buf = grown;
		}
		n = read_once(fd, buf + used, cap - used);
		if (n < 0) {
			ret = (int)n;
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > max) {
			ret = -EFBIG;
			goto out;
		}
	}
	if (memchr(buf, '\0', used)) {
		ret = -EBADMSG;
		goto out;
	}
	buf[used] = '\0';
	*out = buf;
	buf = NULL;
	if (lenp)
		*lenp = used;
out:
	free(buf);
	return ret;
}

int read_whole_file(const char *path, size_t max, char **out, size_t *lenp)
{
	struct stat st;
	int fd = open_input(path, O_RDONLY, &st), ret;

	*out = NULL;
	if (fd < 0)
		return fd;
	ret = read_whole_fd(fd, max, out, lenp);
	close(fd);
	return ret;
}

size_t page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (size_t)n : 4096;
}

int page_order(size_t bytes, size_t page)
{
	int o = 0;

	while (page && (page << o) < bytes)
		o++;
	return o;
}

size_t pages_in(size_t bytes, size_t page)
{
	return page && bytes > page ? bytes / page : 1;
}
