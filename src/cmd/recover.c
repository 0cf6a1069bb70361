// SPDX-License-Identifier: GPL-2.0
/* rafleet recover: finish an interrupted action, record what this boot is. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "host/journal.h"
#include "host/kexec.h"
#include "cmd/rollout_common.h"

static void recover_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet recover [--boot] [--json]\n"
"\n"
"Take the lock and do only what every rollout command does first: finish an\n"
"action that a crash or kill interrupted (the state's pending intent; an\n"
"interrupted smoke run is dropped and the features put back), and record\n"
"what this boot says (a trial boot started, or one that ended, with or\n"
"without a verdict).  Then print the state.  'rafleet status' says\n"
"beforehand what it will do.\n"
"\n"
"options:\n"
"  -b, --boot   as rafleet-recover.service runs it early in every boot that\n"
"               is no trial: when this boot runs a trial kernel that was\n"
"               never judged (a promote was cut short after it had moved\n"
"               the default entry, then the host reset) and recovery has put\n"
"               the previous default back, reboot into it\n"
"  -j, --json   JSON (schema rafleet-rollout/1) instead of a table\n"
"  -h, --help   this help\n"
"\n"
"exit status: 0 the state is consistent, 1 it could not be made so (or\n"
"another rafleet holds the lock, or the reboot failed), 2 bad arguments.\n"
"'man rafleet-recover'.\n");
}

int cmd_recover(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "boot", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool json = false, boot = false, reboot;
	char release[256], why[512] = "";
	const char *how = "";
	struct rollout *r;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "bjh", opts, NULL)) != -1) {
		switch (c) {
		case 'b': boot = true; break;
		case 'j': json = true; break;
		case 'h':
			recover_usage(stdout);
			return EXIT_OK;
		default:
			rolloutcmd_bad_option("recover", argv);
			return EXIT_USAGE;
		}
	}
	if (rolloutcmd_no_args("recover", argc, argv))
		return EXIT_USAGE;
	if (rolloutcmd_open(&r, "recover"))
		return EXIT_FAILED;
	reboot = boot && rollout_runs_unjudged(r);
	snprintf(release, sizeof(release), "%s", rollout_running(r)->release);
	rc = rolloutcmd_done(r, "recover", 0, json, NULL, NULL);
	if (!reboot)
		return rc;
	/* the lock is released: the next boot's rafleet takes it */
	journal_log(LOG_WARNING, "recover", &(struct journal_fields){ .kernel = release },
		    "this boot runs %s, which was never judged (its promote was cut short): rebooting into the default entry, the previous kernel",
		    release);
	if (host_reboot(&how, why, sizeof(why))) {
		fprintf(stderr, "rafleet recover: %s: %s\n", how, why);
		return EXIT_FAILED;
	}
	return rc;
}
