// SPDX-License-Identifier: GPL-2.0
#include "bench/args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/feature.h"
#include "lib/options.h"
#include "lib/parsenum.h"
#include "host/sysctl.h"
#include "bench/testfile.h"

/* The message in @a->error (an array); -EINVAL. */
#define bad(a, ...) parse_bad((a)->error, sizeof((a)->error), __VA_ARGS__)

/*
 * --sysctl NAME=VALUE into the bench_args at @o->value; a vm.readahead_*
 * feature takes only 0 or 1.  The argument is argv's own string: its '='
 * becomes the end of NAME.
 */
static int sysctl_option(const struct option_spec *o, const char *carg, char *error, size_t len)
{
	struct bench_args *a = o->value;
	char *arg = (char *)carg, *eq = strchr(arg, '=');
	char path[512];
	const struct feature *f;

	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '\n'))
		return parse_bad(error, len, "--sysctl wants NAME=VALUE, not '%s'", arg);
	if (a->nr_sysctls >= BENCH_MAX_SYSCTLS)
		return parse_bad(error, len, "at most %d --sysctl", BENCH_MAX_SYSCTLS);
	*eq = '\0';
	if (sysctl_path(arg, path, sizeof(path))) {
		*eq = '=';
		return parse_bad(error, len, "--sysctl: '%s' is not a sysctl name", arg);
	}
	f = feature_find(arg);
	if (f && strcmp(eq + 1, "0") && strcmp(eq + 1, "1")) {
		*eq = '=';
		return parse_bad(error, len, "--sysctl: vm.%s takes 0 or 1, not '%s'", f->name, eq + 1);
	}
	a->sysctl_name[a->nr_sysctls] = arg;
	a->sysctl_val[a->nr_sysctls++] = eq + 1;
	return 0;
}

#define RUN_ROWS 11

/* The options of `bench run`, their values in @a, into @spec. */
static void run_options(struct bench_args *a, struct option_spec spec[RUN_ROWS])
{
	const struct option_spec rows[] = {
		OPT_VALUE(OPTION_STRING, 'f', "file", &a->file, "PATH",
			  "the file to read (default " BENCH_DEFAULT_FILE ")",
			  .flags = OPTION_NONEMPTY, .what = "a path"),
		OPT_SIZE('z', "size", &a->size, "SIZE",
			 "make PATH this big with the fixed-seed pattern,\n"
			 "or reuse it if it already is (default 256M for\n"
			 "the default file)",
			 .step = TESTFILE_BLOCK, .what = "a multiple of 4K like 256M or 1G"),
		OPT_UINT('n', "repeat", &a->repeat, "N",
			 "runs of each scenario; reports median, min, max",
			 .min = 1, .max = 1000, .what = "1..1000"),
		OPT_CALLBACK('s', "sysctl", a, "NAME=V",
			     "set a sysctl for the runs, restore it afterwards", sysctl_option),
		OPT_FLAG('V', "verify", &a->verify, "check read() and mmap() data against O_DIRECT"),
		OPT_FLAG('j', "json", &a->json, "JSON (schema rafleet-bench/1) instead of a table"),
		OPT_U64(0, "seed", &a->seed, "N", "seed of the random offsets (default 1)",
			.what = "a number"),
		OPT_UINT(0, "ring-pages", &a->ring_pages, "N",
			 "perf ring pages per CPU (power of two; default 4 MiB of pages)",
			 .max = 1 << 20, .flags = OPTION_POWER_OF_2, .what = "a power of two"),
		OPT_HELP(),
		OPT_END()
	};

	_Static_assert(sizeof(rows) / sizeof(rows[0]) <= RUN_ROWS, "RUN_ROWS");
	memcpy(spec, rows, sizeof(rows));
}

static const struct options_help bench_help = {
	"usage: rafleet bench list [--json]\n"
	"       rafleet bench run SCENARIO... [OPTIONS]\n"
	"\n"
	"Run each SCENARIO with a cold page cache and measure folios added (by\n"
	"order), readahead tracepoints, block requests, faults and times.\n"
	"\n"
	"run options:\n",
	25,
	"\n"
	"exit status: 0 all runs done (and verified), 1 a run failed or data did\n"
	"not match, 2 bad arguments or an unusable file.  'man rafleet-bench'.\n"
};

void bench_usage(FILE *f)
{
	struct option_spec spec[RUN_ROWS];
	struct bench_args dummy;

	run_options(&dummy, spec);
	options_help_print(f, &bench_help, spec);
}

static int parse_run(int argc, char **argv, struct bench_args *a)
{
	struct option_spec spec[RUN_ROWS];
	int ind;

	run_options(a, spec);
	ind = options_parse(spec, argc, argv, a->error, sizeof(a->error));
	if (ind == OPTIONS_HELP) {
		a->cmd = BENCH_HELP;
		return 0;
	}
	if (ind < 0)
		return -EINVAL;
	for (int i = ind; i < argc; i++) {
		const struct scenario *s = scenario_find(argv[i]);

		if (!s)
			return bad(a, "unknown scenario '%s' (see 'rafleet bench list')", argv[i]);
		if (a->nr_sc >= BENCH_MAX_SCENARIOS)
			return bad(a, "at most %d scenarios", BENCH_MAX_SCENARIOS);
		a->sc[a->nr_sc++] = s;
	}
	if (!a->nr_sc)
		return bad(a, "run wants at least one scenario (see 'rafleet bench list')");
	return 0;
}

/* `bench list [--json]` */
static int parse_list(int argc, char **argv, struct bench_args *a)
{
	const struct option_spec spec[] = {
		OPT_FLAG('j', "json", &a->json, "JSON"),
		OPT_HELP(),
		OPT_END()
	};
	int ind = options_parse(spec, argc, argv, a->error, sizeof(a->error));

	a->cmd = ind == OPTIONS_HELP ? BENCH_HELP : BENCH_LIST;
	if (ind < 0)
		return -EINVAL;
	if (ind > 0 && ind < argc)
		return bad(a, "list takes only --json, not '%s'", argv[ind]);
	return 0;
}

int bench_parse_args(int argc, char **argv, struct bench_args *a)
{
	memset(a, 0, sizeof(*a));
	a->repeat = 1;
	a->seed = 1;
	if (argc < 2)
		return bad(a, "bench wants a subcommand: list or run");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		a->cmd = BENCH_HELP;
		return 0;
	}
	if (!strcmp(argv[1], "list"))
		return parse_list(argc - 1, argv + 1, a);
	if (!strcmp(argv[1], "run")) {
		a->cmd = BENCH_RUN;
		return parse_run(argc - 1, argv + 1, a);
	}
	return bad(a, "unknown bench subcommand '%s' (list or run)", argv[1]);
}
