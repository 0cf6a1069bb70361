// SPDX-License-Identifier: GPL-2.0
/*
 * lib/env and host_path(): the one reader of the environment gives a
 * variable's value (NULL when unset or empty), its name both ways, and
 * moves the kernel's trees (/proc/sys, /proc, /sys, ...) to a test's copy,
 * the longest prefix deciding; docs/environment.md lists every variable,
 * and no other .c file of src/ calls getenv().
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/env.h"
#include "lib/rootdir.h"
#include "tap.h"

static void clear_all(void)
{
	for (int v = 0; v < ENV_NR; v++)
		unsetenv(env_name((enum env_var)v));
}

static void test_get(void)
{
	clear_all();
	ok(env_get(ENV_STATE_DIR) == NULL, "env_get: unset is NULL");
	setenv("RAFLEET_STATE_DIR", "", 1);
	ok(env_get(ENV_STATE_DIR) == NULL, "env_get: empty is NULL, as unset");
	setenv("RAFLEET_STATE_DIR", "/tmp/x", 1);
	is_str(env_get(ENV_STATE_DIR), "/tmp/x", "env_get: the value, read each time");
	unsetenv("RAFLEET_STATE_DIR");
	ok(env_get(ENV_NR) == NULL && !strcmp(env_name(ENV_NR), ""),
	   "env_get/env_name: out of range is NULL / \"\"");
}

static void test_names(void)
{
	int bad = 0;

	for (int v = 0; v < ENV_NR; v++) {
		const char *n = env_name((enum env_var)v);

		if (!n || strncmp(n, "RAFLEET_", 8) || env_find(n) != v) {
			diag("variable %d: name '%s', found as %d", v, n ? n : "(null)",
			     n ? env_find(n) : -2);
			bad++;
		}
	}
	ok(!bad, "env_name: each of the %d variables named RAFLEET_*, and found back", ENV_NR);
	ok(env_find("RAFLEET_NO_SUCH") == -1 && env_find("HOME") == -1,
	   "env_find: a name not in the table is -1");
}

static void is_path(const char *in, const char *want, const char *name)
{
	char out[PATH_MAX];
	int err = host_path(in, out, sizeof(out));

	if (err)
		snprintf(out, sizeof(out), "error %d", err);
	is_str(out, want, name);
}

static void test_host_path(void)
{
	char out[8];

	clear_all();
	is_path("/proc/sys/vm/x", "/proc/sys/vm/x", "host_path: nothing set, the host's own");
	is_path("/etc/fstab", "/etc/fstab", "host_path: a path of no tree is copied");
	setenv("RAFLEET_PROC", "/t/proc", 1);
	is_path("/proc/cmdline", "/t/proc/cmdline", "host_path: $RAFLEET_PROC moves /proc/...");
	is_path("/proc", "/t/proc", "  /proc itself");
	is_path("/procx/a", "/procx/a", "  but not /procx (a prefix ends at a '/')");
	is_path("/proc/sys/vm/x", "/proc/sys/vm/x",
		"  nor /proc/sys: the longest prefix decides, and its variable is unset");
	is_path("/proc/self/mountinfo", "/proc/self/mountinfo", "  nor /proc/self/mountinfo");
	setenv("RAFLEET_PROCSYS", "/t/sys", 1);
	is_path("/proc/sys/vm/x", "/t/sys/vm/x", "host_path: $RAFLEET_PROCSYS moves /proc/sys");
	setenv("RAFLEET_MOUNTINFO", "/t/mi", 1);
	is_path("/proc/self/mountinfo", "/t/mi", "host_path: $RAFLEET_MOUNTINFO names the file");
	setenv("RAFLEET_SYSFS", "/t/sysfs", 1);
	is_path("/sys/dev/block/8:0", "/t/sysfs/dev/block/8:0", "host_path: $RAFLEET_SYSFS moves /sys");
	is_path("/sys/kernel/tracing", "/sys/kernel/tracing",
		"  not tracefs: that is $RAFLEET_TRACEFS's, unset");
	setenv("RAFLEET_TRACEFS", "/t/tr", 1);
	is_path("/sys/kernel/tracing/events", "/t/tr/events", "host_path: $RAFLEET_TRACEFS moves tracefs");
	setenv("RAFLEET_KMSG", "/t/kmsg", 1);
	is_path("/dev/kmsg", "/t/kmsg", "host_path: $RAFLEET_KMSG names the file");
	is_path("/dev/null", "/dev/null", "  other /dev files are the host's");
	setenv("RAFLEET_PROCSYS", "", 1);
	is_path("/proc/sys/vm/x", "/proc/sys/vm/x", "host_path: an empty variable is unset");
	ok(host_path("/proc/sys/vm/x", out, sizeof(out)) == -ENAMETOOLONG,
	   "host_path: -ENAMETOOLONG when it does not fit");
	clear_all();
}

/* Every variable has its line "| `RAFLEET_X` |" in docs/environment.md. */
static void test_documented(void)
{
	FILE *f = fopen("docs/environment.md", "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int missing = 0;

	ok(f != NULL, "docs/environment.md is there (run from the top of the tree)");
	if (!f)
		return;
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	for (int v = 0; n > 0 && v < ENV_NR; v++) {
		char want[64];

		snprintf(want, sizeof(want), "| `%s` |", env_name((enum env_var)v));
		if (!strstr(text, want)) {
			diag("docs/environment.md has no row %s", want);
			missing++;
		}
	}
	ok(n > 0 && !missing, "docs/environment.md: a row for each of the %d variables (%d missing)",
	   ENV_NR, missing);
	free(text);
}

static int readers;

static int scan(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);
	char *text = NULL;
	size_t cap = 0;
	FILE *f;

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 2 || strcmp(path + n - 2, ".c") ||
	    !strcmp(path, "src/lib/env.c"))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (getdelim(&text, &cap, '\0', f) > 0 && strstr(text, "getenv(")) {
		diag("%s calls getenv(): ask lib/env.h instead", path);
		readers++;
	}
	free(text);
	fclose(f);
	return 0;
}

static void test_one_reader(void)
{
	int err = nftw("src", scan, 16, FTW_PHYS);

	ok(!err && !readers, "src/lib/env.c is the one .c file of src/ that calls getenv() (%d others)",
	   readers);
}

int main(void)
{
	test_get();
	test_names();
	test_host_path();
	test_documented();
	test_one_reader();
	return tap_done();
}
