/* SPDX-License-Identifier: GPL-2.0 */
/* `rafleet status` output: a table for people, JSON for machines. */
#ifndef RAFLEET_STATUS_REPORT_H
#define RAFLEET_STATUS_REPORT_H

#include <stdio.h>

#include "status/status.h"

/* The version of the JSON output; docs/status-json.md describes it. */
#define STATUS_SCHEMA "rafleet-status/1"

/* 0, or -EIO if the output could not be written. */
int status_table(FILE *f, const struct status *st);
int status_json(FILE *f, const struct status *st);

#endif
