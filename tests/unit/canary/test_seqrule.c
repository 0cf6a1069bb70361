// SPDX-License-Identifier: GPL-2.0
/*
 * seqrule: the plan's levels worked by hand, verdicts on series whose
 * intervals are known, and the error rates of the whole sequential rule
 * by simulation (a fixed-seed generator, so the counts are exact).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "canary/seqrule.h"
#include "tap.h"

static struct seqrule_plan plan(unsigned int metrics)
{
	struct seqrule_plan p = { .pairs_min = 4, .pairs_step = 2,
				  .pairs_max = 12, .metrics = metrics,
				  .alpha = 0.01 };

	seqrule_plan(&p, NULL);
	return p;
}

/* xorshift64* and Box-Muller: normal noise from a fixed seed */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((rng * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 0x1.0p-53)) * cos(2 * M_PI * v);
}

/* Run the rule on fresh pairs of shift @mu and noise @sd until it stops. */
static enum verdict trial(const struct seqrule_plan *p, double mu, double sd,
			  double delta, unsigned int *pairs)
{
	double d[60];
	struct metric_verdict v;
	enum verdict r = VERDICT_CONTINUE;

	for (unsigned int n = 1; n <= p->pairs_max && r == VERDICT_CONTINUE; n++) {
		d[n - 1] = mu + sd * normal();
		if (!seqrule_is_look(p, n))
			continue;
		if (seqrule_judge(p, d, n, delta, &v))
			return VERDICT_CONTINUE;
		r = seqrule_combine(p, &v, 1, n);
		*pairs = n;
	}
	return r;
}

