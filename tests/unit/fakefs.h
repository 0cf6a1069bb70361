/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakefs.h - fake sysfs/tracefs/procfs trees for the unit tests: files
 * written under a temporary directory, directories made on the way.
 */
#ifndef RAFLEET_FAKEFS_H
#define RAFLEET_FAKEFS_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int fakefs_rm_entry_(const char *path, const struct stat *st,
				   int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* Remove @path and everything below it. */
static inline int fakefs_rm_tree(const char *path)
{
	return nftw(path, fakefs_rm_entry_, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p @path */
static inline int fakefs_mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * @dir/@rel into @path, its parent directories made: where fakefs_put()
 * and fakefs_symlink() write.
 */
static inline int fakefs_prepare_(const char *dir, const char *rel,
				  char path[PATH_MAX])
{
	char *slash;
	int ret;

	if ((size_t)snprintf(path, PATH_MAX, "%s/%s", dir, rel) >= PATH_MAX)
		return -ENAMETOOLONG;
	slash = strrchr(path, '/');
	*slash = '\0';
	ret = fakefs_mkdir_p(path);
	*slash = '/';
	return ret;
}

/* Write @content to @dir/@rel, creating directories on the way. */
static inline int fakefs_put(const char *dir, const char *rel,
			     const char *content)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = fakefs_prepare_(dir, rel, path);

	if (ret)
		return ret;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(content, f);
	return fclose(f) ? -EIO : 0;
}

/* Make @dir/@rel a symlink to @target, creating directories on the way. */
static inline int fakefs_symlink(const char *dir, const char *rel,
				 const char *target)
{
	char path[PATH_MAX];
	int ret = fakefs_prepare_(dir, rel, path);

	if (ret)
		return ret;
	return symlink(target, path) ? -errno : 0;
}

#endif
