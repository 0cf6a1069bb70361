// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the rollout: take the lock, load the state, finish what an
 * interrupted action left pending, then record what the boot shows.  The
 * one table of the actions that can be pending says, for each, the command
 * it comes from, what recovery does and the function that does it.
 */
#include "rollout/core.h"
#include "rollout/priv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/sysctl.h"
#include "lib/atomicfile.h"
#include "lib/env.h"
#include "lib/parsenum.h"

static const struct action {
	const char *name;	/* the pending action in the state */
	const char *cmd;	/* the command it comes from ... */
	bool with_arg;		/* ... with its first argument */
	const char *tail;	/* ... then this */
	const char *verb;	/* what recovery does */
	int (*resume)(struct rollout *r);
} actions[] = {
	{ "feature-off", "rollback --feature", true, "", "finishing it",
	  rollout_resume_feature_off },
	{ "feature-undo", "rollback --feature", true, " --undo", "finishing it",
	  rollout_resume_feature_undo },
	{ "stage", "stage", true, "", "finishing it, without starting the trial kernel",
	  rollout_resume_stage },
	{ "promote", "promote", false, "", "finishing it", rollout_resume_promote },
	{ "kernel-rollback", "rollback --kernel", false, "", "finishing it, without restarting",
	  rollout_resume_kernel_back },
	{ "smoke", "smoke", false, "", "dropping it (no verdict) and restoring the features",
	  rollout_resume_smoke },
};

static const struct action *action_find(const char *name)
{
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(actions[i].name, name))
			return &actions[i];
	return NULL;
}

/* The command line the pending action comes from, for messages. */
static void pending_display(const struct state_pending *p, const struct action *a,
			    char *out, size_t len)
{
	if (!a)
		snprintf(out, len, "%s", p->action);
	else if (a->with_arg)
		snprintf(out, len, "%s %s%s", a->cmd, p->nr_args ? p->args[0] : "?", a->tail);
	else
		snprintf(out, len, "%s%s", a->cmd, a->tail);
}

static const char *recovery_verb(const struct action *a)
{
	return a ? a->verb : "unable to finish it";
}

static int recover(struct rollout *r)
{
	const struct state_pending *p = &r->st.pending;
	const struct action *a;
	char what[512];
	int err;

	if (!p->action)
		return 0;
	a = action_find(p->action);
	pending_display(p, a, what, sizeof(what));
	fprintf(stderr, "rafleet: an interrupted '%s' at step %s was found; %s\n",
		what, p->step, recovery_verb(a));
	err = a ? a->resume(r) : rollout_pending_unknown(r);
	if (err)
		fprintf(stderr, "rafleet: could not finish the interrupted '%s'\n", what);
	return err;
}

bool rollout_next(const struct state *s, const struct running *now,
		  char *what, size_t len)
{
	const struct state_kernel *t = &s->trial;
	char cmd[512];

	if (s->pending.action) {
		const struct action *a = action_find(s->pending.action);

		pending_display(&s->pending, a, cmd, sizeof(cmd));
		snprintf(what, len, "an interrupted '%s' (at step %s) was found: the next rafleet invocation that takes the lock will be %s",
			 cmd, s->pending.step, recovery_verb(a));
		return true;
	}
	if (s->phase == PHASE_STAGED && running_is_trial(now, t->release, t->token)) {
		snprintf(what, len, "this is the trial boot of %s: the next rafleet invocation records it (staged -> trial)",
			 t->release);
		return true;
	}
	if (s->phase == PHASE_STAGED && t->staged_boot_id && *now->boot_id &&
	    strcmp(t->staged_boot_id, now->boot_id)) {
		snprintf(what, len, "the trial boot of %s ended without a verdict (running %s): the next rafleet invocation records that, with what shows how (staged -> idle)",
			 t->release, now->release);
		return true;
	}
	if (s->phase == PHASE_TRIAL && !running_is_trial(now, t->release, t->token)) {
		snprintf(what, len, "the trial boot of %s has ended%s (running %s): the next rafleet invocation records that (trial -> idle)",
			 t->release, state_trial_judged(s) ? "" : " without a verdict", now->release);
		return true;
	}
	return false;
}

/* RAFLEET_LOCK_WAIT, seconds 0..LOCK_WAIT_MAX_S, in ms; -EINVAL if it is not one */
#define LOCK_WAIT_MAX_S 86400

static int lock_wait_ms(unsigned int *ms)
{
	const char *env = env_get(ENV_LOCK_WAIT);
	uint64_t s = 0;

	if (env && parse_u64(env, LOCK_WAIT_MAX_S, &s)) {
		fprintf(stderr, "rafleet: RAFLEET_LOCK_WAIT=%s is not a number of seconds 0..%d\n",
			env, LOCK_WAIT_MAX_S);
		return -EINVAL;
	}
	*ms = (unsigned int)s * 1000;
	return 0;
}

int rollout_open(struct rollout **rp, const char *who)
{
	struct rollout *r = calloc(1, sizeof(*r));
	unsigned int wait_ms;
	char why[512];
	int err;

	*rp = NULL;
	if (!r)
		return -ENOMEM;
	r->lock.fd = -1;
	state_init(&r->st);
	snprintf(r->who, sizeof(r->who), "rafleet %s", who);
	err = lock_wait_ms(&wait_ms);
	if (err)
		goto fail;
	err = rollout_state_path(r->path, sizeof(r->path));
	if (!err)
		err = lockfile_take(&r->lock, who, wait_ms);
	if (err == -EBUSY) {
		char busy[PATH_MAX + 160];

		lockfile_busy(&r->lock, busy, sizeof(busy));
		fprintf(stderr, "rafleet: %s\n", busy);
		goto fail;
	}
	if (err == -EPERM || err == -ELOOP) {
		fprintf(stderr, "rafleet: refused: the state directory or its lock file is not root's own, or another user can write it (%s)\n",
			r->path);
		goto fail;
	}
	if (err) {
		fprintf(stderr, "rafleet: cannot take the lock in the state directory: %s\n",
			strerror(-err));
		goto fail;
	}
	/* what a writer that crashed before its rename left (the lock is ours) */
	atomic_leftovers_remove(r->path, ".tmp.");
	err = state_load(&r->st, r->path, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet: %s: %s; not touching it (repair it or move it away)\n",
			r->path, err == -EBADMSG ? why : strerror(-err));
		goto fail;
	}
	running_read(&r->now);
	/* sysctls a killed canary, calibrate or bench --sysctl changed */
	if (sysctl_undo_recover(why, sizeof(why)) && why[0])
		fprintf(stderr, "rafleet %s: %s\n", who, why);
	err = recover(r);
	if (!err)
		err = rollout_observe_boot(r);
	if (err)
		goto fail;
	/* what the saves above did not write (nothing to recover or observe) */
	rollout_keep_previous(r);
	*rp = r;
	return 0;
fail:
	rollout_close(r);
	return err;
}

void rollout_close(struct rollout *r)
{
	if (!r)
		return;
	lockfile_release(&r->lock);
	state_free(&r->st);
	free(r);
}