int main(void)
{
	struct seqrule_plan p = plan(1), p2 = plan(2), bad;
	struct metric_verdict v, two[2];
	const char *why;
	double d[12];
	unsigned int n, regress, pass, unknown, pairs_sum;

	/* the levels: alpha 0.01, looks at 4, 6, 8, 10, 12 */
	ok(fabs(p.alpha_look - 0.005) < 1e-12, "1 metric: each look at 0.005 (%g)", p.alpha_look);
	is_u64(p.looks, 2, "1 metric: two looks can decide (10 and 12 pairs)");
	is_u64(p.first_deciding, 10, "1 metric: the first deciding look is at 10 pairs");
	ok(fabs(p2.alpha_look - 0.0025) < 1e-12, "2 metrics: each look at 0.0025 (%g)", p2.alpha_look);
	is_u64(p2.first_deciding, 10, "2 metrics: first deciding look at 10 pairs");
	ok(seqrule_is_look(&p, 4) && seqrule_is_look(&p, 6) && !seqrule_is_look(&p, 5) &&
	   !seqrule_is_look(&p, 3) && seqrule_is_look(&p, 12) && !seqrule_is_look(&p, 13),
	   "looks after each ABBA block from 4 pairs, and at the cap");
	bad = (struct seqrule_plan){ .pairs_min = 4, .pairs_step = 2, .pairs_max = 6,
				    .metrics = 1, .alpha = 0.01 };
	is_i64(seqrule_plan(&bad, &why), -EINVAL, "a cap of 6 pairs can never decide at 99 %%");
	ok(why != NULL, "and says why: %s", why ? why : "(null)");
	bad.pairs_max = 61;
	is_i64(seqrule_plan(&bad, NULL), -EINVAL, "a cap beyond 60 pairs is refused");
	bad = (struct seqrule_plan){ .pairs_min = 4, .pairs_step = 2, .pairs_max = 12,
				    .metrics = 0, .alpha = 0.01 };
	is_i64(seqrule_plan(&bad, NULL), -EINVAL, "no metric is refused");
	bad.metrics = 1;
	bad.alpha = 0.7;
	is_i64(seqrule_plan(&bad, NULL), -EINVAL, "alpha 0.7 is refused");

	/* known intervals: 10 equal log-ratios give [x, x] */
	for (int i = 0; i < 10; i++)
		d[i] = log(1.10);
	is_i64(seqrule_judge(&p, d, 10, 0.03, &v), 0, "judge 10 pairs of +10 %%");
	is_str(verdict_name(v.verdict), "REGRESS", "+10 %% everywhere, delta 3 %%: REGRESS");
	is_i64(seqrule_judge(&p, d, 10, 0.15, &v), 0, "the same with delta 15 %%");
	is_str(verdict_name(v.verdict), "PASS", "+10 %% within a 15 %% allowance: PASS");
	is_str(effect_name(v.effect), "within", "whose interval lies inside +-15 %%");
	for (int i = 0; i < 10; i++)
		d[i] = log(0.7) + 0.01 * (i % 3);
	seqrule_judge(&p, d, 10, 0.03, &v);
	ok(v.verdict == VERDICT_PASS && v.effect == EFFECT_BETTER,
	   "-30 %% everywhere: PASS, better (%s, %s)", verdict_name(v.verdict), effect_name(v.effect));
	for (int i = 0; i < 6; i++)
		d[i] = log(1.5);
	seqrule_judge(&p, d, 6, 0.03, &v);
	is_str(verdict_name(v.verdict), "CONTINUE", "6 pairs of +50 %%: no interval yet, CONTINUE");
	ok(!v.hl.ci_valid, "and no interval at that level");
	/* 1, -1, 2, -2, ...: wide around 0 */
	for (int i = 0; i < 12; i++)
		d[i] = (i % 2 ? -1 : 1) * 0.2 * (1 + i / 2);
	seqrule_judge(&p, d, 10, 0.03, &v);
	is_str(verdict_name(v.verdict), "CONTINUE", "wide around 0 at 10 pairs: CONTINUE");
	seqrule_judge(&p, d, 12, 0.03, &v);
	is_str(verdict_name(v.verdict), "UNKNOWN", "and at the cap: UNKNOWN");
	ok(v.hl.ci_valid && v.hl.lo < 0 && v.hl.hi > 0, "its interval holds 0 [%g, %g]", v.hl.lo, v.hl.hi);
	/* the interval at 12 pairs, c = 3 at 0.005: Walsh ranks 4 and 75 */
	for (int i = 0; i < 12; i++)
		d[i] = i + 1;
	seqrule_judge(&p, d, 12, 0.03, &v);
	ok(v.hl.ci_valid && fabs(v.hl.lo - 2.5) < 1e-12 && fabs(v.hl.hi - 10.5) < 1e-12 &&
	   fabs(v.hl.estimate - 6.5) < 1e-12,
	   "1..12: estimate 6.5, 99.5 %% interval [2.5, 10.5] (got %g [%g, %g])",
	   v.hl.estimate, v.hl.lo, v.hl.hi);
	is_i64(seqrule_judge(&p, d, 12, 0, &v), -EINVAL, "delta 0 is refused");

	/* combining */
	two[0] = (struct metric_verdict){ .verdict = VERDICT_PASS };
	two[1] = (struct metric_verdict){ .verdict = VERDICT_CONTINUE };
	is_str(verdict_name(seqrule_combine(&p2, two, 2, 10)), "CONTINUE", "PASS + CONTINUE: CONTINUE");
	is_str(verdict_name(seqrule_combine(&p2, two, 2, 12)), "UNKNOWN", "PASS + CONTINUE at the cap: UNKNOWN");
	two[1].verdict = VERDICT_PASS;
	is_str(verdict_name(seqrule_combine(&p2, two, 2, 10)), "PASS", "PASS + PASS: PASS");
	two[1].verdict = VERDICT_REGRESS;
	is_str(verdict_name(seqrule_combine(&p2, two, 2, 10)), "REGRESS", "PASS + REGRESS: REGRESS");
	v = (struct metric_verdict){ .hl = { .ci_valid = true, .lo = 0.01, .hi = 0.2 } };
	ok(seqrule_same_direction(&v), "an interval above 0 corroborates");
	v.hl.lo = -0.01;
	ok(!seqrule_same_direction(&v), "one that holds 0 does not");

	/* A/A: 4000 trials with no shift, noise 5 %: false REGRESS within alpha/2 */
	regress = pass = unknown = pairs_sum = 0;
	for (int t = 0; t < 4000; t++) {
		enum verdict r = trial(&p, 0, 0.05, 0.03, &n);

		regress += r == VERDICT_REGRESS;
		pass += r == VERDICT_PASS;
		unknown += r == VERDICT_UNKNOWN;
		pairs_sum += n;
	}
	diag("A/A, noise 5 %%, delta 3 %%: %u PASS, %u UNKNOWN, %u REGRESS, %.1f pairs on average",
	     pass, unknown, regress, pairs_sum / 4000.0);
	ok(regress == 0, "A/A: no REGRESS in 4000 trials (%u; alpha/2 bounds it by 20)", regress);
	ok(regress + pass + unknown == 4000, "every trial ended with a verdict");
	/* A/A with a true shift on the edge (+3 %): REGRESS still within alpha/2 */
	regress = 0;
	for (int t = 0; t < 4000; t++)
		regress += trial(&p, log1p(0.03), 0.05, 0.03, &n) == VERDICT_REGRESS;
	ok(regress <= 20, "a true shift of exactly +delta: %u REGRESS in 4000, at most alpha/2", regress);
	/* power: +10 % with noise 3 % is caught */
	regress = 0;
	for (int t = 0; t < 1000; t++)
		regress += trial(&p, log(1.10), 0.03, 0.03, &n) == VERDICT_REGRESS;
	ok(regress >= 950, "+10 %%, noise 3 %%, delta 3 %%: REGRESS in %u of 1000", regress);
	/* an improvement of 20 % is PASS */
	pass = 0;
	for (int t = 0; t < 1000; t++)
		pass += trial(&p, log(0.8), 0.05, 0.03, &n) == VERDICT_PASS;
	ok(pass >= 990, "-20 %%, noise 5 %%: PASS in %u of 1000", pass);
	return tap_done();
}
