// SPDX-License-Identifier: GPL-2.0
/*
 * running: the command line handed to kexec loses BOOT_IMAGE= and any
 * rafleet.trial, keeps the rest in order; the trial token is read from
 * /proc/cmdline (RAFLEET_PROC), the release from RAFLEET_UNAME_R, the
 * boot id under RAFLEET_PROCSYS; running_is_trial() wants both release
 * and token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "host/running.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-running-XXXXXX";

static const char *kexec_cmdline(const char *in)
{
	static char out[512];

	if (running_kexec_cmdline(in, out, sizeof(out)))
		return "(error)";
	return out;
}

int main(void)
{
	char dir[sizeof(tmp) + 16], small[8];
	struct running r;

	is_str(kexec_cmdline("BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda1 ro quiet\n"),
	       "root=/dev/vda1 ro quiet", "BOOT_IMAGE= dropped, the newline too");
	is_str(kexec_cmdline("root=/dev/vda1 rafleet.trial=abc ro rafleet.trial"),
	       "root=/dev/vda1 ro", "rafleet.trial=TOKEN and a bare rafleet.trial dropped");
	is_str(kexec_cmdline("rafleet.trialx=1 rafleet.trial.y=2  console=ttyS0"),
	       "rafleet.trialx=1 rafleet.trial.y=2 console=ttyS0",
	       "parameters that only start like it are kept; blanks collapsed");
	is_str(kexec_cmdline(""), "", "an empty command line");
	is_i64(running_kexec_cmdline("root=/dev/vda1 ro", small, sizeof(small)), -ENAMETOOLONG,
	       "too long for the buffer: -ENAMETOOLONG");

	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	snprintf(dir, sizeof(dir), "%s/proc", tmp);
	setenv("RAFLEET_PROC", dir, 1);
	snprintf(dir, sizeof(dir), "%s/sys", tmp);
	setenv("RAFLEET_PROCSYS", dir, 1);
	setenv("RAFLEET_UNAME_R", "7.3.4-1.rafleet+virt", 1);
	fakefs_put(tmp, "proc/cmdline", "BOOT_IMAGE=/x root=/dev/vda1 rafleet.trial=5e0c61f2\n");
	fakefs_put(tmp, "sys/kernel/random/boot_id", "0b5c5a43-aaaa\n");
	is_i64(running_read(&r), 0, "running_read");
	is_str(r.release, "7.3.4-1.rafleet+virt", "  the release from RAFLEET_UNAME_R");
	is_str(r.boot_id, "0b5c5a43-aaaa", "  the boot id, without its newline");
	is_str(r.token, "5e0c61f2", "  the trial token");
	ok(running_is_trial(&r, "7.3.4-1.rafleet+virt", "5e0c61f2"), "  the trial boot of that release and token");
	ok(!running_is_trial(&r, "7.3.4-1.rafleet+virt", "other"), "  not of another token");
	ok(!running_is_trial(&r, "7.3.5", "5e0c61f2"), "  not of another release");
	ok(!running_is_trial(&r, NULL, NULL), "  not of no trial");
	fakefs_put(tmp, "proc/cmdline", "root=/dev/vda1\n");
	running_read(&r);
	ok(!r.trial_param && !r.token[0], "no rafleet.trial: no token");
	fakefs_rm_tree(tmp);
	return tap_done();
}
