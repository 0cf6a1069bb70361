// SPDX-License-Identifier: GPL-2.0
/* rafleet smoke: the trial boot's verdict; a failure rolls the kernel back. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cmd/rollout_common.h"

static void smoke_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet smoke [--delta PERCENT] [--timeout SECONDS] [--no-rollback]\n"
"                    [--no-exec] [--json]\n"
"\n"
"On a trial boot (see rafleet stage): run the smoke workloads of\n"
"/etc/rafleet/smoke.conf (rafleet bench, each run with a time limit), read\n"
"the kernel log since boot and the taint flags, then run them again with\n"
"every vm.readahead_* feature at 0 and compare the median wall times with\n"
"the previous kernel's baseline.  A run that fails, crashes or times out, a\n"
"kernel WARNING, BUG or oops, or a loss beyond PERCENT in two separate\n"
"measurements with every feature off fails the trial: the kernel is rolled\n"
"back (rafleet rollback --kernel).  'rafleet promote' needs a pass.\n"
"\n"
"options:\n"
"  -d, --delta PERCENT   the loss that counts (default: RAFLEET_SMOKE_DELTA\n"
"                        of smoke.conf, else 5)\n"
"  -t, --timeout SECONDS the time limit of each bench run (default 600)\n"
"  -R, --no-rollback     record a failure, do not roll back\n"
"  -n, --no-exec         roll back by loading the previous kernel only\n"
"  -j, --json            JSON (schema rafleet-rollout/1) instead of a table\n"
"  -h, --help            this help\n"
"\n"
"exit status: 0 pass, 1 fail (rolled back unless --no-rollback), not a\n"
"trial boot, or another rafleet holds the lock; 2 bad arguments.\n"
"'man rafleet-smoke'.\n");
}

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

int cmd_smoke(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delta", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "no-rollback", no_argument, NULL, 'R' },
		{ "no-exec", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct smoke_opts o = { .delta = 0,	/* smoke.conf, or the default */
				.timeout_s = SMOKE_DEFAULT_TIMEOUT_S,
				.rollback = true, .exec = true };
	struct smoke_report rep;
	bool json = false;
	struct rollout *r;
	double v;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:t:Rnjh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_number(optarg, 1000, &v)) {
				fprintf(stderr, "rafleet smoke: --delta '%s': a percentage above 0\n", optarg);
				return EXIT_USAGE;
			}
			o.delta = v / 100;
			break;
		case 't':
			if (parse_number(optarg, 86400, &v) || v != (unsigned int)v) {
				fprintf(stderr, "rafleet smoke: --timeout '%s': whole seconds, 1 to 86400\n", optarg);
				return EXIT_USAGE;
			}
			o.timeout_s = (unsigned int)v;
			break;
		case 'R': o.rollback = false; break;
		case 'n': o.exec = false; break;
		case 'j': json = true; break;
		case 'h':
			smoke_usage(stdout);
			return EXIT_OK;
		default:
			rolloutcmd_bad_option("smoke", argv);
			return EXIT_USAGE;
		}
	}
	if (rolloutcmd_no_args("smoke", argc, argv))
		return EXIT_USAGE;
	if (rolloutcmd_open(&r, "smoke"))
		return EXIT_FAILED;
	err = rollout_smoke(r, &o, &rep);
	if (!err && strcmp(rep.verdict, "pass"))
		err = -EIO;	/* a verdict, and it is fail */
	return rolloutcmd_done(r, "smoke", err, json, rep.verdict[0] ? &rep : NULL, NULL);
}
