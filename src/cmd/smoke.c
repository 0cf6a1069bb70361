// SPDX-License-Identifier: GPL-2.0
/* rafleet smoke: the trial boot's verdict; a failure rolls the kernel back. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cmd/rollout_common.h"
#include "lib/options.h"

static const struct options_help smoke_help = {
	"usage: rafleet smoke [--delta PERCENT] [--timeout SECONDS] [--no-rollback]\n"
	"                    [--no-exec] [--json]\n"
	"\n"
	"On a trial boot (see rafleet stage): run the smoke workloads of\n"
	"/etc/rafleet/smoke.conf (rafleet bench, each run with a time limit), read\n"
	"the kernel log since boot and the taint flags, then run them again with\n"
	"every vm.readahead_* feature at 0 and compare their clock-free counters\n"
	"(major faults, block read requests and bytes, folios by order) with the\n"
	"previous kernel's baseline, also measured with every feature off: each must\n"
	"agree within max(3 x the baseline's range over its runs, 2 %, 4).  A run\n"
	"that fails, crashes or times out, a kernel WARNING, BUG or oops, a baseline\n"
	"measured for another kernel or smoke.conf, a scenario on one side only, or\n"
	"a counter beyond its tolerance in two separate measurements fails the\n"
	"trial: the kernel is rolled back (rafleet rollback --kernel).  Wall times\n"
	"are reported, not judged: the baseline is from another boot.  'rafleet\n"
	"promote' needs a pass.\n"
	"\n"
	"options:\n",
	24,
	"\n"
	"exit status: 0 pass, 1 fail (rolled back unless --no-rollback), not a\n"
	"trial boot, or another rafleet holds the lock; 2 bad arguments.\n"
	"'man rafleet-smoke'.\n"
};

/* strtod()'s number above 0, at most @max (60.0 and 1e2 pass, as they did) */
static int parse_number(const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* --delta PERCENT: a fraction into the double at @o->value */
static int delta_option(const struct option_spec *o, const char *arg, char *error, size_t len)
{
	double v;

	if (parse_number(arg, 1000, &v))
		return options_bad_value(o, arg, error, len);
	*(double *)o->value = v / 100;
	return 0;
}

/* --timeout SECONDS: whole seconds into the unsigned int at @o->value */
static int timeout_option(const struct option_spec *o, const char *arg, char *error, size_t len)
{
	double v;

	if (parse_number(arg, 86400, &v) || v != (unsigned int)v)
		return options_bad_value(o, arg, error, len);
	*(unsigned int *)o->value = (unsigned int)v;
	return 0;
}

int cmd_smoke(int argc, char **argv)
{
	struct smoke_opts o = { .delta = 0,	/* smoke.conf, or the default */
				.timeout_s = SMOKE_DEFAULT_TIMEOUT_S,
				.rollback = true, .exec = true };
	bool json = false;
	const struct option_spec spec[] = {
		OPT_CALLBACK('d', "delta", &o.delta, "PERCENT",
			     "a time loss beyond it is noted, not judged\n"
			     "(default: RAFLEET_SMOKE_DELTA of smoke.conf, else 5)",
			     delta_option,
			     .what = "a percentage above 0"),
		OPT_CALLBACK('t', "timeout", &o.timeout_s, "SECONDS",
			     "the time limit of each bench run (default 600)", timeout_option,
			     .what = "whole seconds, 1 to 86400"),
		OPT_CLEAR('R', "no-rollback", &o.rollback, "record a failure, do not roll back"),
		OPT_CLEAR('n', "no-exec", &o.exec, "roll back by loading the previous kernel only"),
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-rollout/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	struct smoke_report rep;
	struct rollout *r;
	int rc, err, ind;

	rc = options_run("smoke", spec, &smoke_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	if (rolloutcmd_open(&r, "smoke"))
		return EXIT_FAILED;
	err = rollout_smoke(r, &o, &rep);
	if (!err && strcmp(rep.verdict, "pass"))
		err = -EIO;	/* a verdict, and it is fail */
	return rolloutcmd_done(r, "smoke", err, json, rep.verdict[0] ? &rep : NULL, NULL);
}
