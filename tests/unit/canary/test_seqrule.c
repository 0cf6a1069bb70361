// SPDX-License-Identifier: GPL-2.0
/*
 * seqrule: the plan's levels checked against an enumeration of every
 * sign pattern, the fast decision against the Walsh-average bounds, and
 * the error rates and power of the whole sequential rule by simulation
 * (lib/sim.h, a fixed seed, 20,000 trials a cell, so the counts are exact
 * and the same on every machine).  The table this prints is the one in
 * README.md and docs/canary.md.
 *
 * The simulation draws what the canary measures: per pair and workload,
 * the log-ratio d = ln(on / off) of the two arms' wall times, normal
 * (or Student t(3), heavier tails) around the true shift with sd
 * "noise".  An interfered pair (probability 0.1 where said) has one of
 * its arms, chosen at random, slowed by an exponential amount of mean
 * 20 %, as a backup or a cron job would.  The default canary judges two
 * workloads; where one regresses, the other does not move.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "canary/ledger.h"
#include "canary/seqrule.h"
#include "sim.h"
#include "tap.h"

#define TRIALS 20000

static struct seqrule_plan plan(unsigned int metrics, double alpha)
{
	struct seqrule_plan p = { .pairs_min = SEQRULE_DEFAULT_FIRST,
				  .pairs_step = SEQRULE_DEFAULT_STEP,
				  .pairs_max = SEQRULE_DEFAULT_CAP, .metrics = metrics,
				  .alpha = alpha };

	seqrule_plan(&p, NULL);
	return p;
}

/* P(W+ <= c) for n pairs by enumerating all 2^n sign patterns. */
static double brute_cdf(unsigned int n, int c)
{
	uint64_t hits = 0;

	for (uint32_t signs = 0; signs < (1u << n); signs++) {
		int w = 0;

		for (unsigned int r = 1; r <= n; r++)
			if (signs & (1u << (r - 1)))
				w += (int)r;
		hits += w <= c;
	}
	return (double)hits / (double)(1u << n);
}

struct cell {
	const char *name;
	double shift[2];	/* true shift of each workload, a change */
	double noise;		/* sd of a pair's log-ratio */
	double interfered;	/* share of pairs with interference */
	bool heavy;		/* t(3) noise, scaled to the same sd */
};

struct tally {
	unsigned int pass, regress, unknown;
	double pairs;
};

static struct sim_rng rng;

static double draw(const struct cell *c, int w)
{
	double z = c->heavy ? sim_student_t(&rng, 3) / sqrt(3.0) : sim_normal(&rng);
	double d = log1p(c->shift[w]) + c->noise * z;

	if (c->interfered > 0 && sim_uniform(&rng) < c->interfered) {
		double x = sim_exponential(&rng, 0.2);

		d += sim_uniform(&rng) < 0.5 ? x : -x;
	}
	return d;
}

/* One canary on fresh pairs, both workloads, until the rule stops. */
static enum verdict trial(const struct seqrule_plan *p, const struct cell *c,
			  unsigned int *pairs)
{
	double d[2][SIGNRANK_MAX_N];
	unsigned int passed[2] = { 0, 0 };
	enum verdict r = VERDICT_CONTINUE;

	for (unsigned int n = 1; n <= p->pairs_max && r == VERDICT_CONTINUE; n++) {
		struct metric_verdict v[2] = { 0 };

		for (int w = 0; w < 2; w++)
			d[w][n - 1] = draw(c, w);
		if (!seqrule_is_look(p, n))
			continue;
		for (int w = 0; w < 2; w++) {
			int x = seqrule_decide(p, d[w], n, 0.03, &passed[w]);

			if (x < 0)
				return VERDICT_CONTINUE;
			v[w].verdict = (enum verdict)x;
		}
		r = seqrule_combine(p, v, 2, n);
		*pairs = n;
	}
	return r;
}

