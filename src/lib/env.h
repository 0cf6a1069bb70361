/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every environment variable rafleet reads, in one table (lib/env.c) and
 * one list for people (docs/environment.md).  No other file calls getenv():
 * a path a test moves is asked of host_path() (lib/rootdir.h), a program a
 * test replaces of env_get(), and the shipped binary has no test branch of
 * its own beyond "is this variable set".
 */
#ifndef RAFLEET_ENV_H
#define RAFLEET_ENV_H

#include <stdbool.h>
#include <stddef.h>

enum env_var {
	/* where the host is: paths (tests, and an operator's mounted image) */
	ENV_ROOT,		/* RAFLEET_ROOT: /etc, /boot, ... under it */
	ENV_PROCSYS,		/* RAFLEET_PROCSYS: /proc/sys */
	ENV_PROC,		/* RAFLEET_PROC: /proc */
	ENV_MOUNTINFO,		/* RAFLEET_MOUNTINFO: /proc/self/mountinfo */
	ENV_SYSFS,		/* RAFLEET_SYSFS: /sys */
	ENV_TRACEFS,		/* RAFLEET_TRACEFS: /sys/kernel/tracing */
	ENV_KMSG,		/* RAFLEET_KMSG: /dev/kmsg */
	ENV_UNAME_R,		/* RAFLEET_UNAME_R: uname -r */
	/* programs run (tests) */
	ENV_GRUB_EDITENV,	/* RAFLEET_GRUB_EDITENV */
	ENV_KEXEC,		/* RAFLEET_KEXEC */
	ENV_SYSTEMCTL,		/* RAFLEET_SYSTEMCTL */
	ENV_CANARY,		/* RAFLEET_CANARY: the rafleet guard runs */
	ENV_BENCH,		/* RAFLEET_BENCH: the rafleet smoke runs */
	ENV_FIO_DIR,		/* RAFLEET_FIO_DIR: the fio job files */
	/* knobs (operators and tests) */
	ENV_STATE_DIR,		/* RAFLEET_STATE_DIR */
	ENV_LOCK_WAIT,		/* RAFLEET_LOCK_WAIT: seconds */
	ENV_CHECK_TIMEOUT,	/* RAFLEET_CHECK_TIMEOUT: health --check */
	ENV_JOURNAL,		/* RAFLEET_JOURNAL=stderr */
	ENV_FAILPOINT,		/* RAFLEET_FAILPOINT: NAME[:kill|:reset], or "list" */
	ENV_NR
};

/*
 * The variable's value, NULL when it is unset or empty (read each time),
 * or when it is a test-only variable and this is not a test build.
 */
const char *env_get(enum env_var v);

/* Is this binary a test build (make TEST_BUILD=1; lib/env.c)? */
bool env_test_build(void);

/* Is @v a test build's variable alone (the "tests" rows of docs/environment.md)? */
bool env_test_only(enum env_var v);

/*
 * 0, or -EPERM with @why naming the first test-only variable set while
 * this is not a test build: main() refuses to start then.
 */
int env_check(char *why, size_t len);

/* Its name, "RAFLEET_ROOT"; for messages. */
const char *env_name(enum env_var v);

/* The variable called @name, or -1: the documentation's test reads it. */
int env_find(const char *name);

#endif
