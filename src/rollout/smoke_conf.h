/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smoke workloads: what /etc/rafleet/smoke.conf says to run (the
 * rafleet-smoke.service's EnvironmentFile), run as `rafleet bench run
 * SCENARIO... --json` in a child with a time limit, and what the
 * comparison of two such runs needs from bench's JSON: each scenario's
 * median wall time and, run by run, its clock-free counters (major
 * faults, block read requests and bytes, folios added, by order).  The
 * comparison itself is rollout/smoke_compare.h.
 * $RAFLEET_BENCH names the program to run instead of /proc/self/exe.
 */
#ifndef RAFLEET_SMOKE_H
#define RAFLEET_SMOKE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench/args.h"
#include "bench/measure.h"

#define SMOKE_CONF "/etc/rafleet/smoke.conf"
/* bench's JSON of one smoke run is a few KiB: a saved one is at most this */
#define SMOKE_RUN_MAX_BYTES (1 << 20)

struct smoke_config {
	char scenarios[1024];	/* separated by spaces */
	char file[PATH_MAX];
	char size[32];
	char repeat[16];	/* 1..SMOKE_MAX_RUNS */
	double delta;		/* RAFLEET_SMOKE_DELTA as a fraction; 0: not set */
};

/* Read SMOKE_CONF under $RAFLEET_ROOT (the defaults where it is silent). */
int smoke_config_load(struct smoke_config *c, char *why, size_t len);

/*
 * The file the smoke workloads read: RAFLEET_SMOKE_FILE under
 * RAFLEET_ROOT (root_path()), so that a fake root contains that write
 * too.  0 or -errno.
 */
int smoke_file_path(const struct smoke_config *c, char *out, size_t len);

/*
 * Run the workloads, every vm.readahead_* feature at 0 if @features_off
 * (bench restores them).  *@json is bench's output (free() it), even on
 * failure when there is some.  0; -EIO if bench failed, -ETIMEDOUT past
 * @timeout_s, other -errno: @why says.
 */
int smoke_bench(const struct smoke_config *c, bool features_off,
		unsigned int timeout_s, char **json, char *why, size_t len);

/* The clock-free counters of one run, as bench's JSON has them. */
enum smoke_counter {
	SMOKE_MAJOR_FAULTS,	/* major_faults */
	SMOKE_BLOCK_REQUESTS,	/* block.read_requests */
	SMOKE_BLOCK_BYTES,	/* block.read_bytes */
	SMOKE_FOLIOS,		/* folios.total */
	SMOKE_FOLIO_ORDER0,	/* folios.by_order["0"] .. ["11"] follow */
	SMOKE_NR_COUNTERS = SMOKE_FOLIO_ORDER0 + FOLIO_ORDERS
};

/* A smoke run's repeat: the spread of a counter comes from these runs. */
#define SMOKE_MAX_RUNS 16

struct smoke_scenario {
	char name[64];
	char file[256];		/* what was read ("" if bench did not say) */
	double size;		/* its bytes; < 0 if bench did not say */
	double wall_ns;		/* the median; < 0 if not measured */
	int nr_runs;		/* the runs read (at most SMOKE_MAX_RUNS) */
	int features_on;	/* runs with some vm.readahead_* at 1 */
	/* run by run, each counter; < 0 where that run did not measure it */
	double count[SMOKE_MAX_RUNS][SMOKE_NR_COUNTERS];
};

struct smoke_run {
	char kernel[128];	/* bench's "kernel": uname -r of the run */
	struct smoke_scenario sc[BENCH_MAX_SCENARIOS];
	int nr;
};

/* "major_faults", "block_read_requests", ..., "folios_order_9" */
const char *smoke_counter_name(int counter, char *buf, size_t len);

/*
 * The kernel, scenarios, medians and counters of bench's JSON.  0 or
 * -EBADMSG (@why).
 */
int smoke_parse(const char *json, struct smoke_run *run, char *why, size_t len);

/*
 * The smoke run (bench's JSON) saved at @path, such as the state's
 * baseline: 0, or -ENOENT (no @path), -ENODATA (no scenario), -EBADMSG,
 * or -errno of reading it.
 */
int smoke_load(const char *path, struct smoke_run *run);

/* The median of @name in @base, or -1. */
double smoke_median(const struct smoke_run *run, const char *name);

/* The scenario @name of @run, or NULL. */
const struct smoke_scenario *smoke_scenario_find(const struct smoke_run *run,
						 const char *name);

/*
 * The worst ratio of @run's median wall time to @base's over the scenarios
 * both measured, in *@worst (0 if none), its scenario in @which ("-"); true
 * when it is beyond 1 + @delta.  Reported only: across boots, time is not
 * judged (rollout/smoke_compare.h).
 */
bool smoke_loses(const struct smoke_run *base, const struct smoke_run *run,
		 double delta, double *worst, char *which, size_t len);

#endif
