/* SPDX-License-Identifier: GPL-2.0 */
/* What the rollout commands (stage, promote, rollback, smoke) share. */
#ifndef RAFLEET_ROLLOUTCMD_H
#define RAFLEET_ROLLOUTCMD_H

#include <stdbool.h>
#include <stdio.h>

#include "rollout/core.h"
#include "rollout/health.h"
#include "rollout/smoke.h"

/* The message for an unknown option after getopt_long() returned '?'. */
void rolloutcmd_bad_option(const char *cmd, char **argv);

/* After the options: EXIT_OK if no argument is left, else say so: EXIT_USAGE. */
int rolloutcmd_no_args(const char *cmd, int argc, char **argv);

/* rolloutcmd_json_only(): the command runs. */
#define ROLLOUTCMD_RUN (-1)

/*
 * The options of a command that has only --json and --help and takes no
 * arguments: ROLLOUTCMD_RUN with *@json set, or the exit status: EXIT_OK
 * after @usage on stdout, EXIT_USAGE after a message.
 */
int rolloutcmd_json_only(const char *cmd, int argc, char **argv,
			 void (*usage)(FILE *f), bool *json);

/* rollout_open() for @who; EXIT_OK, or EXIT_FAILED (already said why). */
int rolloutcmd_open(struct rollout **r, const char *who);

/*
 * Report the outcome of @action (@err from it) as a table or JSON, close
 * the rollout, and return the exit status: EXIT_OK, or EXIT_FAILED.
 */
int rolloutcmd_done(struct rollout *r, const char *action, int err, bool json,
		    const struct smoke_report *smoke, const struct health_report *health);

#endif
