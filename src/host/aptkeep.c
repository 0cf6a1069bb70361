// SPDX-License-Identifier: GPL-2.0
#include "host/aptkeep.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/atomicfile.h"
#include "lib/fileio.h"
#include "lib/rootdir.h"

bool aptkeep_release_ok(const char *release)
{
	size_t n = release ? strlen(release) : 0;

	if (n == 0 || n > APTKEEP_RELEASE_MAX || release[0] == '-')
		return false;
	return strspn(release, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789._+~-") == n;
}

int aptkeep_format(char *out, size_t len, const char *release, const char *phase)
{
	char re[2 * APTKEEP_RELEASE_MAX + 1], *p = re;
	int n;

	if (!aptkeep_release_ok(release) || !phase || strpbrk(phase, "\n\"\\"))
		return -EINVAL;
	/* apt's patterns are extended regular expressions: '.' and '+' literal */
	for (const char *c = release; *c; c++) {
		if (*c == '.' || *c == '+')
			*p++ = '\\';
		*p++ = *c;
	}
	*p = '\0';
	n = snprintf(out, len,
		     "// Written by rafleet: %s is the previous kernel of the rollout in\n"
		     "// progress, the way back, and apt autoremove must not take it.\n"
		     "// /etc/kernel/prerm.d/rafleet refuses its removal by hand while\n"
		     "// this file names it.  rafleet removes the file when no rollout is\n"
		     "// in progress; after a promotion the kernel is kept until the next\n"
		     "// kernel is staged.\n"
		     "// release %s\n"
		     "// phase %s\n"
		     "APT::NeverAutoRemove\n"
		     "{\n"
		     "   \"^linux-.*-%s$\";\n"
		     "};\n",
		     release, release, phase, re);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENOSPC;
	return n;
}

int aptkeep_sync(const char *release, const char *phase)
{
	char dir[PATH_MAX], path[PATH_MAX], text[1024], cur[sizeof(text)];
	struct stat st;
	int n, err;

	err = root_path(rootdir_get(), AUTOREMOVE_DIR, dir, sizeof(dir));
	if (!err)
		err = root_path(rootdir_get(), AUTOREMOVE_FILE, path, sizeof(path));
	if (err)
		return err;
	if (stat(dir, &st))
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;	/* no apt */
	if (!S_ISDIR(st.st_mode))
		return 0;
	/*
	 * a crashed write's temporary file: apt would warn about its name on
	 * every run (the caller holds rafleet's lock: no writer beside us)
	 */
	atomic_leftovers_remove(path, ".tmp.");
	if (!release)
		return atomic_remove(path);
	n = aptkeep_format(text, sizeof(text), release, phase);
	if (n >= 0 && !read_small_file(path, cur, sizeof(cur)) && !strcmp(cur, text))
		return 0;	/* says so already */
	err = n < 0 ? n : atomic_write_file(path, text, (size_t)n, 0644);
	if (err)
		atomic_remove(path);
	return err;
}
