// SPDX-License-Identifier: GPL-2.0
#include "cmd/rollout_common.h"

#include <stdio.h>

#include "commands.h"
#include "rollout/report.h"

int rolloutcmd_open(struct rollout **r, const char *who)
{
	return rollout_open(r, who) ? EXIT_FAILED : EXIT_OK;
}

int rolloutcmd_done(struct rollout *r, const char *action, int err, bool json,
		    const struct smoke_report *smoke, const struct health_report *health)
{
	int rc = err ? EXIT_FAILED : EXIT_OK;

	if (rollout_report(stdout, rollout_state(r), action, !err, json, smoke, health)) {
		fprintf(stderr, "rafleet %s: cannot write the report\n", action);
		rc = EXIT_FAILED;
	}
	rollout_close(r);
	return rc;
}
