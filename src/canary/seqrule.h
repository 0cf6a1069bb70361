/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The canary's sequential rule.  Each pair of runs gives, per metric, the
 * log-ratio d = ln(on / off) of a cost (higher is worse).  After each
 * block of pairs, from @pairs_min on, every judged metric gets the exact
 * Wilcoxon/Hodges-Lehmann interval of its shift, and:
 *
 *   REGRESS  when the interval lies wholly above +ln(1 + delta): the
 *            feature costs more than the allowed loss;
 *   PASS     when it lies wholly below +ln(1 + delta): no loss beyond
 *            delta is plausible.  Its effect says more: "within" when the
 *            interval also lies above -ln(1 + delta), "better" when it
 *            lies wholly below it (a real improvement), "not worse"
 *            otherwise;
 *   CONTINUE otherwise, and UNKNOWN when the cap is reached.
 *
 * The feature's verdict is REGRESS as soon as one judged metric is,
 * PASS when all are, UNKNOWN at the cap.  The error of a wrong REGRESS
 * (or PASS) is held at @alpha over all judged metrics and all looks by
 * Bonferroni: each interval has level 1 - alpha / (metrics x looks),
 * counting only the looks at which an exact interval of that level
 * exists (with few pairs, none does: with 4 pairs the smallest two-sided
 * p-value of the signed-rank test is 2/16).
 */
#ifndef RAFLEET_SEQRULE_H
#define RAFLEET_SEQRULE_H

#include <stdbool.h>
#include <stddef.h>

#include "canary/signrank.h"

enum verdict {
	VERDICT_CONTINUE,
	VERDICT_PASS,
	VERDICT_REGRESS,
	VERDICT_UNKNOWN,
};

enum effect {
	EFFECT_NONE,		/* no verdict yet, or not a PASS */
	EFFECT_WITHIN,		/* the interval lies inside +-delta */
	EFFECT_NOT_WORSE,	/* below +delta, reaching past -delta */
	EFFECT_BETTER,		/* wholly below -delta */
};

const char *verdict_name(enum verdict v);
const char *effect_name(enum effect e);

struct seqrule_plan {
	/* set by the caller */
	unsigned int pairs_min;		/* first look (default 4) */
	unsigned int pairs_step;	/* pairs per block (2: ABBA) */
	unsigned int pairs_max;		/* the cap (default 12) */
	unsigned int metrics;		/* judged metrics */
	double alpha;			/* over everything (default 0.01) */
	/* set by seqrule_plan() */
	double alpha_look;		/* per metric and look */
	unsigned int looks;		/* looks at which an interval exists */
	unsigned int first_deciding;	/* pairs at the first of them, 0: none */
};

/*
 * Check the caller's fields and work out alpha_look, looks and
 * first_deciding.  0, or -EINVAL with a reason in @why (may be NULL).
 */
int seqrule_plan(struct seqrule_plan *p, const char **why);

/* Is there a look after @n pairs? (n >= pairs_min, on the step, or the cap) */
bool seqrule_is_look(const struct seqrule_plan *p, unsigned int n);

struct metric_verdict {
	struct hl_estimate hl;		/* at alpha_look */
	enum verdict verdict;
	enum effect effect;
};

/*
 * Judge one metric on its @n log-ratios @d against @delta (a fraction:
 * 0.03 is 3 %).  At the cap CONTINUE becomes UNKNOWN.  0 or -errno.
 */
int seqrule_judge(const struct seqrule_plan *p, const double *d, size_t n,
		  double delta, struct metric_verdict *out);

/* The feature's verdict over its judged metrics' verdicts, at @n pairs. */
enum verdict seqrule_combine(const struct seqrule_plan *p,
			     const struct metric_verdict *v, size_t nv,
			     unsigned int n);

/*
 * Does a log-ratio series corroborate a REGRESS: its interval (at
 * alpha_look) lies wholly above 0, the same direction?
 */
bool seqrule_same_direction(const struct metric_verdict *v);

#endif
