// SPDX-License-Identifier: GPL-2.0
/* guard/report.c - `rafleet guard` as a table and as JSON, see guard/report.h. */
#include "guard/report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/jsonread.h"

static const char *const mv_state_names[] = {
	[MV_OK] = "ok",
	[MV_QUIET] = "quiet",
	[MV_UNAVAILABLE] = "unavailable",
};

/* ---- JSON ---- */

/* A json-c value (the canary's report) written through our writer. */
static void json_value(struct json_writer *w, const char *key,
		       struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_boolean:
		json_boolean(w, key, json_object_get_boolean(o));
		break;
	case json_type_double:
		json_double(w, key, json_object_get_double(o));
		break;
	case json_type_int:
		json_i64(w, key, json_object_get_int64(o));
		break;
	case json_type_string:
		json_str(w, key, json_object_get_string(o));
		break;
	case json_type_array:
		json_arr_begin(w, key);
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_value(w, NULL, json_object_array_get_idx(o, i));
		json_arr_end(w);
		break;
	case json_type_object: {
		json_obj_begin(w, key);
		json_object_object_foreach(o, k, v)
			json_value(w, k, v);
		json_obj_end(w);
		break;
	}
	default:
		json_null(w, key);
	}
}

static void json_avail(struct json_writer *w, const char *key,
		       const struct sc_avail *a)
{
	if (a->ok)
		json_boolean(w, key, true);
	else
		json_null_reason(w, key, a->why);
}

