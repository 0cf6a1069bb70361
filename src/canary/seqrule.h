/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The canary's sequential rule: a group-sequential signed-rank test with
 * alpha spending, one-sided in each direction.
 *
 * Each pair of runs gives, per metric, the log-ratio d = ln(on / off) of
 * a cost (higher is worse).  With b = ln(1 + delta), two hypotheses are
 * tested on each judged metric, each at one-sided level alpha:
 *
 *   REGRESS  rejects "shift <= b": the feature costs more than delta;
 *   PASS     rejects "shift >= b": no loss beyond delta is plausible.
 *            Its effect says more: "better" when the upper bound lies
 *            below -b, "within" when the lower bound lies above -b, "not
 *            worse" otherwise.
 *
 * Spending.  The looks are at pairs_min, then every pairs_step pairs, and
 * at the cap N.  By look n a direction may have spent at most
 * alpha * (n / N)^rho (a power spending function, Kim and DeMets 1987;
 * rho 3 is close to O'Brien-Fleming's boundaries, 1 to Pocock's).  Each
 * look's test is the exact signed-rank test (signrank_lower()) at what
 * is left, and what it really spends is its attained level, so that the
 * discreteness of small samples is carried to the next look, not lost.
 * A look at which neither direction has a test is not a look: the rule
 * cannot decide there (10 pairs are needed for any test at 0.1 %).
 * The sum over looks bounds the probability of any wrong rejection
 * (Bonferroni over looks): conservative, because the looks are
 * correlated, and exact for every symmetric noise, with no normal
 * approximation.
 *
 * Several judged metrics (workloads): the feature REGRESSes when one of
 * them does, so REGRESS divides its level by their number; it PASSes
 * only when every one has passed (at this look or an earlier one), an
 * intersection-union test that needs no division.  So a wrong REGRESS
 * and a wrong PASS each happen with probability at most alpha per run.
 *
 * Ranks make the rule robust: a pair that interference made 50 % slower
 * moves one rank, not the whole interval (Hodges-Lehmann bounds, see
 * signrank.h), once there are enough pairs for a bound below the extreme
 * Walsh average.
 */
#ifndef RAFLEET_SEQRULE_H
#define RAFLEET_SEQRULE_H

#include <stdbool.h>
#include <stddef.h>

#include "canary/signrank.h"

#define SEQRULE_MAX_LOOKS SIGNRANK_MAX_N
/* The defaults: their power is the table in docs/canary.md. */
#define SEQRULE_DEFAULT_ALPHA 0.005	/* one-sided, each direction, one run */
#define SEQRULE_DEFAULT_FIRST 8
#define SEQRULE_DEFAULT_STEP 2
#define SEQRULE_DEFAULT_CAP 32
#define SEQRULE_DEFAULT_RHO 1.5

enum verdict {
	VERDICT_CONTINUE,
	VERDICT_PASS,
	VERDICT_REGRESS,
	VERDICT_UNKNOWN,
};

enum effect {
	EFFECT_NONE,		/* no verdict yet, or not a PASS */
	EFFECT_WITHIN,		/* the bounds lie inside +-delta */
	EFFECT_NOT_WORSE,	/* below +delta, reaching past -delta */
	EFFECT_BETTER,		/* wholly below -delta */
};

enum seq_dir { SEQ_REGRESS, SEQ_PASS, SEQ_NR };

const char *verdict_name(enum verdict v);
const char *effect_name(enum effect e);

struct seqrule_look {
	unsigned int n;			/* pairs */
	int crit[SEQ_NR];		/* signed-rank critical value, -1: no test */
	double level[SEQ_NR];		/* attained one-sided level per metric */
	double spent[SEQ_NR];		/* alpha spent by this look, all metrics */
};

struct seqrule_plan {
	/* set by the caller */
	unsigned int pairs_min;		/* first look considered */
	unsigned int pairs_step;	/* pairs between looks (2: ABBA) */
	unsigned int pairs_max;		/* the cap */
	unsigned int metrics;		/* judged metrics */
	double alpha;			/* one-sided, each direction */
	double rho;			/* spending exponent; 0: the default */
	/* set by seqrule_plan() */
	unsigned int nlooks;		/* looks at which some test exists */
	struct seqrule_look look[SEQRULE_MAX_LOOKS];
	unsigned int first_deciding;	/* pairs at the first look */
};

/*
 * Check the caller's fields and work out the looks and their levels.
 * 0, or -EINVAL with a reason in @why (may be NULL).
 */
int seqrule_plan(struct seqrule_plan *p, const char **why);

/* The look after @n pairs, or NULL when there is none. */
const struct seqrule_look *seqrule_look_at(const struct seqrule_plan *p, unsigned int n);

/* Is there a look after @n pairs? */
bool seqrule_is_look(const struct seqrule_plan *p, unsigned int n);

struct metric_verdict {
	struct hl_bounds hl;		/* lo at REGRESS's level, hi at PASS's */
	enum verdict verdict;
	enum effect effect;
	unsigned int passed_at;		/* pairs at which it passed, 0: not yet */
};

/*
 * Judge one metric on its @n log-ratios @d against @delta (a fraction:
 * 0.03 is 3 %) at the look after @n pairs.  @out carries passed_at from
 * the metric's previous look (zero it before the first): a metric that
 * passed stays PASS unless it now REGRESSes.  At the cap CONTINUE
 * becomes UNKNOWN.  0, -EINVAL (no look at @n, bad delta or data) or
 * -ENOMEM.
 */
int seqrule_judge(const struct seqrule_plan *p, const double *d, size_t n,
		  double delta, struct metric_verdict *out);

/*
 * The decision alone, without the bounds: what seqrule_judge() decides,
 * from counts of Walsh averages in O(n log n) (the simulations run it
 * millions of times).  @passed_at as there.  A verdict, or -EINVAL.
 */
int seqrule_decide(const struct seqrule_plan *p, const double *d, size_t n,
		   double delta, unsigned int *passed_at);

/* The feature's verdict over its judged metrics' verdicts, at @n pairs. */
enum verdict seqrule_combine(const struct seqrule_plan *p,
			     const struct metric_verdict *v, size_t nv,
			     unsigned int n);

/*
 * Does a series move the same way as a REGRESS: its lower bound (at
 * REGRESS's level) lies above 0?
 */
bool seqrule_same_direction(const struct metric_verdict *v);

#endif
