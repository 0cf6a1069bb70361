// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet promote, its command line (each run in a child, its output
 * captured): --help and -h print the usage and exit 0; a bad option or
 * any argument exits 2 with one line that says why, nothing on stdout,
 * before the rollout state is opened.  The promotion itself is
 * tests/host/test_rollout_cli's.
 */
#include <stdlib.h>
#include <string.h>

#include "cmdrun.h"
#include "commands.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-promote-XXXXXX";

static void refused(const char *args, const char *want)
{
	cmd_refused(tmp, cmd_promote, "promote", args, want);
}

int main(void)
{
	struct run r;

	if (!cmd_tmpdir(tmp))
		return tap_done();
	cmd_help(&r, tmp, cmd_promote, "promote", "--help", "usage: rafleet promote [--json]\n",
		 "--help: the usage on stdout, exit 0");
	ok(strstr(r.out, "\noptions:\n"
		  "  -j, --json   JSON (schema rafleet-rollout/1) instead of a table\n"
		  "  -h, --help   this help\n\nexit status: 0 promoted") != NULL,
	   "  the options from the table, at column 15, then the exit statuses");
	cmdrun(&r, tmp, cmd_promote, "promote", "-jh");
	ok(r.rc == 0 && strstr(r.out, "usage: rafleet promote"), "-jh: the help, exit 0");

	refused("extra", "rafleet promote: takes no arguments, not 'extra'");
	refused("--json extra", "rafleet promote: takes no arguments, not 'extra'");
	refused("--bogus", "rafleet promote: unknown option '--bogus'");
	refused("-Q", "rafleet promote: unknown option '-Q'");
	refused("-jQ", "rafleet promote: unknown option '-Q'");
	refused("--json=yes", "rafleet promote: option '--json' takes no value: '--json=yes'");

	cmd_tmpdir_remove(tmp);
	return tap_done();
}
