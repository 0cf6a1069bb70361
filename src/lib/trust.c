// SPDX-License-Identifier: GPL-2.0
/* What root may read, map or run: see lib/trust.h. */
#include "lib/trust.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
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

/* ---- trust_path(): a path walked by hand ---- */

#define TRUST_HOPS 40

struct walk {
	char done[PATH_MAX];	/* the real path walked so far, no symlink in it; "" is / */
	size_t jail;		/* strlen() of @root's real path: an absolute target starts there */
	int hops;
	bool isdir;		/* done is a directory */
	bool devnull;		/* it ended at a symlink to /dev/null */
	unsigned int flags;	/* TRUST_NO_STICKY: for what it ends at */
};

static const char *shown(const char *path)
{
	return path[0] ? path : "/";
}

/* Walk the names of @rest from w->done on, checking each. */
static int walk(struct walk *w, const char *rest, char *why, size_t len)
{
	char todo[PATH_MAX], cand[PATH_MAX + NAME_MAX + 2], target[PATH_MAX];
	const char *p;

	if ((size_t)snprintf(todo, sizeof(todo), "%s", rest) >= sizeof(todo))
		goto too_long;
	p = todo;
	for (;;) {
		struct stat st;
		size_t n;
		ssize_t t;

		while (*p == '/')
			p++;
		if (!*p)
			return 0;
		n = strcspn(p, "/");
		if (n > NAME_MAX)
			goto too_long;
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (!w->isdir) {
			snprintf(why, len, "%s: not a directory", shown(w->done));
			return -ENOTDIR;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(w->done, '/');
			size_t at = slash ? (size_t)(slash - w->done) : 0;

			w->done[at < w->jail ? w->jail : at] = '\0';	/* not above @root */
			p += n;
			continue;
		}
		if ((size_t)snprintf(cand, sizeof(cand), "%s/%.*s", w->done, (int)n, p) >= PATH_MAX)
			goto too_long;
		p += n;
		if (lstat(cand, &st)) {
			int err = -errno;

			snprintf(why, len, "%s: %s", cand, strerror(-err));
			memcpy(w->done, cand, strlen(cand) + 1);
			return err;
		}
		if (S_ISLNK(st.st_mode)) {
			if (!owner_ok(st.st_uid)) {
				snprintf(why, len, "%s: a symlink owned by uid %u: only root's symlinks are followed",
					 cand, (unsigned int)st.st_uid);
				return -EPERM;
			}
			if (++w->hops > TRUST_HOPS) {
				snprintf(why, len, "%s: more than %d symlinks", cand, TRUST_HOPS);
				return -ELOOP;
			}
			t = readlink(cand, target, sizeof(target) - 1);
			if (t < 0) {
				int err = -errno;

				snprintf(why, len, "%s: %s", cand, strerror(-err));
				return err;
			}
			target[t] = '\0';
			if (!strcmp(target, "/dev/null") && !p[strspn(p, "/")]) {
				w->devnull = true;	/* a mask: the host's own /dev/null */
				return 0;
			}
			/* the target, then what was left after the link */
			if ((size_t)snprintf(cand, sizeof(cand), "%s%s", target, p) >= sizeof(todo))
				goto too_long;
			memcpy(todo, cand, strlen(cand) + 1);
			p = todo;
			if (target[0] == '/')
				w->done[w->jail] = '\0';
			w->isdir = true;	/* done is a directory walked before */
			continue;
		}
		if (!S_ISDIR(st.st_mode) && trust_stat(&st)) {
			say(cand, &st, "file", why, len);
			return -EPERM;
		}
		if (S_ISDIR(st.st_mode) && (w->flags & TRUST_NO_STICKY) && !p[strspn(p, "/")] &&
		    (!owner_ok(st.st_uid) || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
			say(cand, &st, "directory (not even a sticky one)", why, len);
			return -EPERM;
		}
		if (S_ISDIR(st.st_mode) && trust_stat(&st)) {
			say(cand, &st, "directory (or a sticky one)", why, len);
			return -EPERM;
		}
		memcpy(w->done, cand, strlen(cand) + 1);
		w->isdir = S_ISDIR(st.st_mode);
	}
too_long:
	snprintf(why, len, "%.64s...: %s", rest, strerror(ENAMETOOLONG));
	return -ENAMETOOLONG;
}

int trust_path(const char *root, const char *path, unsigned int flags, char *out,
	       size_t outlen, char *why, size_t len)
{
	struct walk w = { .isdir = true };
	struct stat st;
	int err;

	if (root[0] != '/' || path[0] != '/') {
		snprintf(why, len, "%s: not an absolute path", root[0] != '/' ? root : path);
		return -EINVAL;
	}
	if (lstat("/", &st)) {
		err = -errno;
		snprintf(why, len, "/: %s", strerror(-err));
		return err;
	}
	if (trust_stat(&st)) {
		say("/", &st, "directory (or a sticky one)", why, len);
		return -EPERM;
	}
	err = walk(&w, root, why, len);	/* @root itself, as this host has it */
	if (!err && w.devnull) {
		snprintf(why, len, "%s: a symlink to /dev/null, not a directory", root);
		err = -ENOTDIR;
	}
	if (!err && !w.isdir) {
		snprintf(why, len, "%s: not a directory", root);
		err = -ENOTDIR;
	}
	w.jail = strlen(w.done);
	w.flags = flags;
	if (!err)
		err = walk(&w, path, why, len);
	if ((size_t)snprintf(out, outlen, "%s", w.devnull ? "/dev/null" : shown(w.done)) >= outlen &&
	    !err) {
		snprintf(why, len, "%.64s...: %s", w.done, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	if (err || w.devnull)
		return err;
	if (lstat(out, &st)) {
		err = -errno;
		snprintf(why, len, "%s: %s", out, strerror(-err));
		return err;
	}
	if ((flags & TRUST_NO_STICKY) && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		say(out, &st, "directory (not even a sticky one)", why, len);
		return -EPERM;
	}
	return 0;
}
