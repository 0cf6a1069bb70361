/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the rollout actions (src/rollout/ only): the open rollout, and the
 * bookkeeping every action does around its steps.
 */
#ifndef RAFLEET_ROLLOUT_PRIV_H
#define RAFLEET_ROLLOUT_PRIV_H

#include <limits.h>

#include "host/journal.h"
#include "lib/lockfile.h"
#include "rollout/core.h"

struct rollout {
	struct lockfile lock;
	struct state st;
	struct running now;
	char path[PATH_MAX];	/* state.json */
	char who[64];		/* "rafleet rollback" */
	/*
	 * This boot runs a trial kernel that was never judged: an
	 * interrupted promote had made it the default, and recovery has
	 * just put the previous default back.
	 */
	bool runs_unjudged;
};

/* Write the state; an error is printed.  0 or -errno. */
int rollout_save(struct rollout *r);

/* Tell apt which kernel to keep, from the state (host/aptkeep.h). */
void rollout_keep_previous(const struct rollout *r);

/* Record @action as pending (step "intent") with @args, and save. */
int rollout_begin(struct rollout *r, const char *action, const char *const *args,
		  size_t nr_args);

/* Record the step about to be taken, and save. */
int rollout_step(struct rollout *r, const char *step);

/*
 * Done: a history entry (@action, @detail), no more pending, saved; then
 * the journal entry, at @priority with @jf's fields (kernel: the running
 * release if @jf does not say).
 */
int rollout_finish(struct rollout *r, int priority, const char *action,
		   struct journal_fields *jf, const char *detail);

/*
 * Failed at a step, nothing more to do: "@action failed at step S: @why"
 * in the history and the journal, and on stderr; no more pending.
 * Returns @err.
 */
int rollout_fail(struct rollout *r, const char *action, const char *why, int err);

/*
 * Finish an interrupted action, from the step it was cut at (the table of
 * rollout/open.c calls these; each in the file of its action).
 */
int rollout_resume_feature_off(struct rollout *r);
int rollout_resume_feature_undo(struct rollout *r);
int rollout_resume_stage(struct rollout *r);
int rollout_resume_promote(struct rollout *r);
int rollout_resume_kernel_back(struct rollout *r);
int rollout_resume_smoke(struct rollout *r);

/*
 * The steps of a kernel rollback from a trial boot, once it is pending:
 * load the previous kernel, phase rolled-back, then (@exec) kexec into it
 * or reboot.  Smoke's failure goes on with these.
 */
int rollout_kernel_back_steps(struct rollout *r, const char *reason, bool exec);

/*
 * A trial's verdict failed it (@action "smoke" or "health", the verdict
 * already in the state): the history entry @detail and the rollback's
 * intent (@reason) in one write, the journal, the failpoint @fp, then
 * rollout_kernel_back_steps().
 */
int rollout_trial_failed(struct rollout *r, const char *action, const char *detail,
			 const char *reason, struct journal_fields *jf, const char *fp, bool exec);

/* A pending action rafleet cannot finish: said, and -EBADMSG. */
int rollout_pending_unknown(struct rollout *r);

/* Phase changes seen at open: staged -> trial, and trials that ended. */
int rollout_observe_boot(struct rollout *r);

#endif
