/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rollout state for people and machines: the table `rafleet status`
 * and the rollout commands print, and the JSON of stage, promote,
 * rollback, smoke and health (schema rafleet-rollout/1, docs/state-json.md).
 */
#ifndef RAFLEET_ROLLOUT_REPORT_H
#define RAFLEET_ROLLOUT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "rollout/health_run.h"
#include "rollout/smoke.h"
#include "rollout/state.h"

#define ROLLOUT_SCHEMA "rafleet-rollout/1"
#define ROLLOUT_REPORT_HISTORY 10	/* history entries shown */

/*
 * The state as a table: phase, kernels, pending action and @next (what
 * the next invocation will do; NULL if nothing), decisions, and the last
 * ROLLOUT_REPORT_HISTORY history entries.
 */
void rollout_state_table(FILE *f, const struct state *s, const char *next);

/* The smoke numbers: each scenario's medians and ratios. */
void smoke_report_table(FILE *f, const struct smoke_report *rep);

/*
 * What a rollout command prints: @action, whether it went through (@ok),
 * the state after it, and @smoke's numbers or @health's checks when
 * given.  0 or -EIO.
 */
int rollout_report(FILE *f, const struct state *s, const char *action, bool ok,
		   bool json, const struct smoke_report *smoke,
		   const struct health_report *health);

/* The health gate's checks: kind, name, verdict, time, what it said. */
void health_report_table(FILE *f, const struct health_report *rep);

#endif
