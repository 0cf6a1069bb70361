/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The canaries of `rafleet status`: for each feature, the latest report
 * `rafleet canary` kept in STATEDIR/canary/FEATURE-TIME.json (TIME as
 * 20261130T214501Z, UTC; docs/canary-json.md), read by lib/jsonread.h
 * tables.  Only what a fleet looks at is kept: verdict, pairs, decision, and each
 * workload's judged metric (wall time).  The latest report is the one
 * whose name has the latest TIME; one that cannot be used is a warning
 * and its feature has no canary (an older report is not taken instead:
 * its verdict would be shown as the current one).
 */
#ifndef RAFLEET_STATUS_CANARY_H
#define RAFLEET_STATUS_CANARY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "canary/canary.h"
#include "host/feature.h"
#include "lib/warnings.h"

#define STATUS_CANARY_DIR "canary"	/* in the state directory */
#define STATUS_CANARY_MAX_BYTES (4 << 20)

/* One workload's judged metric; NaN where the report has null. */
struct status_canary_workload {
	char scenario[64];
	double estimate, lo, hi;	/* changes: 0.05 is +5 % */
	double delta;			/* the allowed loss */
};

struct status_canary {
	const struct feature *f;
	char path[PATH_MAX];		/* the report */
	char time[32];			/* its TIME as RFC 3339: 2026-11-30T21:45:01Z */
	time_t when;			/* the same, seconds since the epoch */
	char verdict[16];		/* PASS, REGRESS or UNKNOWN */
	bool aa;			/* an A/A trial */
	unsigned int pairs;
	char action[16];		/* keep, turn-off or none */
	bool acted;
	int nr_workloads;
	struct status_canary_workload w[CANARY_MAX_WORKLOADS];
};

/*
 * Read the latest report of each feature in @dir into @out (up to
 * nr_features of them, in feature order; *@nr set).  A missing @dir is
 * no canaries; a directory or report that cannot be read or used is a
 * warning in @w.  0, or -ENOMEM.
 */
int status_canaries_load(const char *dir, struct status_canary *out, size_t *nr,
			 struct warnings *w);

/*
 * The report @path into @c (for feature @f).  0, -EBADMSG (@why says what
 * is wrong), -ENOMEM, or another -errno if it cannot be read.
 */
int status_canary_read(const char *path, const struct feature *f,
		       struct status_canary *c, char *why, size_t len);

#endif
