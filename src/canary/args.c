// SPDX-License-Identifier: GPL-2.0
#include "canary/args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lib/parsenum.h"
#include "bench/testfile.h"

/* The message in @a->error (an array); -EINVAL. */
#define bad(a, ...) parse_bad((a)->error, sizeof((a)->error), __VA_ARGS__)

static int add_workload(struct canary_args *a, const char *name)
{
	const struct scenario *s = scenario_find(name);

	if (!s)
		return bad(a, "unknown workload '%s' (see 'rafleet bench list')", name);
	for (int i = 0; i < a->nr_workloads; i++)
		if (a->workload[i] == s)
			return bad(a, "workload '%s' given twice", name);
	if (a->nr_workloads >= CANARY_MAX_WORKLOADS)
		return bad(a, "at most %d workloads", CANARY_MAX_WORKLOADS);
	a->workload[a->nr_workloads++] = s;
	return 0;
}

static int parse_opt(struct canary_args *a, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'w':
		return add_workload(a, arg);
	case 'f':
		if (!*arg)
			return bad(a, "--file wants a path");
		a->file = arg;
		return 0;
	case 'z':
		if (parse_size(arg, &a->size) || a->size % TESTFILE_BLOCK)
			return bad(a, "--size wants a multiple of 4K like 256M or 1G, not '%s'", arg);
		return 0;
	case 'm':
	case 'M':
		if (parse_u64(arg, 60, &v) || v < 1)
			return bad(a, "--pairs%s wants 1..60, not '%s'",
				   c == 'm' ? "-min" : a->calibrate ? "" : "-max", arg);
		if (c == 'm')
			a->pairs_min = v;
		else
			a->pairs_max = v;
		return 0;
	case 'k':
		if (parse_u64(arg, 10, &v) || v < 1)
			return bad(a, "--runs wants 1..10, not '%s'", arg);
		a->runs = v;
		return 0;
	case 'a':
		if (parse_percent(arg, 0.01, 20, &a->alpha))
			return bad(a, "--alpha wants a percentage 0.01..20 (1 is 99 %% intervals), not '%s'", arg);
		return 0;
	case 'F':
		if (parse_percent(arg, 0.1, 50, &a->floor))
			return bad(a, "--floor wants a percentage 0.1..50, not '%s'", arg);
		return 0;
	case 'd':
		if (parse_percent(arg, 0.1, 100, &a->delta))
			return bad(a, "--delta wants a percentage 0.1..100, not '%s'", arg);
		return 0;
	case 'r':
		if (!*arg)
			return bad(a, "--report-dir wants a directory");
		a->report_dir = arg;
		return 0;
	case 'S':
		if (parse_u64(arg, UINT64_MAX, &v))
			return bad(a, "--seed wants a number, not '%s'", arg);
		a->seed = v;
		return 0;
	case 'R':
		if (parse_u64(arg, 1 << 20, &v) || !v || (v & (v - 1)))
			return bad(a, "--ring-pages wants a power of two, not '%s'", arg);
		a->ring_pages = v;
		return 0;
	case 'A':
		a->aa = true;
		return 0;
	case 'x':
		a->act = true;
		return 0;
	case 'N':
		a->no_calibration = true;
		return 0;
	case 'j':
		a->json = true;
		return 0;
	default:
		return -EINVAL;
	}
}

int canary_parse_args(int argc, char **argv, struct canary_args *a)
{
	static const struct option canary_opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "file", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 'z' },
		{ "pairs-min", required_argument, NULL, 'm' },
		{ "pairs-max", required_argument, NULL, 'M' },
		{ "runs", required_argument, NULL, 'k' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "floor", required_argument, NULL, 'F' },
		{ "delta", required_argument, NULL, 'd' },
		{ "aa", no_argument, NULL, 'A' },
		{ "act", no_argument, NULL, 'x' },
		{ "no-calibration", no_argument, NULL, 'N' },
		{ "report-dir", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 'S' },
		{ "ring-pages", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const struct option calibrate_opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "file", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 'z' },
		{ "pairs", required_argument, NULL, 'M' },
		{ "runs", required_argument, NULL, 'k' },
		{ "floor", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 'S' },
		{ "ring-pages", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool calibrate = argc > 0 && !strcmp(argv[0], "calibrate");
	int c;

	memset(a, 0, sizeof(*a));
	a->calibrate = calibrate;
	a->pairs_min = 4;
	a->pairs_max = 12;
	a->runs = 3;
	a->alpha = 0.01;
	a->floor = CANARY_DELTA_FLOOR;
	a->seed = 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, calibrate ? "w:f:z:jh" : "w:f:z:jh",
				calibrate ? calibrate_opts : canary_opts, NULL)) != -1) {
		if (c == 'h') {
			a->help = true;
			return 0;
		}
		if (c == '?' || c == ':')
			return bad(a, "unknown option or missing value: '%s'", argv[optind - 1]);
		if (parse_opt(a, c, optarg))
			return -EINVAL;
	}
	if (calibrate) {
		if (optind < argc)
			return bad(a, "calibrate takes no argument, not '%s'", argv[optind]);
		return 0;
	}
	if (optind >= argc)
		return bad(a, "canary wants a FEATURE (see 'rafleet status')");
	if (optind + 1 < argc)
		return bad(a, "canary takes one FEATURE, not also '%s'", argv[optind + 1]);
	a->feature = feature_find(argv[optind]);
	if (!a->feature)
		return bad(a, "unknown feature '%s'", argv[optind]);
	if (a->pairs_min > a->pairs_max)
		return bad(a, "--pairs-min %u is above --pairs-max %u", a->pairs_min, a->pairs_max);
	if (a->delta && a->delta < a->floor)
		return bad(a, "--delta %.3g %% is below the floor %.3g %%", a->delta * 100, a->floor * 100);
	if (a->aa && a->act)
		return bad(a, "--aa measures noise, there is nothing to act on: drop --act");
	return 0;
}
