/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard/run_canary.h - the guard asks the canary: `rafleet canary FEATURE
 * --act --json` as a child process, its standard output kept for the
 * report.  $RAFLEET_CANARY names another program to run in rafleet's
 * place (tests); it gets the same arguments.  The guard holds no lock
 * while the child runs: the canary takes the host's lock itself.
 */
#ifndef RAFLEET_GUARD_CANARY_H
#define RAFLEET_GUARD_CANARY_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/exitcode.h"

#define GUARD_CANARY_MAX_OUTPUT (1 << 20)

struct canary_run {
	char program[256];	/* what was run */
	int err;		/* -errno if it could not be started */
	int status;		/* exit status, or -1 if killed */
	int signal;		/* the signal that killed it, or 0 */
	char *output;		/* its stdout, NUL-terminated (malloc) */
	size_t len;
	bool truncated;		/* more than GUARD_CANARY_MAX_OUTPUT bytes */
};

/* "PASS", "REGRESS", "UNKNOWN", "error", "usage" or "failed". */
const char *guard_canary_decision(const struct canary_run *r);

/* Run the canary of feature @name (the sysctl name without "vm."). */
void guard_canary_run(const char *name, struct canary_run *r);

void guard_canary_free(struct canary_run *r);

#endif /* RAFLEET_GUARD_CANARY_H */
