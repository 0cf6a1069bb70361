/* SPDX-License-Identifier: GPL-2.0 */
/* Results of `rafleet bench` runs: JSON for machines, a table for people. */
#ifndef RAFLEET_REPORT_H
#define RAFLEET_REPORT_H

#include <stdio.h>

#include "lib/json.h"
#include "bench/measure.h"

/* The version of the JSON output; docs/bench-json.md describes it. */
#define REPORT_SCHEMA "rafleet-bench/1"

/* One run as a JSON object (inside the caller's "runs" array). */
void report_run_json(struct json_writer *w, const struct run_result *r);

/* A scenario's runs and, over them, median/min/max of each count. */
void report_scenario_json(struct json_writer *w, const struct scenario *s,
			  const char *path, int64_t size,
			  const struct run_result *runs, unsigned int n);

void report_table_header(FILE *f);
void report_table_row(FILE *f, const struct run_result *r);
/* The runs, and a median row when there are several. */
void report_scenario_table(FILE *f, const struct run_result *runs,
			   unsigned int n);

#endif
