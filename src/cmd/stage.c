// SPDX-License-Identifier: GPL-2.0
/* rafleet stage: baseline on this kernel, then kexec into a trial of another. */
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "cmd/rollout_common.h"
#include "lib/options.h"

static const struct options_help stage_help = {
	"usage: rafleet stage KERNEL [--no-baseline] [--no-exec] [--no-initrd]\n"
	"                     [--no-watchdog] [--allow-running] [--reboot] [--json]\n"
	"\n"
	"Stage a trial boot of KERNEL (a release such as 7.3.4-2.rafleet+virt, or the\n"
	"path of a kernel image): record the running kernel as the previous one,\n"
	"measure its baseline with the smoke workloads of /etc/rafleet/smoke.conf,\n"
	"load KERNEL with kexec -l, or kexec -s on a locked-down kernel (its\n"
	"initramfs; its boot entry's options, else\n"
	"this boot's command line; the parameters of /etc/rafleet/trial.conf, which\n"
	"turn a kernel failure into a reset; rafleet.trial=TOKEN), and start it:\n"
	"systemctl kexec, or kexec -e without systemd.  The default boot entry does\n"
	"not move: any crash or reset of the trial boot comes back to the previous\n"
	"kernel.  So stage first checks that the default entry boots the running\n"
	"kernel, and that KERNEL's initramfs is there and named for its release.\n"
	"With --reboot the trial boots through the boot loader instead: a copy of\n"
	"KERNEL's boot entry with that command line (rafleet-trial-TOKEN) is made\n"
	"the boot loader's one-shot next boot, and the host reboots (systemd-boot,\n"
	"grub-bls; where kexec is not allowed, or to try the firmware path).\n"
	"\n"
	"options:\n",
	22,
	"\n"
	"exit status: 0 staged (and started), 1 failed, refused (a trial is already\n"
	"staged or running, the default entry is not the running kernel, no\n"
	"initramfs, no watchdog, a bad trial.conf) or another rafleet holds the lock, 2 bad\n"
	"arguments.\n"
	"'man rafleet-stage'.\n"
};

int cmd_stage(int argc, char **argv)
{
	struct stage_opts o = { .baseline = true, .exec = true };
	bool json = false;
	const struct option_spec spec[] = {
		OPT_CLEAR('B', "no-baseline", &o.baseline,
			  "do not measure the baseline (smoke then compares nothing)"),
		OPT_CLEAR('n', "no-exec", &o.exec,
			  "load and record only; 'systemctl kexec' starts it later\n"
			  "(with --reboot: 'systemctl reboot')"),
		OPT_FLAG('I', "no-initrd", &o.no_initrd,
			 "KERNEL boots without an initramfs (else its lack refuses)"),
		OPT_FLAG('W', "no-watchdog", &o.no_watchdog,
			 "stage without the hardware watchdog of trial.conf (else\n"
			 "its lack refuses): a trial that hangs hard stays hung"),
		OPT_FLAG('A', "allow-running", &o.allow_running,
			 "KERNEL may be the running kernel: an A/A trial, what\n"
			 "the smoke run sees across a kexec when nothing changed"),
		OPT_FLAG('R', "reboot", &o.reboot,
			 "boot the trial through the boot loader, the next boot\n"
			 "only (a trial entry made the one-shot), not by kexec"),
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-rollout/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	struct rollout *r;
	int rc, err, ind;

	rc = options_run("stage", spec, &stage_help, argc, argv, false, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	if (argc - ind != 1 || !*argv[ind])
		return options_fail("stage", "name one KERNEL (a release or an image path)");
	o.kernel = argv[ind];
	if (rolloutcmd_open(&r, "stage"))
		return EXIT_FAILED;
	err = rollout_stage(r, &o);
	return rolloutcmd_done(r, "stage", err, json, NULL, NULL);
}
