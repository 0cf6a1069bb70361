// SPDX-License-Identifier: GPL-2.0
/*
 * The bookkeeping of every rollout action: the pending intent and step,
 * the history entry and the journal, each written before the next step.
 * It knows no action: rollout/open.c opens the state and resumes what was
 * interrupted; the actions (feature.c, kernel.c, smoke.c, health.c) call
 * down into this file and never the other way.
 */
#include "rollout/core.h"
#include "rollout/priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/aptkeep.h"
#include "lib/env.h"
#include "lib/statedir.h"

int rollout_state_path(char *out, size_t len)
{
	return statedir_path(STATE_FILE, out, len);
}

bool rollout_runs_unjudged(const struct rollout *r)
{
	return r->runs_unjudged;
}

const struct state *rollout_state(const struct rollout *r)
{
	return &r->st;
}

const struct running *rollout_running(const struct rollout *r)
{
	return &r->now;
}

/*
 * After each save, and at open (a host that was mid-rollout when rafleet
 * was upgraded to a version that writes it): apt is told to keep the
 * previous kernel while a rollout is in progress (host/aptkeep.h).  A
 * failure there is said and does not fail the action: the state is
 * written, and a rollback must not stop at /etc/apt.  A state directory
 * of its own (RAFLEET_STATE_DIR) without RAFLEET_ROOT is not this host's
 * rollout (a test's): its /etc/apt is left alone.
 */
void rollout_keep_previous(const struct rollout *r)
{
	const struct state *s = &r->st;
	const char *keep = s->phase == PHASE_IDLE ? NULL : s->previous.release;
	int err;

	if (env_get(ENV_STATE_DIR) && !env_get(ENV_ROOT))
		return;
	err = aptkeep_sync(keep, state_phase_name(s->phase));
	if (!err)
		return;
	if (keep)
		fprintf(stderr, "rafleet: cannot write %s: %s; apt autoremove may remove the previous kernel %s\n",
			AUTOREMOVE_FILE, strerror(-err), keep);
	else
		fprintf(stderr, "rafleet: cannot remove %s: %s; apt still keeps the kernel it names, and its removal is refused\n",
			AUTOREMOVE_FILE, strerror(-err));
}

int rollout_save(struct rollout *r)
{
	int err = state_save(&r->st, r->path);

	if (err)
		fprintf(stderr, "rafleet: cannot write %s: %s\n", r->path, strerror(-err));
	else
		rollout_keep_previous(r);
	return err;
}

int rollout_begin(struct rollout *r, const char *action, const char *const *args,
		  size_t nr_args)
{
	int err = state_pending_set(&r->st, action, "intent", args, nr_args);

	return err ? err : rollout_save(r);
}

int rollout_step(struct rollout *r, const char *step)
{
	int err = state_pending_step(&r->st, step);

	return err ? err : rollout_save(r);
}

int rollout_finish(struct rollout *r, int priority, const char *action,
		   struct journal_fields *jf, const char *detail)
{
	struct journal_fields none = { 0 };
	int err;

	state_pending_clear(&r->st);
	err = state_history_add(&r->st, action, detail, r->now.release);
	if (!err)
		err = rollout_save(r);
	if (err)
		return err;
	if (!jf)
		jf = &none;
	if (!jf->kernel)
		jf->kernel = r->now.release;
	journal_log(priority, action, jf, "%s", detail);
	return 0;
}

/* open.c and feature.c resume through it: here, so neither calls the other */
int rollout_pending_unknown(struct rollout *r)
{
	fprintf(stderr, "rafleet: %s: pending action '%s' with these arguments is not one rafleet knows; not touching it\n",
		r->path, r->st.pending.action);
	return -EBADMSG;
}

int rollout_fail(struct rollout *r, const char *action, const char *why, int err)
{
	struct journal_fields jf = { .reason = why, .verdict = "failed" };
	char detail[1024];

	snprintf(detail, sizeof(detail), "failed at step %s: %s",
		 r->st.pending.step ? r->st.pending.step : "-", why);
	fprintf(stderr, "rafleet: %s %s\n", action, detail);
	rollout_finish(r, LOG_ERR, action, &jf, detail);
	return err;
}

int rollout_record(struct rollout *r, const char *action, const char *detail)
{
	struct journal_fields jf = { 0 };
	int err = state_history_add(&r->st, action, detail, r->now.release);

	if (!err)
		err = rollout_save(r);
	if (!err)
		journal_log(LOG_INFO, action, &jf, "%s", detail);
	return err;
}
