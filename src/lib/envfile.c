// SPDX-License-Identifier: GPL-2.0
#include "lib/envfile.h"
#include "lib/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rootdir.h"

static bool valid_name(const char *p, size_t n)
{
	if (!n || isdigit((unsigned char)p[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '_')
			return false;
	return true;
}

int envfile_read(const char *path, envfile_fn fn, void *ctx, int *found,
		 char *why, size_t len)
{
	char full[PATH_MAX], *line = NULL, msg[512];
	size_t cap = 0;
	unsigned int nr = 0;
	int err = 0;
	FILE *f;

	if (found)
		*found = 0;
	if (root_path(rootdir_get(), path, full, sizeof(full)))
		return -ENAMETOOLONG;
	f = fopen_input(full, ENVFILE_MAX_BYTES, &err);
	if (!f) {
		if (err == -ENOENT)
			return 0;
		snprintf(why, len, "%s: %s", path, err == -EINVAL ? "not a regular file" :
			 err == -EFBIG ? "larger than " ENVFILE_MAX_TEXT : strerror(-err));
		return err;
	}
	if (found)
		*found = 1;
	while (!err && getline(&line, &cap, f) >= 0) {
		char *p = line + strspn(line, " \t"), *eq;

		nr++;
		p[strcspn(p, "\r\n")] = '\0';
		if (!*p || *p == '#')
			continue;
		eq = strchr(p, '=');
		if (!eq || !valid_name(p, (size_t)(eq - p))) {
			snprintf(why, len, "%s:%u: not NAME=value: %.200s", path, nr, p);
			err = -EINVAL;
			break;
		}
		*eq = '\0';
		msg[0] = '\0';
		err = fn(p, eq + 1, ctx, msg, sizeof(msg));
		if (err)
			snprintf(why, len, "%s:%u: %s", path, nr, msg[0] ? msg : strerror(-err));
	}
	if (!err && ferror(f)) {
		snprintf(why, len, "%s: cannot read it", path);
		err = -EIO;
	}
	free(line);
	fclose(f);
	return err;
}
