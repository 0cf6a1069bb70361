// SPDX-License-Identifier: GPL-2.0
#include "host/dropin.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/rootdir.h"
#include "lib/rfc3339.h"

int dropin_path(const struct feature *f, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/%s%s.conf", DROPIN_DIR, DROPIN_PREFIX,
			     f->name) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The drop-in's path under the root, its directory made if missing. */
static int real_path(const struct feature *f, char *out, size_t len, bool mkdirs)
{
	char rel[PATH_MAX], dir[PATH_MAX];
	int err = dropin_path(f, rel, sizeof(rel));

	if (!err && mkdirs) {
		err = root_path(rootdir_get(), "/etc", dir, sizeof(dir));
		if (!err && mkdir(dir, 0755) && errno != EEXIST)
			err = -errno;
		if (!err)
			err = root_path(rootdir_get(), DROPIN_DIR, dir, sizeof(dir));
		if (!err && mkdir(dir, 0755) && errno != EEXIST)
			err = -errno;
	}
	if (!err)
		err = root_path(rootdir_get(), rel, out, len);
	return err;
}

int dropin_write(const struct feature *f, int value, const char *who,
		 const char *reason)
{
	char path[PATH_MAX], now[32], why[256], *text;
	int err, n;

	err = real_path(f, path, sizeof(path), true);
	if (err)
		return err;
	/* one comment line, whatever the reason holds */
	snprintf(why, sizeof(why), "%s", reason);
	for (char *p = why; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	rfc3339_now(now, sizeof(now));
	n = asprintf(&text,
		     "# Written by %s (pid %ld) at %s.\n"
		     "# Why: %s\n"
		     "# vm.%s (seed %s) is %s at boot; this file sorts after\n"
		     "# /usr/lib/sysctl.d/50-rafleet.conf, so it wins.  Remove it (or run\n"
		     "# 'rafleet rollback --feature %s --undo') to go back to the default.\n"
		     "vm.%s = %d\n",
		     who, (long)getpid(), now, why, f->name, f->seed,
		     value ? "on" : "off", f->name, f->name, value);
	if (n < 0)
		return -ENOMEM;
	err = atomic_write_file(path, text, (size_t)n, 0644);
	free(text);
	return err;
}

int dropin_remove(const struct feature *f)
{
	char path[PATH_MAX];
	int err = real_path(f, path, sizeof(path), false);

	return err ? err : atomic_remove(path);
}
