// SPDX-License-Identifier: GPL-2.0
/* rafleet canary: judge one feature by a paired A/B in this boot, and act. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "lib/atomicfile.h"
#include "bench/args.h"
#include "bench/benchfile.h"
#include "canary/calibration.h"
#include "canary/args.h"
#include "canary/ledger.h"
#include "canary/report.h"
#include "cmd/canary.h"
#include "commands.h"
#include "host/feature.h"
#include "rollout/core.h"
#include "lib/statedir.h"

/* Now, for file names: 20261130T214501Z. */
static void utc_stamp(char *out, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, len, "%Y%m%dT%H%M%SZ", &tm);
}

/*
 * The cap: --pairs-max, else the largest the calibration chose for these
 * workloads, else the default.  δ is the policy: --delta or the floor.
 */
static int pick_cap(const struct canary_args *a, struct canary_opts *o,
		    struct canary_decision *d)
{
	struct calibration cal;
	char why[PATH_MAX + 128];
	unsigned int cap = 0;
	int found = 0, err;

	for (int w = 0; w < o->nr_workloads; w++) {
		o->delta[w] = a->delta ? a->delta : a->floor;
		d->delta_source[w] = a->delta ? "option" : "policy";
	}
	o->plan.pairs_max = a->pairs_max ? a->pairs_max : SEQRULE_DEFAULT_CAP;
	d->cap_source = a->pairs_max ? "option" : "default";
	if (a->pairs_max || a->no_calibration)
		return 0;
	err = calibration_load(&cal, why, sizeof(why));
	if (err == -EBADMSG) {
		fprintf(stderr, "rafleet: %s\n", why);
		return err;
	}
	if (err == -ESTALE)
		fprintf(stderr, "rafleet canary: %s; using the default cap\n", why);
	if (err == -EXDEV)
		fprintf(stderr, "rafleet canary: the calibration was made on another machine; using the default cap\n");
	if (err)
		return 0;
	for (int w = 0; w < o->nr_workloads; w++) {
		const struct calibration_entry *e = calibration_find(&cal, o->workload[w]->name);

		if (!e)
			continue;
		found++;
		if (e->cap > cap)
			cap = e->cap;
	}
	if (found) {	/* a workload not calibrated keeps the default's say */
		if (found < o->nr_workloads && cap < SEQRULE_DEFAULT_CAP)
			cap = SEQRULE_DEFAULT_CAP;
		o->plan.pairs_max = cap;
		d->cap_source = "calibration";
	}
	return 0;
}

static int setup(const struct canary_args *a, struct canary_opts *o,
		 struct canary_decision *d, char paths[][PATH_MAX])
{
	int err;

	memset(o, 0, sizeof(*o));
	/* before any file or record is written: a kernel without it cannot run */
	err = feature_get(a->feature);
	if (err == -ENOENT) {
		fprintf(stderr, "rafleet canary: vm.%s: this kernel has no such sysctl\n",
			a->feature->name);
		return EXIT_FAILED;
	}
	o->feature = a->feature;
	o->aa = a->aa;
	o->seed = a->seed;
	o->runs = a->runs;
	o->ring_pages = a->ring_pages;
	o->nr_workloads = a->nr_workloads;
	memcpy(o->workload, a->workload, sizeof(o->workload));
	if (!o->nr_workloads) {
		const char *const *names = canary_default_workloads(a->feature);

		for (; names && *names && o->nr_workloads < CANARY_MAX_WORKLOADS; names++)
			o->workload[o->nr_workloads++] = scenario_find(*names);
	}
	for (int w = 0; w < o->nr_workloads; w++) {
		err = benchfile_prepare("canary", a->file, a->size, o->workload[w]->file,
					paths[w], PATH_MAX);
		if (err) {
			if (err != -EEXIST)
				fprintf(stderr, "rafleet canary: %s: %s\n", paths[w], strerror(-err));
			return EXIT_USAGE;
		}
		o->path[w] = paths[w];
	}
	if (pick_cap(a, o, d))
		return EXIT_FAILED;
	return EXIT_OK;
}

/*
 * Under the host's lock: this run's alpha from the ledger (an A/A trial
 * has the first run's and is not counted), and the plan.
 */
