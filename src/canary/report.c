// SPDX-License-Identifier: GPL-2.0
/* The canary's verdict, numbers and decision as JSON and as a table. */
#include <math.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "canary/report.h"
#include "lib/json.h"

/* A log-ratio as a change: ln(1.05) is +5 %. */
static double change(double d)
{
	return expm1(d);
}

static void series_json(struct json_writer *w, const struct canary_opts *o,
			const struct canary_result *r, int wl, int m)
{
	const struct canary_series *s = &r->s[wl][m];
	const struct seqrule_look *look = seqrule_look_at(&o->plan, r->pairs);

	json_obj_begin(w, NULL);
	json_str(w, "name", canary_metrics[m].name);
	json_str(w, "what", canary_metrics[m].what);
	json_boolean(w, "judged", canary_metrics[m].judged);
	json_boolean(w, "clock_free", m != CM_WALL);
	if (!s->available) {
		json_null_reason(w, "estimate", s->reason[0] ? s->reason : "not measured");
		json_obj_end(w);
		return;
	}
	/* a spread is a log already: its difference in points, not a change */
	json_double(w, "estimate", m == CM_SPREAD ? s->v.hl.estimate : change(s->v.hl.estimate));
	if (s->v.hl.lo_valid)
		json_double(w, "lo", m == CM_SPREAD ? s->v.hl.lo : change(s->v.hl.lo));
	else
		json_null_reason(w, "lo", "no REGRESS test at this look");
	if (s->v.hl.hi_valid)
		json_double(w, "hi", m == CM_SPREAD ? s->v.hl.hi : change(s->v.hl.hi));
	else
		json_null_reason(w, "hi", "no PASS test at this look");
	if (look) {
		json_double(w, "level_lo", look->level[SEQ_REGRESS]);
		json_double(w, "level_hi", look->level[SEQ_PASS]);
	}
	if (canary_metrics[m].judged) {
		json_u64(w, "passed_at", s->v.passed_at);
		json_str(w, "verdict", verdict_name(s->v.verdict));
		json_str(w, "effect", effect_name(s->v.effect));
	}
	json_arr_begin(w, "pairs");
	for (unsigned int i = 0; i < r->pairs; i++) {
		json_obj_begin(w, NULL);
		json_double(w, "off", s->off[i]);
		json_double(w, "on", s->on[i]);
		json_double(w, "log_ratio", s->d[i]);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

void canary_report_json(FILE *f, const struct canary_opts *o,
			const struct canary_result *r,
			const struct canary_decision *d)
{
	struct json_writer w;
	struct utsname u;
	char sysctl[80];

	uname(&u);
	snprintf(sysctl, sizeof(sysctl), "vm.%s", o->feature->name);
	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", CANARY_SCHEMA);
	json_str(&w, "kernel", u.release);
	json_str(&w, "feature", o->feature->name);
	json_str(&w, "sysctl", sysctl);
	json_boolean(&w, "aa", o->aa);
	json_obj_begin(&w, "arms");
	json_i64(&w, "A", r->arm[0]);
	json_i64(&w, "B", r->arm[1]);
	json_obj_end(&w);
	json_i64(&w, "was", r->was);
	json_obj_begin(&w, "plan");
	json_double(&w, "alpha", o->plan.alpha);
	json_double(&w, "alpha_total", d->alpha_total);
	json_u64(&w, "run", d->run + 1);
	json_double(&w, "rho", o->plan.rho);
	json_u64(&w, "pairs_min", o->plan.pairs_min);
	json_u64(&w, "pairs_step", o->plan.pairs_step);
	json_u64(&w, "pairs_max", o->plan.pairs_max);
	json_str(&w, "cap_source", d->cap_source);
	json_u64(&w, "runs_per_arm", o->runs ? o->runs : 1);
	json_u64(&w, "judged_metrics", o->plan.metrics);
	json_u64(&w, "first_deciding", o->plan.first_deciding);
	json_arr_begin(&w, "looks");
	for (unsigned int k = 0; k < o->plan.nlooks; k++) {
		const struct seqrule_look *l = &o->plan.look[k];

		json_obj_begin(&w, NULL);
		json_u64(&w, "pairs", l->n);
		json_i64(&w, "crit_regress", l->crit[SEQ_REGRESS]);
		json_i64(&w, "crit_pass", l->crit[SEQ_PASS]);
		json_double(&w, "level_regress", l->level[SEQ_REGRESS]);
		json_double(&w, "level_pass", l->level[SEQ_PASS]);
		json_double(&w, "spent_regress", l->spent[SEQ_REGRESS]);
		json_double(&w, "spent_pass", l->spent[SEQ_PASS]);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_u64(&w, "pairs", r->pairs);
	json_str(&w, "verdict", verdict_name(r->verdict));
	json_arr_begin(&w, "looks");
	for (unsigned int i = 0; i < r->nr_looks; i++) {
		json_obj_begin(&w, NULL);
		json_u64(&w, "pairs", r->looks[i].pairs);
		json_str(&w, "verdict", verdict_name(r->looks[i].verdict));
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_arr_begin(&w, "workloads");
	for (int wl = 0; wl < o->nr_workloads; wl++) {
		json_obj_begin(&w, NULL);
		json_str(&w, "scenario", o->workload[wl]->name);
		json_str(&w, "file", o->path[wl]);
		json_double(&w, "delta", o->delta[wl]);
		json_str(&w, "delta_source", d->delta_source[wl]);
		json_arr_begin(&w, "metrics");
		for (int m = 0; m < CM_NR; m++)
			series_json(&w, o, r, wl, m);
		json_arr_end(&w);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_begin(&w, "corroboration");
	json_boolean(&w, "needed", r->verdict == VERDICT_REGRESS);
	json_boolean(&w, "corroborated", r->corroborated);
	json_str(&w, "by", r->corroboration[0] ? r->corroboration : NULL);
	json_obj_end(&w);
	json_obj_begin(&w, "spread");
	json_boolean(&w, "erratic", r->erratic);
	json_str(&w, "why", r->erratic_why[0] ? r->erratic_why : NULL);
	json_obj_end(&w);
	json_obj_begin(&w, "decision");
	json_str(&w, "action", d->action);
	json_boolean(&w, "acted", d->acted);
	json_str(&w, "why", d->why);
	json_obj_end(&w);
	json_str(&w, "svg", d->svg);
	json_obj_end(&w);
	json_end(&w);
}

static void pct(FILE *f, double d)
{
	fprintf(f, " %+7.1f%%", change(d) * 100);
}

void canary_report_table(FILE *f, const struct canary_opts *o,
			 const struct canary_result *r,
			 const struct canary_decision *d)
{
	fprintf(f, "canary vm.%s%s: arm A = %d, arm B = %d, %u pairs, verdict %s\n",
		o->feature->name, o->aa ? " (A/A)" : "", r->arm[0], r->arm[1],
		r->pairs, verdict_name(r->verdict));
	fprintf(f, "run %u of it on this kernel: alpha %.3g %% each way (of %.3g %% over all runs), %u judged\n"
		"workloads, looks from %u pairs, cap %u (%s); lo and hi are the bounds of\n"
		"the REGRESS and PASS tests at the last look; each arm of a pair: the least\n"
		"wall time of %u cold runs; spread: ln(slowest/fastest) of them, B - A\n\n",
		d->run + 1, o->plan.alpha * 100, d->alpha_total * 100, o->plan.metrics,
		o->plan.first_deciding, o->plan.pairs_max, d->cap_source ? d->cap_source : "?",
		o->runs ? o->runs : 1);
	fprintf(f, "%-20s %-13s %8s %8s %8s %7s  %s\n", "workload", "metric",
		"B vs A", "lo", "hi", "delta", "verdict");
	for (int wl = 0; wl < o->nr_workloads; wl++) {
		for (int m = 0; m < CM_NR; m++) {
			const struct canary_series *s = &r->s[wl][m];

			fprintf(f, "%-20s %-13s", o->workload[wl]->name, canary_metrics[m].name);
			if (!s->available) {
				fprintf(f, " %8s  (%s)\n", "n/a", s->reason);
				continue;
			}
			if (m == CM_SPREAD) {
				fprintf(f, " %+7.1fpt", s->v.hl.estimate * 100);
				if (s->v.hl.lo_valid)
					fprintf(f, " %+7.1fpt", s->v.hl.lo * 100);
				else
					fprintf(f, " %8s", "-");
				if (s->v.hl.hi_valid)
					fprintf(f, " %+7.1fpt", s->v.hl.hi * 100);
				else
					fprintf(f, " %8s", "-");
				fprintf(f, " %7s  %s\n", "", r->erratic ? "(erratic?)" : "(spread)");
				continue;
			}
			pct(f, s->v.hl.estimate);
			if (s->v.hl.lo_valid)
				pct(f, s->v.hl.lo);
			else
				fprintf(f, " %8s", "-");
			if (s->v.hl.hi_valid)
				pct(f, s->v.hl.hi);
			else
				fprintf(f, " %8s", "-");
			if (canary_metrics[m].judged)
				fprintf(f, " %6.1f%%  %s%s%s\n", o->delta[wl] * 100,
					verdict_name(s->v.verdict),
					s->v.effect ? ", " : "",
					s->v.effect ? effect_name(s->v.effect) : "");
			else
				fprintf(f, " %7s  %s\n", "", "(corroborates)");
		}
	}
	fprintf(f, "\npairs (wall ms, A then B):");
	for (unsigned int i = 0; i < r->pairs; i++) {
		fprintf(f, "%s%2u:", i % 4 ? "  " : "\n  ", i + 1);
		for (int wl = 0; wl < o->nr_workloads; wl++)
			fprintf(f, " %.1f/%.1f", r->s[wl][CM_WALL].off[i] / 1e6,
				r->s[wl][CM_WALL].on[i] / 1e6);
	}
	fprintf(f, "\n\n");
	if (r->verdict == VERDICT_REGRESS)
		fprintf(f, "corroboration: %s\n", r->corroboration);
	if (r->erratic)
		fprintf(f, "erratic: %s\n", r->erratic_why);
	fprintf(f, "decision: %s%s: %s\n", d->action, d->acted ? " (done)" : "", d->why);
	if (d->svg)
		fprintf(f, "picture: %s\n", d->svg);
}
