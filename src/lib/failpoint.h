/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crash points for the crash-safety tests.  Every state-changing action
 * calls failpoint("ACTION.after-STEP") between two of its steps:
 *
 *	RAFLEET_FAILPOINT=NAME	the process kills itself (SIGKILL) there,
 *				as `kill -9` would (NAME:kill says the same)
 *	RAFLEET_FAILPOINT=NAME:reset
 *				the machine resets there (sysrq b: no sync,
 *				no unmount), as a power cut would: what the
 *				kernel had not yet written is lost; SIGKILL
 *				if /proc/sysrq-trigger cannot be written
 *	RAFLEET_FAILPOINT=list	each failpoint passed says its name on
 *				stderr: "rafleet: failpoint NAME"
 *
 * Unset (as on every real host), a failpoint does nothing.
 */
#ifndef RAFLEET_FAILPOINT_H
#define RAFLEET_FAILPOINT_H

void failpoint(const char *name);

#endif
