// SPDX-License-Identifier: GPL-2.0
/* The canary's runs: ABBA blocks of cold runs, folded into log-ratios. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "canary/canary.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "host/sysctl.h"

const struct canary_metric_info canary_metrics[CM_NR] = {
	[CM_WALL] = { "wall", "wall time of the workload", true },
	[CM_MAJFLT] = { "majflt", "major faults", false },
	[CM_BLOCK_READS] = { "block_reads", "read requests of the device", false },
	[CM_DEVICE_BYTES] = { "device_bytes", "bytes read from the device", false },
	[CM_FOLIOS] = { "folios", "folios added to the page cache", false },
	[CM_SPREAD] = { "spread", "ln(slowest / fastest) of the arm's runs", false },
};

static const struct {
	const char *feature;
	const char *const workloads[3];
} defaults[] = {
	{ "readahead_unbounded_large_folios", { "readahead-2m", "willneed-8m", NULL } },
	{ "readahead_async_two_windows", { "pcopy-1t-skip", "seq-read", NULL } },
	{ "readahead_async_keep_half", { "read-4k-then-512k", "seq-read", NULL } },
	{ "readahead_populate_io_pages", { "populate-read", "seq-read", NULL } },
	{ "readahead_exec_mmap_miss_bypass", { "exec-random-cold", "exec-cold", NULL } },
	{ "readahead_exec_large_folio", { "exec-cold", "seq-read", NULL } },
};

const char *const *canary_default_workloads(const struct feature *f)
{
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (!strcmp(defaults[i].feature, f->name))
			return defaults[i].workloads;
	return NULL;
}

/* A run's value of metric @m; false (and why) when it was not measured. */
static bool metric_value(const struct run_result *r, enum canary_metric m,
			 double *val, const char **why)
{
	*why = NULL;
	switch (m) {
	case CM_WALL:
		*val = (double)r->wall_ns;
		return true;
	case CM_MAJFLT:
		*val = (double)r->majflt;
		return true;
	case CM_BLOCK_READS:
	case CM_DEVICE_BYTES:
		if (!r->block.ok) {
			*why = r->block.reason;
			return false;
		}
		*val = m == CM_BLOCK_READS ? (double)r->block_reads :
		       (double)r->block_sectors * 512;
		return true;
	case CM_FOLIOS:
		if (!r->folios.ok) {
			*why = r->folios.reason;
			return false;
		}
		*val = (double)r->folios_total;
		return true;
	default:
		return false;
	}
}

/* ln(slowest / fastest) of an arm's runs; false with one run. */
static bool arm_spread(const struct canary_arm *a, double *val, const char **why)
{
	*why = NULL;
	if (a->runs < 2 || !a->best.wall_ns) {
		*why = "one run per arm: no spread (--runs 2 or more)";
		return false;
	}
	*val = log((double)a->slowest_ns / (double)a->best.wall_ns);
	return true;
}

void canary_add_pair(struct canary_result *r, int w, unsigned int pair,
		     const struct canary_arm *off, const struct canary_arm *on)
{
	for (int m = 0; m < CM_NR; m++) {
		struct canary_series *s = &r->s[w][m];
		const char *why_off, *why_on;
		double a, b;
		bool ok_off = m == CM_SPREAD ? arm_spread(off, &a, &why_off) :
			      metric_value(&off->best, m, &a, &why_off);
		bool ok_on = m == CM_SPREAD ? arm_spread(on, &b, &why_on) :
			     metric_value(&on->best, m, &b, &why_on);

		if (!pair) {
			s->available = true;
			s->reason[0] = '\0';
		}
		if (!ok_off || !ok_on) {
			if (s->available)
				snprintf(s->reason, sizeof(s->reason), "%s",
					 why_off ? why_off : why_on);
			s->available = false;
			continue;
		}
		s->off[pair] = a;
		s->on[pair] = b;
		/*
		 * Times are never 0; counts can be, on both sides: +1 keeps
		 * the ratio of counts finite (0 and 0 is a ratio of 1).  A
		 * spread is already a log: its difference.
		 */
		s->d[pair] = m == CM_WALL ? log(b / a) :
			     m == CM_SPREAD ? b - a : log((b + 1) / (a + 1));
	}
}

