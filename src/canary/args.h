/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command lines of `rafleet canary` and `rafleet calibrate`, parsed
 * (no side effects: fuzzed).
 */
#ifndef RAFLEET_CANARY_ARGS_H
#define RAFLEET_CANARY_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "canary/canary.h"

struct canary_args {
	bool calibrate;		/* `rafleet calibrate`: A/A, no feature */
	bool help, json, aa, act, no_calibration;
	const struct feature *feature;
	const struct scenario *workload[CANARY_MAX_WORKLOADS];
	int nr_workloads;
	const char *file;	/* NULL: the default file */
	off_t size;		/* 0: not given */
	unsigned int pairs_min, pairs_max;
	unsigned int runs;	/* cold runs per arm and pair */
	double alpha;
	double floor;		/* delta is never below it */
	double delta;		/* 0: calibrated (or the floor) */
	const char *report_dir;	/* NULL: STATEDIR/canary */
	uint64_t seed;
	unsigned int ring_pages;
	char error[160];
};

/* argv[0] is "canary" or "calibrate".  0, or -EINVAL with a->error set. */
int canary_parse_args(int argc, char **argv, struct canary_args *a);

/*
 * `rafleet canary --help` (@calibrate: `rafleet calibrate --help`): the
 * usage, its option list from the parser's table.
 */
void canary_usage(FILE *f, bool calibrate);

#endif
