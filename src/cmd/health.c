// SPDX-License-Identifier: GPL-2.0
/* rafleet health: the trial boot's health gate; a failed required check rolls back. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "rollout/health_builtin.h"
#include "lib/env.h"
#include "lib/parsenum.h"
#include "cmd/rollout_common.h"
#include "lib/options.h"
#include "rollout/trialconf.h"

static const struct options_help health_help = {
	"usage: rafleet health [--timeout DURATION] [--no-rollback] [--no-exec] [--json]\n"
	"       rafleet health --check network|units [--wait DURATION]\n"
	"\n"
	"On a trial boot (see rafleet stage): run the health checks, the programs in\n"
	"/etc/rafleet/health/required.d and wanted.d and /usr/lib/rafleet/health/\n"
	"required.d and wanted.d (a name in /etc replaces the same name in /usr/lib;\n"
	"a symlink to /dev/null there masks it), each with a time limit.  Every\n"
	"required check must exit 0 within it, saying only text; a check that\n"
	"fails, hangs, is killed, cannot be run or prints something that is not\n"
	"text fails the trial, and the kernel is rolled back (rafleet rollback\n"
	"--kernel).  So does one that a user other than root could have written\n"
	"(its file, a directory above it, a symlink on the way): it is not run.\n"
	"A wanted check's failure is recorded only.  'rafleet promote' needs a\n"
	"pass of this gate and of 'rafleet smoke'.\n"
	"\n"
	"With --check, run one of the checks rafleet ships (as its files in\n"
	"/usr/lib/rafleet/health/required.d do): 'network', a link up with an\n"
	"address and a default route out of it; 'units', each unit of\n"
	"RAFLEET_HEALTH_UNITS (/etc/rafleet/trial.conf) active.  Each waits for\n"
	"that to hold, up to --wait (default: $RAFLEET_CHECK_TIMEOUT less 5 s, as\n"
	"the gate sets it; else no wait).\n"
	"\n"
	"options:\n",
	25,
	"\n"
	"exit status: 0 pass, 1 fail (rolled back unless --no-rollback), not a\n"
	"trial boot, or another rafleet holds the lock; with --check, 0 it holds\n"
	"and 1 it does not; 2 bad arguments.  'man rafleet-health'.\n"
};

/* --check NAME: one line of what it found, its exit status. */
static int run_check(const char *name, int64_t wait_s)
{
	struct trial_config tc;
	char out[1024], why[512];
	const char *env;
	int rc;

	if (wait_s < 0) {
		uint64_t t;

		env = env_get(ENV_CHECK_TIMEOUT);
		wait_s = env && !parse_duration(env, 1, 3600, &t) && t > 5 ? (int64_t)t - 5 : 0;
	}
	if (!strcmp(name, "network")) {
		rc = healthcheck_network((unsigned int)wait_s, out, sizeof(out));
	} else {
		if (trial_config_load(&tc, why, sizeof(why))) {
			fprintf(stderr, "rafleet health: %s\n", why);
			return EXIT_FAILED;
		}
		rc = healthcheck_units(tc.health_units, (unsigned int)wait_s, out, sizeof(out));
	}
	printf("%s: %s\n", name, out);
	return rc ? EXIT_FAILED : EXIT_OK;
}

/* --check NAME: one of the shipped checks */
static int check_option(const struct option_spec *o, const char *arg, char *error, size_t len)
{
	if (strcmp(arg, "network") && strcmp(arg, "units"))
		return parse_bad(error, len, "--check '%s': no such check (network, units)", arg);
	*(const char **)o->value = arg;
	return 0;
}

int cmd_health(int argc, char **argv)
{
	struct health_opts o = { .rollback = true, .exec = true };
	const char *check = NULL;
	uint64_t timeout = 0, wait = UINT64_MAX;	/* not given */
	bool json = false;
	const struct option_spec spec[] = {
		OPT_DURATION('t', "timeout", &timeout, "DURATION",
			     "each check's limit (default RAFLEET_HEALTH_TIMEOUT\n"
			     "of trial.conf, else 2min); 5s..1h",
			     .min = 5, .max = 3600, .what = "a duration of 5s..1h (90s, 2min)"),
		OPT_CLEAR('R', "no-rollback", &o.rollback, "record a failure, do not roll back"),
		OPT_CLEAR('n', "no-exec", &o.exec, "roll back by loading the previous kernel only"),
		OPT_CALLBACK('c', "check", &check, "NAME",
			     "run the shipped check NAME (network, units)", check_option),
		OPT_DURATION('w', "wait", &wait, "DURATION",
			     "with --check: how long it may wait; 0..1h",
			     .min = 0, .max = 3600, .what = "a duration of 0..1h (30s, 2min)"),
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-rollout/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	struct health_report *rep;
	int64_t wait_s;
	struct rollout *r;
	int err, rc, ind;

	rc = options_run("health", spec, &health_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	o.timeout_s = (unsigned int)timeout;
	wait_s = wait == UINT64_MAX ? -1 : (int64_t)wait;
	if (wait_s >= 0 && !check) {
		fprintf(stderr, "rafleet health: --wait goes with --check\n");
		return EXIT_USAGE;
	}
	if (check)
		return run_check(check, wait_s);
	rep = calloc(1, sizeof(*rep));
	if (!rep) {
		fprintf(stderr, "rafleet health: out of memory\n");
		return EXIT_FAILED;
	}
	if (rolloutcmd_open(&r, "health")) {
		free(rep);
		return EXIT_FAILED;
	}
	err = rollout_health(r, &o, rep);
	if (!err && !rep->pass)
		err = -EIO;	/* a verdict, and it is fail */
	rc = rolloutcmd_done(r, "health", err, json, NULL, rep->detail[0] ? rep : NULL);
	free(rep);
	return rc;
}
