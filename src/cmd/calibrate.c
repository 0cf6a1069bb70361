// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet calibrate: A/A pairs of each workload (the same setting in both
 * arms) measure this machine's noise; from it, the cap of pairs at which
 * a default canary catches delta + 2 points 9 times in 10
 * (canary/calibration.h).  delta stays the policy.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench/args.h"
#include "bench/benchfile.h"
#include "canary/calibration.h"
#include "canary/args.h"
#include "canary/ledger.h"
#include "commands.h"
#include "lib/json.h"
#include "lib/rfc3339.h"
#include "rollout/core.h"
#include "lib/statedir.h"

/* Every workload a canary runs by default, once each. */
static void default_workloads(const struct scenario **out, int *n, int max)
{
	*n = 0;
	for (int i = 0; i < nr_features; i++) {
		const char *const *names = canary_default_workloads(&features[i]);

		for (; names && *names; names++) {
			const struct scenario *s = scenario_find(*names);
			bool seen = false;

			for (int k = 0; k < *n; k++)
				seen |= out[k] == s;
			if (s && !seen && *n < max)
				out[(*n)++] = s;
		}
	}
}

/* The plan of a first canary run with the default workloads (two). */
static struct seqrule_plan canary_plan(void)
{
	return (struct seqrule_plan){ .pairs_min = SEQRULE_DEFAULT_FIRST,
				      .pairs_step = SEQRULE_DEFAULT_STEP,
				      .pairs_max = SEQRULE_DEFAULT_CAP, .metrics = 2,
				      .alpha = ledger_alpha(CANARY_DEFAULT_ALPHA, 0) };
}

/* A/A pairs of one workload; its entry, or -errno. */
static int measure_one(const struct canary_args *a, const struct scenario *s,
		       double delta, struct calibration_entry *e)
{
	static struct canary_result r;
	struct canary_opts o = { .feature = &features[0], .aa = true, .seed = a->seed, .runs = a->runs,
				 .ring_pages = a->ring_pages, .quiet = a->json,
				 .nr_workloads = 1, .delta = { delta } };
	struct seqrule_plan base = canary_plan();
	char path[PATH_MAX];
	struct hl_estimate hl;
	int err;

	o.workload[0] = s;
	err = benchfile_prepare("calibrate", a->file, a->size, s->file, path, sizeof(path));
	if (err)
		return err;
	o.path[0] = path;
	/* one look, at the end: every pair is run, the verdicts are not used */
	o.plan = (struct seqrule_plan){ .pairs_min = a->pairs_max, .pairs_step = 1,
					.pairs_max = a->pairs_max, .metrics = 1, .alpha = 0.2 };
	err = seqrule_plan(&o.plan, NULL);
	if (!err)
		err = canary_run(&o, &r);
	if (err) {
		fprintf(stderr, "rafleet calibrate: %s\n", r.error[0] ? r.error : strerror(-err));
		return err;
	}
	err = hodges_lehmann(r.s[0][CM_WALL].d, r.pairs, 0.01, &hl);
	if (err)
		return err;
	memset(e, 0, sizeof(*e));
	snprintf(e->scenario, sizeof(e->scenario), "%s", s->name);
	e->pairs = r.pairs;
	e->estimate = expm1(hl.estimate);
	e->lo = hl.ci_valid ? expm1(hl.lo) : NAN;
	e->hi = hl.ci_valid ? expm1(hl.hi) : NAN;
	e->sigma = calibration_noise(r.s[0][CM_WALL].d, r.pairs);
	return calibration_choose_cap(&base, e->sigma, delta, &e->cap, &e->power);
}

static void print(const struct canary_args *a, const struct calibration *c)
{
	if (!a->json) {
		printf("calibration of machine %s, kernel %s, %s\n", c->machine_id, c->kernel, c->time);
		printf("delta %.1f %% (policy); each cap catches +%.1f %% %.0f times in 100 (simulated)\n\n",
		       c->delta * 100, (c->delta + CALIBRATION_DETECT) * 100, CALIBRATION_POWER * 100);
		printf("%-20s %5s %7s %9s %9s %9s %4s %6s\n", "workload", "pairs", "noise", "A/A",
		       "lo", "hi", "cap", "power");
		for (int i = 0; i < c->n; i++)
			printf("%-20s %5u %6.2f%% %+8.1f%% %+8.1f%% %+8.1f%% %4u %5.1f%%\n",
			       c->e[i].scenario, c->e[i].pairs, c->e[i].sigma * 100,
			       c->e[i].estimate * 100, c->e[i].lo * 100, c->e[i].hi * 100,
			       c->e[i].cap, c->e[i].power * 100);
		return;
	}
	calibration_write_json(stdout, c);
}

int cmd_calibrate(int argc, char **argv)
{
	const struct scenario *wl[CALIBRATION_MAX];
	struct calibration c;
	struct canary_args a;
	struct rollout *ro;
	struct utsname u;
	time_t now = time(NULL);
	char detail[256], why[PATH_MAX + 128];
	int n = 0, err;

	if (canary_parse_args(argc, argv, &a)) {
		fprintf(stderr, "rafleet calibrate: %s\n", a.error);
		return EXIT_USAGE;
	}
	if (a.help) {
		canary_usage(stdout, true);
		return EXIT_OK;
	}
	if (a.nr_workloads) {
		n = a.nr_workloads;
		memcpy(wl, a.workload, sizeof(a.workload[0]) * (size_t)n);
	} else {
		default_workloads(wl, &n, CALIBRATION_MAX);
	}
	err = calibration_load(&c, why, sizeof(why));
	if (err == -EBADMSG) {
		fprintf(stderr, "rafleet: %s\n", why);
		return EXIT_FAILED;
	}
	if (err)	/* none, another machine's, an older rafleet's: afresh */
		memset(&c, 0, sizeof(c));
	err = machine_id_get(c.machine_id, sizeof(c.machine_id));
	if (err) {
		fprintf(stderr, "rafleet calibrate: no usable /etc/machine-id: %s\n", strerror(-err));
		return EXIT_FAILED;
	}
	uname(&u);
	snprintf(c.kernel, sizeof(c.kernel), "%s", u.release);
	rfc3339_format(now, c.time, sizeof(c.time));
	c.delta = a.delta ? a.delta : a.floor;
	c.alpha = canary_plan().alpha;
	c.metrics = canary_plan().metrics;
	if (rollout_open(&ro, "calibrate"))
		return EXIT_FAILED;
	for (int i = 0; i < n; i++) {
		struct calibration_entry e;

		err = measure_one(&a, wl[i], c.delta, &e);
		if (err) {
			rollout_close(ro);
			return err == -EEXIST ? EXIT_USAGE : EXIT_FAILED;
		}
		if (e.power < CALIBRATION_POWER)
			fprintf(stderr, "rafleet calibrate: %s: noise %.1f %%: even %u pairs catch +%.1f %% only %.0f times in 100\n",
				e.scenario, e.sigma * 100, e.cap, (c.delta + CALIBRATION_DETECT) * 100,
				e.power * 100);
		calibration_put(&c, &e);
	}
	err = calibration_save(&c);
	if (err) {
		fprintf(stderr, "rafleet calibrate: cannot store the calibration: %s\n", strerror(-err));
		rollout_close(ro);
		return EXIT_FAILED;
	}
	snprintf(detail, sizeof(detail), "%d workload(s) calibrated on %s", n, c.kernel);
	rollout_record(ro, "calibrate", detail);
	rollout_close(ro);
	print(&a, &c);
	return EXIT_OK;
}
