// SPDX-License-Identifier: GPL-2.0
/* rafleet health: the trial boot's health gate, and the rollback it may call for. */
#include "rollout/health.h"
#include "rollout/priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rollout/trialconf.h"

/* Each check's end in the journal: what an operator reads first. */
static void log_checks(const struct health_report *rep, const char *kernel)
{
	for (size_t i = 0; i < rep->nr; i++) {
		const struct health_check *c = &rep->checks[i];
		struct journal_fields jf = { .kernel = kernel,
					     .verdict = health_verdict_name(c->verdict),
					     .reason = c->summary };
		int prio = c->verdict == HV_PASS || c->verdict == HV_MASKED ? LOG_INFO :
			   c->kind == HEALTH_REQUIRED ? LOG_ERR : LOG_WARNING;

		journal_log(prio, "health", &jf, "%s check %s: %s (%.1f s)%s%s",
			    health_kind_name(c->kind), c->name, health_verdict_name(c->verdict),
			    c->seconds, c->summary[0] ? ": " : "", c->summary);
	}
}

int rollout_health(struct rollout *r, const struct health_opts *o, struct health_report *rep)
{
	struct state *s = &r->st;
	struct journal_fields jf = { .kernel = s->trial.release };
	struct trial_config tc;
	char why[512] = "", reason[1100];
	int err;

	memset(rep, 0, sizeof(*rep));
	if (s->phase != PHASE_TRIAL ||
	    !running_is_trial(&r->now, s->trial.release, s->trial.token)) {
		fprintf(stderr, "rafleet health: not a trial boot: the phase is %s and this boot runs %s\n",
			state_phase_name(s->phase), r->now.release);
		return -EINVAL;
	}
	err = trial_config_load(&tc, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet health: %s\n", why);
		return err;
	}
	err = health_run(o->timeout_s ? o->timeout_s : tc.health_timeout_s, s->trial.release,
			 rep, why, sizeof(why));
	if (err) {
		/* the checks cannot even be listed: that is a failed gate too */
		snprintf(rep->detail, sizeof(rep->detail), "the health checks cannot be listed: %s",
			 why);
		rep->pass = false;
	}
	log_checks(rep, s->trial.release);
	jf.verdict = rep->pass ? "pass" : "fail";
	jf.reason = rep->detail;
	err = state_verdict_set(&s->health, jf.verdict, rep->detail);
	if (err)
		return err;
	if (rep->pass || !o->rollback)
		return rollout_finish(r, rep->pass ? LOG_NOTICE : LOG_ERR, "health", &jf,
				      rep->detail);

	snprintf(reason, sizeof(reason), "health gate failed: %s", rep->detail);
	return rollout_trial_failed(r, "health", rep->detail, reason, &jf, "health.after-verdict",
				    o->exec);
}