static int plan_run(const struct canary_args *a, struct canary_opts *o,
		    struct canary_decision *d, struct ledger *l, const char *kernel)
{
	const char *why;
	char lwhy[PATH_MAX + 128];
	int err = ledger_load(l, lwhy, sizeof(lwhy));

	if (err) {
		fprintf(stderr, "rafleet canary: %s\n", lwhy);
		return EXIT_FAILED;
	}
	d->alpha_total = a->alpha;
	d->run = a->aa ? 0 : ledger_runs(l, o->feature->name, kernel);
	o->plan.pairs_min = a->pairs_min;
	o->plan.pairs_step = SEQRULE_DEFAULT_STEP;
	o->plan.metrics = (unsigned int)o->nr_workloads;
	o->plan.alpha = ledger_alpha(a->alpha, d->run);
	if (o->plan.pairs_min > o->plan.pairs_max)
		o->plan.pairs_min = o->plan.pairs_max;
	if (seqrule_plan(&o->plan, &why)) {
		fprintf(stderr, "rafleet canary: %s (run %u of vm.%s on this kernel, alpha %.3g %%, cap %u)\n",
			why, d->run + 1, o->feature->name, o->plan.alpha * 100, o->plan.pairs_max);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void canary_decide(const struct canary_opts *o, const struct canary_result *r,
		   struct canary_decision *d)
{
	const struct canary_series *w0 = &r->s[0][CM_WALL];

	d->action = "none";
	switch (r->verdict) {
	case VERDICT_PASS:
		d->action = "keep";
		snprintf(d->why, sizeof(d->why),
			 "no loss beyond delta is plausible (%s: %+.1f %% [%+.1f, %+.1f]); vm.%s stays %d",
			 o->workload[0]->name, expm1(w0->v.hl.estimate) * 100,
			 expm1(w0->v.hl.lo) * 100, expm1(w0->v.hl.hi) * 100,
			 o->feature->name, r->was);
		break;
	case VERDICT_REGRESS:
		if (o->aa)
			snprintf(d->why, sizeof(d->why),
				 "an A/A trial has nothing to turn off: a REGRESS here is a false alarm");
		else if (!r->corroborated)
			snprintf(d->why, sizeof(d->why),
				 "REGRESS, but not corroborated (%s): measure again before acting",
				 r->corroboration);
		else {
			d->action = "turn-off";
			snprintf(d->why, sizeof(d->why),
				 "costs more than delta with the feature on, corroborated by %s",
				 r->corroboration);
		}
		break;
	default:
		snprintf(d->why, sizeof(d->why),
			 "after %u pairs the bounds still reach both sides of delta: nothing changes; a rerun has half the alpha left",
			 r->pairs);
		break;
	}
}

/* Where the report and the picture go, named by feature and time. */
static int report_paths(const struct canary_args *a, const struct canary_opts *o,
			char *json_path, char *svg_path)
{
	char dir[PATH_MAX], stamp[32];
	int err = 0;

	if (a->report_dir) {
		snprintf(dir, sizeof(dir), "%s", a->report_dir);
	} else {
		err = statedir_ensure();
		if (!err)
			err = statedir_path("canary", dir, sizeof(dir));
	}
	if (err)
		return err;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	utc_stamp(stamp, sizeof(stamp));
	if ((size_t)snprintf(json_path, PATH_MAX, "%s/%s-%s.json", dir, o->feature->name,
			     stamp) >= PATH_MAX ||
	    (size_t)snprintf(svg_path, PATH_MAX, "%s/%s-%s.svg", dir, o->feature->name,
			     stamp) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

struct report_ctx {
	const struct canary_opts *o;
	const struct canary_result *r;
	const struct canary_decision *d;
};

static int svg_fill(FILE *f, const void *arg)
{
	const struct report_ctx *c = arg;

	canary_report_svg(f, c->o, c->r);
	return ferror(f) ? -EIO : 0;
}

static int json_fill(FILE *f, const void *arg)
{
	const struct report_ctx *c = arg;

	canary_report_json(f, c->o, c->r, c->d);
	return ferror(f) ? -EIO : 0;
}

/* The picture, or the JSON report, written atomically.  0 or -errno. */
static int write_report(const char *path, bool svg, const struct canary_opts *o,
			const struct canary_result *r, const struct canary_decision *d)
{
	struct report_ctx c = { o, r, d };

	return atomic_write_stream(path, 0644, svg ? svg_fill : json_fill, &c);
}

int canary_act(struct rollout *ro, const struct canary_opts *o,
	       const struct canary_result *r, struct canary_decision *d,
	       const char *evidence)
{
	char detail[PATH_MAX + 1024];
	int err;

	if (!strcmp(d->action, "turn-off")) {
		snprintf(detail, sizeof(detail), "canary REGRESS after %u pairs: %s",
			 r->pairs, d->why);
		err = rollout_feature_off(ro, o->feature, detail, evidence);
		if (err) {
			fprintf(stderr, "rafleet canary: could not turn vm.%s off: %s\n",
				o->feature->name, strerror(-err));
			return err;
		}
		d->acted = true;
		return 0;
	}
	snprintf(detail, sizeof(detail), "vm.%s: %s after %u pairs, %s: %s (%s)",
		 o->feature->name, verdict_name(r->verdict), r->pairs, d->action,
		 d->why, evidence);
	return rollout_record(ro, "canary", detail);
}

int cmd_canary(int argc, char **argv)
{
	static char paths[CANARY_MAX_WORKLOADS][PATH_MAX];
	char json_path[PATH_MAX], svg_path[PATH_MAX];
	struct canary_decision d = { 0 };
	struct canary_result *r;
	struct rollout *ro = NULL;
	static struct ledger ledger;
	struct canary_args a;
	struct canary_opts o;
	struct utsname u;
	int ret, err;

	if (canary_parse_args(argc, argv, &a)) {
		fprintf(stderr, "rafleet canary: %s\n", a.error);
		return EXIT_USAGE;
	}
	if (a.help) {
		canary_usage(stdout, false);
		return EXIT_OK;
	}
	ret = setup(&a, &o, &d, paths);
	if (ret)
		return ret;
	r = calloc(1, sizeof(*r));
	if (!r)
		return EXIT_FAILED;
	/* the host's lock: no stage, guard or other canary meanwhile */
	err = rollout_open(&ro, "canary");
	if (err) {
		if (err != -EBUSY)
			fprintf(stderr, "rafleet canary: cannot open the rollout state: %s\n",
				strerror(-err));
		free(r);
		return EXIT_FAILED;
	}
	uname(&u);
	ret = plan_run(&a, &o, &d, &ledger, u.release);
	if (ret) {
		rollout_close(ro);
		free(r);
		return ret;
	}
	err = canary_run(&o, r);
	if (!err && !o.aa) {	/* this run's alpha is spent, whatever it found */
		err = ledger_charge(&ledger, o.feature->name, u.release);
		if (err)
			snprintf(r->error, sizeof(r->error), "cannot count the run in %s: %s",
				 LEDGER_FILE, strerror(-err));
	}
	if (err) {
		fprintf(stderr, "rafleet canary: %s\n", r->error);
		rollout_record(ro, "canary", r->error);
		rollout_close(ro);
		free(r);
		return EXIT_FAILED;
	}
	canary_decide(&o, r, &d);
	if (!a.act && !strcmp(d.action, "turn-off"))
		snprintf(d.why + strlen(d.why), sizeof(d.why) - strlen(d.why),
			 " (not done: no --act)");
	/* the picture and the report first: acting points at them */
	err = report_paths(&a, &o, json_path, svg_path);
	if (!err)
		err = write_report(svg_path, true, &o, r, &d);
	if (!err) {
		d.svg = svg_path;
		err = write_report(json_path, false, &o, r, &d);
	}
	if (err)
		fprintf(stderr, "rafleet canary: cannot write the report: %s\n", strerror(-err));
	if (a.act && !err) {
		err = canary_act(ro, &o, r, &d, json_path);
		if (!err && d.acted)
			err = write_report(json_path, false, &o, r, &d);
	}
	rollout_close(ro);
	if (a.json)
		canary_report_json(stdout, &o, r, &d);
	else
		canary_report_table(stdout, &o, r, &d);
	ret = err ? EXIT_FAILED :
	      r->verdict == VERDICT_PASS ? EXIT_OK :
	      r->verdict == VERDICT_REGRESS ? EXIT_REGRESS : EXIT_UNKNOWN;
	free(r);
	return ret;
}
