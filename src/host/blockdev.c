// SPDX-License-Identifier: GPL-2.0
/*
 * host/blockdev.c - the block device under a file, see host/blockdev.h.
 */
#include "host/blockdev.h"
#include "lib/fileio.h"
#include "lib/rootdir.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* fields of /sys/block/X/stat, Documentation/block/stat.rst */
enum {
	STAT_READ_IOS,
	STAT_READ_MERGES,
	STAT_READ_SECTORS,
	STAT_READ_TICKS,
	STAT_WRITE_IOS,
	STAT_WRITE_MERGES,
	STAT_WRITE_SECTORS,
	STAT_WRITE_TICKS,
	STAT_IN_FLIGHT,
	STAT_MIN_FIELDS = 11,
	STAT_MAX_KNOWN = 17,
};

const char *blockdev_sysfs_root(void)
{
	static char root[PATH_MAX];

	if (host_path("/sys", root, sizeof(root)))
		return "/sys";
	return root;
}

/* Copy src into dst[len]; -ENAMETOOLONG if it does not fit. */
static int copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

int blockdev_from_dev(const char *sysfs, dev_t dev, struct blockdev *bd)
{
	char link[PATH_MAX], real[PATH_MAX], probe[PATH_MAX];
	struct blockdev tmp;
	struct stat st;
	char *slash;
	int n, ret;

	if (!bd)
		return -EINVAL;
	if (!sysfs)
		sysfs = blockdev_sysfs_root();
	memset(&tmp, 0, sizeof(tmp));
	tmp.major = major(dev);
	tmp.minor = minor(dev);

	n = snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs,
		     tmp.major, tmp.minor);
	if (n < 0 || (size_t)n >= sizeof(link))
		return -ENAMETOOLONG;
	if (!realpath(link, real))
		return errno == ENOENT || errno == ENOTDIR ? -ENODEV : -errno;
	if (stat(real, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENODEV;

	n = snprintf(probe, sizeof(probe), "%s/partition", real);
	if (n < 0 || (size_t)n >= sizeof(probe))
		return -ENAMETOOLONG;
	if (access(probe, F_OK) == 0) {
		tmp.is_partition = true;
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			return -ENODEV;
		*slash = '\0';
	} else if (errno != ENOENT) {
		return -errno;
	}

	slash = strrchr(real, '/');
	if (!slash || !slash[1])
		return -ENODEV;
	ret = copy_str(tmp.name, sizeof(tmp.name), slash + 1);
	if (!ret)
		ret = copy_str(tmp.sysdir, sizeof(tmp.sysdir), real);
	if (ret)
		return ret;
	*bd = tmp;
	return 0;
}


/*
 * Parse whitespace separated decimal numbers from s into v[max]; numbers
 * past max are checked but not stored. Returns how many there were, or
 * -EBADMSG.
 */
static int parse_u64_list(const char *s, uint64_t *v, int max)
{
	unsigned long long x;
	char *end;
	int n = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (!isdigit((unsigned char)*s))
			return -EBADMSG;
		errno = 0;
		x = strtoull(s, &end, 10);
		if (errno || (*end && !isspace((unsigned char)*end)))
			return -EBADMSG;
		if (n == INT_MAX)
			return -EBADMSG;
		if (n < max)
			v[n] = x;
		n++;
		s = end;
	}
}

static int sysdir_path(char *buf, size_t len, const struct blockdev *bd,
		       const char *sub, const char *name)
{
	int n;

	n = snprintf(buf, len, "%s/%s%s", bd->sysdir, sub, name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int blockdev_read_stat(const struct blockdev *bd, struct blockdev_stat *st)
{
	char path[PATH_MAX], buf[1024];
	uint64_t v[STAT_MAX_KNOWN];
	int ret, n;

	if (!bd || !st || !bd->sysdir[0])
		return -EINVAL;
	ret = sysdir_path(path, sizeof(path), bd, "", "stat");
	if (ret)
		return ret;
	ret = read_small_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	n = parse_u64_list(buf, v, STAT_MAX_KNOWN);
	if (n < 0)
		return n;
	/* 11 (up to 4.18), 15 (+discard), 17 (+flush) or newer, longer */
	if (n != 11 && n != 15 && n < 17)
		return -EBADMSG;

	st->read_ios = v[STAT_READ_IOS];
	st->read_merges = v[STAT_READ_MERGES];
	st->read_sectors = v[STAT_READ_SECTORS];
	st->read_ticks_ms = v[STAT_READ_TICKS];
	st->write_ios = v[STAT_WRITE_IOS];
	st->write_sectors = v[STAT_WRITE_SECTORS];
	st->in_flight = v[STAT_IN_FLIGHT];
	return 0;
}

/* a single path component: not empty, no '/', not "." or ".." */
static bool valid_attr(const char *s)
{
	return s && s[0] && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..");
}

static int queue_path(char *buf, size_t len, const struct blockdev *bd,
		      const char *attr)
{
	if (!bd || !bd->sysdir[0] || !valid_attr(attr))
		return -EINVAL;
	return sysdir_path(buf, len, bd, "queue/", attr);
}

int blockdev_queue_get(const struct blockdev *bd, const char *attr,
		       uint64_t *val)
{
	char path[PATH_MAX], buf[64];
	uint64_t v;
	int ret;

	if (!val)
		return -EINVAL;
	ret = queue_path(path, sizeof(path), bd, attr);
	if (ret)
		return ret;
	ret = read_small_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	ret = parse_u64_list(buf, &v, 1);
	if (ret < 0)
		return ret;
	if (ret != 1)
		return -EBADMSG;
	*val = v;
	return 0;
}

int blockdev_queue_set(const struct blockdev *bd, const char *attr,
		       uint64_t val)
{
	char path[PATH_MAX], buf[32];
	ssize_t n;
	int fd, len, ret = 0;

	ret = queue_path(path, sizeof(path), bd, attr);
	if (ret)
		return ret;
	len = snprintf(buf, sizeof(buf), "%" PRIu64 "\n", val);

	/* O_TRUNC as a shell redirect does; plain files (tests) need it */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = write(fd, buf, (size_t)len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if (n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