static struct tally run_cell(const struct seqrule_plan *p, const struct cell *c,
			     uint64_t seed)
{
	struct tally t = { 0 };

	sim_seed(&rng, seed);
	for (int i = 0; i < TRIALS; i++) {
		unsigned int n = 0;
		enum verdict r = trial(p, c, &n);

		t.pass += r == VERDICT_PASS;
		t.regress += r == VERDICT_REGRESS;
		t.unknown += r == VERDICT_UNKNOWN;
		t.pairs += n;
	}
	t.pairs /= TRIALS;
	diag("%-44s PASS %6.2f %%  REGRESS %6.2f %%  UNKNOWN %6.2f %%  pairs %5.1f",
	     c->name, 100.0 * t.pass / TRIALS, 100.0 * t.regress / TRIALS,
	     100.0 * t.unknown / TRIALS, t.pairs);
	return t;
}

static double pct(unsigned int k)
{
	return 100.0 * k / TRIALS;
}

static void test_plan(void)
{
	struct seqrule_plan p = plan(2, SEQRULE_DEFAULT_ALPHA), bad;
	bool exact = true, within = true, monotone = true;
	const char *why;

	ok(p.nlooks > 0 && p.look[p.nlooks - 1].n == SEQRULE_DEFAULT_CAP,
	   "the default plan ends with a look at the cap (%u looks)", p.nlooks);
	is_u64(p.first_deciding, 12, "its first look is at 12 pairs: before, no test spends so little");
	for (unsigned int k = 0; k < p.nlooks; k++) {
		const struct seqrule_look *l = &p.look[k];

		for (int dir = 0; dir < SEQ_NR; dir++) {
			/* 2^n patterns: up to 16 pairs */
			if (l->crit[dir] >= 0 && l->n <= 16 &&
			    fabs(brute_cdf(l->n, l->crit[dir]) - l->level[dir]) > 1e-12)
				exact = false;
			if (l->spent[dir] > p.alpha * pow((double)l->n / p.pairs_max, p.rho) + 1e-15)
				within = false;
			if (k && l->spent[dir] < p.look[k - 1].spent[dir])
				monotone = false;
		}
		diag("look at %2u pairs: REGRESS c %3d level %.2e spent %.2e; PASS c %3d level %.2e spent %.2e",
		     l->n, l->crit[SEQ_REGRESS], l->level[SEQ_REGRESS], l->spent[SEQ_REGRESS],
		     l->crit[SEQ_PASS], l->level[SEQ_PASS], l->spent[SEQ_PASS]);
	}
	ok(exact, "each look's level (to 16 pairs) is P(W+ <= c), as an enumeration of the signs gives");
	ok(within, "no look has spent more than alpha (n/N)^rho in either direction");
	ok(monotone, "what is spent only grows");
	ok(p.look[p.nlooks - 1].spent[SEQ_REGRESS] <= SEQRULE_DEFAULT_ALPHA &&
	   p.look[p.nlooks - 1].spent[SEQ_REGRESS] > 0.8 * SEQRULE_DEFAULT_ALPHA,
	   "by the cap REGRESS has spent most of alpha, never more (%.3g)",
	   p.look[p.nlooks - 1].spent[SEQ_REGRESS]);
	ok(!seqrule_is_look(&p, 8) && !seqrule_is_look(&p, 13) && seqrule_is_look(&p, 14),
	   "no look where no test exists (8), none off the step (13)");

	bad = (struct seqrule_plan){ .pairs_min = 4, .pairs_step = 2, .pairs_max = 7,
				    .metrics = 1, .alpha = 0.005 };
	is_i64(seqrule_plan(&bad, &why), -EINVAL, "a cap of 7 pairs has no test at 0.5 %% (2^-7 is 0.8 %%)");
	ok(why != NULL, "and says why: %s", why ? why : "(null)");
	bad.pairs_max = 61;
	is_i64(seqrule_plan(&bad, NULL), -EINVAL, "a cap beyond 60 pairs is refused");
	bad = plan(1, 0.005);
	bad.metrics = 0;
	is_i64(seqrule_plan(&bad, NULL), -EINVAL, "no metric is refused");
	bad.metrics = 1;
	bad.alpha = 0.7;
	is_i64(seqrule_plan(&bad, NULL), -EINVAL, "alpha 0.7 is refused");
}

