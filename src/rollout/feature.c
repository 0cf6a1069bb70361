// SPDX-License-Identifier: GPL-2.0
/*
 * The feature decisions: turn a feature off now and at boot (the sysctl,
 * then its drop-in), or remove the decision; each a rollout action with
 * its steps, resumable from the step it was cut at.
 */
#include "rollout/core.h"
#include "rollout/priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/dropin.h"
#include "lib/failpoint.h"

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

int rollout_resume_feature_off(struct rollout *r)
{
	const struct state_pending *p = &r->st.pending;
	const struct feature *f = p->nr_args == 3 ? feature_find(p->args[0]) : NULL;
	/* copies: the steps replace the pending arguments */
	char reason[1024], evidence[1024];

	if (!f)
		return rollout_pending_unknown(r);
	snprintf(reason, sizeof(reason), "%s", p->args[1]);
	snprintf(evidence, sizeof(evidence), "%s", p->args[2]);
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

int rollout_resume_feature_undo(struct rollout *r)
{
	const struct state_pending *p = &r->st.pending;
	const struct feature *f = p->nr_args ? feature_find(p->args[0]) : NULL;

	return f ? feature_undo_steps(r, f) : rollout_pending_unknown(r);
}
