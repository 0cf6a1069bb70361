// SPDX-License-Identifier: GPL-2.0
/* rafleet status: the host's rafleet state, as a table or JSON.  Read-only. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "rootdir.h"
#include "status.h"
#include "status_report.h"

static void status_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet status [--json]\n"
"\n"
"Report this host's rafleet state, reading only: the running kernel and\n"
"whether it has the vm.readahead_* sysctls; for each feature its live\n"
"value and the value systemd-sysctl would set at boot, with the file that\n"
"sets it; the kernels installed under /usr/lib/modules; the boot loader\n"
"entries and which one is the default; the rollout state (phase, kernels,\n"
"an interrupted action and what the next rafleet invocation will do,\n"
"feature decisions, history).\n"
"\n"
"options:\n"
"  -j, --json   JSON (schema " STATUS_SCHEMA ") instead of a table\n"
"  -h, --help   this help\n"
"\n"
"RAFLEET_ROOT (default /) is the root the files are read under, and\n"
"RAFLEET_PROCSYS stands for /proc/sys.\n"
"\n"
"exit status: 0 the report was made (with warnings, if any), 1 the root\n"
"cannot be read, 2 bad arguments.  'man rafleet-status'.\n");
}

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *root = rootdir_get();
	struct status st;
	bool json = false;
	int c, err;

	optind = 0;	/* as bench: a fresh parse, clusters included */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			status_usage(stdout);
			return EXIT_OK;
		default:
			if (!strncmp(argv[optind - 1], "--", 2))
				fprintf(stderr, "rafleet status: unknown option '%s'\n",
					argv[optind - 1]);
			else
				fprintf(stderr, "rafleet status: unknown option '-%c'\n",
					optopt);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rafleet status: takes no arguments, not '%s'\n",
			argv[optind]);
		return EXIT_USAGE;
	}

	err = status_collect(&st, root);
	if (err) {
		if (err == -ENOMEM)
			fprintf(stderr, "rafleet status: out of memory\n");
		else
			fprintf(stderr, "rafleet status: cannot read the root %s: %s\n",
				root, strerror(-err));
		status_free(&st);
		return EXIT_FAILED;
	}
	err = json ? status_json(stdout, &st) : status_table(stdout, &st);
	status_free(&st);
	if (err) {
		fprintf(stderr, "rafleet status: cannot write the report\n");
		return EXIT_FAILED;
	}
	return EXIT_OK;
}
