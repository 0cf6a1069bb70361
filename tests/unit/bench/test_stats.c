// SPDX-License-Identifier: GPL-2.0
/* stats: median, min and max of repeated runs. */
#include "bench/stats.h"
#include "tap.h"

int main(void)
{
	double odd[] = { 5, 1, 3 };
	double even[] = { 4, 1, 3, 2 };
	double one[] = { 7 };
	struct summary s;

	s = summarize(odd, 3);
	ok(s.median == 3 && s.min == 1 && s.max == 5 && s.n == 3,
	   "odd count: median is the middle value (%g %g %g)", s.median, s.min, s.max);
	s = summarize(even, 4);
	ok(s.median == 2.5 && s.min == 1 && s.max == 4,
	   "even count: median is the mean of the middle two (%g)", s.median);
	s = summarize(one, 1);
	ok(s.median == 7 && s.min == 7 && s.max == 7, "one value is all three");
	s = summarize(NULL, 0);
	ok(s.n == 0 && s.median == 0, "no values: zeros, no crash");
	return tap_done();
}
