// SPDX-License-Identifier: GPL-2.0
#include "canary/signrank.h"
#include "bench/stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * counts[t] = the number of subsets of {1..n} whose sum is t, for t in
 * 0..n(n+1)/2: the null distribution of W+ times 2^n.  2^60 fits in 64
 * bits, and no count exceeds 2^n.
 */
static uint64_t *subset_sums(unsigned int n)
{
	size_t max = (size_t)n * (n + 1) / 2;
	uint64_t *c = calloc(max + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (unsigned int k = 1; k <= n; k++)
		for (size_t t = max; t >= k; t--)
			c[t] += c[t - k];
	return c;
}

int signrank_lower(unsigned int n, double level, double *attained)
{
	uint64_t *c, cum = 0;
	double total;
	int crit = -1;

	if (n < 1 || n > SIGNRANK_MAX_N || !(level > 0 && level < 1))
		return -EINVAL;
	c = subset_sums(n);
	if (!c)
		return -ENOMEM;
	total = ldexp(1.0, (int)n);
	if (attained)
		*attained = 0;
	for (size_t t = 0; t <= (size_t)n * (n + 1) / 4; t++) {
		cum += c[t];
		if ((double)cum / total > level)
			break;
		crit = (int)t;
		if (attained)
			*attained = (double)cum / total;
	}
	free(c);
	return crit;
}

int signrank_critical(unsigned int n, double alpha)
{
	if (!(alpha > 0 && alpha < 1))
		return -EINVAL;
	return signrank_lower(n, alpha / 2, NULL);
}

int hl_bounds(const double *d, size_t n, int c_lo, int c_hi, struct hl_bounds *out)
{
	size_t m, k = 0;
	double *w;

	if (!n || n > SIGNRANK_MAX_N)
		return -EINVAL;
	m = n * (n + 1) / 2;
	if ((c_lo >= 0 && (size_t)c_lo >= m) || (c_hi >= 0 && (size_t)c_hi >= m))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(d[i]))
			return -EINVAL;
	w = malloc(m * sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	sort_doubles(w, m);

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->estimate = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
	out->lo_valid = c_lo >= 0;
	out->hi_valid = c_hi >= 0;
	/* ranks c + 1 and m - c, 1-based */
	if (out->lo_valid)
		out->lo = w[c_lo];
	if (out->hi_valid)
		out->hi = w[m - 1 - (size_t)c_hi];
	free(w);
	return 0;
}

int hodges_lehmann(const double *d, size_t n, double alpha, struct hl_estimate *out)
{
	struct hl_bounds b;
	int crit, err;

	if (!n || n > SIGNRANK_MAX_N || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	crit = signrank_critical((unsigned int)n, alpha);
	if (crit < -1)
		return crit;
	err = hl_bounds(d, n, crit, crit, &b);
	if (err)
		return err;
	*out = (struct hl_estimate){ .n = n, .estimate = b.estimate, .ci_valid = crit >= 0,
				     .lo = b.lo, .hi = b.hi };
	return 0;
}
