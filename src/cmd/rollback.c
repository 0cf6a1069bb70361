// SPDX-License-Identifier: GPL-2.0
/* rafleet rollback: turn a feature off for good, or go back to the previous kernel. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cmd/rollout_common.h"
#include "lib/options.h"

/* NAME, vm.NAME, or NAME without its "readahead_". */
static const struct feature *find_feature(const char *name)
{
	char full[128];

	if (feature_find(name))
		return feature_find(name);
	if (!strncmp(name, "vm.", 3))
		name += 3;
	snprintf(full, sizeof(full), "readahead_%s", name);
	return feature_find(full);
}

static const struct options_help rollback_help = {
	"usage: rafleet rollback --feature FEATURE [--reason TEXT] [--evidence TEXT] [--json]\n"
	"       rafleet rollback --feature FEATURE --undo [--json]\n"
	"       rafleet rollback --kernel [--reason TEXT] [--no-exec] [--json]\n"
	"\n"
	"--feature: set vm.FEATURE to 0 now and write /etc/sysctl.d/60-rafleet-FEATURE.conf\n"
	"so that it stays 0 at boot; the decision and its reason go into the state\n"
	"(/var/lib/rafleet/state.json), its history and the journal.  --undo removes\n"
	"the drop-in and the decision (the live value is left as it is).\n"
	"\n"
	"--kernel: on a trial boot, load the previous kernel with kexec and start it\n"
	"(systemctl kexec, or kexec -e without systemd); if it cannot be loaded,\n"
	"reboot into the default entry, which is still the previous kernel until\n"
	"'rafleet promote'.  A staged trial that has not run yet is unloaded.  After\n"
	"'rafleet promote', on any later boot: the default entry that stage recorded\n"
	"is made the default again, then the previous kernel is started the same way.\n"
	"\n"
	"options:\n",
	24,
	"\n"
	"exit status: 0 done, 1 failed (or another rafleet holds the lock), 2 bad\n"
	"arguments.  'man rafleet-rollback'.\n"
};

int cmd_rollback(int argc, char **argv)
{
	const char *name = NULL, *reason = NULL, *evidence = NULL;
	bool kernel = false, undo = false, no_exec = false, json = false;
	const struct option_spec spec[] = {
		OPT_STRING('f', "feature", &name, "NAME",
			   "a feature: vm.readahead_async_keep_half,\n"
			   "readahead_async_keep_half or async_keep_half"),
		OPT_FLAG('k', "kernel", &kernel, "roll the kernel back"),
		OPT_STRING('r', "reason", &reason, "TEXT", "why (default \"operator\")"),
		OPT_STRING('e', "evidence", &evidence, "TEXT",
			   "what shows it (a measurement, a file), for the record"),
		OPT_FLAG('u', "undo", &undo, "with --feature: remove the decision"),
		OPT_FLAG('n', "no-exec", &no_exec, "with --kernel: load and record, do not restart"),
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-rollout/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	const struct feature *f = NULL;
	struct rollout *r;
	int rc, err, ind;

	rc = options_run("rollback", spec, &rollback_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	if (!!name == kernel) {
		fprintf(stderr, "rafleet rollback: say what to roll back: --feature FEATURE or --kernel\n");
		return EXIT_USAGE;
	}
	if (name && !(f = find_feature(name))) {
		fprintf(stderr, "rafleet rollback: no feature '%s' (rafleet status lists them)\n", name);
		return EXIT_USAGE;
	}
	if ((undo && !name) || (no_exec && !kernel) || (evidence && kernel) ||
	    (undo && (reason || evidence))) {
		fprintf(stderr, "rafleet rollback: --undo goes with --feature alone, --no-exec with --kernel, --evidence with --feature\n");
		return EXIT_USAGE;
	}
	if (reason && !*reason) {
		fprintf(stderr, "rafleet rollback: --reason is empty\n");
		return EXIT_USAGE;
	}
	if (!reason)
		reason = "operator";

	if (rolloutcmd_open(&r, "rollback"))
		return EXIT_FAILED;
	if (kernel)
		err = rollout_kernel_back(r, reason, !no_exec);
	else if (undo)
		err = rollout_feature_undo(r, f);
	else
		err = rollout_feature_off(r, f, reason, evidence);
	return rolloutcmd_done(r, kernel ? "rollback --kernel" :
			       undo ? "rollback --feature --undo" : "rollback --feature",
			       err, json, NULL, NULL);
}
