/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard/report.h - `rafleet guard` output: a table for people, JSON
 * (schema GUARD_SCHEMA, docs/guard-json.md) for machines.  Streamed: each
 * window is written when it ends, so a guard that runs for days says
 * what it saw as it goes.
 */
#ifndef RAFLEET_GUARD_REPORT_H
#define RAFLEET_GUARD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "host/feature.h"
#include "guard/args.h"
#include "guard/band.h"
#include "guard/run_canary.h"
#include "guard/window.h"
#include "lib/json.h"
#include "host/syscount.h"

#define GUARD_SCHEMA "rafleet-guard/2"

struct guard_header {
	const char *release;
	unsigned int mask;		/* features on now */
	int feature_state[8];		/* per features[]: 0, 1 or -errno */
	const char *baseline_path;
	const char *baseline_state;	/* "new", "relearn", "learning", "loaded" */
	unsigned int baseline_windows;	/* learned so far */
	unsigned int baseline_learn;	/* of K */
	const struct guard_args *args;
	const struct syscount *sc;	/* devices and what is available */
	double setup_cpu_ms;		/* opening the counters */
};

struct guard_action {
	const struct feature *f;
	struct canary_run run;
};

/* One window, measured and judged. */
struct guard_result {
	unsigned int index;		/* from 1 */
	unsigned int mask;		/* features on during the window */
	struct sc_values d;		/* counter deltas */
	struct guard_window w;
	struct judgement j;		/* j.verdict BV_LEARNING: learned */
	unsigned int learned;		/* baseline windows after this one */
	unsigned int learn_of;		/* K */
	double cpu_ms, cpu_pct;		/* the guard's own, this window */
	const char *not_acted;		/* out of band or alarm, why nothing was run */
	int nr_actions;
	struct guard_action act[8];
};

struct guard_summary {
	unsigned int windows;
	unsigned int verdicts[BV_OUT_OF_BAND + 1];
	unsigned int alarms;		/* windows with an alarm */
	unsigned int actions, action_errors;
	double cpu_ms, seconds;		/* sums over the windows */
	double max_cpu_pct;
	bool interrupted;		/* stopped by a signal */
	int exit_status;
};

struct guard_report {
	FILE *f;
	bool json;
	struct json_writer w;
};

void guard_report_begin(struct guard_report *r, FILE *f, bool json,
			const struct guard_header *h);
void guard_report_window(struct guard_report *r, const struct guard_result *g);
void guard_report_end(struct guard_report *r, const struct guard_summary *s);

/* 0, or -EIO if the output could not be written. */
int guard_report_error(struct guard_report *r);

#endif /* RAFLEET_GUARD_REPORT_H */
