/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exit statuses of every rafleet command, in one place.  Scripts and
 * the Ansible role (ansible/roles/rafleet/tasks/canary.yml) test these
 * numbers: docs/exit-codes.md lists them, and tests/host/test_layers checks
 * that the list and this enum agree.  A number never changes meaning.
 */
#ifndef RAFLEET_EXITCODE_H
#define RAFLEET_EXITCODE_H

enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,	/* the command ran and found a failure */
	EXIT_USAGE = 2,		/* bad arguments or input: nothing was done */
	EXIT_OUT_OF_BAND = 3,	/* rafleet guard: a window left its band */
	EXIT_REGRESS = 3,	/* rafleet canary: the feature regressed */
	EXIT_UNKNOWN = 4,	/* rafleet canary: no verdict within its trials */
};

#endif
