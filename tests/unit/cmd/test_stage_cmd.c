// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet stage, its command line (each run in a child, its output
 * captured): --help prints the usage with every option and exits 0
 * before it needs a KERNEL; a bad option, a missing KERNEL or two of them
 * exit 2 with one line that says why, and nothing on stdout.  The staging
 * itself is tests/host/test_rollout_cli's.
 */
#include <stdlib.h>
#include <string.h>

#include "cmdrun.h"
#include "commands.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-stage-XXXXXX";

static void refused(const char *args, const char *want)
{
	cmd_refused(tmp, cmd_stage, "stage", args, want);
}

int main(void)
{
	static const char *const rows[] = {
		"  -B, --no-baseline   do not measure the baseline",
		"  -n, --no-exec       load and record only",
		"  -I, --no-initrd     KERNEL boots without an initramfs",
		"  -W, --no-watchdog   stage without the hardware watchdog",
		"                      its lack refuses): a trial that hangs hard stays hung\n",
		"  -A, --allow-running KERNEL may be the running kernel: an A/A trial",
		"  -j, --json          JSON (schema rafleet-rollout/1)",
		"  -h, --help          this help\n",
	};
	struct run r;

	if (!cmd_tmpdir(tmp))
		return tap_done();
	cmd_help(&r, tmp, cmd_stage, "stage", "--help", "usage: rafleet stage KERNEL",
		 "--help: the usage on stdout, exit 0, no KERNEL needed");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ok(strstr(r.out, rows[i]) != NULL, "  the help has '%.40s'", rows[i]);
	ok(strstr(r.out, "\nexit status: 0 staged") != NULL, "  and the exit statuses");
	cmdrun(&r, tmp, cmd_stage, "stage", "-n -h --bogus");
	ok(r.rc == 0 && strstr(r.out, "usage: rafleet stage"), "-n -h --bogus: the help, read no further");

	refused("", "rafleet stage: name one KERNEL (a release or an image path)");
	refused("7.3.4-1 7.3.4-2", "rafleet stage: name one KERNEL (a release or an image path)");
	refused("--no-exec", "rafleet stage: name one KERNEL (a release or an image path)");
	refused("--bogus 7.3.4-1", "rafleet stage: unknown option '--bogus'");
	refused("-nQ 7.3.4-1", "rafleet stage: unknown option '-Q'");
	refused("--json=1 7.3.4-1", "rafleet stage: option '--json' takes no value: '--json=1'");
	refused("--no-baseline --", "rafleet stage: name one KERNEL (a release or an image path)");

	cmd_tmpdir_remove(tmp);
	return tap_done();
}
