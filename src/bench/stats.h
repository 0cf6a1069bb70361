/* SPDX-License-Identifier: GPL-2.0 */
/* Summaries of repeated measurements. */
#ifndef RAFLEET_STATS_H
#define RAFLEET_STATS_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	double median, min, max;
	size_t n;
};

/* Sort @v[0..n) ascending, in place. */
void sort_doubles(double *v, size_t n);

/* Median (the mean of the middle two for an even count), min and max of
 * @n values; @v is sorted in place.  n == 0 gives all zeros. */
struct summary summarize(double *v, size_t n);

#endif
