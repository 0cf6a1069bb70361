/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's rollout, as actions on its state (rollout/state.h), one rafleet at a
 * time (lib/lockfile.h).  Every action that changes something first records
 * what it is about to do (the state's "pending": action, step, arguments),
 * then does it step by step (each step idempotent, a failpoint between
 * two), then records it in the history and the journal and clears
 * "pending".  rollout_open() finds a pending action that a crash or
 * `kill -9` interrupted and finishes it (or, for smoke, drops it), so
 * that the state is always one an uninterrupted run could have left.
 *
 * Functions print their own error messages on stderr and return 0 or a
 * negative errno.
 */
#ifndef RAFLEET_ROLLOUT_H
#define RAFLEET_ROLLOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "host/feature.h"
#include "host/running.h"
#include "rollout/state.h"

struct rollout;

/*
 * Load the state under the lock; @who is the command name for the lock
 * file.  0, -EBUSY (lock held; message printed), or -errno.
 */
int rollout_open(struct rollout **r, const char *who);

/* Turn @f off now (feature_set) and persistently, record why. */
int rollout_feature_off(struct rollout *r, const struct feature *f,
			const char *reason, const char *evidence);

/* Append a history entry and a journal entry. */
int rollout_record(struct rollout *r, const char *action, const char *detail);

void rollout_close(struct rollout *r);

/* Remove the decision on @f (its drop-in); the live value is left as is. */
int rollout_feature_undo(struct rollout *r, const struct feature *f);

/*
 * Recovery at open found that this boot runs a kernel that was never
 * judged (a promote interrupted after it moved the default, then a reset)
 * and put the previous default back: rafleet recover --boot reboots.
 */
bool rollout_runs_unjudged(const struct rollout *r);

/* The state and the boot, as rollout_open() left them. */
const struct state *rollout_state(const struct rollout *r);
const struct running *rollout_running(const struct rollout *r);

struct stage_opts {
	const char *kernel;	/* a release or an image path */
	bool baseline;		/* measure the running kernel first */
	bool exec;		/* start the trial kernel once loaded */
	bool no_initrd;		/* the trial kernel boots without an initramfs */
	bool no_watchdog;	/* stage without a hardware watchdog */
	bool allow_running;	/* KERNEL may be the running one: an A/A trial */
	/*
	 * The trial boots through the boot loader, the next boot only (a trial
	 * entry made the one-shot), not by kexec: where kexec is not allowed
	 * (Secure Boot lockdown), and to try the firmware path itself.
	 */
	bool reboot;
};

/*
 * `rafleet stage`: baseline, kexec -l (or, with reboot, a trial entry made
 * the boot loader's one-shot), phase staged, then kexec (or reboot).
 */
int rollout_stage(struct rollout *r, const struct stage_opts *o);

/* `rafleet promote`: the trial kernel becomes the default boot entry. */
int rollout_promote(struct rollout *r);

/*
 * `rafleet rollback --kernel`: kexec back to the previous kernel (or
 * reboot into it, the default entry, when it cannot be loaded), for
 * @reason.  With @exec false it is only loaded and recorded.
 */
int rollout_kernel_back(struct rollout *r, const char *reason, bool exec);

/*
 * What rollout_open() would do first with @s on the boot @now, in words
 * ("finish the interrupted 'rollback --feature X' (at step Y)", "record
 * that the trial boot ... did not happen"); false if nothing.
 */
bool rollout_next(const struct state *s, const struct running *now,
		  char *what, size_t len);

/* The state file's path. */
int rollout_state_path(char *out, size_t len);

#endif
