// SPDX-License-Identifier: GPL-2.0
#include "rollout/report.h"

#include <errno.h>
#include <string.h>

#include "lib/json.h"
#include "lib/utf8.h"

/* every string of the state may be a user's (a --reason): for a terminal */
#define S(x) term_safe(x)

static void kernel_row(FILE *f, const char *label, const struct state_kernel *k)
{
	if (!k->release) {
		fprintf(f, "%-9s -\n", label);
		return;
	}
	fprintf(f, "%-9s %s  image %s  initrd %s\n", label, S(k->release),
		S(k->image ? k->image : "-"), S(k->initrd ? k->initrd : "-"));
	if (k->cmdline)
		fprintf(f, "%-9s   cmdline %s\n", "", S(k->cmdline));
	if (k->boot)
		fprintf(f, "%-9s   boots by %s\n", "", !strcmp(k->boot, "boot-loader") ?
			"the boot loader, the next boot only (stage --reboot)" : S(k->boot));
}

static void verdict_row(FILE *f, const char *label, const struct state_verdict *v)
{
	if (v->verdict)
		fprintf(f, "%-9s %s at %s: %s\n", label, S(v->verdict), S(v->time ? v->time : "?"),
			S(v->detail ? v->detail : ""));
	else
		fprintf(f, "%-9s -\n", label);
}

void rollout_state_table(FILE *f, const struct state *s, const char *next)
{
	size_t first = s->nr_history > ROLLOUT_REPORT_HISTORY ?
		       s->nr_history - ROLLOUT_REPORT_HISTORY : 0;

	fprintf(f, "%-9s %s\n", "phase", state_phase_name(s->phase));
	kernel_row(f, "previous", &s->previous);
	kernel_row(f, "trial", &s->trial);
	fprintf(f, "%-9s %s\n", "baseline", S(s->baseline ? s->baseline : "-"));
	verdict_row(f, "health", &s->health);
	verdict_row(f, "smoke", &s->smoke);
	if (s->pending.action) {
		fprintf(f, "%-9s %s, at step %s", "pending", S(s->pending.action),
			S(s->pending.step));
		for (size_t i = 0; i < s->pending.nr_args; i++)
			fprintf(f, "%s'%s'", i ? " " : " (", S(s->pending.args[i]));
		fprintf(f, "%s\n", s->pending.nr_args ? ")" : "");
	} else {
		fprintf(f, "%-9s -\n", "pending");
	}
	fprintf(f, "%-9s %s\n", "next", S(next ? next : "nothing to finish"));
	fprintf(f, "\nfeature decisions\n");
	if (!s->nr_decisions)
		fprintf(f, "  none\n");
	for (size_t i = 0; i < s->nr_decisions; i++) {
		const struct state_decision *d = &s->decisions[i];

		fprintf(f, "  vm.%-34s %d  %s  %s%s%s\n", S(d->feature), d->value,
			S(d->time), S(d->reason), d->evidence ? "  evidence: " : "",
			S(d->evidence ? d->evidence : ""));
	}
	fprintf(f, "\nhistory (last %d)\n", ROLLOUT_REPORT_HISTORY);
	if (!s->nr_history)
		fprintf(f, "  none\n");
	for (size_t i = first; i < s->nr_history; i++) {
		const struct state_event *e = &s->history[i];

		fprintf(f, "  %s  %-16s %s  [%s]\n", S(e->time), S(e->action),
			S(e->detail ? e->detail : ""), S(e->kernel ? e->kernel : "-"));
	}
}

/* A time column: milliseconds, or "-" when not measured. */
static void ms_col(FILE *f, double ns)
{
	if (ns >= 0)
		fprintf(f, " %12.1f", ns / 1e6);
	else
		fprintf(f, " %12s", "-");
}

