// SPDX-License-Identifier: GPL-2.0
#include "host/mountinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rootdir.h"

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Is @mnt a path prefix of @path ("/" of everything, "/a" of "/a/b")? */
static size_t prefix_len(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	if (strncmp(mnt, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

int mount_of_path(const char *path, struct mount_of *m)
{
	char file[PATH_MAX], real[PATH_MAX], line[4096];
	size_t best = 0;
	FILE *f;

	if (!realpath(path, real))
		return -errno;
	if (host_path("/proc/self/mountinfo", file, sizeof(file)))
		return -ENAMETOOLONG;
	f = fopen(file, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], fstype[64], source[512];
		unsigned int maj, min;
		char *sep = strstr(line, " - ");
		size_t n;

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - TYPE SOURCE SUPER */
		if (!sep || sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mnt) != 3 ||
		    sscanf(sep + 3, "%63s %511s", fstype, source) != 2)
			continue;
		unescape(mnt);
		n = prefix_len(mnt, real);
		if (n < best || !n)
			continue;
		best = n;	/* a later mount over the same point wins */
		m->major = maj;
		m->minor = min;
		unescape(source);
		snprintf(m->source, sizeof(m->source), "%s", source);
		snprintf(m->fstype, sizeof(m->fstype), "%s", fstype);
	}
	fclose(f);
	return best ? 0 : -ENOENT;
}
