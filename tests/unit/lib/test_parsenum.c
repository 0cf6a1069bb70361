// SPDX-License-Identifier: GPL-2.0
/*
 * parsenum: sizes (moved here with parse_size() from bench/testfile.c),
 * positive decimal numbers, integers in range, percentages, durations.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/parsenum.h"
#include "tap.h"

static void test_size(void)
{
	off_t sz;

	ok(!parse_size("4096", &sz) && sz == 4096, "size 4096");
	ok(!parse_size("512K", &sz) && sz == 512 << 10, "size 512K");
	ok(!parse_size("256M", &sz) && sz == 256 << 20, "size 256M");
	ok(!parse_size("1G", &sz) && sz == 1LL << 30, "size 1G");
	ok(parse_size("", &sz) == -EINVAL, "empty size rejected");
	ok(parse_size("-1M", &sz) == -EINVAL, "negative size rejected");
	ok(parse_size("0", &sz) == -EINVAL, "zero size rejected");
	ok(parse_size("12X", &sz) == -EINVAL, "unknown unit rejected");
	ok(parse_size("1MB", &sz) == -EINVAL, "trailing junk rejected");
	ok(parse_size("99999999999999999999G", &sz) == -EINVAL, "overflow rejected");
	ok(parse_size("9000000000G", &sz) == -EINVAL, "a size past 2^63 rejected");
}

static void test_positive(void)
{
	double d = -1;

	ok(!parse_positive("4", 10, &d) && d == 4, "positive 4");
	ok(!parse_positive(".5", 10, &d) && d == 0.5, "positive .5");
	ok(!parse_positive("10", 10, &d) && d == 10, "positive: the maximum itself");
	is_i64(parse_positive("0", 10, &d), -EINVAL, "positive: 0 is not above 0");
	is_i64(parse_positive("10.5", 10, &d), -EINVAL, "positive: past the maximum");
	is_i64(parse_positive("-1", 10, &d), -EINVAL, "positive: a sign");
	is_i64(parse_positive(" 1", 10, &d), -EINVAL, "positive: a leading space");
	is_i64(parse_positive("1x", 10, &d), -EINVAL, "positive: junk after");
	is_i64(parse_positive("nan", 10, &d), -EINVAL, "positive: nan");
}

static void test_u64_percent_duration(void)
{
	uint64_t v;
	double d;

	ok(!parse_u64("1000", 1000, &v) && v == 1000, "u64: the maximum itself");
	is_i64(parse_u64("1001", 1000, &v), -EINVAL, "u64: past the maximum");
	is_i64(parse_u64("+1", 1000, &v), -EINVAL, "u64: a sign");
	ok(!parse_percent("2.5", 0, 100, &d) && d == 0.025, "percent 2.5 is 0.025");
	ok(!parse_percent("10%", 0, 100, &d) && d == 0.1, "percent 10%% is 0.1");
	is_i64(parse_percent("101", 0, 100, &d), -EINVAL, "percent: past the maximum");
	ok(!parse_duration("2min", 5, 3600, &v) && v == 120, "duration 2min is 120 s");
	ok(!parse_duration("90", 5, 3600, &v) && v == 90, "duration 90 is 90 s");
	is_i64(parse_duration("4s", 5, 3600, &v), -EINVAL, "duration: below the minimum");
	is_i64(parse_duration("2h", 5, 3600, &v), -EINVAL, "duration: past the maximum");
	is_i64(parse_duration("5d", 5, 3600, &v), -EINVAL, "duration: an unknown unit");
}

int main(void)
{
	test_size();
	test_positive();
	test_u64_percent_duration();
	return tap_done();
}
