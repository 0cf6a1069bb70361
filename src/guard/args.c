// SPDX-License-Identifier: GPL-2.0
/* guard/args.c - `rafleet guard`'s options, see guard/args.h. */
#include "guard/args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/options.h"
#include "lib/parsenum.h"
#include "guard/report.h"
#include "lib/statedir.h"

/* The message in @a->error (an array); -EINVAL. */
#define bad(a, ...) parse_bad((a)->error, sizeof((a)->error), __VA_ARGS__)

static void defaults(struct guard_args *a)
{
	memset(a, 0, sizeof(*a));
	a->window_s = GUARD_DEFAULT_WINDOW;
	a->band.learn_windows = GUARD_DEFAULT_LEARN;
	a->band.floor = GUARD_DEFAULT_FLOOR;
	a->band.mads = GUARD_DEFAULT_MADS;
	a->min.min_read_mib = GUARD_DEFAULT_MIN_READ_MIB;
	a->min.min_folios = GUARD_DEFAULT_MIN_FOLIOS;
}

/* --device NAME into the guard_args at @o->value */
static int device_option(const struct option_spec *o, const char *name, char *error, size_t len)
{
	struct guard_args *a = o->value;

	if (a->nr_dev >= SC_MAX_DEVS)
		return parse_bad(error, len, "at most %d --device", SC_MAX_DEVS);
	if (!*name || strchr(name, '/') || strchr(name, ',') ||
	    !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= SC_NAME_LEN)
		return parse_bad(error, len,
				 "--device wants a name under /sys/block such as vda, not '%s'", name);
	a->dev[a->nr_dev++] = name;
	return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)
#define GUARD_ROWS 15

/* The options of `rafleet guard`, their values in @a and @once, into @spec. */
static void guard_options(struct guard_args *a, bool *once, struct option_spec spec[GUARD_ROWS])
{
	const struct option_spec rows[] = {
		OPT_UINT('w', "window", &a->window_s, "SEC",
			 "length of a window (default " STR(GUARD_DEFAULT_WINDOW) ")",
			 .min = 1, .max = GUARD_MAX_WINDOW,
			 .what = "seconds, 1 to " STR(GUARD_MAX_WINDOW)),
		OPT_U64('n', "windows", &a->windows, "N",
			"measure N windows, then stop (default: until\n"
			"SIGINT or SIGTERM)",
			.min = 1, .max = UINT32_MAX, .what = "a count of at least 1"),
		OPT_FLAG('1', "once", once, "one window"),
		OPT_FLAG('l', "learn", &a->learn, "learn the baseline afresh, replacing the old one"),
		OPT_FLAG('a', "act", &a->act, "run the canary of each candidate feature"),
		OPT_FLAG('j', "json", &a->json, "JSON (schema " GUARD_SCHEMA ") instead of a table"),
		OPT_CALLBACK('d', "device", a, "NAME",
			     "a block device under /sys/block whose reads count\n"
			     "(repeatable; default: every disk nothing is\n"
			     "stacked on, RAM disks excepted)", device_option),
		OPT_UINT(0, "learn-windows", &a->band.learn_windows, "K",
			 "windows with activity the baseline learns (default "
			 STR(GUARD_DEFAULT_LEARN) ")",
			 .min = GUARD_MIN_SAMPLES, .max = GUARD_MAX_LEARN,
			 .what = STR(GUARD_MIN_SAMPLES) " to " STR(GUARD_MAX_LEARN)),
		OPT_PERCENT(0, "floor", &a->band.floor, "PCT",
			    "least half-width of a band, % of its median (default 3)",
			    .fmin = 0, .fmax = 100, .what = "a percentage 0 to 100"),
		OPT_DOUBLE(0, "mads", &a->band.mads, "K",
			   "nominal half-width in standard deviations,\n"
			   "widened for the error of n learned values (default 4)",
			   .fmax = 1000, .what = "a number above 0"),
		OPT_DOUBLE(0, "min-read", &a->min.min_read_mib, "MIB",
			   "less read in a window: its I/O metrics are quiet\n"
			   "(default 1)",
			   .fmax = 1e9, .what = "MiB above 0"),
		OPT_U64(0, "min-folios", &a->min.min_folios, "N",
			"fewer folios added: folio size is quiet (default "
			STR(GUARD_DEFAULT_MIN_FOLIOS) ")",
			.min = 1, .max = UINT32_MAX, .what = "a count of at least 1"),
		OPT_HELP(),
		OPT_END()
	};

	_Static_assert(sizeof(rows) / sizeof(rows[0]) <= GUARD_ROWS, "GUARD_ROWS");
	memcpy(spec, rows, sizeof(rows));
}

static const struct options_help guard_help = {
	"usage: rafleet guard [--window SEC] [--windows N | --once] [--learn] [--act]\n"
	"                     [--json] [OPTIONS]\n"
	"\n"
	"Count, host-wide and window by window, major faults, folios added to the\n"
	"page cache by order, readahead tracepoint hits and block device reads;\n"
	"judge each window's read request size, folio size, readahead hits and\n"
	"major faults per MiB against the baseline learned for this kernel and\n"
	"feature set.  When a metric leaves its band the same way in " GUARD_CONFIRM_STR " windows\n"
	"in a row (an alarm), name the features that are on and could explain it,\n"
	"and with --act run 'rafleet canary FEATURE --act --json' for each, keeping\n"
	"its report.\n"
	"\n"
	"options:\n",
	25,
	"\n"
	"The baseline is STATEDIR/guard-baseline-RELEASE-MASK.json ($RAFLEET_STATE_DIR,\n"
	"default " STATEDIR_DEFAULT "); $RAFLEET_CANARY runs in place of rafleet for\n"
	"the canary.\n"
	"\n"
	"exit status: 0 no alarm (each window learned, idle, in band, or out of\n"
	"band without an alarm), 1 an error (a counter set that cannot be opened,\n"
	"a damaged baseline, a canary that failed), 2 bad arguments, 3 an alarm.\n"
	"'man rafleet-guard'.\n"
};

void guard_usage(FILE *f)
{
	struct option_spec spec[GUARD_ROWS];
	struct guard_args dummy;
	bool once;

	guard_options(&dummy, &once, spec);
	options_help_print(f, &guard_help, spec);
}

int guard_parse_args(int argc, char **argv, struct guard_args *a)
{
	struct option_spec spec[GUARD_ROWS];
	bool once = false;
	int ind;

	defaults(a);
	guard_options(a, &once, spec);
	ind = options_parse(spec, argc, argv, a->error, sizeof(a->error));
	if (ind == OPTIONS_HELP) {
		a->help = true;
		return 0;
	}
	if (ind < 0 || options_no_args(ind, argc, argv, a->error, sizeof(a->error)))
		return -EINVAL;
	if (once && a->windows)
		return bad(a, "--once and --windows together: choose one");
	if (once)
		a->windows = 1;
	return 0;
}
