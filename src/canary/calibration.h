/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `rafleet calibrate` learns of this machine from A/A pairs (the same
 * setting in both arms): each workload's noise, the robust standard
 * deviation of its log-ratios (1.4826 MAD, which one interfered pair
 * hardly moves), and from it the cap of pairs at which the canary's rule
 * catches a loss of delta + 2 points 9 times in 10: the power of the real
 * rule, worked out by simulation with a fixed seed.  delta itself is a
 * policy (--delta, 3 % by default), never learned: a noisy machine gets
 * more pairs, not a wider margin.  Stored in the state directory as
 * calibration.json (schema rafleet-calibration/2); a calibration made on
 * another machine (another /etc/machine-id), or by an older rafleet, is
 * not used.
 */
#ifndef RAFLEET_CALIBRATION_H
#define RAFLEET_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "canary/seqrule.h"

#define CALIBRATION_SCHEMA "rafleet-calibration/2"
#define CALIBRATION_FILE "calibration.json"
#define CALIBRATION_MAX 32
#define CALIBRATION_DEFAULT_PAIRS 20
#define CALIBRATION_DETECT 0.02		/* catch delta + 2 points ... */
#define CALIBRATION_POWER 0.90		/* ... 9 times in 10 */
#define CALIBRATION_TRIALS 2000		/* simulated trials per cap */
#define CALIBRATION_CAP_MIN 12

struct calibration_entry {
	char scenario[32];
	double sigma;		/* robust sd of the A/A log-ratios */
	double estimate, lo, hi;	/* the A/A shift and its 99 % interval (changes) */
	unsigned int pairs;
	unsigned int cap;	/* pairs the canary may take */
	double power;		/* its simulated power at the cap */
};

struct calibration {
	char machine_id[40];
	char kernel[80];
	char time[32];		/* RFC 3339, UTC */
	double delta;		/* the policy the caps were chosen for */
	double alpha;		/* a first run's alpha, each way */
	unsigned int metrics;	/* judged workloads of a canary */
	struct calibration_entry e[CALIBRATION_MAX];
	int n;
};

/* 1.4826 times the median absolute deviation of @d[0..n); @n >= 1. */
double calibration_noise(const double *d, size_t n);

/*
 * The smallest cap (12, 16, ... 60) at which the canary's rule (the plan
 * @base with its cap replaced) says REGRESS in at least
 * CALIBRATION_POWER of CALIBRATION_TRIALS simulated trials whose pairs
 * are normal around ln(1 + delta + CALIBRATION_DETECT) with sd @sigma;
 * 60 when none does.  Its power in @power.  0 or -EINVAL.
 */
int calibration_choose_cap(const struct seqrule_plan *base, double sigma, double delta,
			   unsigned int *cap, double *power);

/* /etc/machine-id (under $RAFLEET_ROOT).  0 or -errno. */
int machine_id_get(char *out, size_t len);

/*
 * Load the stored calibration.  0; -ENOENT when there is none; -EXDEV when
 * it was made on another machine; -ESTALE when an older rafleet made it
 * (rafleet-calibration/1, which stored a learned delta); -EBADMSG when
 * the file is not a calibration.  @why says which file and what to do.
 * Prints nothing.
 */
int calibration_load(struct calibration *c, char *why, size_t len);

/* Add or replace the entry of @e->scenario.  -ENOSPC when full. */
int calibration_put(struct calibration *c, const struct calibration_entry *e);

const struct calibration_entry *calibration_find(const struct calibration *c,
						 const char *scenario);

/* The calibration as a JSON document on @f.  0 or -errno. */
int calibration_write_json(FILE *f, const struct calibration *c);

/* Write it atomically (the state directory is made if missing). */
int calibration_save(const struct calibration *c);

#endif
