/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rafleet trial-watch, on a trial boot (rafleet-trial-watch.service, from
 * early in the boot): the hardware watchdog of trial.conf armed with its
 * timeout and kept alive, and the trial's deadline kept.
 *
 *  - A trial kernel that hangs where nothing in it can help (interrupts
 *    off on every CPU) stops the keep-alives: the watchdog resets the
 *    machine, and the boot loader's default, the previous kernel, boots.
 *  - No verdict (the smoke run's) within the deadline, counted from the
 *    kernel's start: the host reboots at once (systemctl reboot --force
 *    --force), whatever its userspace is doing; the watchdog, no longer
 *    kept alive, backs that reboot up.
 *  - A verdict of pass (or the trial promoted): the watchdog is disarmed
 *    (the magic close) and the watch ends.  A rollback under way: the
 *    watch goes on through it, deadline included.
 *  - SIGTERM (a shutdown): the device is closed without the magic close,
 *    so the watchdog runs on through the shutdown.
 *
 * The state is only read (without the lock).  What the next boot takes as
 * evidence of how the trial ended, each file "TOKEN RELEASE BOOT_ID UPTIME":
 * STATEDIR/trial-alive, written when the watch starts and then every
 * minute (the trial's userspace ran, until about then), and
 * STATEDIR/trial-deadline, written when the deadline passed.
 */
#ifndef RAFLEET_TRIALWATCH_H
#define RAFLEET_TRIALWATCH_H

#include <signal.h>
#include <stddef.h>

#include "rollout/trialconf.h"

#define TRIAL_ALIVE_FILE "trial-alive"
#define TRIAL_DEADLINE_FILE "trial-deadline"
#define TRIAL_ALIVE_EVERY_S 60

enum watch_end {
	WATCH_NOT_TRIAL,	/* not a trial boot, or not the state's trial */
	WATCH_JUDGED,		/* a verdict of pass, or promoted: disarmed */
	WATCH_OVER,		/* the state has no trial any more: disarmed */
	WATCH_STOPPED,		/* *stop set (SIGTERM): the watchdog left running */
	WATCH_DEADLINE,		/* no verdict in time: the reboot was asked for */
};

/*
 * Watch this boot's trial until one of the ends above; the tick is a
 * third of the watchdog's timeout (at least 1 s).  The end, or -errno
 * with @why (the state cannot be read, the reboot failed).
 */
int trial_watch(const struct trial_config *tc, volatile sig_atomic_t *stop,
		char *why, size_t len);

const char *watch_end_name(enum watch_end e);

#endif
