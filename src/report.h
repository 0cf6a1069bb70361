/* SPDX-License-Identifier: GPL-2.0 */
/* Results of `rafleet bench` runs: JSON for machines, a table for people. */
#ifndef RAFLEET_REPORT_H
#define RAFLEET_REPORT_H

#include <stdio.h>

#include "json.h"
#include "measure.h"

/* One run as a JSON object (inside the caller's "runs" array). */
void report_run_json(struct json_writer *w, const struct run_result *r);

void report_table_header(FILE *f);
void report_table_row(FILE *f, const struct run_result *r);

#endif
