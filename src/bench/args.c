// SPDX-License-Identifier: GPL-2.0
#include "bench/args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/feature.h"
#include "lib/parsenum.h"
#include "host/sysctl.h"
#include "bench/testfile.h"

/* The message in @a->error (an array); -EINVAL. */
#define bad(a, ...) parse_bad((a)->error, sizeof((a)->error), __VA_ARGS__)

/* NAME=VALUE; a vm.readahead_* feature takes only 0 or 1. */
static int parse_sysctl(struct bench_args *a, char *arg)
{
	char *eq = strchr(arg, '=');
	char path[512];
	const struct feature *f;

	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '\n'))
		return bad(a, "--sysctl wants NAME=VALUE, not '%s'", arg);
	if (a->nr_sysctls >= BENCH_MAX_SYSCTLS)
		return bad(a, "at most %d --sysctl", BENCH_MAX_SYSCTLS);
	*eq = '\0';
	if (sysctl_path(arg, path, sizeof(path))) {
		*eq = '=';
		return bad(a, "--sysctl: '%s' is not a sysctl name", arg);
	}
	f = feature_find(arg);
	if (f && strcmp(eq + 1, "0") && strcmp(eq + 1, "1")) {
		*eq = '=';
		return bad(a, "--sysctl: vm.%s takes 0 or 1, not '%s'", f->name, eq + 1);
	}
	a->sysctl_name[a->nr_sysctls] = arg;
	a->sysctl_val[a->nr_sysctls++] = eq + 1;
	return 0;
}

static int parse_run(int argc, char **argv, struct bench_args *a)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 'z' },
		{ "repeat", required_argument, NULL, 'n' },
		{ "sysctl", required_argument, NULL, 's' },
		{ "verify", no_argument, NULL, 'V' },
		{ "json", no_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 'S' },
		{ "ring-pages", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int c;

	optind = 0;	/* 0, not 1: GNU getopt forgets a half-read "-Vj" too */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:z:n:s:Vjh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!*optarg)
				return bad(a, "--file wants a path");
			a->file = optarg;
			break;
		case 'z':
			if (parse_size(optarg, &a->size) || a->size % TESTFILE_BLOCK)
				return bad(a, "--size wants a multiple of 4K like 256M or 1G, not '%s'", optarg);
			break;
		case 'n':
			if (parse_u64(optarg, 1000, &v) || !v)
				return bad(a, "--repeat wants 1..1000, not '%s'", optarg);
			a->repeat = v;
			break;
		case 's':
			if (parse_sysctl(a, optarg))
				return -EINVAL;
			break;
		case 'V':
			a->verify = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'S':
			if (parse_u64(optarg, UINT64_MAX, &v))
				return bad(a, "--seed wants a number, not '%s'", optarg);
			a->seed = v;
			break;
		case 'R':
			if (parse_u64(optarg, 1 << 20, &v) || !v || (v & (v - 1)))
				return bad(a, "--ring-pages wants a power of two, not '%s'", optarg);
			a->ring_pages = v;
			break;
		case 'h':
			a->cmd = BENCH_HELP;
			return 0;
		default:
			return bad(a, "unknown option '%s'", argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++) {
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
	if (!strcmp(argv[1], "list")) {
		a->cmd = BENCH_LIST;
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "--json"))
				a->json = true;
			else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
				a->cmd = BENCH_HELP;
			else
				return bad(a, "list takes only --json, not '%s'", argv[i]);
		}
		return 0;
	}
	if (!strcmp(argv[1], "run")) {
		a->cmd = BENCH_RUN;
		return parse_run(argc - 1, argv + 1, a);
	}
	return bad(a, "unknown bench subcommand '%s' (list or run)", argv[1]);
}
