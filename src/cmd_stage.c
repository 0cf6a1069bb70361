// SPDX-License-Identifier: GPL-2.0
/* rafleet stage: baseline on this kernel, then kexec into a trial of another. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "rolloutcmd.h"

static void stage_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet stage KERNEL [--no-baseline] [--no-exec] [--json]\n"
"\n"
"Stage a trial boot of KERNEL (a release such as 7.3.4-1.rafleet.virt, or the\n"
"path of a kernel image): record the running kernel as the previous one,\n"
"measure its baseline with the smoke workloads of /etc/rafleet/smoke.conf,\n"
"load KERNEL with kexec -l (its initramfs, this boot's command line and\n"
"rafleet.trial=TOKEN), and start it: systemctl kexec, or kexec -e without\n"
"systemd.  The default boot entry does not move: any crash or reset of the\n"
"trial boot comes back to the previous kernel.\n"
"\n"
"options:\n"
"  -B, --no-baseline   do not measure the baseline (smoke then compares nothing)\n"
"  -n, --no-exec       load and record only; 'systemctl kexec' starts it later\n"
"  -j, --json          JSON (schema rafleet-rollout/1) instead of a table\n"
"  -h, --help          this help\n"
"\n"
"exit status: 0 staged (and started), 1 failed, refused (a trial is already\n"
"staged or running) or another rafleet holds the lock, 2 bad arguments.\n"
"'man rafleet-stage'.\n");
}

int cmd_stage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-baseline", no_argument, NULL, 'B' },
		{ "no-exec", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct stage_opts o = { .baseline = true, .exec = true };
	bool json = false;
	struct rollout *r;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "Bnjh", opts, NULL)) != -1) {
		switch (c) {
		case 'B': o.baseline = false; break;
		case 'n': o.exec = false; break;
		case 'j': json = true; break;
		case 'h':
			stage_usage(stdout);
			return EXIT_OK;
		default:
			rolloutcmd_bad_option("stage", argv);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || !*argv[optind]) {
		fprintf(stderr, "rafleet stage: name one KERNEL (a release or an image path)\n");
		return EXIT_USAGE;
	}
	o.kernel = argv[optind];
	if (rolloutcmd_open(&r, "stage"))
		return EXIT_FAILED;
	err = rollout_stage(r, &o);
	return rolloutcmd_done(r, "stage", err, json, NULL);
}
