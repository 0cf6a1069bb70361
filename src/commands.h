/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAFLEET_COMMANDS_H
#define RAFLEET_COMMANDS_H

/* The Makefile passes VERSION; a build without it says so. */
#ifndef RAFLEET_VERSION
#define RAFLEET_VERSION "unknown"
#endif

/* Exit codes shared by every command. */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,	/* the command ran and found a failure */
	EXIT_USAGE = 2,		/* bad arguments or input: nothing was done */
	EXIT_OUT_OF_BAND = 3,	/* rafleet guard: a window left its band */
};

int cmd_bench(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_canary(int argc, char **argv);
int cmd_guard(int argc, char **argv);
int cmd_health(int argc, char **argv);
int cmd_promote(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_rollback(int argc, char **argv);
int cmd_smoke(int argc, char **argv);
int cmd_stage(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_trialwatch(int argc, char **argv);
int cmd_tune(int argc, char **argv);

#endif
