/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How `rafleet canary` ends, apart from its measuring, so that a unit
 * test can hold a verdict up to it (tests/unit/cmd/test_canary_act.c):
 * what the verdict proposes, and, with --act, doing it.
 */
#ifndef RAFLEET_CMD_CANARY_H
#define RAFLEET_CMD_CANARY_H

#include "canary/canary.h"
#include "canary/report.h"
#include "rollout/core.h"

/*
 * The decision on @r into @d: "keep" for a PASS, "turn-off" for a
 * REGRESS that is corroborated and not an A/A trial, else "none";
 * d->why says why in a sentence.
 */
void canary_decide(const struct canary_opts *o, const struct canary_result *r,
		   struct canary_decision *d);

/*
 * --act: a "turn-off" turns the feature off now and at boot, in its own
 * sysctl.d drop-in (rollout_feature_off(), the report @evidence as the
 * decision's evidence) and sets d->acted; any other decision is a
 * history entry only.  0, or -errno (a failed turn-off said on stderr).
 */
int canary_act(struct rollout *ro, const struct canary_opts *o,
	       const struct canary_result *r, struct canary_decision *d,
	       const char *evidence);

#endif
