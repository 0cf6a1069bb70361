// SPDX-License-Identifier: GPL-2.0
/* What root may read, map or run: see lib/trust.h. */
#include "lib/trust.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

int trust_stat(const struct stat *st)
{
	if (!owner_ok(st->st_uid))
		return -EPERM;
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	return S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) ? 0 : -EPERM;
}

static void say(const char *path, const struct stat *st, const char *what,
		char *why, size_t len)
{
	snprintf(why, len, "%s: %s owned by uid %u, mode %04o: only a %s of root's that no other user can write is used",
		 path, S_ISDIR(st->st_mode) ? "a directory" : "a file",
		 (unsigned int)st->st_uid, (unsigned int)(st->st_mode & 07777), what);
}

int trust_dir(const char *dir, char *why, size_t len)
{
	struct stat st;

	if (stat(dir, &st)) {
		int err = -errno;

		snprintf(why, len, "%s: %s", dir, strerror(-err));
		return err;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s: not a directory", dir);
		return -ENOTDIR;
	}
	if (trust_stat(&st)) {
		say(dir, &st, "directory (or a sticky one)", why, len);
		return -EPERM;
	}
	return 0;
}

int trust_dir_of(const char *path, char *why, size_t len)
{
	char copy[PATH_MAX];

	if ((size_t)snprintf(copy, sizeof(copy), "%s", path) >= sizeof(copy))
		return -ENAMETOOLONG;
	return trust_dir(dirname(copy), why, len);
}

int trust_open(const char *path, int flags, char *why, size_t len)
{
	struct stat st;
	int fd, err;

	if (flags & O_CREAT)
		return -EINVAL;
	err = trust_dir_of(path, why, len);
	if (err)
		return err;
	fd = open_input(path, flags | O_NOFOLLOW, &st);
	if (fd < 0) {
		snprintf(why, len, "%s: %s", path, fd == -ELOOP ? "a symlink: not followed" :
			 fd == -EINVAL ? "not a regular file" : strerror(-fd));
		return fd;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s: not a regular file", path);
		err = -EINVAL;
		goto fail;
	}
	if (trust_stat(&st)) {
		say(path, &st, "file", why, len);
		err = -EPERM;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}
