// SPDX-License-Identifier: GPL-2.0
/* rafleet recover: finish an interrupted action, record what this boot is. */
#include <getopt.h>
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
"what this boot says (a trial boot started, or one that did not happen or\n"
"ended).  Then print the state.  'rafleet status' says beforehand what it\n"
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
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool json = false;
	struct rollout *r;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h':
			recover_usage(stdout);
			return EXIT_OK;
		default:
			rolloutcmd_bad_option("recover", argv);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rafleet recover: takes no arguments, not '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (rolloutcmd_open(&r, "recover"))
		return EXIT_FAILED;
	return rolloutcmd_done(r, "recover", 0, json, NULL);
}
