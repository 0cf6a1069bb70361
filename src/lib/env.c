// SPDX-License-Identifier: GPL-2.0
/* The one reader of the environment: see lib/env.h, docs/environment.md. */
#include "lib/env.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The test build (make TEST_BUILD=1: lib/env.c compiled with
 * RAFLEET_TEST_BUILD, linked into the tests' OUT/rafleet, the unit tests
 * and the guest programs) obeys every variable; the shipped binary
 * (the packages' build) ignores those marked test, and refuses to start
 * while one is set (env_check()): a sudo rule with env_keep or an
 * Ansible environment: must not move /proc/sys, name the kexec root
 * runs, or reset the machine.
 */
#ifdef RAFLEET_TEST_BUILD
#define TEST_BUILD true
#else
#define TEST_BUILD false
#endif

static const struct {
	const char *name;
	bool test;	/* a test build's alone */
} vars[ENV_NR] = {
	[ENV_ROOT] = { "RAFLEET_ROOT", false },
	[ENV_PROCSYS] = { "RAFLEET_PROCSYS", true },
	[ENV_PROC] = { "RAFLEET_PROC", true },
	[ENV_MOUNTINFO] = { "RAFLEET_MOUNTINFO", true },
	[ENV_SYSFS] = { "RAFLEET_SYSFS", true },
	[ENV_TRACEFS] = { "RAFLEET_TRACEFS", true },
	[ENV_KMSG] = { "RAFLEET_KMSG", true },
	[ENV_UNAME_R] = { "RAFLEET_UNAME_R", true },
	[ENV_GRUB_EDITENV] = { "RAFLEET_GRUB_EDITENV", true },
	[ENV_KEXEC] = { "RAFLEET_KEXEC", true },
	[ENV_SYSTEMCTL] = { "RAFLEET_SYSTEMCTL", true },
	[ENV_CANARY] = { "RAFLEET_CANARY", true },
	[ENV_BENCH] = { "RAFLEET_BENCH", true },
	[ENV_FIO_DIR] = { "RAFLEET_FIO_DIR", false },
	[ENV_STATE_DIR] = { "RAFLEET_STATE_DIR", false },
	[ENV_LOCK_WAIT] = { "RAFLEET_LOCK_WAIT", false },
	[ENV_CHECK_TIMEOUT] = { "RAFLEET_CHECK_TIMEOUT", false },
	[ENV_JOURNAL] = { "RAFLEET_JOURNAL", false },
	[ENV_FAILPOINT] = { "RAFLEET_FAILPOINT", true },
};

static const char *raw(enum env_var v)
{
	const char *s = getenv(vars[v].name);

	return s && *s ? s : NULL;
}

bool env_test_build(void)
{
	return TEST_BUILD;
}

bool env_test_only(enum env_var v)
{
	return (unsigned int)v < ENV_NR && vars[v].test;
}

int env_check(char *why, size_t len)
{
	for (int v = 0; v < ENV_NR && !TEST_BUILD; v++) {
		if (vars[v].test && raw(v)) {
			snprintf(why, len, "%s is a test build's variable; this rafleet is not one (docs/environment.md): unset it",
				 vars[v].name);
			return -EPERM;
		}
	}
	return 0;
}

const char *env_name(enum env_var v)
{
	return (unsigned int)v < ENV_NR ? vars[v].name : "";
}

const char *env_get(enum env_var v)
{
	if ((unsigned int)v >= ENV_NR || (vars[v].test && !TEST_BUILD))
		return NULL;
	return raw(v);
}

int env_find(const char *name)
{
	for (int v = 0; v < ENV_NR; v++)
		if (!strcmp(vars[v].name, name))
			return v;
	return -1;
}
