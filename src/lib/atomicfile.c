// SPDX-License-Identifier: GPL-2.0
/* Write a file to a temporary name, fsync, rename, fsync the directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/failpoint.h"
#include "lib/fileio.h"

int fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

int fsync_dir_of(const char *path)
{
	char copy[PATH_MAX];

	if ((size_t)snprintf(copy, sizeof(copy), "%s", path) >= sizeof(copy))
		return -ENAMETOOLONG;
	return fsync_path(dirname(copy));
}

/* failpoint PREFIX.STEP, when the caller named a prefix */
static void step_failpoint(const char *prefix, const char *step)
{
	char name[128];

	if (prefix && (size_t)snprintf(name, sizeof(name), "%s.%s", prefix, step) < sizeof(name))
		failpoint(name);
}

/* @excl: link() the temporary file to @path (-EEXIST if there), not rename() it */
static int write_replace(const char *path, mode_t mode, const char *fp, bool excl,
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
	if (!err)
		step_failpoint(fp, "after-temp");
	if (!err && (excl ? link(tmp, path) : rename(tmp, path)))
		err = -errno;
	if (err || excl)
		unlink(tmp);	/* linked: @path holds it now */
	if (err)
		return err;
	step_failpoint(fp, "after-rename");
	return fsync_dir_of(path);
}

int atomic_write_fd(const char *path, mode_t mode,
		    int (*fill)(int fd, const void *arg), const void *arg)
{
	return write_replace(path, mode, NULL, false, fill, arg);
}

int atomic_remove(const char *path)
{
	if (unlink(path))
		return errno == ENOENT ? 0 : -errno;
	return fsync_dir_of(path);
}

int atomic_leftovers_remove(const char *path, const char *infix)
{
	char copy[PATH_MAX], prefix[NAME_MAX + 1], file[PATH_MAX];
	const char *dir, *base = strrchr(path, '/');
	struct dirent *d;
	size_t plen;
	DIR *dh;
	int n = 0;

	if ((size_t)snprintf(copy, sizeof(copy), "%s", path) >= sizeof(copy))
		return -ENAMETOOLONG;
	base = base ? base + 1 : path;
	if ((size_t)snprintf(prefix, sizeof(prefix), "%s%s", base, infix) >= sizeof(prefix))
		return -ENAMETOOLONG;
	plen = strlen(prefix);
	dir = dirname(copy);
	dh = opendir(dir);
	if (!dh)
		return errno == ENOENT ? 0 : -errno;
	while ((d = readdir(dh)))
		/* exactly the six characters mkstemp() put after the prefix */
		if (!strncmp(d->d_name, prefix, plen) && strlen(d->d_name + plen) == 6 &&
		    (size_t)snprintf(file, sizeof(file), "%s/%s", dir, d->d_name) < sizeof(file) &&
		    !unlink(file))
			n++;
	closedir(dh);
	return n;
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
	return atomic_write_file_fp(path, data, len, mode, NULL);
}

int atomic_write_file_fp(const char *path, const void *data, size_t len, mode_t mode,
			 const char *fp)
{
	struct bytes b = { data, len };

	return write_replace(path, mode, fp, false, write_bytes, &b);
}

static int write_stream(const char *path, mode_t mode, bool excl,
			int (*fill)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct bytes b;
	int err;

	if (!f)
		return -errno;
	err = fill(f, arg);
	if (fclose(f) && !err)
		err = -EIO;
	b.p = buf;
	b.len = len;
	if (!err)
		err = write_replace(path, mode, NULL, excl, write_bytes, &b);
	free(buf);
	return err;
}

int atomic_write_stream(const char *path, mode_t mode,
			int (*fill)(FILE *f, const void *arg), const void *arg)
{
	return write_stream(path, mode, false, fill, arg);
}

int atomic_create_stream(const char *path, mode_t mode,
			 int (*fill)(FILE *f, const void *arg), const void *arg)
{
	return write_stream(path, mode, true, fill, arg);
}
