// SPDX-License-Identifier: GPL-2.0
/*
 * signrank: Wilcoxon signed-rank critical values against the published
 * two-sided tables, and the Hodges-Lehmann estimate and exact interval
 * on cases worked by hand.
 */
#include <errno.h>
#include <math.h>

#include "canary/signrank.h"
#include "tap.h"

struct crit_row {
	unsigned int n;
	int at05, at01;		/* two-sided alpha 0.05 and 0.01; -1: none */
};

/* The standard table (e.g. Wilcoxon, Katti and Wilcox 1963). */
static const struct crit_row table[] = {
	{ 5, -1, -1 }, { 6, 0, -1 }, { 7, 2, -1 }, { 8, 3, 0 }, { 9, 5, 1 },
	{ 10, 8, 3 }, { 11, 10, 5 }, { 12, 13, 7 }, { 15, 25, 15 },
	{ 20, 52, 37 }, { 25, 89, 68 }, { 30, 137, 109 },
};

int main(void)
{
	double one_to_12[12], three[] = { 1, 2, 3 }, bad[] = { 1, NAN };
	double shifted[12], small[4] = { 0.1, -0.2, 0.3, 0.05 };
	struct hl_estimate e, f;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		int c05 = signrank_critical(table[i].n, 0.05);
		int c01 = signrank_critical(table[i].n, 0.01);

		ok(c05 == table[i].at05, "n = %u, alpha 0.05: critical value %d (table: %d)",
		   table[i].n, c05, table[i].at05);
		ok(c01 == table[i].at01, "n = %u, alpha 0.01: critical value %d (table: %d)",
		   table[i].n, c01, table[i].at01);
	}
	is_i64(signrank_critical(0, 0.05), -EINVAL, "n = 0 is refused");
	is_i64(signrank_critical(SIGNRANK_MAX_N + 1, 0.05), -EINVAL, "n above the maximum is refused");
	is_i64(signrank_critical(10, 0), -EINVAL, "alpha 0 is refused");
	is_i64(signrank_critical(10, 1), -EINVAL, "alpha 1 is refused");
	ok(signrank_critical(SIGNRANK_MAX_N, 0.01) > 0, "n = %d computes", SIGNRANK_MAX_N);

	/* {1,2,3}: Walsh averages 1 1.5 2 2 2.5 3, median 2 */
	is_i64(hodges_lehmann(three, 3, 0.05, &e), 0, "HL of {1,2,3}");
	ok(e.estimate == 2 && e.n == 3, "its estimate is 2 (%g)", e.estimate);
	ok(!e.ci_valid, "3 pairs are too few for a 95%% interval");

	/*
	 * 1..12: the Walsh averages (i+j)/2 run 1, 1.5, 2, 2, 2.5, 2.5, 3, 3,
	 * 3, ... and mirror around 6.5.  At alpha 0.01 the critical value is
	 * 7: the interval is the 8th and the 71st of 78, 3 and 10.
	 */
	for (int i = 0; i < 12; i++)
		one_to_12[i] = i + 1;
	is_i64(hodges_lehmann(one_to_12, 12, 0.01, &e), 0, "HL of 1..12 at 99%");
	ok(e.estimate == 6.5, "the estimate is the centre, 6.5 (%g)", e.estimate);
	ok(e.ci_valid && e.lo == 3 && e.hi == 10, "the 99%% interval is [3, 10] ([%g, %g])", e.lo, e.hi);
	is_i64(hodges_lehmann(one_to_12, 12, 0.05, &f), 0, "HL of 1..12 at 95%");
	ok(f.lo >= e.lo && f.hi <= e.hi && (f.lo > e.lo || f.hi < e.hi),
	   "the 95%% interval lies inside the 99%% one ([%g, %g])", f.lo, f.hi);

	/* equivariance: shifting the data shifts estimate and interval */
	for (int i = 0; i < 12; i++)
		shifted[i] = one_to_12[i] - 6.5;
	is_i64(hodges_lehmann(shifted, 12, 0.01, &f), 0, "HL of 1..12 shifted by -6.5");
	ok(f.estimate == 0 && f.lo == -3.5 && f.hi == 3.5,
	   "estimate 0, interval [-3.5, 3.5] ([%g, %g])", f.lo, f.hi);

	is_i64(hodges_lehmann(small, 4, 0.05, &e), 0, "HL of 4 pairs");
	ok(!e.ci_valid, "4 pairs give an estimate but no 95%% interval");
	is_i64(hodges_lehmann(bad, 2, 0.05, &e), -EINVAL, "a NaN is refused");
	is_i64(hodges_lehmann(three, 0, 0.05, &e), -EINVAL, "no pairs is refused");
	return tap_done();
}
