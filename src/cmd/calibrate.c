// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet calibrate: A/A pairs of each workload (the same setting in both
 * arms) measure this machine's noise; the allowed loss delta of each
 * workload is the farthest end of its A/A interval, never below the floor.
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

/* The level of a default canary's intervals (two judged workloads). */
static double canary_level(void)
{
	struct seqrule_plan p = { .pairs_min = 4, .pairs_step = 2, .pairs_max = 12,
				  .metrics = 2, .alpha = 0.01 };

	seqrule_plan(&p, NULL);
	return p.alpha_look;
}

/* A/A pairs of one workload; its entry, or -errno. */
static int measure_one(const struct canary_args *a, const struct scenario *s,
		       double level, struct calibration_entry *e)
{
	static struct canary_result r;
	struct canary_opts o = { .feature = &features[0], .aa = true, .seed = a->seed, .runs = a->runs,
				 .ring_pages = a->ring_pages, .quiet = a->json,
				 .nr_workloads = 1, .delta = { a->floor } };
	char path[PATH_MAX];
	struct hl_estimate hl;
	int err;

	o.workload[0] = s;
	err = benchfile_prepare("calibrate", a->file, a->size, s->file, path, sizeof(path));
	if (err)
		return err;
	o.path[0] = path;
	o.plan = (struct seqrule_plan){ .pairs_min = a->pairs_max, .pairs_step = 2,
					.pairs_max = a->pairs_max, .metrics = 1,
					.alpha = 0.01 };
	seqrule_plan(&o.plan, NULL);	/* the verdicts are not used */
	err = canary_run(&o, &r);
	if (err) {
		fprintf(stderr, "rafleet calibrate: %s\n", r.error);
		return err;
	}
	err = hodges_lehmann(r.s[0][CM_WALL].d, r.pairs, level, &hl);
	if (err)
		return err;
	memset(e, 0, sizeof(*e));
	snprintf(e->scenario, sizeof(e->scenario), "%s", s->name);
	e->pairs = r.pairs;
	e->estimate = expm1(hl.estimate);
	e->lo = hl.ci_valid ? expm1(hl.lo) : NAN;
	e->hi = hl.ci_valid ? expm1(hl.hi) : NAN;
	e->delta = calibration_delta(&hl, a->floor);
	return hl.ci_valid ? 0 : -EDOM;
}

static void print(const struct canary_args *a, const struct calibration *c)
{
	if (!a->json) {
		printf("calibration of machine %s, kernel %s, %s\n", c->machine_id, c->kernel, c->time);
		printf("A/A intervals at %.2f %%, floor %.1f %%\n\n", (1 - c->alpha_look) * 100,
		       c->floor * 100);
		printf("%-20s %5s %9s %9s %9s %8s\n", "workload", "pairs", "A/A", "lo", "hi", "delta");
		for (int i = 0; i < c->n; i++)
			printf("%-20s %5u %+8.1f%% %+8.1f%% %+8.1f%% %7.1f%%\n", c->e[i].scenario,
			       c->e[i].pairs, c->e[i].estimate * 100, c->e[i].lo * 100,
			       c->e[i].hi * 100, c->e[i].delta * 100);
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
	if (signrank_critical(a.pairs_max, canary_level()) < 0) {
		fprintf(stderr, "rafleet calibrate: --pairs %u is too few for an interval at %.2f %%; take at least 10\n",
			a.pairs_max, (1 - canary_level()) * 100);
		return EXIT_USAGE;
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
	if (err)	/* none, or another machine's: start afresh */
		memset(&c, 0, sizeof(c));
	err = machine_id_get(c.machine_id, sizeof(c.machine_id));
	if (err) {
		fprintf(stderr, "rafleet calibrate: no usable /etc/machine-id: %s\n", strerror(-err));
		return EXIT_FAILED;
	}
	uname(&u);
	snprintf(c.kernel, sizeof(c.kernel), "%s", u.release);
	rfc3339_format(now, c.time, sizeof(c.time));
	c.alpha_look = canary_level();
	c.floor = a.floor;
	if (rollout_open(&ro, "calibrate"))
		return EXIT_FAILED;
	for (int i = 0; i < n; i++) {
		struct calibration_entry e;

		err = measure_one(&a, wl[i], c.alpha_look, &e);
		if (err) {
			if (err == -EDOM)
				fprintf(stderr, "rafleet calibrate: %s: too few pairs for an interval\n",
					wl[i]->name);
			rollout_close(ro);
			return err == -EEXIST || err == -EDOM ? EXIT_USAGE : EXIT_FAILED;
		}
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