void smoke_report_table(FILE *f, const struct smoke_report *rep)
{
	fprintf(f, "%-22s %12s %12s %12s %12s\n", "scenario", "baseline ms",
		"trial ms", "all-off ms", "all-off #2");
	for (int i = 0; i < rep->run.nr; i++) {
		const char *name = rep->run.sc[i].name;
		double b = rep->have_baseline ? smoke_median(&rep->baseline, name) : -1;

		fprintf(f, "%-22s", name);
		ms_col(f, b);
		ms_col(f, rep->run.sc[i].wall_ns);
		for (int k = 0; k < 2; k++)
			ms_col(f, k < rep->nr_off ? smoke_median(&rep->off[k], name) : -1);
		fputc('\n', f);
	}
	if (rep->nr_off)
		fprintf(f, "(times: reported, not judged across boots)\n");
	for (int k = 0; k < rep->nr_off; k++) {
		const struct smoke_cmp *c = &rep->cmp[k];
		char name[32];

		if (c->err) {
			fprintf(f, "counters, all-off #%d: %s\n", k + 1, c->error);
			continue;
		}
		fprintf(f, "counters, all-off #%d: %d compared, %d beyond; closest: %s of %s %.0f against %.0f (tolerance %.0f)\n",
			k + 1, c->compared, c->nr_beyond,
			smoke_counter_name(c->worst.counter, name, sizeof(name)), c->worst.scenario,
			c->worst.trial, c->worst.base, c->worst.tol);
		if (c->dev_compared)
			fprintf(f, "  the device's, not judged: %d of %d beyond; worst: %s of %s %.0f against %.0f\n",
				c->dev_beyond, c->dev_compared,
				smoke_counter_name(c->dev_worst.counter, name, sizeof(name)),
				c->dev_worst.scenario, c->dev_worst.trial, c->dev_worst.base);
	}
	if (rep->key_hash[0])
		fprintf(f, "baseline key: %s (%s; %s; %lld bytes; %d runs)\n", rep->key_hash,
			rep->key.release, rep->key.scenarios, (long long)rep->key.size,
			rep->key.repeat);
	fprintf(f, "kernel log: %u warnings, %u oopses, taint %ld%s%s%s\n",
		rep->health.warnings, rep->health.oopses, rep->health.taint,
		rep->health.log_read ? "" : " (log not read: ",
		rep->health.log_read ? "" : rep->health.log_error,
		rep->health.log_read ? "" : ")");
	fprintf(f, "verdict: %s: %s%s\n", rep->verdict, rep->detail,
		rep->rolled_back ? " -> kernel rolled back" : "");
}

static void run_json(struct json_writer *w, const char *key,
		     const struct smoke_run *run, bool have)
{
	if (!have) {
		json_null(w, key);
		return;
	}
	json_obj_begin(w, key);
	for (int i = 0; i < run->nr; i++) {
		if (run->sc[i].wall_ns >= 0)
			json_double(w, run->sc[i].name, run->sc[i].wall_ns);
		else
			json_null(w, run->sc[i].name);
	}
	json_obj_end(w);
}

/* @d, or null when there is none */
static void diff_json(struct json_writer *w, const char *key, const struct smoke_diff *d)
{
	char name[32];

	if (!d) {
		json_null(w, key);
		return;
	}
	json_obj_begin(w, key);
	json_str(w, "scenario", d->scenario);
	json_str(w, "counter", smoke_counter_name(d->counter, name, sizeof(name)));
	json_double(w, "baseline", d->base);
	json_double(w, "trial", d->trial);
	json_double(w, "baseline_range", d->range);
	json_double(w, "tolerance", d->tol);
	json_obj_end(w);
}

static void counters_json(struct json_writer *w, const struct smoke_report *rep)
{
	int n;

	json_obj_begin(w, "counters");
	json_obj_begin(w, "tolerance");
	json_double(w, "spread_k", SMOKE_SPREAD_K);
	json_double(w, "floor_relative", SMOKE_FLOOR_REL);
	json_double(w, "floor_absolute", SMOKE_FLOOR_ABS);
	json_obj_end(w);
	json_arr_begin(w, "all_off");
	for (int k = 0; k < rep->nr_off; k++) {
		const struct smoke_cmp *c = &rep->cmp[k];

		json_obj_begin(w, NULL);
		json_str(w, "error", c->err ? c->error : NULL);
		json_u64(w, "compared", (uint64_t)c->compared);
		json_u64(w, "beyond", (uint64_t)c->nr_beyond);
		diff_json(w, "closest_to_tolerance", c->compared ? &c->worst : NULL);
		json_arr_begin(w, "beyond_tolerance");
		n = c->nr_beyond < SMOKE_MAX_BEYOND ? c->nr_beyond : SMOKE_MAX_BEYOND;
		for (int i = 0; i < n; i++)
			diff_json(w, NULL, &c->beyond[i]);
		json_arr_end(w);
		/* the block device's: reported, not judged */
		json_obj_begin(w, "device_not_judged");
		json_u64(w, "compared", (uint64_t)c->dev_compared);
		json_u64(w, "beyond", (uint64_t)c->dev_beyond);
		diff_json(w, "worst", c->dev_compared ? &c->dev_worst : NULL);
		json_obj_end(w);
		json_obj_end(w);
	}
	json_arr_end(w);
	diff_json(w, "beyond_twice", rep->counters_beyond ? &rep->beyond : NULL);
	json_obj_end(w);
}

