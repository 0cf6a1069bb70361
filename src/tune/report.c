// SPDX-License-Identifier: GPL-2.0
/* tune/report.c - `rafleet tune`'s report, see tune/report.h. */
#include "tune/report.h"

#include <inttypes.h>
#include <string.h>

#include "lib/json.h"

static bool dry(const struct tune_report *r)
{
	return r->mode == TUNE_DRY_RUN || r->mode == TUNE_RESTORE_DRY_RUN;
}

static const char *action_name(const struct tune_report *r, enum tune_action a)
{
	switch (a) {
	case TUNE_ACT_SET:
		return dry(r) ? "would-set" : "set";
	case TUNE_ACT_UNCHANGED:
		return "unchanged";
	case TUNE_ACT_RESTORED:
		return dry(r) ? "would-restore" : "restored";
	case TUNE_ACT_DROPPED:
		return dry(r) ? "would-drop" : "dropped";
	case TUNE_ACT_FAILED:
		return "failed";
	}
	return "?";
}

static void rule_text(const struct tune_report *r, const struct tune_row *row,
		      char *buf, size_t len)
{
	const struct tune_rule *rule = row->dec.rule;

	if (!rule)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s:%u", r->policy->file, rule->line);
}

static void num_text(bool have, uint64_t v, char *buf, size_t len)
{
	if (have)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "-");
}

static const char *modes[] = {
	[TUNE_APPLY] = "apply",
	[TUNE_DRY_RUN] = "dry-run",
	[TUNE_RESTORE] = "restore",
	[TUNE_RESTORE_DRY_RUN] = "restore-dry-run",
};

