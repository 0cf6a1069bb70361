// SPDX-License-Identifier: GPL-2.0
/* rafleet recover: finish an interrupted action, record what this boot is. */
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "rolloutcmd.h"

static void recover_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet recover [--json]\n"
"\n"
"Take the lock and do only what every rollout command does first: finish an\n"
"action that a crash or kill interrupted (the state's pending intent; an\n"
"interrupted smoke run is dropped and the features put back), and record\n"
"what this boot says (a trial boot started, or one that ended, with or\n"
"without a verdict).  Then print the state.  'rafleet status' says beforehand what it\n"
"will do.\n"
"\n"
"options:\n"
"  -j, --json   JSON (schema rafleet-rollout/1) instead of a table\n"
"  -h, --help   this help\n"
"\n"
"exit status: 0 the state is consistent, 1 it could not be made so (or\n"
"another rafleet holds the lock), 2 bad arguments.  'man rafleet-rollback'.\n");
}

int cmd_recover(int argc, char **argv)
{
	bool json;
	struct rollout *r;
	int rc;

	rc = rolloutcmd_json_only("recover", argc, argv, recover_usage, &json);
	if (rc != ROLLOUTCMD_RUN)
		return rc;
	if (rolloutcmd_open(&r, "recover"))
		return EXIT_FAILED;
	return rolloutcmd_done(r, "recover", 0, json, NULL, NULL);
}
