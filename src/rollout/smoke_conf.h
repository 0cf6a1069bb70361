/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smoke workloads: what /etc/rafleet/smoke.conf says to run (the
 * rafleet-smoke.service's EnvironmentFile), run as `rafleet bench run
 * SCENARIO... --json` in a child with a time limit, and the comparison of
 * two such runs' median wall times, scenario by scenario.
 * $RAFLEET_BENCH names the program to run instead of /proc/self/exe.
 */
#ifndef RAFLEET_SMOKE_H
#define RAFLEET_SMOKE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench/args.h"

#define SMOKE_CONF "/etc/rafleet/smoke.conf"
/* bench's JSON of one smoke run is a few KiB: a saved one is at most this */
#define SMOKE_RUN_MAX_BYTES (1 << 20)

struct smoke_config {
	char scenarios[1024];	/* separated by spaces */
	char file[PATH_MAX];
	char size[32];
	char repeat[16];
	double delta;		/* RAFLEET_SMOKE_DELTA as a fraction; 0: not set */
};

/* Read SMOKE_CONF under $RAFLEET_ROOT (the defaults where it is silent). */
int smoke_config_load(struct smoke_config *c, char *why, size_t len);

/*
 * Run the workloads, every vm.readahead_* feature at 0 if @features_off
 * (bench restores them).  *@json is bench's output (free() it), even on
 * failure when there is some.  0; -EIO if bench failed, -ETIMEDOUT past
 * @timeout_s, other -errno: @why says.
 */
int smoke_bench(const struct smoke_config *c, bool features_off,
		unsigned int timeout_s, char **json, char *why, size_t len);

struct smoke_scenario {
	char name[64];
	double wall_ns;		/* the median; < 0 if not measured */
};

struct smoke_run {
	struct smoke_scenario sc[BENCH_MAX_SCENARIOS];
	int nr;
};

/* The scenarios and medians of bench's JSON.  0 or -EBADMSG (@why). */
int smoke_parse(const char *json, struct smoke_run *run, char *why, size_t len);

/*
 * The smoke run (bench's JSON) saved at @path, such as the state's
 * baseline: 0, or -ENOENT (no @path), -ENODATA (no scenario), -EBADMSG,
 * or -errno of reading it.
 */
int smoke_load(const char *path, struct smoke_run *run);

/* The median of @name in @base, or -1. */
double smoke_median(const struct smoke_run *run, const char *name);

/*
 * Does @run lose to @base by more than @delta (0.05: 5 %) in any scenario?
 * The worst ratio run/base is left in *@worst, its scenario in @which.
 */
bool smoke_loses(const struct smoke_run *base, const struct smoke_run *run,
		 double delta, double *worst, char *which, size_t len);

#endif
