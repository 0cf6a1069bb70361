// SPDX-License-Identifier: GPL-2.0
#include "rolloutcmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "rollout_report.h"

void rolloutcmd_bad_option(const char *cmd, char **argv)
{
	if (!strncmp(argv[optind - 1], "--", 2))
		fprintf(stderr, "rafleet %s: unknown option or missing value '%s'\n",
			cmd, argv[optind - 1]);
	else
		fprintf(stderr, "rafleet %s: unknown option or missing value '-%c'\n",
			cmd, optopt);
}

int rolloutcmd_open(struct rollout **r, const char *who)
{
	return rollout_open(r, who) ? EXIT_FAILED : EXIT_OK;
}

int rolloutcmd_done(struct rollout *r, const char *action, int err, bool json,
		    const struct smoke_report *smoke)
{
	int rc = err ? EXIT_FAILED : EXIT_OK;

	if (rollout_report(stdout, rollout_state(r), action, !err, json, smoke)) {
		fprintf(stderr, "rafleet %s: cannot write the report\n", action);
		rc = EXIT_FAILED;
	}
	rollout_close(r);
	return rc;
}
