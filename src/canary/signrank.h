/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wilcoxon's signed-rank statistic and the Hodges-Lehmann estimate of a
 * shift, with its exact confidence interval: the statistics of the paired
 * A/B canary (one log-ratio per pair of runs).
 *
 * Exact null distribution of W+ (the sum of the ranks of the positive
 * differences) for n pairs without ties: the number of subsets of
 * {1..n} with each sum, over 2^n.  n is at most SIGNRANK_MAX_N.
 */
#ifndef RAFLEET_SIGNRANK_H
#define RAFLEET_SIGNRANK_H

#include <stdbool.h>
#include <stddef.h>

#define SIGNRANK_MAX_N 60

/*
 * The two-sided critical value at level @alpha: the largest c with
 * P(W+ <= c) <= alpha / 2, as the tables print it (reject when
 * min(W+, W-) <= c).  -1 when no c qualifies (n too small for @alpha),
 * -EINVAL for n outside 1..SIGNRANK_MAX_N or alpha outside (0, 1).
 */
int signrank_critical(unsigned int n, double alpha);

/*
 * One-sided: the largest c with P(W+ <= c) <= @level, and that
 * probability (the level the test really has) in @attained.  -1 when no
 * c qualifies (2^-n > level), -EINVAL or -ENOMEM as above.
 */
int signrank_lower(unsigned int n, double level, double *attained);

struct hl_estimate {
	size_t n;		/* pairs used (zeros included: a shift of 0 is data) */
	double estimate;	/* median of the n(n+1)/2 Walsh averages */
	bool ci_valid;		/* false when n is too small for the level */
	double lo, hi;		/* the exact (1 - alpha) interval of the shift */
};

/*
 * Hodges-Lehmann estimate of the shift of @d[0..n) and its exact
 * confidence interval at level 1 - @alpha: the Walsh averages of ranks
 * c + 1 and M - c, M = n(n+1)/2, c = signrank_critical(n, alpha).
 * 0, or -EINVAL (n = 0, n > SIGNRANK_MAX_N, a non-finite value, bad
 * alpha), or -ENOMEM.
 */
int hodges_lehmann(const double *d, size_t n, double alpha, struct hl_estimate *out);

/*
 * The Hodges-Lehmann estimate with two one-sided bounds: @lo the Walsh
 * average of rank c_lo + 1, @hi that of rank M - c_hi, each only when its
 * c is not negative (lo_valid, hi_valid).  With c from signrank_lower()
 * at level a, "lo > x" rejects "shift <= x" at level a, and "hi < x"
 * rejects "shift >= x".  0 or -EINVAL, -ENOMEM.
 */
struct hl_bounds {
	size_t n;
	double estimate;
	bool lo_valid, hi_valid;
	double lo, hi;
};

int hl_bounds(const double *d, size_t n, int c_lo, int c_hi, struct hl_bounds *out);

#endif
