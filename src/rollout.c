// SPDX-License-Identifier: GPL-2.0
/* The rollout state under the lock: open, recover, record; feature decisions. */
#include "rollout.h"
#include "rollout_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dropin.h"
#include "failpoint.h"
#include "statedir.h"

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

int rollout_save(struct rollout *r)
{
	int err = state_save(&r->st, r->path);

	if (err)
		fprintf(stderr, "rafleet: cannot write %s: %s\n", r->path, strerror(-err));
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

/* ---- feature decisions ---- */

static int feature_off_steps(struct rollout *r, const struct feature *f,
			     const char *reason, const char *evidence)
{
	const char *args[] = { f->name, reason, evidence ? evidence : "" };
	struct journal_fields jf = { .feature = f->name, .reason = reason,
				     .verdict = "off" };
	char drop[128], detail[1024], why[256];
	int err;

	err = rollout_begin(r, "feature-off", args, 3);
	if (err)
		return err;
	failpoint("feature-off.after-intent");

	err = rollout_step(r, "sysctl");
	if (err)
		return err;
	err = feature_set(f, false);
	if (err == -ENOENT) {
		fprintf(stderr, "rafleet: vm.%s: not in this kernel; turned off at boot only\n",
			f->name);
	} else if (err) {
		snprintf(why, sizeof(why), "vm.%s: %s", f->name, strerror(-err));
		return rollout_fail(r, "feature-off", why, err);
	}
	failpoint("feature-off.after-sysctl");

	err = rollout_step(r, "drop-in");
	if (err)
		return err;
	dropin_path(f, drop, sizeof(drop));
	err = dropin_write(f, 0, r->who, reason);
	if (err) {
		snprintf(why, sizeof(why), "%s: %s", drop, strerror(-err));
		return rollout_fail(r, "feature-off", why, err);
	}
	failpoint("feature-off.after-drop-in");

	err = state_decide(&r->st, f->name, 0, reason,
			   evidence && *evidence ? evidence : NULL);
	if (err)
		return err;
	snprintf(detail, sizeof(detail), "vm.%s off, now and at boot (%s): %s",
		 f->name, drop, reason);
	return rollout_finish(r, LOG_WARNING, "feature-off", &jf, detail);
}

int rollout_feature_off(struct rollout *r, const struct feature *f,
			const char *reason, const char *evidence)
{
	return feature_off_steps(r, f, reason, evidence);
}

static int feature_undo_steps(struct rollout *r, const struct feature *f)
{
	const char *args[] = { f->name };
	struct journal_fields jf = { .feature = f->name, .verdict = "default" };
	char drop[128], detail[1024], why[256];
	int err;

	err = rollout_begin(r, "feature-undo", args, 1);
	if (err)
		return err;
	failpoint("feature-undo.after-intent");

	err = rollout_step(r, "drop-in");
	if (err)
		return err;
	dropin_path(f, drop, sizeof(drop));
	err = dropin_remove(f);
	if (err) {
		snprintf(why, sizeof(why), "%s: %s", drop, strerror(-err));
		return rollout_fail(r, "feature-undo", why, err);
	}
	failpoint("feature-undo.after-drop-in");

	state_undecide(&r->st, f->name);
	snprintf(detail, sizeof(detail), "vm.%s: decision removed (%s); its boot value is the default again, its live value is left as it is",
		 f->name, drop);
	return rollout_finish(r, LOG_INFO, "feature-undo", &jf, detail);
}

int rollout_feature_undo(struct rollout *r, const struct feature *f)
{
	return feature_undo_steps(r, f);
}

/* ---- recovery ---- */

static const struct feature *pending_feature(const struct state *s)
{
	return s->pending.nr_args ? feature_find(s->pending.args[0]) : NULL;
}

/* The command line an action comes from, for messages. */
static void pending_display(const struct state *s, char *out, size_t len)
{
	const struct state_pending *p = &s->pending;
	const char *arg = p->nr_args ? p->args[0] : "?";

	if (!strcmp(p->action, "feature-off"))
		snprintf(out, len, "rollback --feature %s", arg);
	else if (!strcmp(p->action, "feature-undo"))
		snprintf(out, len, "rollback --feature %s --undo", arg);
	else if (!strcmp(p->action, "kernel-rollback"))
		snprintf(out, len, "rollback --kernel");
	else if (!strcmp(p->action, "stage"))
		snprintf(out, len, "stage %s", arg);
	else
		snprintf(out, len, "%s", p->action);
}

static const struct {
	const char *action;
	const char *verb;	/* what recovery does */
} recoveries[] = {
	{ "feature-off", "finishing it" },
	{ "feature-undo", "finishing it" },
	{ "stage", "finishing it, without starting the trial kernel" },
	{ "promote", "finishing it" },
	{ "kernel-rollback", "finishing it, without restarting" },
	{ "smoke", "dropping it (no verdict) and restoring the features" },
};

static const char *recovery_verb(const char *action)
{
	for (size_t i = 0; i < sizeof(recoveries) / sizeof(recoveries[0]); i++)
		if (!strcmp(recoveries[i].action, action))
			return recoveries[i].verb;
	return "unable to finish it";
}

static int resume(struct rollout *r)
{
	struct state *s = &r->st;
	const struct feature *f = pending_feature(s);
	const char *a = s->pending.action;

	if (!strcmp(a, "feature-off") && f && s->pending.nr_args == 3) {
		/* copies: the steps replace the pending arguments */
		char reason[1024], evidence[1024];

		snprintf(reason, sizeof(reason), "%s", s->pending.args[1]);
		snprintf(evidence, sizeof(evidence), "%s", s->pending.args[2]);
		return feature_off_steps(r, f, reason, evidence);
	}
	if (!strcmp(a, "feature-undo") && f)
		return feature_undo_steps(r, f);
	if (!strcmp(a, "stage"))
		return rollout_resume_stage(r);
	if (!strcmp(a, "promote"))
		return rollout_resume_promote(r);
	if (!strcmp(a, "kernel-rollback"))
		return rollout_resume_kernel_back(r);
	if (!strcmp(a, "smoke"))
		return rollout_resume_smoke(r);
	fprintf(stderr, "rafleet: %s: pending action '%s' with these arguments is not one rafleet knows; not touching it\n",
		r->path, a);
	return -EBADMSG;
}

static int recover(struct rollout *r)
{
	char what[512];
	int err;

	if (!r->st.pending.action)
		return 0;
	pending_display(&r->st, what, sizeof(what));
	fprintf(stderr, "rafleet: an interrupted '%s' at step %s was found; %s\n",
		what, r->st.pending.step,
		recovery_verb(r->st.pending.action));
	err = resume(r);
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
		pending_display(s, cmd, sizeof(cmd));
		snprintf(what, len, "an interrupted '%s' (at step %s) was found: the next rafleet invocation that takes the lock will be %s",
			 cmd, s->pending.step,
			 recovery_verb(s->pending.action));
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

static unsigned int lock_wait_ms(void)
{
	const char *env = getenv("RAFLEET_LOCK_WAIT");

	return env ? (unsigned int)strtoul(env, NULL, 10) * 1000 : 0;
}

int rollout_open(struct rollout **rp, const char *who)
{
	struct rollout *r = calloc(1, sizeof(*r));
	char why[512];
	int err;

	*rp = NULL;
	if (!r)
		return -ENOMEM;
	r->lock.fd = -1;
	state_init(&r->st);
	snprintf(r->who, sizeof(r->who), "rafleet %s", who);
	err = rollout_state_path(r->path, sizeof(r->path));
	if (!err)
		err = lockfile_take(&r->lock, who, lock_wait_ms());
	if (err) {
		if (err != -EBUSY)
			fprintf(stderr, "rafleet: cannot take the lock in the state directory: %s\n",
				strerror(-err));
		goto fail;
	}
	err = state_load(&r->st, r->path, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet: %s: %s; not touching it (repair it or move it away)\n",
			r->path, err == -EBADMSG ? why : strerror(-err));
		goto fail;
	}
	running_read(&r->now);
	err = recover(r);
	if (!err)
		err = rollout_observe_boot(r);
	if (err)
		goto fail;
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