static void corroborate(const struct canary_opts *o, struct canary_result *r)
{
	struct strbuf c;

	r->corroborated = false;
	sb_init(&c, r->corroboration, sizeof(r->corroboration));
	for (int w = 0; w < o->nr_workloads; w++) {
		if (r->s[w][CM_WALL].v.verdict != VERDICT_REGRESS)
			continue;
		for (int m = 0; m < CM_NR; m++) {
			struct canary_series *s = &r->s[w][m];

			if (m == CM_WALL || m == CM_SPREAD || !s->available ||
			    !seqrule_same_direction(&s->v))
				continue;
			r->corroborated = true;
			sb_addf(&c, "%s%s %s up %+.1f %%", c.used ? "; " : "",
				o->workload[w]->name, canary_metrics[m].name,
				expm1(s->v.hl.estimate) * 100);
		}
		for (int x = 0; x < o->nr_workloads; x++) {
			struct canary_series *s = &r->s[x][CM_WALL];

			if (x == w || !seqrule_same_direction(&s->v))
				continue;
			r->corroborated = true;
			sb_addf(&c, "%s%s wall up %+.1f %% too", c.used ? "; " : "",
				o->workload[x]->name, expm1(s->v.hl.estimate) * 100);
		}
	}
	if (!r->corroborated)
		snprintf(r->corroboration, sizeof(r->corroboration),
			 "no clock-free counter and no second workload moved the same way");
}

/* Does a workload's spread grow with the feature on? */
static void erratic(const struct canary_opts *o, struct canary_result *r)
{
	r->erratic = false;
	r->erratic_why[0] = '\0';
	for (int w = 0; w < o->nr_workloads; w++) {
		const struct canary_series *s = &r->s[w][CM_SPREAD];

		if (!s->available || !seqrule_same_direction(&s->v))
			continue;
		r->erratic = true;
		snprintf(r->erratic_why, sizeof(r->erratic_why),
			 "%s: the runs of arm B spread %.1f points more than arm A's",
			 o->workload[w]->name, s->v.hl.estimate * 100);
		return;
	}
}

void canary_judge(const struct canary_opts *o, struct canary_result *r,
		  unsigned int n)
{
	struct metric_verdict judged[CANARY_MAX_WORKLOADS];

	for (int w = 0; w < o->nr_workloads; w++) {
		for (int m = 0; m < CM_NR; m++) {
			struct canary_series *s = &r->s[w][m];

			/* a metric that passed stays passed (seqrule_judge()) */
			if (s->available &&
			    seqrule_judge(&o->plan, s->d, n, o->delta[w], &s->v))
				s->available = false;
		}
		judged[w] = r->s[w][CM_WALL].v;
	}
	r->pairs = n;
	r->verdict = seqrule_combine(&o->plan, judged, (size_t)o->nr_workloads, n);
	if (r->nr_looks < SIGNRANK_MAX_N)
		r->looks[r->nr_looks++] = (struct canary_look){ n, r->verdict };
	if (r->verdict == VERDICT_REGRESS)
		corroborate(o, r);
	else
		r->corroboration[0] = '\0';
	erratic(o, r);
}

static int set_arm(const struct canary_opts *o, struct canary_result *r, int arm)
{
	int err = feature_set(o->feature, r->arm[arm]);

	if (err)
		snprintf(r->error, sizeof(r->error), "cannot set vm.%s to %d: %s",
			 o->feature->name, r->arm[arm], strerror(-err));
	return err;
}

/*
 * Run every workload once in @arm, into @res[w]: the run with the least
 * wall time (interference only ever adds time), with the counts of that
 * same run, and the most wall time of the runs.  @first starts afresh.
 */
static int run_arm(const struct canary_opts *o, struct canary_result *r,
		   struct measure_file *mf, int arm, uint64_t seed,
		   struct canary_arm *res, bool first)
{
	static struct run_result one;
	struct measure_opts mo = { .seed = seed,
				   .ring_bytes = (size_t)o->ring_pages * page_size() };
	int err = set_arm(o, r, arm);

	for (int w = 0; w < o->nr_workloads && !err; w++) {
		err = measure_run(&mf[w], o->workload[w], &mo, &one);
		if (!err && one.status)
			err = one.status;
		if (err) {
			snprintf(r->error, sizeof(r->error), "%s failed in arm %c: %s",
				 o->workload[w]->name, 'A' + arm, strerror(-err));
			break;
		}
		if (first)
			res[w] = (struct canary_arm){ .best = one, .slowest_ns = one.wall_ns };
		else if (one.wall_ns < res[w].best.wall_ns)
			res[w].best = one;
		if (one.wall_ns > res[w].slowest_ns)
			res[w].slowest_ns = one.wall_ns;
		res[w].runs++;
	}
	return err;
}

