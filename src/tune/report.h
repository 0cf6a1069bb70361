/* SPDX-License-Identifier: GPL-2.0 */
/* tune/report.h - what `rafleet tune` did or would do, as a table or JSON. */
#ifndef RAFLEET_TUNE_REPORT_H
#define RAFLEET_TUNE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "tune/tune.h"

enum tune_mode { TUNE_APPLY, TUNE_DRY_RUN, TUNE_RESTORE, TUNE_RESTORE_DRY_RUN };

enum tune_action {
	TUNE_ACT_SET,		/* written (or would be, dry run) */
	TUNE_ACT_UNCHANGED,	/* the value is what the rule wants */
	TUNE_ACT_RESTORED,	/* the old value written back (or would be) */
	TUNE_ACT_DROPPED,	/* a record of a disk that is gone or replaced */
	TUNE_ACT_FAILED,	/* could not be read or written */
};

struct tune_row {
	struct tune_dev dev;	/* dev.disk.name always set */
	bool have_dev;		/* the disk is there (dev filled in) */
	struct tune_decision dec;
	enum tune_action action;
	bool have_old;		/* restore: the recorded value */
	uint64_t old_kb;
	char why[PATH_MAX + 128];	/* may name the rule's FILE:LINE */
	int err;
};

struct tune_report {
	enum tune_mode mode;
	const char *config;	/* the policy file, or NULL (restore) */
	const struct tune_policy *policy;
	const char *state_file;
	struct tune_row *rows;
	size_t nr;
	const char *note;	/* one line above the table, or NULL */
};

int tune_report_table(FILE *f, const struct tune_report *r);
int tune_report_json(FILE *f, const struct tune_report *r);

#endif
