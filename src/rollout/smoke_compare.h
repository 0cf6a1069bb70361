/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smoke run's kernel-level verdict, clock-free: with every feature off,
 * the trial kernel must behave as the previous kernel did, so each
 * scenario's counters (major faults, block read requests and bytes, folios
 * added, by order) agree with the baseline's within their measured
 * run-to-run spread.
 *
 * Judged are the counters of the file itself: major faults and the folios
 * added to its page cache (total, by order), which the readahead code
 * decides.  The block device's read requests and bytes are reported,
 * never judged across boots: they count every reader of the device, and
 * how many requests the same reads make depends on what else the boot
 * has in flight.  The same kernel staged against itself (five kexec A/A
 * trials in the rollout guest) measured seq-read at 23, 36, 26 and 36
 * requests against a baseline of 12 (its runs 12, 12, 11), once 12.
 *
 * For each scenario and judged counter, over the runs that measured it: the
 * baseline's median m and range r (max - min of its runs), the trial's
 * median t.  The counter is beyond when
 *
 *	|t - m| > max(SMOKE_SPREAD_K * r, SMOKE_FLOOR_REL * m, SMOKE_FLOOR_ABS)
 *
 * A scenario on one side only, or a counter measured on one side only, is
 * an error: nothing to compare is never a pass.
 *
 * Wall time is reported (smoke_loses()), never judged across boots: the
 * same kernel measured x1.2-1.7 slower after a kexec (populate-read
 * x1.735 rolled a good kernel back).  The hook for a design that cancels
 * the boot-to-boot offset is smoke_time_judged().
 *
 * The baseline is keyed (struct smoke_key) by the kernel it ran on and
 * the smoke configuration that matters (scenarios, file, size, repeat),
 * and it is measured with every feature off:
 * stage measures it again when the key changed; smoke refuses to compare
 * with a baseline of another key.
 */
#ifndef RAFLEET_ROLLOUT_SMOKE_COMPARE_H
#define RAFLEET_ROLLOUT_SMOKE_COMPARE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rollout/smoke_conf.h"

/* the tolerance: 3 baseline ranges, at least 2 % of the median and 4 */
#define SMOKE_SPREAD_K 3.0
#define SMOKE_FLOOR_REL 0.02
#define SMOKE_FLOOR_ABS 4.0

/* A counter of a scenario: its medians and the tolerance they were held to. */
struct smoke_diff {
	char scenario[64];
	int counter;		/* enum smoke_counter */
	double base, trial;	/* the medians */
	double range;		/* the baseline's, max - min */
	double tol;
};

#define SMOKE_MAX_BEYOND 8

/* One feature-off measurement against the baseline. */
struct smoke_cmp {
	int err;		/* 0; -ENOENT a scenario on one side only; -ENODATA a
				   counter measured on one side only, or none at all */
	char error[256];	/* says which */
	int compared;		/* counters compared */
	int nr_beyond;		/* counters beyond their tolerance */
	struct smoke_diff beyond[SMOKE_MAX_BEYOND];	/* the first of them */
	struct smoke_diff worst;	/* the largest |t - m| / tol */
	double worst_ratio;		/* that: <= 1 within */
	/* the device's counters, held to the same tolerance, not judged */
	int dev_compared, dev_beyond;
	struct smoke_diff dev_worst;
	double dev_worst_ratio;
};

/* Does @counter (enum smoke_counter) decide?  Not the device's. */
bool smoke_counter_judged(int counter);

/* The tolerance of a counter whose baseline median is @median, range @range. */
double smoke_tolerance(double median, double range);

/* @run (every feature off) against @base, scenario by scenario. */
void smoke_compare(const struct smoke_run *base, const struct smoke_run *run,
		   struct smoke_cmp *out);

/*
 * Is a counter of a scenario beyond in both measurements?  That one (from
 * @b) in *@which.  A fluke in one measurement rolls nothing back.
 */
bool smoke_beyond_twice(const struct smoke_cmp *a, const struct smoke_cmp *b,
			struct smoke_diff *which);

/*
 * Whether wall time may decide: only through a design that cancels the
 * boot-to-boot offset (boots interleaved previous, trial, previous,
 * trial, paired; or an across-kexec A/A calibration of this host class).
 * None is built: false.
 */
bool smoke_time_judged(void);

/* What a baseline is measured for. */
struct smoke_key {
	char release[128];	/* the kernel it runs on */
	char scenarios[1024];	/* in order, one space between */
	char file[PATH_MAX];
	int64_t size;		/* bytes */
	int repeat;
	int features_on;	/* runs with some feature on: a baseline has none */
};

/* The key of @c run on @release; 0 or -EINVAL (@why: a bad size, repeat). */
int smoke_key_of_config(const struct smoke_config *c, const char *release,
			struct smoke_key *k, char *why, size_t len);

/* The key of a measured run (bench's JSON, smoke_parse()). */
void smoke_key_of_run(const struct smoke_run *run, struct smoke_key *k);

/* Do they match?  If not, @why names the first difference. */
bool smoke_key_match(const struct smoke_key *want, const struct smoke_key *have,
		     char *why, size_t len);

/*
 * Is the baseline at @path (bench's JSON) one measured for @want?  If
 * not, @why says why not: missing, unreadable, or the first difference of
 * its key.  stage measures it again then, rather than keep a stale one.
 */
bool smoke_baseline_fresh(const char *path, const struct smoke_key *want, char *why,
			  size_t len);

/* The first 16 hex digits of the SHA-256 of the key, for the reports. */
void smoke_key_hash(const struct smoke_key *k, char out[17]);

#endif
