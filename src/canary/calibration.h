/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allowed loss delta of each workload, calibrated on this machine by
 * A/A runs (`rafleet calibrate`) and stored with it, in the state
 * directory, as calibration.json (schema rafleet-calibration/1).  A
 * calibration made on another machine (another /etc/machine-id) is not
 * used.
 */
#ifndef RAFLEET_CALIBRATION_H
#define RAFLEET_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "canary/signrank.h"

#define CALIBRATION_SCHEMA "rafleet-calibration/1"
#define CALIBRATION_FILE "calibration.json"
#define CALIBRATION_MAX 32

struct calibration_entry {
	char scenario[32];
	double delta;		/* the allowed loss, a fraction */
	double estimate, lo, hi;	/* the A/A shift and its interval (changes) */
	unsigned int pairs;
};

struct calibration {
	char machine_id[40];
	char kernel[80];
	char time[32];		/* RFC 3339, UTC */
	double alpha_look;	/* level of the A/A intervals */
	double floor;
	struct calibration_entry e[CALIBRATION_MAX];
	int n;
};

/* /etc/machine-id (under $RAFLEET_ROOT).  0 or -errno. */
int machine_id_get(char *out, size_t len);

/*
 * delta from an A/A interval: the larger of @floor and the interval's
 * farthest end, as a change, rounded up to half a percent.  A machine
 * whose A/A interval reaches 6 % cannot tell a 5 % loss from noise.
 */
double calibration_delta(const struct hl_estimate *aa, double floor);

/*
 * Load the stored calibration.  0; -ENOENT when there is none; -EXDEV when
 * it was made on another machine; -EBADMSG when the file is not a
 * calibration, and @why says which file and what to do.  Prints nothing.
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