static void test_known(void)
{
	struct seqrule_plan p = plan(1, SEQRULE_DEFAULT_ALPHA);
	struct metric_verdict v = { 0 };
	double d[SIGNRANK_MAX_N];
	unsigned int passed = 0;

	for (int i = 0; i < 12; i++)
		d[i] = log(1.10);
	is_i64(seqrule_judge(&p, d, 12, 0.03, &v), 0, "judge 12 pairs of +10 %%");
	is_str(verdict_name(v.verdict), "REGRESS", "+10 %% everywhere, delta 3 %%: REGRESS");
	memset(&v, 0, sizeof(v));
	seqrule_judge(&p, d, 12, 0.15, &v);
	is_str(verdict_name(v.verdict), "PASS", "+10 %% within a 15 %% allowance: PASS");
	is_str(effect_name(v.effect), "within", "whose bounds lie inside +-15 %%");
	is_u64(v.passed_at, 12, "passed at 12 pairs");
	for (int i = 12; i < 14; i++)
		d[i] = log(1.30);
	seqrule_judge(&p, d, 14, 0.15, &v);
	is_str(verdict_name(v.verdict), "PASS", "a metric that passed stays passed at the next look");
	is_u64(v.passed_at, 12, "from when it passed");
	for (int i = 0; i < 12; i++)
		d[i] = log(0.7) + 0.01 * (i % 3);
	memset(&v, 0, sizeof(v));
	seqrule_judge(&p, d, 12, 0.03, &v);
	ok(v.verdict == VERDICT_PASS && v.effect == EFFECT_BETTER,
	   "-30 %% everywhere: PASS, better (%s, %s)", verdict_name(v.verdict), effect_name(v.effect));
	is_i64(seqrule_judge(&p, d, 10, 0.03, &v), -EINVAL, "10 pairs is not a look: refused");
	/* 1, -1, 2, -2, ...: wide around 0 */
	for (int i = 0; i < SEQRULE_DEFAULT_CAP; i++)
		d[i] = (i % 2 ? -1 : 1) * 0.2 * (1 + i / 2);
	memset(&v, 0, sizeof(v));
	seqrule_judge(&p, d, 12, 0.03, &v);
	is_str(verdict_name(v.verdict), "CONTINUE", "wide around 0 at 12 pairs: CONTINUE");
	seqrule_judge(&p, d, SEQRULE_DEFAULT_CAP, 0.03, &v);
	is_str(verdict_name(v.verdict), "UNKNOWN", "and at the cap: UNKNOWN");
	ok(v.hl.lo_valid && v.hl.hi_valid && v.hl.lo < 0 && v.hl.hi > 0,
	   "its bounds hold 0 [%g, %g]", v.hl.lo, v.hl.hi);
	is_i64(seqrule_judge(&p, d, 12, 0, &v), -EINVAL, "delta 0 is refused");
	d[3] = NAN;
	is_i64(seqrule_decide(&p, d, 12, 0.03, &passed), -EINVAL, "a NaN is refused");

	/* one outlier among 20: a rank, not the verdict */
	for (int i = 0; i < 20; i++)
		d[i] = log(1.10) + 0.005 * ((i * 7) % 5 - 2);
	d[4] = log(0.5);
	memset(&v, 0, sizeof(v));
	seqrule_judge(&p, d, 20, 0.03, &v);
	is_str(verdict_name(v.verdict), "REGRESS",
	       "+10 %% with one pair at -50 %% among 20: still REGRESS");
}

