// SPDX-License-Identifier: GPL-2.0
/* The state directory: $RAFLEET_STATE_DIR, or /var/lib/rafleet under the root. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/env.h"
#include "lib/rootdir.h"
#include "lib/statedir.h"

static int statedir_dir(char *out, size_t len)
{
	const char *env = env_get(ENV_STATE_DIR);

	if (env) {
		if ((size_t)snprintf(out, len, "%s", env) >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	return root_path(rootdir_get(), STATEDIR_DEFAULT, out, len);
}

int statedir_path(const char *name, char *out, size_t len)
{
	char dir[PATH_MAX];
	int err = statedir_dir(dir, sizeof(dir));

	if (err)
		return err;
	if (!*name)
		return (size_t)snprintf(out, len, "%s", dir) >= len ? -ENAMETOOLONG : 0;
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	if ((size_t)snprintf(out, len, "%s/%s", dir, name) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int statedir_ensure(void)
{
	char dir[PATH_MAX], *p;
	int err = statedir_dir(dir, sizeof(dir));

	if (err)
		return err;
	for (p = dir + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			break;
	}
	return 0;
}
