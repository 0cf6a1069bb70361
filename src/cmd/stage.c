// SPDX-License-Identifier: GPL-2.0
/* rafleet stage: baseline on this kernel, then kexec into a trial of another. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "cmd/rollout_common.h"

static void stage_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet stage KERNEL [--no-baseline] [--no-exec] [--no-initrd]\n"
"                     [--no-watchdog] [--json]\n"
"\n"
"Stage a trial boot of KERNEL (a release such as 7.3.4-1.rafleet.virt, or the\n"
"path of a kernel image): record the running kernel as the previous one,\n"
"measure its baseline with the smoke workloads of /etc/rafleet/smoke.conf,\n"
"load KERNEL with kexec -l (its initramfs; its boot entry's options, else\n"
"this boot's command line; the parameters of /etc/rafleet/trial.conf, which\n"
"turn a kernel failure into a reset; rafleet.trial=TOKEN), and start it:\n"
"systemctl kexec, or kexec -e without systemd.  The default boot entry does\n"
"not move: any crash or reset of the trial boot comes back to the previous\n"
"kernel.  So stage first checks that the default entry boots the running\n"
"kernel, and that KERNEL's initramfs is there and named for its release.\n"
"\n"
"options:\n"
"  -B, --no-baseline   do not measure the baseline (smoke then compares nothing)\n"
"  -n, --no-exec       load and record only; 'systemctl kexec' starts it later\n"
"  -I, --no-initrd     KERNEL boots without an initramfs (else its lack refuses)\n"
"  -W, --no-watchdog   stage without the hardware watchdog of trial.conf (else\n"
"                      its lack refuses): a trial that hangs hard stays hung\n"
"  -j, --json          JSON (schema rafleet-rollout/1) instead of a table\n"
"  -h, --help          this help\n"
"\n"
"exit status: 0 staged (and started), 1 failed, refused (a trial is already\n"
"staged or running, the default entry is not the running kernel, no\n"
"initramfs, no watchdog, a bad trial.conf) or another rafleet holds the lock, 2 bad\n"
"arguments.\n"
"'man rafleet-stage'.\n");
}

int cmd_stage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-baseline", no_argument, NULL, 'B' },
		{ "no-exec", no_argument, NULL, 'n' },
		{ "no-initrd", no_argument, NULL, 'I' },
		{ "no-watchdog", no_argument, NULL, 'W' },
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
	while ((c = getopt_long(argc, argv, "BnIWjh", opts, NULL)) != -1) {
		switch (c) {
		case 'B': o.baseline = false; break;
		case 'n': o.exec = false; break;
		case 'I': o.no_initrd = true; break;
		case 'W': o.no_watchdog = true; break;
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
	return rolloutcmd_done(r, "stage", err, json, NULL, NULL);
}