/* The fast decision says what the Walsh-average bounds say. */
static void test_decide_matches_bounds(void)
{
	struct seqrule_plan p = plan(2, SEQRULE_DEFAULT_ALPHA);
	unsigned int same = 0, total = 0;

	sim_seed(&rng, 7);
	for (int t = 0; t < 3000; t++) {
		double d[SIGNRANK_MAX_N], shift = 0.06 * sim_uniform(&rng);
		unsigned int k = (unsigned int)(sim_uniform(&rng) * p.nlooks);
		unsigned int n = p.look[k].n, passed = 0;
		struct metric_verdict v = { 0 };
		int x;

		for (unsigned int i = 0; i < n; i++)	/* ties too: rounded */
			d[i] = round((shift + 0.03 * sim_normal(&rng)) * 400) / 400;
		x = seqrule_decide(&p, d, n, 0.03, &passed);
		seqrule_judge(&p, d, n, 0.03, &v);
		total++;
		same += x == (int)v.verdict &&
			(x != VERDICT_REGRESS || v.hl.lo > log1p(0.03)) &&
			(x != VERDICT_PASS || v.hl.hi < log1p(0.03)) &&
			(x == VERDICT_REGRESS || !v.hl.lo_valid || !(v.hl.lo > log1p(0.03))) &&
			(x == VERDICT_PASS || !v.hl.hi_valid || !(v.hl.hi < log1p(0.03)));
	}
	ok(same == total, "the decision from counts equals the bounds' on %u of %u series, ties included",
	   same, total);
}

static void test_simulation(void)
{
	struct seqrule_plan p = plan(2, SEQRULE_DEFAULT_ALPHA);
	const struct cell edge = { .name = "shift = +delta (both), noise 2 %", .shift = { 0.03, 0.03 }, .noise = 0.02 };
	const struct cell edge_t = { .name = "shift = +delta (both), t(3) noise 2 %",
				     .shift = { 0.03, 0.03 }, .noise = 0.02, .heavy = true };
	const struct cell edge5 = { .name = "shift = +delta (both), noise 5 %", .shift = { 0.03, 0.03 }, .noise = 0.05 };
	const struct cell plus5 = { .name = "+5 % (one workload), noise 2 %", .shift = { 0.05, 0 }, .noise = 0.02 };
	const struct cell plus10 = { .name = "+10 % (one), noise 2 %", .shift = { 0.10, 0 }, .noise = 0.02 };
	const struct cell plus10i = { .name = "+10 % (one), noise 2 %, 10 % interfered",
				      .shift = { 0.10, 0 }, .noise = 0.02, .interfered = 0.1 };
	const struct cell aa = { .name = "A/A, noise 2 %", .shift = { 0, 0 }, .noise = 0.02 };
	const struct cell aa3 = { .name = "A/A, noise 3 %", .shift = { 0, 0 }, .noise = 0.03 };
	const struct cell aai = { .name = "A/A, noise 2 %, 10 % interfered", .shift = { 0, 0 },
				  .noise = 0.02, .interfered = 0.1 };
	const struct cell better = { .name = "-20 % (both), noise 5 %", .shift = { -0.2, -0.2 }, .noise = 0.05 };
	struct tally t;

	diag("the default canary: 2 workloads, delta 3 %%, alpha %.2g %% each way, looks from %u, cap %u, rho %.1f; %d trials a cell",
	     p.alpha * 100, p.first_deciding, p.pairs_max, p.rho, TRIALS);
	t = run_cell(&p, &edge, 1);
	ok(pct(t.regress) <= 0.5, "false REGRESS at shift = delta: %.2f %% <= 0.5 %%", pct(t.regress));
	ok(pct(t.pass) <= 0.5, "false PASS at shift = delta: %.2f %% <= 0.5 %%", pct(t.pass));
	t = run_cell(&p, &edge_t, 2);
	ok(pct(t.regress) <= 0.5, "... with t(3) noise: %.2f %% <= 0.5 %%", pct(t.regress));
	t = run_cell(&p, &edge5, 3);
	ok(pct(t.regress) <= 0.5, "... with 5 %% noise: %.2f %% <= 0.5 %%", pct(t.regress));
	t = run_cell(&p, &plus5, 4);
	ok(pct(t.regress) >= 90, "+5 %% caught: %.2f %% >= 90 %%", pct(t.regress));
	t = run_cell(&p, &plus10, 5);
	ok(pct(t.regress) >= 99, "+10 %% caught: %.2f %% >= 99 %%", pct(t.regress));
	/* a handful of 20,000 need the look at 14: 12.0 to a tenth */
	ok(t.pairs < 12.05, "+10 %%: %.4f pairs on average, 12.0 to a tenth", t.pairs);
	t = run_cell(&p, &plus10i, 6);
	ok(pct(t.regress) >= 95, "+10 %% with 10 %% of pairs interfered: %.2f %% >= 95 %%",
	   pct(t.regress));
	t = run_cell(&p, &aa, 7);
	ok(pct(t.pass) >= 90, "A/A at 2 %% noise ends PASS: %.2f %% >= 90 %%", pct(t.pass));
	ok(t.regress == 0 || pct(t.regress) <= 0.01, "and never REGRESS (%u)", t.regress);
	t = run_cell(&p, &aa3, 8);
	ok(pct(t.pass) >= 80, "A/A at 3 %% noise: PASS %.2f %% >= 80 %%", pct(t.pass));
	t = run_cell(&p, &aai, 9);
	ok(pct(t.pass) >= 80, "A/A, 10 %% interfered: PASS %.2f %% >= 80 %%", pct(t.pass));
	t = run_cell(&p, &better, 10);
	ok(pct(t.pass) >= 99, "an improvement of 20 %% is PASS: %.2f %%", pct(t.pass));
}

