// SPDX-License-Identifier: GPL-2.0
/* rafleet: the readahead kernel's rollout tools.  One command per job. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lib/env.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} commands[] = {
	{ "bench", cmd_bench, "run the seeds' workloads and measure them" },
	{ "calibrate", cmd_calibrate, "measure this machine's noise: each workload's allowed loss" },
	{ "canary", cmd_canary, "judge a feature by a paired A/B in this boot, and act" },
	{ "guard", cmd_guard, "watch the live host's counters against its baseline" },
	{ "health", cmd_health, "on a trial boot: the health checks; roll back if a required one fails" },
	{ "pin-default", cmd_pin, "name the boot loader's default, so that installing a kernel cannot move it" },
	{ "promote", cmd_promote, "make the trial kernel that passed its smoke run and health gate the default" },
	{ "recover", cmd_recover, "finish an interrupted rollout action, record this boot's trial" },
	{ "rollback", cmd_rollback, "turn a feature off for good, or go back to the previous kernel" },
	{ "smoke", cmd_smoke, "on a trial boot: smoke workloads, kernel log, baseline; roll back on failure" },
	{ "stage", cmd_stage, "baseline this kernel, then kexec into a trial of another" },
	{ "status", cmd_status, "this host's kernel, sysctls, boot entries, rollout and canaries" },
	{ "trial-watch", cmd_trialwatch, "on a trial boot: keep the watchdog alive, reboot past the deadline" },
	{ "tune", cmd_tune, "set each block device's read_ahead_kb by the policy, or restore it" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rafleet COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].what);
	fprintf(f, "\n'rafleet COMMAND --help' and 'man rafleet-COMMAND' say more.\n");
}

int main(int argc, char **argv)
{
	char why[160];

	/* the shipped binary obeys no test switch, and says so */
	if (env_check(why, sizeof(why))) {
		fprintf(stderr, "rafleet: %s\n", why);
		return EXIT_USAGE;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rafleet %s%s\n", RAFLEET_VERSION,
		       env_test_build() ? " (test build)" : "");
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rafleet: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
