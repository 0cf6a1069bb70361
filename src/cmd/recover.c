// SPDX-License-Identifier: GPL-2.0
/* rafleet recover: finish an interrupted action, record what this boot is. */
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "host/journal.h"
#include "host/kexec.h"
#include "cmd/rollout_common.h"
#include "lib/options.h"

static const struct options_help recover_help = {
	"usage: rafleet recover [--boot] [--json]\n"
	"\n"
	"Take the lock and do only what every rollout command does first: finish an\n"
	"action that a crash or kill interrupted (the state's pending intent; an\n"
	"interrupted smoke run is dropped and the features put back; the sysctls a\n"
	"killed canary, calibrate or bench --sysctl changed are put back), and record\n"
	"what this boot says (a trial boot started, or one that ended, with or\n"
	"without a verdict).  Then print the state.  'rafleet status' says\n"
	"beforehand what it will do.\n"
	"\n"
	"options:\n",
	15,
	"\n"
	"exit status: 0 the state is consistent, 1 it could not be made so (or\n"
	"another rafleet holds the lock, or the reboot failed), 2 bad arguments.\n"
	"'man rafleet-recover'.\n"
};

int cmd_recover(int argc, char **argv)
{
	bool json = false, boot = false, reboot;
	const struct option_spec spec[] = {
		OPT_FLAG('b', "boot", &boot,
			 "as rafleet-recover.service runs it early in every boot that\n"
			 "is no trial: when this boot runs a trial kernel that was\n"
			 "never judged (a promote was cut short after it had moved\n"
			 "the default entry, then the host reset) and recovery has put\n"
			 "the previous default back, reboot into it"),
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-rollout/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	char release[256], why[512] = "";
	const char *how = "";
	struct rollout *r;
	int rc, ind;

	rc = options_run("recover", spec, &recover_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
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
