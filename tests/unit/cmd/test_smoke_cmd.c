// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet smoke, its command line (each run in a child, its output
 * captured): --help prints the usage and exits 0; --delta wants a
 * percentage above 0 (at most 1000), --timeout whole seconds 1..86400
 * (60.0 is whole, 0.5 is not); a bad option, a missing value or an
 * argument exits 2 with one line that says why, nothing on stdout, before
 * the rollout state is opened.  The smoke run itself is
 * tests/host/test_rollout_cli's.
 */
#include <stdlib.h>
#include <string.h>

#include "cmdrun.h"
#include "commands.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-smoke-XXXXXX";

static void refused(const char *args, const char *want)
{
	cmd_refused(tmp, cmd_smoke, "smoke", args, want);
}

int main(void)
{
	struct run r;

	if (!cmd_tmpdir(tmp))
		return tap_done();
	cmd_help(&r, tmp, cmd_smoke, "smoke", "--help", "usage: rafleet smoke [--delta PERCENT]",
		 "--help: the usage on stdout, exit 0");
	ok(strstr(r.out, "  -d, --delta PERCENT   a time loss beyond it is noted, not judged\n"
		  "                        (default: RAFLEET_SMOKE_DELTA of smoke.conf, else 5)\n"
		  "  -t, --timeout SECONDS the time limit of each bench run (default 600)\n") != NULL,
	   "  --delta's two lines and --timeout's, at column 24");
	ok(strstr(r.out, "compare their clock-free counters\n") &&
	   strstr(r.out, "agree within max(3 x the baseline's range over its runs, 2 %, 4)") &&
	   strstr(r.out, "Wall times\nare reported, not judged"),
	   "  it says what judges: the counters, their tolerance; time reported, not judged");
	/* valid values that a later bad option stops: the values were read */
	cmdrun(&r, tmp, cmd_smoke, "smoke", "--delta 2.5 --timeout 60.0 -Rn --bogus");
	ok(r.rc == 2 && !strcmp(r.err, "rafleet smoke: unknown option '--bogus'"),
	   "--delta 2.5 --timeout 60.0 -Rn read, then --bogus refused ('%s')", r.err);

	refused("--delta", "rafleet smoke: option '--delta' wants an argument");
	refused("-t", "rafleet smoke: option '-t' wants an argument");
	refused("--delta x", "rafleet smoke: --delta wants a percentage above 0, not 'x'");
	refused("--delta 0", "rafleet smoke: --delta wants a percentage above 0, not '0'");
	refused("-d 1001", "rafleet smoke: --delta wants a percentage above 0, not '1001'");
	refused("--timeout 0", "rafleet smoke: --timeout wants whole seconds, 1 to 86400, not '0'");
	refused("--timeout 0.5", "rafleet smoke: --timeout wants whole seconds, 1 to 86400, not '0.5'");
	refused("--timeout 86401", "rafleet smoke: --timeout wants whole seconds, 1 to 86400, not '86401'");
	refused("extra", "rafleet smoke: takes no arguments, not 'extra'");
	refused("--no-rollback --bogus", "rafleet smoke: unknown option '--bogus'");

	cmd_tmpdir_remove(tmp);
	return tap_done();
}
