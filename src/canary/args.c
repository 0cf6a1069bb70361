// SPDX-License-Identifier: GPL-2.0
#include "canary/args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/args.h"
#include "canary/calibration.h"
#include "canary/report.h"
#include "lib/options.h"
#include "lib/parsenum.h"
#include "lib/statedir.h"
#include "bench/testfile.h"

/* The message in @a->error (an array); -EINVAL. */
#define bad(a, ...) parse_bad((a)->error, sizeof((a)->error), __VA_ARGS__)

/* --workload NAME into the canary_args at @o->value */
static int workload_option(const struct option_spec *o, const char *name, char *error,
			   size_t len)
{
	struct canary_args *a = o->value;
	const struct scenario *s = scenario_find(name);

	if (!s)
		return parse_bad(error, len, "unknown workload '%s' (see 'rafleet bench list')", name);
	for (int i = 0; i < a->nr_workloads; i++)
		if (a->workload[i] == s)
			return parse_bad(error, len, "workload '%s' given twice", name);
	if (a->nr_workloads >= CANARY_MAX_WORKLOADS)
		return parse_bad(error, len, "at most %d workloads", CANARY_MAX_WORKLOADS);
	a->workload[a->nr_workloads++] = s;
	return 0;
}

#define ROWS 20

/* The options the two commands share, as rows */
#define FILE_ROW(a) \
	OPT_VALUE(OPTION_STRING, 'f', "file", &(a)->file, "PATH", \
		  "the file they read (default " BENCH_DEFAULT_FILE ")", \
		  .flags = OPTION_NONEMPTY, .what = "a path")
#define SIZE_ROW(a) \
	OPT_SIZE('z', "size", &(a)->size, "SIZE", "make PATH this big, or reuse it if it is", \
		 .step = TESTFILE_BLOCK, .what = "a multiple of 4K like 256M or 1G")
#define RUNS_ROW(a, h) \
	OPT_UINT(0, "runs", &(a)->runs, "K", h, .min = 1, .max = 10, .what = "1..10")
#define FLOOR_ROW(a) \
	OPT_PERCENT(0, "floor", &(a)->floor, "PCT", "delta is never below this (default 3)", \
		    .fmin = 0.1, .fmax = 50, .what = "a percentage 0.1..50")
#define DELTA_ROW(a) \
	OPT_PERCENT(0, "delta", &(a)->delta, "PCT", \
		    "the allowed loss, a policy (default: the floor)", \
		    .fmin = 0.1, .fmax = 100, .what = "a percentage 0.1..100")
#define SEED_ROW(a) \
	OPT_U64(0, "seed", &(a)->seed, "N", "seed of the random offsets (default 1)", \
		.what = "a number")
#define RING_ROW(a) \
	OPT_UINT(0, "ring-pages", &(a)->ring_pages, "N", "perf ring pages per CPU", \
		 .max = 1 << 20, .flags = OPTION_POWER_OF_2 | OPTION_HIDDEN, \
		 .what = "a power of two")

/* The options of `rafleet canary`, their values in @a, into @spec. */
static void canary_options(struct canary_args *a, struct option_spec spec[ROWS])
{
	const struct option_spec rows[] = {
		OPT_CALLBACK('w', "workload", a, "S",
			     "a workload of 'rafleet bench list' (up to 4;\n"
			     "default: the ones of the feature's seed post)", workload_option),
		FILE_ROW(a),
		SIZE_ROW(a),
		OPT_UINT(0, "pairs-min", &a->pairs_min, "N", "first look (default 8)",
			 .min = 1, .max = 60, .what = "1..60"),
		OPT_UINT(0, "pairs-max", &a->pairs_max, "N",
			 "the cap (default: the calibrated one, else 32)",
			 .min = 1, .max = 60, .what = "1..60"),
		RUNS_ROW(a, "cold runs per arm and pair; the least wall time\n"
			 "counts (default 3)"),
		OPT_PERCENT(0, "alpha", &a->alpha, "PCT",
			    "a wrong verdict, each way, over every run of the\n"
			    "feature on this kernel (default 1: the first run\n"
			    "has half, each rerun half of what is left)",
			    .fmin = 0.01, .fmax = 20, .what = "a percentage 0.01..20"),
		FLOOR_ROW(a),
		DELTA_ROW(a),
		OPT_FLAG(0, "no-calibration", &a->no_calibration,
			 "ignore the cap 'rafleet calibrate' chose"),
		OPT_FLAG(0, "aa", &a->aa, "A/A: both arms keep the feature's current value"),
		OPT_FLAG(0, "act", &a->act,
			 "act on the verdict: a corroborated REGRESS turns the\n"
			 "feature off now and persistently"),
		OPT_VALUE(OPTION_STRING, 0, "report-dir", &a->report_dir, "DIR",
			  "where the report and picture go (default\n"
			  STATEDIR_DEFAULT "/canary)",
			  .flags = OPTION_NONEMPTY, .what = "a directory"),
		OPT_FLAG('j', "json", &a->json, "JSON (schema " CANARY_SCHEMA ") instead of a table"),
		SEED_ROW(a),
		RING_ROW(a),
		OPT_HELP(),
		OPT_END()
	};

	_Static_assert(sizeof(rows) / sizeof(rows[0]) <= ROWS, "ROWS");
	memcpy(spec, rows, sizeof(rows));
}

