/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of `rafleet bench`, parsed (no side effects: fuzzed). */
#ifndef RAFLEET_BENCH_ARGS_H
#define RAFLEET_BENCH_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "bench/scenario.h"

#define BENCH_MAX_SYSCTLS 8
#define BENCH_MAX_SCENARIOS 32
/* in the state directory (lib/statedir.h), in a directory of root's alone */
#define BENCH_DEFAULT_DIR "bench"
#define BENCH_DEFAULT_FILE "/var/lib/rafleet/bench/bench.dat"
#define BENCH_DEFAULT_SIZE (256LL << 20)

enum bench_cmd { BENCH_NONE, BENCH_LIST, BENCH_RUN, BENCH_HELP };

struct bench_args {
	enum bench_cmd cmd;
	const char *file;	/* NULL: the default file */
	off_t size;		/* 0: not given */
	unsigned int repeat;
	bool json, verify;
	uint64_t seed;
	unsigned int ring_pages;
	const char *sysctl_name[BENCH_MAX_SYSCTLS];
	const char *sysctl_val[BENCH_MAX_SYSCTLS];
	int nr_sysctls;
	const struct scenario *sc[BENCH_MAX_SCENARIOS];
	int nr_sc;
	char error[160];	/* what was wrong, when parsing fails */
};

/*
 * Parse argv of `rafleet bench` (argv[0] is "bench").  The strings are
 * pointed at, not copied.  0, or -EINVAL with a->error set.
 */
int bench_parse_args(int argc, char **argv, struct bench_args *a);

/* `rafleet bench --help`: the usage, its option list from the parser's table. */
void bench_usage(FILE *f);

#endif
