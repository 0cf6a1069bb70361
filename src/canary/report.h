/* SPDX-License-Identifier: GPL-2.0 */
/* The canary's report: JSON for machines, a table for people, a picture. */
#ifndef RAFLEET_CANARY_REPORT_H
#define RAFLEET_CANARY_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "canary/canary.h"

/* The version of the JSON; docs/canary-json.md describes it. */
#define CANARY_SCHEMA "rafleet-canary/2"

/* What was (or would be) done about the verdict, and why. */
struct canary_decision {
	const char *action;	/* "keep", "turn-off", "none" */
	bool acted;		/* done (--act), not only proposed */
	char why[384];
	const char *delta_source[CANARY_MAX_WORKLOADS];	/* "policy", "option" */
	const char *cap_source;	/* "option", "calibration", "default" */
	double alpha_total;	/* over every run of the feature on this kernel */
	unsigned int run;	/* earlier runs of it on this kernel (the ledger) */
	const char *svg;	/* the picture's path, or NULL */
};

void canary_report_json(FILE *f, const struct canary_opts *o,
			const struct canary_result *r,
			const struct canary_decision *d);
void canary_report_table(FILE *f, const struct canary_opts *o,
			 const struct canary_result *r,
			 const struct canary_decision *d);
/* The per-pair ratios of every workload, one panel each, as SVG. */
void canary_report_svg(FILE *f, const struct canary_opts *o,
		       const struct canary_result *r);

#endif
