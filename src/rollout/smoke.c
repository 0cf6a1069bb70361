// SPDX-License-Identifier: GPL-2.0
/* rafleet smoke: the trial boot's verdict, and the rollback it may call for. */
#include "rollout/smoke.h"
#include "rollout/priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/failpoint.h"

/* "readahead_x=1" for each feature this kernel has, to put back later. */
static int save_features(char args[][96], const char **argp, int *n)
{
	*n = 0;
	for (int i = 0; i < nr_features; i++) {
		int v = feature_get(&features[i]);

		if (v < 0)
			continue;
		snprintf(args[*n], 96, "%s=%d", features[i].name, v);
		argp[*n] = args[*n];
		(*n)++;
	}
	return 0;
}

/* Put back what save_features() recorded in the pending arguments. */
static void restore_features(const struct state_pending *p)
{
	for (size_t i = 0; i < p->nr_args; i++) {
		char name[96], *eq;
		const struct feature *f;

		snprintf(name, sizeof(name), "%s", p->args[i]);
		eq = strchr(name, '=');
		if (!eq)
			continue;
		*eq = '\0';
		f = feature_find(name);
		if (f && feature_get(f) != (eq[1] == '1'))
			feature_set(f, eq[1] == '1');
	}
}

/* One bench run; a failure is critical and said in @rep. */
static bool measure(const struct smoke_config *c, const struct smoke_opts *o,
		    bool off, struct smoke_run *run, struct smoke_report *rep)
{
	char why[512] = "", *json = NULL;
	int err = smoke_bench(c, off, o->timeout_s, &json, why, sizeof(why));

	if (!err)
		err = smoke_parse(json, run, why, sizeof(why));
	free(json);
	if (err) {
		rep->critical = true;
		snprintf(rep->detail, sizeof(rep->detail), "a smoke run%s failed: %s",
			 off ? " with every feature off" : "", why);
	}
	return !err;
}

/* The baseline stage recorded, and whether it was measured for this smoke run. */
static bool baseline_check(struct rollout *r, const struct smoke_config *c,
			   struct smoke_report *rep)
{
	struct smoke_key have;
	char why[512] = "";
	int err;

	if (!r->st.baseline)
		return false;	/* stage --no-baseline */
	rep->have_baseline = true;
	err = smoke_load(r->st.baseline, &rep->baseline);
	if (!err)
		err = smoke_key_of_config(c, r->st.previous.release, &rep->key, why, sizeof(why));
	if (err) {
		rep->key_mismatch = true;
		snprintf(rep->detail, sizeof(rep->detail), "the baseline %s cannot be used: %s",
			 r->st.baseline, why[0] ? why : strerror(-err));
		return false;
	}
	smoke_key_hash(&rep->key, rep->key_hash);
	smoke_key_of_run(&rep->baseline, &have);
	if (!smoke_key_match(&rep->key, &have, why, sizeof(why))) {
		rep->key_mismatch = true;
		snprintf(rep->detail, sizeof(rep->detail),
			 "the baseline %s was not measured for this smoke run (key %s): %s; stage again to measure it",
			 r->st.baseline, rep->key_hash, why);
		return false;
	}
	return true;
}

static int measure_all(struct rollout *r, const struct smoke_config *c,
		       const struct smoke_opts *o, struct smoke_report *rep)
{
	int err = rollout_step(r, "workloads");

	if (err || !measure(c, o, false, &rep->run, rep))
		return err;
	failpoint("smoke.after-workloads");

	kernel_health_read(&rep->health);
	if (kernel_health_bad(&rep->health)) {
		rep->critical = true;
		snprintf(rep->detail, sizeof(rep->detail),
			 "the kernel complained: %u warnings, %u oopses, taint %ld%s%s",
			 rep->health.warnings, rep->health.oopses, rep->health.taint,
			 rep->health.first[0] ? "; first: " : "", rep->health.first);
		return 0;
	}
	if (!baseline_check(r, c, rep))
		return 0;

	/* with every feature off: does the kernel itself behave otherwise? */
	for (int i = 0; i < 2; i++) {
		err = rollout_step(r, i ? "features-off-2" : "features-off-1");
		if (err)
			return err;
		if (!measure(c, o, true, &rep->off[i], rep))
			break;
		rep->nr_off++;
		restore_features(&r->st.pending);
		failpoint(i ? "smoke.after-features-off-2" : "smoke.after-features-off-1");
		smoke_compare(&rep->baseline, &rep->off[i], &rep->cmp[i]);
		rep->time_beyond[i] = smoke_loses(&rep->baseline, &rep->off[i], o->delta,
						  &rep->worst[i], rep->which[i],
						  sizeof(rep->which[i]));
		if (rep->cmp[i].err || !rep->cmp[i].nr_beyond)
			break;
	}
	restore_features(&r->st.pending);
	if (rep->nr_off == 2)
		rep->counters_beyond = smoke_beyond_twice(&rep->cmp[0], &rep->cmp[1], &rep->beyond);
	return 0;
}

