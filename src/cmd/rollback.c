// SPDX-License-Identifier: GPL-2.0
/* rafleet rollback: turn a feature off for good, or go back to the previous kernel. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cmd/rollout_common.h"

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

static void rollback_usage(FILE *f)
{
	fprintf(f,
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
"options:\n"
"  -f, --feature NAME    a feature: vm.readahead_async_keep_half,\n"
"                        readahead_async_keep_half or async_keep_half\n"
"  -k, --kernel          roll the kernel back\n"
"  -r, --reason TEXT     why (default \"operator\")\n"
"  -e, --evidence TEXT   what shows it (a measurement, a file), for the record\n"
"  -u, --undo            with --feature: remove the decision\n"
"  -n, --no-exec         with --kernel: load and record, do not restart\n"
"  -j, --json            JSON (schema rafleet-rollout/1) instead of a table\n"
"  -h, --help            this help\n"
"\n"
"exit status: 0 done, 1 failed (or another rafleet holds the lock), 2 bad\n"
"arguments.  'man rafleet-rollback'.\n");
}

int cmd_rollback(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "feature", required_argument, NULL, 'f' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "reason", required_argument, NULL, 'r' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "undo", no_argument, NULL, 'u' },
		{ "no-exec", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *name = NULL, *reason = NULL, *evidence = NULL;
	bool kernel = false, undo = false, no_exec = false, json = false;
	const struct feature *f = NULL;
	struct rollout *r;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:kr:e:unjh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': name = optarg; break;
		case 'k': kernel = true; break;
		case 'r': reason = optarg; break;
		case 'e': evidence = optarg; break;
		case 'u': undo = true; break;
		case 'n': no_exec = true; break;
		case 'j': json = true; break;
		case 'h':
			rollback_usage(stdout);
			return EXIT_OK;
		default:
			rolloutcmd_bad_option("rollback", argv);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rafleet rollback: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
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
