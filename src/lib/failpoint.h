/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crash points for the crash-safety tests.  Every state-changing action
 * calls failpoint("ACTION.after-STEP") between two of its steps:
 *
 *	RAFLEET_FAILPOINT=NAME	the process kills itself (SIGKILL) there,
 *				as a power cut or `kill -9` would
 *	RAFLEET_FAILPOINT=list	each failpoint passed says its name on
 *				stderr: "rafleet: failpoint NAME"
 *
 * Unset (as on every real host), a failpoint does nothing.
 */
#ifndef RAFLEET_FAILPOINT_H
#define RAFLEET_FAILPOINT_H

void failpoint(const char *name);

#endif
