/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAFLEET_COMMANDS_H
#define RAFLEET_COMMANDS_H

#define RAFLEET_VERSION "0.1.0"

/* Exit codes shared by every command. */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,	/* the command ran and found a failure */
	EXIT_USAGE = 2,		/* bad arguments or input: nothing was done */
};

int cmd_bench(int argc, char **argv);
int cmd_status(int argc, char **argv);

#endif