static void json_header(struct json_writer *w, const struct guard_header *h)
{
	const struct guard_args *a = h->args;
	const struct sc_values *av = &h->sc->avail;

	json_str(w, "schema", GUARD_SCHEMA);
	json_str(w, "kernel", h->release);
	json_u64(w, "feature_mask", h->mask);
	json_arr_begin(w, "features");
	for (int i = 0; i < nr_features; i++) {
		json_obj_begin(w, NULL);
		json_str(w, "sysctl", features[i].name);
		if (h->feature_state[i] >= 0)
			json_i64(w, "state", h->feature_state[i]);
		else
			json_null_reason(w, "state", strerror(-h->feature_state[i]));
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_begin(w, "baseline");
	json_str(w, "path", h->baseline_path);
	json_str(w, "state", h->baseline_state);
	json_u64(w, "windows", h->baseline_windows);
	json_u64(w, "learn_windows", h->baseline_learn);
	json_obj_end(w);
	json_obj_begin(w, "options");
	json_u64(w, "window_s", a->window_s);
	if (a->windows)
		json_u64(w, "windows", a->windows);
	else
		json_null_reason(w, "windows", "until SIGINT or SIGTERM");
	json_boolean(w, "act", a->act);
	json_double(w, "floor", a->band.floor);
	json_double(w, "mads", a->band.mads);
	json_u64(w, "alarm_windows", GUARD_CONFIRM);
	json_double(w, "min_read_mib", a->min.min_read_mib);
	json_u64(w, "min_folios", a->min.min_folios);
	json_obj_end(w);
	json_arr_begin(w, "devices");
	for (int i = 0; i < h->sc->nr_dev; i++)
		json_str(w, NULL, h->sc->dev[i]);
	json_arr_end(w);
	json_obj_begin(w, "counters");
	json_avail(w, "major_faults", &av->majflt_ok);
	json_avail(w, "folios", &av->folio_ok);
	json_avail(w, "folios_by_order", &av->orders_ok);
	json_avail(w, "readahead", &av->ra_ok);
	json_avail(w, "block_reads", &av->disk_ok);
	json_arr_begin(w, "readahead_events");
	for (int i = 0; i < av->nr_ra; i++)
		json_str(w, NULL, av->ra_name[i]);
	json_arr_end(w);
	json_obj_end(w);
	json_double(w, "setup_cpu_ms", h->setup_cpu_ms);
	json_arr_begin(w, "windows");
}

static void json_count(struct json_writer *w, const char *key,
		       const struct sc_avail *a, uint64_t n)
{
	if (a->ok)
		json_u64(w, key, n);
	else
		json_null_reason(w, key, a->why);
}

static void json_counts(struct json_writer *w, const struct guard_result *g)
{
	const struct sc_values *d = &g->d;

	json_obj_begin(w, "counts");
	json_count(w, "major_faults", &d->majflt_ok, d->majflt);
	json_count(w, "folios", &d->folio_ok, d->folios);
	if (d->orders_ok.ok) {
		json_arr_begin(w, "folios_by_order");
		for (int o = 0; o < SC_ORDERS; o++)
			json_u64(w, NULL, d->by_order[o]);
		json_arr_end(w);
	} else {
		json_null_reason(w, "folios_by_order", d->orders_ok.why);
	}
	json_count(w, "pages_added", &d->orders_ok, g->w.pages);
	if (d->ra_ok.ok) {
		json_obj_begin(w, "readahead");
		for (int i = 0; i < d->nr_ra; i++)
			json_u64(w, d->ra_name[i], d->ra[i]);
		json_obj_end(w);
	} else {
		json_null_reason(w, "readahead", d->ra_ok.why);
	}
	json_count(w, "read_requests", &d->disk_ok, d->read_ios);
	json_count(w, "read_bytes", &d->disk_ok, d->read_sectors * 512);
	json_obj_end(w);

	json_obj_begin(w, "rates");
	json_double(w, "read_mib_s", g->w.read_mib_s);
	json_double(w, "read_requests_s", g->w.read_req_s);
	json_double(w, "folios_s", g->w.folios_s);
	json_double(w, "pages_s", g->w.pages_s);
	json_double(w, "major_faults_s", g->w.majflt_s);
	json_double(w, "readahead_s", g->w.ra_s);
	json_obj_end(w);
}

static void json_metric(struct json_writer *w, const struct guard_result *g,
			int m)
{
	const struct metric_value *mv = &g->w.m[m];
	const struct band *b = &g->j.band[m];

	json_obj_begin(w, guard_metric_names[m]);
	if (mv->state == MV_UNAVAILABLE)
		json_null_reason(w, "value", mv->why);
	else
		json_double(w, "value", mv->v);
	json_str(w, "state", mv_state_names[mv->state]);
	if (mv->state == MV_QUIET)
		json_str(w, "quiet_reason", mv->why);
	if (b->ok) {
		json_obj_begin(w, "band");
		json_double(w, "median", b->median);
		json_double(w, "mad", b->mad);
		json_double(w, "low", b->low);
		json_double(w, "high", b->high);
		json_u64(w, "n", b->n);
		json_double(w, "k", b->k);
		json_obj_end(w);
	} else {
		json_null_reason(w, "band", b->why);
	}
	json_str(w, "position", band_pos_names[g->j.pos[m]]);
	json_obj_end(w);
}

static void json_features(struct json_writer *w, const char *key,
			  unsigned int bits)
{
	json_arr_begin(w, key);
	for (int i = 0; i < nr_features; i++)
		if (bits & (1u << i))
			json_str(w, NULL, features[i].name);
	json_arr_end(w);
}

static void json_action(struct json_writer *w, const struct guard_action *a)
{
	const struct canary_run *r = &a->run;
	struct json_object *rep = NULL;
	struct json_read rd;
	char why[128] = "";

	json_obj_begin(w, NULL);
	json_str(w, "feature", a->f->name);
	json_arr_begin(w, "command");
	json_str(w, NULL, r->program);
	json_str(w, NULL, "canary");
	json_str(w, NULL, a->f->name);
	json_str(w, NULL, "--act");
	json_str(w, NULL, "--json");
	json_arr_end(w);
	if (r->err)
		json_null_reason(w, "exit_status", strerror(-r->err));
	else if (r->status < 0)
		json_null_reason(w, "exit_status", strsignal(r->signal));
	else
		json_i64(w, "exit_status", r->status);
	json_str(w, "decision", guard_canary_decision(r));
	json_read_init(&rd, why, sizeof(why), NULL);
	if (r->output && !r->truncated)
		json_read_parse(&rd, r->output, &rep);
	if (rep) {
		json_value(w, "report", rep);
		json_object_put(rep);
	} else {
		json_null_reason(w, "report", !r->len ? "no output" :
				 r->truncated ? "output too long, truncated" : why);
		json_str(w, "output", r->output ? r->output : "");
	}
	json_obj_end(w);
}

static void json_window(struct json_writer *w, const struct guard_result *g)
{
	json_obj_begin(w, NULL);
	json_u64(w, "index", g->index);
	json_double(w, "seconds", g->w.seconds);
	json_u64(w, "feature_mask", g->mask);
	json_counts(w, g);
	json_obj_begin(w, "metrics");
	for (int m = 0; m < GM_NR; m++)
		json_metric(w, g, m);
	json_obj_end(w);
	json_str(w, "verdict", band_verdict_names[g->j.verdict]);
	if (g->j.verdict == BV_LEARNING)
		json_u64(w, "baseline_windows", g->learned);
	json_arr_begin(w, "out_of_band");
	for (int m = 0; m < GM_NR; m++) {
		if (g->j.pos[m] != POS_LOW && g->j.pos[m] != POS_HIGH)
			continue;
		json_obj_begin(w, NULL);
		json_str(w, "metric", guard_metric_names[m]);
		json_str(w, "direction", band_pos_names[g->j.pos[m]]);
		json_double(w, "value", g->w.m[m].v);
		json_double(w, "low", g->j.band[m].low);
		json_double(w, "high", g->j.band[m].high);
		json_u64(w, "windows_in_a_row", g->j.run[m]);
		json_features(w, "explained_by", guard_metric_features(m));
		json_obj_end(w);
	}
	json_arr_end(w);
	json_features(w, "candidates", g->j.candidates);
	json_boolean(w, "alarm", g->j.alarm);
	json_features(w, "alarm_candidates", g->j.alarm_candidates);
	if (g->not_acted)
		json_str(w, "not_acted_reason", g->not_acted);
	json_arr_begin(w, "actions");
	for (int i = 0; i < g->nr_actions; i++)
		json_action(w, &g->act[i]);
	json_arr_end(w);
	json_double(w, "guard_cpu_ms", g->cpu_ms);
	json_double(w, "guard_cpu_pct", g->cpu_pct);
	json_obj_end(w);
}

static void json_summary(struct json_writer *w, const struct guard_summary *s)
{
	json_arr_end(w);	/* windows */
	json_obj_begin(w, "summary");
	json_u64(w, "windows", s->windows);
	for (int v = 0; v <= BV_OUT_OF_BAND; v++)
		json_u64(w, band_verdict_names[v], s->verdicts[v]);
	json_u64(w, "alarms", s->alarms);
	json_u64(w, "canary_runs", s->actions);
	json_u64(w, "canary_failures", s->action_errors);
	json_double(w, "guard_cpu_ms", s->cpu_ms);
	json_double(w, "guard_cpu_pct", s->seconds > 0 ?
		    100.0 * s->cpu_ms / 1000.0 / s->seconds : NAN);
	json_double(w, "guard_cpu_pct_max", s->max_cpu_pct);
	json_boolean(w, "interrupted", s->interrupted);
	json_i64(w, "exit_status", s->exit_status);
	json_obj_end(w);
}

/* ---- table ---- */

static void table_avail(FILE *f, const char *what, const struct sc_avail *a)
{
	if (!a->ok)
		fprintf(f, "unavailable: %s: %s\n", what, a->why);
}

static void table_header(FILE *f, const struct guard_header *h)
{
	const struct sc_values *av = &h->sc->avail;
	bool any = false;

	fprintf(f, "kernel %s, features on:", h->release);
	for (int i = 0; i < nr_features; i++)
		if (h->mask & (1u << i)) {
			fprintf(f, " %s", features[i].name);
			any = true;
		}
	fprintf(f, "%s (mask %02x)\n", any ? "" : " none", h->mask);
	fprintf(f, "baseline %s: %s, %u of %u windows learned\n",
		h->baseline_path, h->baseline_state, h->baseline_windows,
		h->baseline_learn);
	fprintf(f, "devices:");
	for (int i = 0; i < h->sc->nr_dev; i++)
		fprintf(f, " %s", h->sc->dev[i]);
	fprintf(f, "%s; window %u s\n", h->sc->nr_dev ? "" : " none",
		h->args->window_s);
	table_avail(f, "major faults", &av->majflt_ok);
	table_avail(f, "folios", &av->folio_ok);
	if (av->folio_ok.ok)
		table_avail(f, "folios by order", &av->orders_ok);
	table_avail(f, "readahead", &av->ra_ok);
	table_avail(f, "block reads", &av->disk_ok);
	fprintf(f, "%6s %7s %9s %8s %11s %8s %10s %9s  %s\n", "window", "secs",
		"MiB read", "KiB/req", "pages/folio", "ra/MiB", "majflt/MiB",
		"guard cpu", "verdict");
}

static void table_num(FILE *f, int width, const struct metric_value *mv)
{
	if (mv->state == MV_UNAVAILABLE || !isfinite(mv->v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.2f", width, mv->v);
}

static void table_features(FILE *f, unsigned int bits)
{
	const char *sep = "";

	if (!bits)
		fprintf(f, "none that is on");
	for (int i = 0; i < nr_features; i++)
		if (bits & (1u << i)) {
			fprintf(f, "%s%s", sep, features[i].name);
			sep = ", ";
		}
	fputc('\n', f);
}

static void table_window(FILE *f, const struct guard_result *g)
{
	fprintf(f, "%6u %7.2f", g->index, g->w.seconds);
	if (isfinite(g->w.read_mib))
		fprintf(f, " %9.2f", g->w.read_mib);
	else
		fprintf(f, " %9s", "-");
	table_num(f, 8, &g->w.m[GM_REQ_KIB]);
	table_num(f, 11, &g->w.m[GM_FOLIO_PAGES]);
	table_num(f, 8, &g->w.m[GM_RA_PER_MIB]);
	table_num(f, 10, &g->w.m[GM_MAJFLT_PER_MIB]);
	fprintf(f, " %8.4f%%  %s", g->cpu_pct, band_verdict_names[g->j.verdict]);
	if (g->j.verdict == BV_LEARNING)
		fprintf(f, " (%u/%u)", g->learned, g->learn_of);
	fputc('\n', f);
	for (int m = 0; m < GM_NR; m++) {
		const struct band *b = &g->j.band[m];

		if (g->j.pos[m] != POS_LOW && g->j.pos[m] != POS_HIGH)
			continue;
		fprintf(f, "       %s %.2f %s: band %.2f..%.2f (median %.2f of %zu), %u in a row\n",
			guard_metric_names[m], g->w.m[m].v,
			g->j.pos[m] == POS_LOW ? "below" : "above",
			b->low, b->high, b->median, b->n, g->j.run[m]);
	}
	if (g->j.verdict == BV_OUT_OF_BAND) {
		fprintf(f, "       candidates: ");
		table_features(f, g->j.candidates);
	}
	if (g->j.alarm) {
		fprintf(f, "       alarm (%d windows in a row): ", GUARD_CONFIRM);
		table_features(f, g->j.alarm_candidates);
	}
	if (g->not_acted)
		fprintf(f, "       not acted: %s\n", g->not_acted);
	for (int i = 0; i < g->nr_actions; i++) {
		const struct canary_run *r = &g->act[i].run;

		fprintf(f, "       canary %s: %s", g->act[i].f->name,
			guard_canary_decision(r));
		if (r->err)
			fprintf(f, " (%s)\n", strerror(-r->err));
		else if (r->status < 0)
			fprintf(f, " (killed by signal %d)\n", r->signal);
		else
			fprintf(f, " (exit %d)\n", r->status);
	}
}

static void table_summary(FILE *f, const struct guard_summary *s)
{
	fprintf(f, "%u windows: %u learning, %u in band, %u out of band, %u idle, %u unavailable; %u alarms, %u canary runs (%u failed)%s\n",
		s->windows, s->verdicts[BV_LEARNING], s->verdicts[BV_IN_BAND],
		s->verdicts[BV_OUT_OF_BAND], s->verdicts[BV_IDLE],
		s->verdicts[BV_UNAVAILABLE], s->alarms, s->actions, s->action_errors,
		s->interrupted ? "; interrupted" : "");
	fprintf(f, "guard CPU: %.3f ms in %.1f s, %.4f %% of one CPU (at most %.4f %% in a window)\n",
		s->cpu_ms, s->seconds,
		s->seconds > 0 ? 100.0 * s->cpu_ms / 1000.0 / s->seconds : 0.0,
		s->max_cpu_pct);
}

/* ---- both ---- */

void guard_report_begin(struct guard_report *r, FILE *f, bool json,
			const struct guard_header *h)
{
	r->f = f;
	r->json = json;
	if (!json) {
		table_header(f, h);
		fflush(f);
		return;
	}
	json_init(&r->w, f, true);
	json_obj_begin(&r->w, NULL);
	json_header(&r->w, h);
	fflush(f);
}

void guard_report_window(struct guard_report *r, const struct guard_result *g)
{
	if (r->json)
		json_window(&r->w, g);
	else
		table_window(r->f, g);
	fflush(r->f);
}

void guard_report_end(struct guard_report *r, const struct guard_summary *s)
{
	if (!r->json) {
		table_summary(r->f, s);
		fflush(r->f);
		return;
	}
	json_summary(&r->w, s);
	json_obj_end(&r->w);
	json_end(&r->w);
}

int guard_report_error(struct guard_report *r)
{
	if (r->json && json_error(&r->w))
		return -EIO;
	return ferror(r->f) ? -EIO : 0;
}