static void key_json(struct json_writer *w, const struct smoke_report *rep)
{
	if (!rep->key_hash[0]) {
		json_null(w, "baseline_key");
		return;
	}
	json_obj_begin(w, "baseline_key");
	json_str(w, "hash", rep->key_hash);
	json_str(w, "release", rep->key.release);
	json_str(w, "scenarios", rep->key.scenarios);
	json_str(w, "file", rep->key.file);
	json_i64(w, "size", rep->key.size);
	json_i64(w, "repeat", rep->key.repeat);
	json_obj_end(w);
}

static void smoke_json(struct json_writer *w, const struct smoke_report *rep)
{
	json_obj_begin(w, "smoke");
	json_str(w, "verdict", rep->verdict);
	json_str(w, "detail", rep->detail);
	json_boolean(w, "critical", rep->critical);
	json_boolean(w, "rolled_back", rep->rolled_back);
	json_obj_begin(w, "kernel_log");
	json_boolean(w, "read", rep->health.log_read);
	json_u64(w, "warnings", rep->health.warnings);
	json_u64(w, "oopses", rep->health.oopses);
	json_str(w, "first", rep->health.first[0] ? rep->health.first : NULL);
	if (rep->health.taint >= 0)
		json_i64(w, "taint", rep->health.taint);
	else
		json_null(w, "taint");
	json_obj_end(w);
	json_obj_begin(w, "median_wall_ns");
	run_json(w, "baseline", &rep->baseline, rep->have_baseline);
	run_json(w, "trial", &rep->run, rep->run.nr > 0);
	run_json(w, "all_off_1", &rep->off[0], rep->nr_off > 0);
	run_json(w, "all_off_2", &rep->off[1], rep->nr_off > 1);
	json_obj_end(w);
	json_arr_begin(w, "all_off_worst_ratio");
	for (int i = 0; i < rep->nr_off; i++)
		json_double(w, NULL, rep->worst[i]);
	json_arr_end(w);
	json_boolean(w, "time_judged", smoke_time_judged());
	json_boolean(w, "baseline_key_mismatch", rep->key_mismatch);
	key_json(w, rep);
	counters_json(w, rep);
	json_obj_end(w);
}

void health_report_table(FILE *f, const struct health_report *rep)
{
	fprintf(f, "%-8s %-24s %-14s %7s  %s\n", "KIND", "CHECK", "VERDICT", "SECONDS", "SAYS");
	if (!rep->nr)
		fprintf(f, "  no checks in %s or %s (required.d, wanted.d)\n", HEALTH_ETC_DIR,
			HEALTH_LIB_DIR);
	for (size_t i = 0; i < rep->nr; i++) {
		const struct health_check *c = &rep->checks[i];

		fprintf(f, "%-8s %-24s %-14s %7.1f  %s\n", health_kind_name(c->kind), c->name,
			health_verdict_name(c->verdict), c->seconds, c->summary);
	}
	fprintf(f, "health gate: %s: %s\n", rep->pass ? "pass" : "fail", rep->detail);
}

static void health_json(struct json_writer *w, const struct health_report *rep)
{
	json_obj_begin(w, "health");
	json_str(w, "verdict", rep->pass ? "pass" : "fail");
	json_str(w, "detail", rep->detail);
	json_u64(w, "timeout_s", rep->timeout_s);
	json_arr_begin(w, "checks");
	for (size_t i = 0; i < rep->nr; i++) {
		const struct health_check *c = &rep->checks[i];

		json_obj_begin(w, NULL);
		json_str(w, "name", c->name);
		json_str(w, "kind", health_kind_name(c->kind));
		json_str(w, "path", c->path);
		json_str(w, "verdict", health_verdict_name(c->verdict));
		if (c->status >= 0)
			json_i64(w, "status", c->status);
		else
			json_null(w, "status");
		json_double(w, "seconds", c->seconds);
		json_str(w, "summary", c->summary);
		json_str(w, "output", c->output);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

int rollout_report(FILE *f, const struct state *s, const char *action, bool ok,
		   bool json, const struct smoke_report *smoke,
		   const struct health_report *health)
{
	struct json_writer w;

	if (!json) {
		if (smoke)
			smoke_report_table(f, smoke);
		if (health)
			health_report_table(f, health);
		fprintf(f, "%s: %s\n\n", action, ok ? "done" : "failed");
		rollout_state_table(f, s, NULL);
		return fflush(f) || ferror(f) ? -EIO : 0;
	}
	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", ROLLOUT_SCHEMA);
	json_str(&w, "action", action);
	json_boolean(&w, "ok", ok);
	if (smoke)
		smoke_json(&w, smoke);
	if (health)
		health_json(&w, health);
	state_json(&w, "state", s, ROLLOUT_REPORT_HISTORY);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w) ? -EIO : 0;
}