/*
 * One pair: o->runs rounds of both arms, alternating inside the pair too
 * (A B A B ... or B A B A ...), so that a spell of interference, which
 * lasts longer than a run, falls on both arms alike.
 */
static int run_pair(const struct canary_opts *o, struct canary_result *r,
		    struct measure_file *mf, int lead, uint64_t seed,
		    struct canary_arm *a, struct canary_arm *b)
{
	unsigned int runs = o->runs ? o->runs : 1;
	int err = 0;

	for (unsigned int k = 0; k < runs && !err; k++) {
		err = run_arm(o, r, mf, lead, seed, lead ? b : a, !k);
		if (!err)
			err = run_arm(o, r, mf, !lead, seed, lead ? a : b, !k);
	}
	return err;
}

static void progress(const struct canary_opts *o, unsigned int pair,
		     const char *order, const struct canary_arm *a,
		     const struct canary_arm *b)
{
	if (o->quiet)
		return;
	for (int w = 0; w < o->nr_workloads; w++)
		fprintf(stderr, "canary %s: pair %2u (%s) %-20s A %8.1f ms  B %8.1f ms  %+6.1f %%\n",
			o->feature->name, pair + 1, order, o->workload[w]->name,
			a[w].best.wall_ns / 1e6, b[w].best.wall_ns / 1e6,
			((double)b[w].best.wall_ns / (double)a[w].best.wall_ns - 1) * 100);
}

static int canary_blocks(const struct canary_opts *o, struct canary_result *r,
			 struct measure_file *mf)
{
	struct canary_arm a[CANARY_MAX_WORKLOADS], b[CANARY_MAX_WORKLOADS];
	int err;

	/* the unmeasured warm-up, in arm B */
	err = run_arm(o, r, mf, 1, o->seed, b, true);
	for (unsigned int n = 0; !err && n < o->plan.pairs_max; n++) {
		/* ABBA: even pairs start with A, odd pairs with B */
		int lead = n % 2;

		err = run_pair(o, r, mf, lead, o->seed + n, a, b);
		if (err)
			break;
		for (int w = 0; w < o->nr_workloads; w++)
			canary_add_pair(r, w, n, &a[w], &b[w]);
		progress(o, n, lead ? "B,A" : "A,B", a, b);
		if (!seqrule_is_look(&o->plan, n + 1))
			continue;
		canary_judge(o, r, n + 1);
		if (r->verdict != VERDICT_CONTINUE)
			break;
	}
	return err;
}

int canary_run(const struct canary_opts *o, struct canary_result *r)
{
	struct measure_file mf[CANARY_MAX_WORKLOADS];
	char name[96], val[4];
	int err;

	memset(r, 0, sizeof(*r));
	r->was = feature_get(o->feature);
	if (r->was < 0) {
		snprintf(r->error, sizeof(r->error), "vm.%s: %s", o->feature->name,
			 r->was == -ENOENT ? "this kernel has no such sysctl" : strerror(-r->was));
		return r->was;
	}
	r->arm[0] = o->aa ? r->was : 0;
	r->arm[1] = o->aa ? r->was : 1;
	for (int w = 0; w < o->nr_workloads; w++) {
		err = measure_file_open(&mf[w], o->path[w]);
		if (err) {
			snprintf(r->error, sizeof(r->error), "%s: %s", o->path[w], strerror(-err));
			return err;
		}
	}
	snprintf(name, sizeof(name), "vm.%s", o->feature->name);
	snprintf(val, sizeof(val), "%d", r->was);
	sysctl_restore_on_signals();
	err = sysctl_set_saved(name, val);	/* remembers the value to put back */
	if (err) {
		snprintf(r->error, sizeof(r->error), "%s: %s", name, sysctl_saved_strerror(err));
		return err;
	}
	err = canary_blocks(o, r, mf);
	if (sysctl_restore_all() && !err) {
		snprintf(r->error, sizeof(r->error), "could not put %s back to %d", name, r->was);
		err = -EIO;
	}
	return err;
}