/* "folios_order_9 of seq-read 12 against 96 (tolerance 4)" */
static void diff_text(const struct smoke_diff *d, char *buf, size_t len)
{
	char name[32];

	snprintf(buf, len, "%s of %s %.0f against %.0f (tolerance %.0f)",
		 smoke_counter_name(d->counter, name, sizeof(name)), d->scenario, d->trial,
		 d->base, d->tol);
}

/*
 * What is reported and not judged across boots, the device's requests and
 * the time: "; the device's counters, reported ...: ...; time, ...: ..."
 */
static void time_text(const struct smoke_report *rep, char *buf, size_t len)
{
	int k = rep->nr_off - 1;
	size_t n = 0;
	char d[160];

	*buf = '\0';
	if (k >= 0 && rep->cmp[k].dev_compared) {
		diff_text(&rep->cmp[k].dev_worst, d, sizeof(d));
		n = (size_t)snprintf(buf, len,
				     "; the device's counters, reported and not judged across boots (every reader of the device counts): worst %s",
				     d);
	}
	if (k < 0 || rep->worst[k] <= 0 || n >= len)
		return;
	snprintf(buf + n, len - n, "; time, reported and not judged across boots: worst %s x%.3f%s",
		 rep->which[k], rep->worst[k],
		 rep->time_beyond[k] ? " (beyond delta)" : "");
}

static void verdict(struct smoke_report *rep)
{
	const struct smoke_cmp *last = rep->nr_off ? &rep->cmp[rep->nr_off - 1] : NULL;
	bool error = last && last->err;
	bool fail = rep->critical || rep->key_mismatch || error || rep->counters_beyond;
	char d[256], t[512];

	snprintf(rep->verdict, sizeof(rep->verdict), "%s", fail ? "fail" : "pass");
	if (rep->critical || rep->key_mismatch)
		return;		/* the detail is said */
	time_text(rep, t, sizeof(t));
	if (error) {
		snprintf(rep->detail, sizeof(rep->detail),
			 "with every feature off, nothing to compare with the baseline: %s%s",
			 last->error, t);
	} else if (rep->counters_beyond) {
		diff_text(&rep->beyond, d, sizeof(d));
		snprintf(rep->detail, sizeof(rep->detail),
			 "with every feature off it does not behave as the previous kernel did, in two measurements: %s; %d and %d of %d counters beyond their tolerance%s",
			 d, rep->cmp[0].nr_beyond, rep->cmp[1].nr_beyond, rep->cmp[1].compared, t);
	} else if (!rep->have_baseline) {
		snprintf(rep->detail, sizeof(rep->detail),
			 "every run went through and the kernel did not complain; no baseline to compare with");
	} else {
		diff_text(&last->worst, d, sizeof(d));
		snprintf(rep->detail, sizeof(rep->detail),
			 "every run went through, the kernel did not complain, and with every feature off its %d counters agree with the baseline's (closest to its tolerance: %s)%s%s",
			 last->compared, d,
			 rep->nr_off == 2 ? "; the first measurement's difference did not recur" : "",
			 t);
	}
}

int rollout_smoke(struct rollout *r, const struct smoke_opts *o,
		  struct smoke_report *rep)
{
	struct state *s = &r->st;
	struct journal_fields jf = { .kernel = s->trial.release };
	char saved[16][96], why[512] = "", reason[1100];
	const char *args[16];
	struct smoke_config c;
	struct smoke_opts eff;
	int n, err;

	memset(rep, 0, sizeof(*rep));
	if (s->phase != PHASE_TRIAL) {
		fprintf(stderr, "rafleet smoke: not a trial boot: the phase is %s and this boot runs %s\n",
			state_phase_name(s->phase), r->now.release);
		return -EINVAL;
	}
	err = smoke_config_load(&c, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet smoke: %s\n", why);
		return err;
	}
	/* --delta, else the configuration's, else the default */
	eff = *o;
	if (!eff.delta)
		eff.delta = c.delta ? c.delta : SMOKE_DEFAULT_DELTA;
	o = &eff;
	save_features(saved, args, &n);
	err = rollout_begin(r, "smoke", args, (size_t)n);
	if (err)
		return err;
	failpoint("smoke.after-intent");
	err = measure_all(r, &c, o, rep);
	if (err)
		return err;
	verdict(rep);

	jf.verdict = rep->verdict;
	jf.reason = rep->detail;
	err = state_verdict_set(&s->smoke, rep->verdict, rep->detail);
	if (err)
		return err;
	if (!strcmp(rep->verdict, "pass") || !o->rollback)
		return rollout_finish(r, strcmp(rep->verdict, "pass") ? LOG_ERR : LOG_NOTICE,
				      "smoke", &jf, rep->detail);

	snprintf(reason, sizeof(reason), "smoke failed: %s", rep->detail);
	rep->rolled_back = true;
	return rollout_trial_failed(r, "smoke", rep->detail, reason, &jf, "smoke.after-verdict",
				    o->exec);
}

int rollout_resume_smoke(struct rollout *r)
{
	char detail[256];

	restore_features(&r->st.pending);
	snprintf(detail, sizeof(detail), "interrupted at step %s: no verdict; the features are as before; run 'rafleet smoke' again",
		 r->st.pending.step);
	return rollout_finish(r, LOG_WARNING, "smoke", NULL, detail);
}