int tune_report_table(FILE *f, const struct tune_report *r)
{
	bool restore = r->mode == TUNE_RESTORE || r->mode == TUNE_RESTORE_DRY_RUN;
	int wdev = 6, wrule = 4, wclass = 5;
	size_t counts[TUNE_ACT_FAILED + 1] = { 0 };
	char rule[PATH_MAX + 16], now[24], new[24];

	for (size_t i = 0; i < r->nr; i++) {
		const struct tune_row *row = &r->rows[i];
		int n = (int)strlen(row->dev.disk.name);

		if (n > wdev)
			wdev = n;
		rule_text(r, row, rule, sizeof(rule));
		if ((int)strlen(rule) > wrule)
			wrule = (int)strlen(rule);
		if (row->have_dev && (int)strlen(tune_class_name(row->dev.cls)) > wclass)
			wclass = (int)strlen(tune_class_name(row->dev.cls));
	}
	if (r->note)
		fprintf(f, "%s\n", r->note);
	for (size_t i = 0; i < r->nr; i++) {
		const struct tune_row *row = &r->rows[i];

		if (row->have_dev && row->dev.partition)
			fprintf(f, "%s is a partition: read_ahead_kb is its disk's, %s\n",
				row->dev.asked, row->dev.disk.name);
	}
	if (restore)
		fprintf(f, "%-*s  %-*s  %8s  %8s  %-13s  %s\n", wdev, "DEVICE", wclass,
			"CLASS", "NOW", "OLD", "ACTION", "WHY");
	else
		fprintf(f, "%-*s  %-*s  %8s  %-*s  %8s  %-13s  %s\n", wdev, "DEVICE",
			wclass, "CLASS", "NOW", wrule, "RULE", "NEW", "ACTION", "WHY");
	for (size_t i = 0; i < r->nr; i++) {
		const struct tune_row *row = &r->rows[i];
		const char *cls = row->have_dev ? tune_class_name(row->dev.cls) : "-";

		counts[row->action]++;
		num_text(row->have_dev && !row->dev.ra_err, row->dev.ra_kb, now,
			 sizeof(now));
		if (restore) {
			num_text(row->have_old, row->old_kb, new, sizeof(new));
			fprintf(f, "%-*s  %-*s  %8s  %8s  %-13s  %s\n", wdev,
				row->dev.disk.name, wclass, cls, now, new,
				action_name(r, row->action), row->why);
			continue;
		}
		rule_text(r, row, rule, sizeof(rule));
		num_text(!row->dec.err, row->dec.want, new, sizeof(new));
		fprintf(f, "%-*s  %-*s  %8s  %-*s  %8s  %-13s  %s\n", wdev,
			row->dev.disk.name, wclass, cls, now, wrule, rule, new,
			action_name(r, row->action), row->why);
	}
	fprintf(f, "%zu device%s: ", r->nr, r->nr == 1 ? "" : "s");
	if (restore)
		fprintf(f, "%zu %s, %zu unchanged, %zu %s, %zu failed",
			counts[TUNE_ACT_RESTORED], action_name(r, TUNE_ACT_RESTORED),
			counts[TUNE_ACT_UNCHANGED], counts[TUNE_ACT_DROPPED],
			action_name(r, TUNE_ACT_DROPPED), counts[TUNE_ACT_FAILED]);
	else
		fprintf(f, "%zu %s, %zu unchanged, %zu failed",
			counts[TUNE_ACT_SET], action_name(r, TUNE_ACT_SET),
			counts[TUNE_ACT_UNCHANGED], counts[TUNE_ACT_FAILED]);
	fprintf(f, "%s\n", dry(r) ? " (dry run: nothing written)" : "");
	if (r->mode == TUNE_APPLY && counts[TUNE_ACT_SET])
		fprintf(f, "the old values are in %s ('rafleet tune --restore')\n",
			r->state_file);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

static void json_row(struct json_writer *w, const struct tune_report *r,
		     const struct tune_row *row)
{
	const struct tune_dev *d = &row->dev;
	const struct tune_rule *rule = row->dec.rule;
	bool restore = r->mode == TUNE_RESTORE || r->mode == TUNE_RESTORE_DRY_RUN;
	char match[96];

	json_obj_begin(w, NULL);
	json_str(w, "device", d->asked[0] ? d->asked : d->disk.name);
	json_str(w, "disk", d->disk.name);
	json_boolean(w, "partition", row->have_dev && d->partition);
	if (row->have_dev) {
		json_str(w, "class", tune_class_name(d->cls));
		json_str(w, "class_why", d->class_why);
		if (d->ra_err)
			json_null_reason(w, "read_ahead_kb", strerror(-d->ra_err));
		else
			json_u64(w, "read_ahead_kb", d->ra_kb);
		if (d->ms_err)
			json_null_reason(w, "max_sectors_kb", strerror(-d->ms_err));
		else
			json_u64(w, "max_sectors_kb", d->max_sectors_kb);
	} else {
		json_null(w, "class");
		json_null(w, "class_why");
		json_null_reason(w, "read_ahead_kb", "no such disk");
		json_null(w, "max_sectors_kb");
	}
	if (restore) {
		if (row->have_old)
			json_u64(w, "old_read_ahead_kb", row->old_kb);
		else
			json_null(w, "old_read_ahead_kb");
	} else if (rule) {
		json_obj_begin(w, "rule");
		json_str(w, "file", r->policy->file);
		json_u64(w, "line", rule->line);
		if (rule->by_class)
			snprintf(match, sizeof(match), "class %s", tune_class_name(rule->cls));
		else
			snprintf(match, sizeof(match), "device %s", rule->glob);
		json_str(w, "match", match);
		json_str(w, "value", rule->text);
		json_obj_end(w);
		if (row->dec.err)
			json_null(w, "new_read_ahead_kb");
		else
			json_u64(w, "new_read_ahead_kb", row->dec.want);
	} else {
		json_null(w, "rule");
		if (row->dec.err)
			json_null(w, "new_read_ahead_kb");
		else
			json_u64(w, "new_read_ahead_kb", row->dec.want);
	}
	json_str(w, "action", action_name(r, row->action));
	json_str(w, "why", row->why);
	json_str(w, "error", row->err ? strerror(-row->err) : NULL);
	json_obj_end(w);
}

int tune_report_json(FILE *f, const struct tune_report *r)
{
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", TUNE_SCHEMA);
	json_str(&w, "mode", modes[r->mode]);
	json_boolean(&w, "dry_run", dry(r));
	json_str(&w, "config", r->config);
	json_str(&w, "state_file", r->state_file);
	json_str(&w, "note", r->note);
	json_arr_begin(&w, "devices");
	for (size_t i = 0; i < r->nr; i++)
		json_row(&w, r, &r->rows[i]);
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w) ? -1 : 0;
}