/* The options of `rafleet calibrate`, their values in @a, into @spec. */
static void calibrate_options(struct canary_args *a, struct option_spec spec[ROWS])
{
	const struct option_spec rows[] = {
		OPT_CALLBACK('w', "workload", a, "S",
			     "a workload (repeatable, up to 4 per run; default:\n"
			     "every workload a canary uses by default)", workload_option),
		FILE_ROW(a),
		SIZE_ROW(a),
		OPT_UINT(0, "pairs", &a->pairs_max, "N",
			 "A/A pairs per workload, 10 to 60 (default 20)",
			 .min = 10, .max = 60, .what = "10..60"),
		RUNS_ROW(a, "cold runs per arm and pair, as the canary (default 3)"),
		FLOOR_ROW(a),
		DELTA_ROW(a),
		OPT_FLAG('j', "json", &a->json, "JSON (schema " CALIBRATION_SCHEMA ")"),
		SEED_ROW(a),
		RING_ROW(a),
		OPT_HELP(),
		OPT_END()
	};

	_Static_assert(sizeof(rows) / sizeof(rows[0]) <= ROWS, "ROWS");
	memcpy(spec, rows, sizeof(rows));
}

static const struct options_help canary_help = {
	"usage: rafleet canary FEATURE [OPTIONS]\n"
	"\n"
	"Judge FEATURE (a vm.readahead_* sysctl) by a paired A/B in this boot: the\n"
	"workloads run cold in ABBA blocks with the feature off (A) and on (B),\n"
	"and a sequential signed-rank rule says PASS, REGRESS or UNKNOWN.\n"
	"\n"
	"options:\n",
	25,
	"\n"
	"exit status: 0 PASS, 3 REGRESS, 4 UNKNOWN, 1 a failure, 2 bad arguments.\n"
	"'man rafleet-canary'.\n"
};

static const struct options_help calibrate_help = {
	"usage: rafleet calibrate [OPTIONS]\n"
	"\n"
	"Measure this machine's noise with A/A pairs of each workload (every\n"
	"feature as it is, in both arms) and store, for 'rafleet canary', each\n"
	"workload's noise and the cap of pairs that catches delta + 2 points\n"
	"9 times in 10, in " STATEDIR_DEFAULT "/" CALIBRATION_FILE ".\n"
	"\n"
	"options:\n",
	25,
	"\n"
	"exit status: 0 stored, 1 a failure, 2 bad arguments.  'man rafleet-calibrate'.\n"
};

void canary_usage(FILE *f, bool calibrate)
{
	struct option_spec spec[ROWS];
	struct canary_args dummy;

	if (calibrate)
		calibrate_options(&dummy, spec);
	else
		canary_options(&dummy, spec);
	options_help_print(f, calibrate ? &calibrate_help : &canary_help, spec);
}

int canary_parse_args(int argc, char **argv, struct canary_args *a)
{
	bool calibrate = argc > 0 && !strcmp(argv[0], "calibrate");
	struct option_spec spec[ROWS];
	int ind;

	memset(a, 0, sizeof(*a));
	a->calibrate = calibrate;
	a->pairs_min = SEQRULE_DEFAULT_FIRST;
	a->pairs_max = calibrate ? CALIBRATION_DEFAULT_PAIRS : 0;
	a->runs = 3;
	a->alpha = CANARY_DEFAULT_ALPHA;
	a->floor = CANARY_DELTA_FLOOR;
	a->seed = 1;
	if (calibrate)
		calibrate_options(a, spec);
	else
		canary_options(a, spec);
	ind = options_parse(spec, argc, argv, a->error, sizeof(a->error));
	if (ind == OPTIONS_HELP) {
		a->help = true;
		return 0;
	}
	if (ind < 0)
		return -EINVAL;
	if (a->delta && a->delta < a->floor)
		return bad(a, "--delta %.3g %% is below the floor %.3g %%", a->delta * 100, a->floor * 100);
	if (calibrate) {
		if (ind < argc)
			return bad(a, "calibrate takes no argument, not '%s'", argv[ind]);
		return 0;
	}
	if (ind >= argc)
		return bad(a, "canary wants a FEATURE (see 'rafleet status')");
	if (ind + 1 < argc)
		return bad(a, "canary takes one FEATURE, not also '%s'", argv[ind + 1]);
	a->feature = feature_find(argv[ind]);
	if (!a->feature)
		return bad(a, "unknown feature '%s'", argv[ind]);
	if (a->pairs_max && a->pairs_min > a->pairs_max)
		return bad(a, "--pairs-min %u is above --pairs-max %u", a->pairs_min, a->pairs_max);
	if (a->aa && a->act)
		return bad(a, "--aa measures noise, there is nothing to act on: drop --act");
	return 0;
}
