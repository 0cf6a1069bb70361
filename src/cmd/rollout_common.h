/* SPDX-License-Identifier: GPL-2.0 */
/* What the rollout commands (stage, promote, rollback, smoke) share; their
 * options are lib/options.h tables. */
#ifndef RAFLEET_ROLLOUTCMD_H
#define RAFLEET_ROLLOUTCMD_H

#include <stdbool.h>
#include <stdio.h>

#include "rollout/core.h"
#include "rollout/health.h"
#include "rollout/smoke.h"

/* rollout_open() for @who; EXIT_OK, or EXIT_FAILED (already said why). */
int rolloutcmd_open(struct rollout **r, const char *who);

/*
 * Report the outcome of @action (@err from it) as a table or JSON, close
 * the rollout, and return the exit status: EXIT_OK, or EXIT_FAILED.
 */
int rolloutcmd_done(struct rollout *r, const char *action, int err, bool json,
		    const struct smoke_report *smoke, const struct health_report *health);

#endif
