// SPDX-License-Identifier: GPL-2.0
#include "cmd/rollout_common.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "rollout/report.h"

void rolloutcmd_bad_option(const char *cmd, char **argv)
{
	if (!strncmp(argv[optind - 1], "--", 2))
		fprintf(stderr, "rafleet %s: unknown option or missing value '%s'\n",
			cmd, argv[optind - 1]);
	else
		fprintf(stderr, "rafleet %s: unknown option or missing value '-%c'\n",
			cmd, optopt);
}

int rolloutcmd_no_args(const char *cmd, int argc, char **argv)
{
	if (optind < argc) {
		fprintf(stderr, "rafleet %s: takes no arguments, not '%s'\n", cmd, argv[optind]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int rolloutcmd_json_only(const char *cmd, int argc, char **argv,
			 void (*usage)(FILE *f), bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	*json = false;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': *json = true; break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			rolloutcmd_bad_option(cmd, argv);
			return EXIT_USAGE;
		}
	}
	if (rolloutcmd_no_args(cmd, argc, argv))
		return EXIT_USAGE;
	return ROLLOUTCMD_RUN;
}

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
