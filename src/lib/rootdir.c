// SPDX-License-Identifier: GPL-2.0
#include "lib/rootdir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/env.h"

static const struct {
	const char *prefix;
	enum env_var var;
} trees[] = {
	{ "/proc/sys", ENV_PROCSYS },
	{ "/proc/self/mountinfo", ENV_MOUNTINFO },
	{ "/proc", ENV_PROC },
	{ "/sys/kernel/tracing", ENV_TRACEFS },
	{ "/sys", ENV_SYSFS },
	{ "/dev/kmsg", ENV_KMSG },
};

int host_path(const char *path, char *out, size_t len)
{
	const char *to = NULL;
	size_t best = 0;

	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		size_t n = strlen(trees[i].prefix);

		if (n <= best || strncmp(path, trees[i].prefix, n) ||
		    (path[n] && path[n] != '/'))
			continue;
		best = n;
		to = env_get(trees[i].var);
	}
	if (!to) {
		to = "";
		best = 0;
	}
	if ((size_t)snprintf(out, len, "%s%s", to, path + best) >= len)
		return -ENAMETOOLONG;
	return 0;
}

const char *rootdir_get(void)
{
	const char *root = env_get(ENV_ROOT);

	return root ? root : "/";
}

int root_path(const char *root, const char *path, char *out, size_t len)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n == 1 && root[0] == '/')
		n = 0;		/* "/" + "/etc": no double slash */
	if ((size_t)snprintf(out, len, "%.*s%s", (int)n, root, path) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int root_resolve(const char *root, const char *path, char *out, size_t len,
		 bool *devnull)
{
	char cur[PATH_MAX], target[PATH_MAX];
	int err;

	*devnull = false;
	if ((size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		return -ENAMETOOLONG;
	for (int hop = 0; hop < 8; hop++) {
		ssize_t n;

		if (!strcmp(cur, "/dev/null")) {
			*devnull = true;
			return root_path(root, cur, out, len);
		}
		err = root_path(root, cur, out, len);
		if (err)
			return err;
		n = readlink(out, target, sizeof(target) - 1);
		if (n < 0)
			return 0;	/* not a symlink, or missing: open it as it is */
		target[n] = '\0';
		if (target[0] == '/') {
			memcpy(cur, target, (size_t)n + 1);
		} else {
			/* relative to the link's directory, still under @root */
			char *slash = strrchr(cur, '/');
			size_t dir = (size_t)(slash - cur) + 1;

			if (dir + (size_t)n >= sizeof(cur))
				return -ENAMETOOLONG;
			memcpy(cur + dir, target, (size_t)n + 1);
		}
	}
	return 0;
}

DIR *root_opendir(const char *root, const char *dir, char *path, size_t len,
		  struct warnings *w)
{
	DIR *d;

	if (root_path(root, dir, path, len))
		return NULL;
	d = opendir(path);
	if (!d && errno != ENOENT && errno != ENOTDIR)
		warn_add(w, "%s: %s", dir, strerror(errno));
	return d;
}