/*
 * Reruns: a feature at exactly +delta, rerun after each UNKNOWN up to
 * four runs, each with the ledger's alpha: over all of them a wrong
 * REGRESS stays within the total alpha.
 */
static void test_reruns(void)
{
	const struct cell edge = { .name = "rerun", .shift = { 0.03, 0.03 }, .noise = 0.03 };
	unsigned int wrong = 0, fresh = 0;

	is_str(ledger_alpha(0.01, 0) == 0.005 ? "0.005" : "other", "0.005",
	       "the first run has half the total alpha");
	ok(fabs(ledger_alpha(0.01, 2) - 0.00125) < 1e-15, "the third an eighth");
	static struct seqrule_plan runs[4], fresh_plan;

	for (unsigned int run = 0; run < 4; run++)
		runs[run] = plan(2, ledger_alpha(0.01, run));
	fresh_plan = plan(2, 0.01);
	sim_seed(&rng, 11);
	for (int i = 0; i < TRIALS; i++) {
		for (unsigned int run = 0; run < 4; run++) {
			unsigned int n;
			enum verdict r = trial(&runs[run], &edge, &n);

			if (r == VERDICT_REGRESS) {
				wrong++;
				break;
			}
			if (r != VERDICT_UNKNOWN)
				break;
		}
	}
	sim_seed(&rng, 11);
	for (int i = 0; i < TRIALS; i++) {	/* the same, each run afresh */
		for (unsigned int run = 0; run < 4; run++) {
			unsigned int n;
			enum verdict r = trial(&fresh_plan, &edge, &n);

			if (r == VERDICT_REGRESS) {
				fresh++;
				break;
			}
			if (r != VERDICT_UNKNOWN)
				break;
		}
	}
	diag("up to 4 runs at shift = delta, noise 3 %%: wrong REGRESS %.2f %% with the ledger, %.2f %% with a fresh 1 %% each run",
	     pct(wrong), pct(fresh));
	ok(pct(wrong) <= 1.0, "with the ledger, reruns stay within the total alpha: %.2f %% <= 1 %%",
	   pct(wrong));
	ok(wrong < fresh, "fresh alpha per rerun errs more (%u against %u)", fresh, wrong);
}

int main(void)
{
	test_plan();
	test_known();
	test_decide_matches_bounds();
	test_simulation();
	test_reruns();
	return tap_done();
}
