// SPDX-License-Identifier: GPL-2.0
/* The rollout state in memory: phase names, decisions, history, pending. */
#include "rollout/state.h"
#include "lib/rfc3339.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const phase_names[] = {
	[PHASE_IDLE] = "idle",
	[PHASE_STAGED] = "staged",
	[PHASE_TRIAL] = "trial",
	[PHASE_PROMOTED] = "promoted",
	[PHASE_ROLLED_BACK] = "rolled-back",
};

const char *state_phase_name(enum rollout_phase p)
{
	if ((size_t)p >= sizeof(phase_names) / sizeof(phase_names[0]))
		return "?";
	return phase_names[p];
}

int state_phase_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(phase_names) / sizeof(phase_names[0]); i++)
		if (!strcmp(phase_names[i], name))
			return (int)i;
	return -EINVAL;
}

void state_init(struct state *s)
{
	memset(s, 0, sizeof(*s));
	s->phase = PHASE_IDLE;
}

int state_set(char **dst, const char *val)
{
	char *copy = NULL;

	if (val) {
		copy = strdup(val);
		if (!copy)
			return -ENOMEM;
	}
	free(*dst);
	*dst = copy;
	return 0;
}

void state_kernel_clear(struct state_kernel *k)
{
	free(k->release);
	free(k->image);
	free(k->initrd);
	free(k->cmdline);
	free(k->token);
	free(k->boot);
	free(k->staged_boot_id);
	free(k->trial_boot_id);
	free(k->default_entry);
	free(k->default_how);
	memset(k, 0, sizeof(*k));
}

static void decision_free(struct state_decision *d)
{
	free(d->feature);
	free(d->reason);
	free(d->time);
	free(d->evidence);
}

static void event_free(struct state_event *e)
{
	free(e->time);
	free(e->action);
	free(e->detail);
	free(e->kernel);
}

void state_pending_clear(struct state *s)
{
	struct state_pending *p = &s->pending;

	free(p->action);
	free(p->step);
	for (size_t i = 0; i < p->nr_args; i++)
		free(p->args[i]);
	free(p->args);
	memset(p, 0, sizeof(*p));
}

void state_verdict_clear(struct state_verdict *v)
{
	free(v->verdict);
	free(v->time);
	free(v->detail);
	memset(v, 0, sizeof(*v));
}

void state_verdicts_clear(struct state *s)
{
	state_verdict_clear(&s->smoke);
	state_verdict_clear(&s->health);
}

static bool passed(const struct state_verdict *v)
{
	return v->verdict && !strcmp(v->verdict, "pass");
}

bool state_trial_passed(const struct state *s)
{
	return passed(&s->smoke) && passed(&s->health);
}

bool state_trial_judged(const struct state *s)
{
	return (s->smoke.verdict && !passed(&s->smoke)) ||
	       (s->health.verdict && !passed(&s->health)) || state_trial_passed(s);
}

void state_free(struct state *s)
{
	state_kernel_clear(&s->previous);
	state_kernel_clear(&s->trial);
	free(s->baseline);
	state_verdicts_clear(s);
	for (size_t i = 0; i < s->nr_decisions; i++)
		decision_free(&s->decisions[i]);
	free(s->decisions);
	state_pending_clear(s);
	for (size_t i = 0; i < s->nr_history; i++)
		event_free(&s->history[i]);
	free(s->history);
	state_init(s);
}

struct state_decision *state_decision(const struct state *s, const char *feature)
{
	for (size_t i = 0; i < s->nr_decisions; i++)
		if (!strcmp(s->decisions[i].feature, feature))
			return &s->decisions[i];
	return NULL;
}

int state_decide(struct state *s, const char *feature, int value,
		 const char *reason, const char *evidence)
{
	struct state_decision *d = state_decision(s, feature), new = { .value = value };
	char now[32];

	rfc3339_now(now, sizeof(now));
	if (state_set(&new.feature, feature) || state_set(&new.reason, reason) ||
	    state_set(&new.time, now) || state_set(&new.evidence, evidence)) {
		decision_free(&new);
		return -ENOMEM;
	}
	if (!d) {
		d = realloc(s->decisions, (s->nr_decisions + 1) * sizeof(*d));
		if (!d) {
			decision_free(&new);
			return -ENOMEM;
		}
		s->decisions = d;
		d += s->nr_decisions++;
	} else {
		decision_free(d);
	}
	*d = new;
	return 0;
}

void state_undecide(struct state *s, const char *feature)
{
	struct state_decision *d = state_decision(s, feature);
	size_t i;

	if (!d)
		return;
	i = (size_t)(d - s->decisions);
	decision_free(d);
	memmove(d, d + 1, (s->nr_decisions - i - 1) * sizeof(*d));
	s->nr_decisions--;
}

int state_history_add(struct state *s, const char *action, const char *detail,
		      const char *kernel)
{
	struct state_event e = { 0 }, *h;
	char now[32];

	rfc3339_now(now, sizeof(now));
	if (state_set(&e.time, now) || state_set(&e.action, action) ||
	    state_set(&e.detail, detail) || state_set(&e.kernel, kernel)) {
		event_free(&e);
		return -ENOMEM;
	}
	if (s->nr_history >= STATE_HISTORY_MAX) {
		size_t drop = s->nr_history - STATE_HISTORY_MAX + 1;

		for (size_t i = 0; i < drop; i++)
			event_free(&s->history[i]);
		memmove(s->history, s->history + drop,
			(s->nr_history - drop) * sizeof(*s->history));
		s->nr_history -= drop;
	}
	h = realloc(s->history, (s->nr_history + 1) * sizeof(*h));
	if (!h) {
		event_free(&e);
		return -ENOMEM;
	}
	s->history = h;
	h[s->nr_history++] = e;
	return 0;
}

int state_pending_set(struct state *s, const char *action, const char *step,
		      const char *const *args, size_t nr_args)
{
	struct state_pending p = { 0 };
	struct state old = { .pending = s->pending };

	/* built aside first: @args may point into the old one */
	p.args = calloc(nr_args ? nr_args : 1, sizeof(*p.args));
	if (!p.args || state_set(&p.action, action) || state_set(&p.step, step))
		goto nomem;
	for (; p.nr_args < nr_args; p.nr_args++)
		if (state_set(&p.args[p.nr_args], args[p.nr_args] ?
			      args[p.nr_args] : ""))
			goto nomem;
	s->pending = p;
	state_pending_clear(&old);
	return 0;
nomem:
	old.pending = p;
	state_pending_clear(&old);
	return -ENOMEM;
}

int state_pending_step(struct state *s, const char *step)
{
	return state_set(&s->pending.step, step);
}

int state_verdict_set(struct state_verdict *v, const char *verdict, const char *detail)
{
	char now[32];

	rfc3339_now(now, sizeof(now));
	if (state_set(&v->verdict, verdict) || state_set(&v->time, now) ||
	    state_set(&v->detail, detail))
		return -ENOMEM;
	return 0;
}
