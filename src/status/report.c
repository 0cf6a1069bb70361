// SPDX-License-Identifier: GPL-2.0
#include "status/report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/json.h"
#include "lib/utf8.h"
#include "rollout/report.h"

static const char *live_reason(int live)
{
	if (live == -ENOENT)
		return "absent";
	if (live == -EINVAL)
		return "holds something other than 0 or 1";
	return strerror(-live);
}

static void boot_json(struct json_writer *w, const struct sysctld_setting *b)
{
	json_obj_begin(w, "boot");
	json_str(w, "source", b ? "file" : "kernel default");
	json_str(w, "value", b ? b->value : NULL);
	json_str(w, "file", b ? b->file : NULL);
	if (b)
		json_u64(w, "line", b->line);
	else
		json_null(w, "line");
	json_str(w, "key", b ? b->written : NULL);
	json_obj_end(w);
}

static void features_json(struct json_writer *w, const struct status *st)
{
	json_arr_begin(w, "features");
	for (int i = 0; i < nr_features; i++) {
		const struct feature_status *fs = &st->feat[i];
		char name[128];

		snprintf(name, sizeof(name), "vm.%s", fs->f->name);
		json_obj_begin(w, NULL);
		json_str(w, "sysctl", name);
		json_str(w, "seed", fs->f->seed);
		if (fs->live >= 0)
			json_u64(w, "live", fs->live);
		else
			json_null_reason(w, "live", live_reason(fs->live));
		boot_json(w, fs->boot);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void sysctl_files_json(struct json_writer *w, const struct status *st)
{
	json_arr_begin(w, "sysctl_files");
	for (size_t i = 0; i < st->sysctl.nr_files; i++) {
		json_obj_begin(w, NULL);
		json_str(w, "path", st->sysctl.files[i].path);
		json_boolean(w, "masked", st->sysctl.files[i].masked);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void kernels_json(struct json_writer *w, const struct status *st)
{
	json_arr_begin(w, "kernels");
	for (size_t i = 0; i < st->kernels.nr; i++) {
		const struct kernel_dir *k = &st->kernels.k[i];

		json_obj_begin(w, NULL);
		json_str(w, "release", k->release);
		json_str(w, "path", k->path);
		json_str(w, "image", k->image);
		json_boolean(w, "running", k->running);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void tries_json(struct json_writer *w, const char *key, int n)
{
	if (n >= 0)
		json_u64(w, key, n);
	else
		json_null(w, key);
}

static void entry_json(struct json_writer *w, const struct boot_entry *e,
		       bool is_default)
{
	json_obj_begin(w, NULL);
	json_str(w, "id", e->id);
	json_str(w, "file", e->file);
	json_boolean(w, "default", is_default);
	json_boolean(w, "bootable", e->bootable);
	json_str(w, "title", e->title);
	json_str(w, "version", e->version);
	json_str(w, "linux", e->kernel);
	json_str(w, "efi", e->efi);
	json_arr_begin(w, "initrd");
	for (size_t i = 0; i < e->nr_initrd; i++)
		json_str(w, NULL, e->initrd[i]);
	json_arr_end(w);
	json_str(w, "options", e->options);
	json_str(w, "machine_id", e->machine_id);
	json_str(w, "sort_key", e->sort_key);
	tries_json(w, "tries_left", e->tries_left);
	tries_json(w, "tries_done", e->tries_done);
	json_obj_end(w);
}

/* {"entry", "release", "source"}, or null; with "error" when @why says */
static void target_json(struct json_writer *w, const char *key, const struct boot_target *t,
			const char *why)
{
	if (!t && !(why && *why)) {
		json_null(w, key);
		return;
	}
	json_obj_begin(w, key);
	json_str(w, "entry", t ? t->entry : NULL);
	json_str(w, "release", t && t->release[0] ? t->release : NULL);
	json_str(w, "source", t ? t->source : NULL);
	json_str(w, "error", t ? NULL : why);
	json_obj_end(w);
}

static void boot_loader_json(struct json_writer *w, const struct status *st)
{
	const struct boot_loader *b = &st->boot;

	json_arr_begin(w, "boot_entries");
	for (size_t i = 0; i < b->nr_entries; i++)
		entry_json(w, &b->entries[i], &b->entries[i] == b->default_entry);
	json_arr_end(w);
	json_obj_begin(w, "loader");
	json_str(w, "name", st->bl_err ? NULL : st->bl.name);
	json_str(w, "chosen_by", st->bl_err ? NULL : st->bl.chosen_by);
	json_str(w, "error", st->bl_err ? st->bl_why : NULL);
	json_boolean(w, "efi", !st->bl_err && st->bl.efi);
	json_str(w, "esp", !st->bl_err && st->bl.kind == BOOTLOADER_SDBOOT ? st->bl.esp : NULL);
	json_str(w, "xbootldr", !st->bl_err && st->bl.xbootldr[0] ? st->bl.xbootldr : NULL);
	json_str(w, "config", b->conf);
	json_str(w, "default_pattern", b->default_pattern);
	json_str(w, "default_entry", b->default_entry ? b->default_entry->id : NULL);
	target_json(w, "default", st->bl_err || st->def_err ? NULL : &st->def,
		    st->bl_err ? st->bl_why : st->def_why);
	target_json(w, "oneshot", st->bl_err || st->once_err ? NULL : &st->once, NULL);
	json_obj_end(w);
}

static void rollout_json(struct json_writer *w, const struct status *st)
{
	const struct rollout_status *r = &st->rollout;

	json_obj_begin(w, "rollout");
	json_str(w, "state_file", r->path);
	json_str(w, "error", r->err ? r->why : NULL);
	json_str(w, "next", r->has_next ? r->next : NULL);
	if (r->err)
		json_null(w, "state");
	else
		state_json(w, "state", &r->st, ROLLOUT_REPORT_HISTORY);
	json_obj_end(w);
}

static void canaries_json(struct json_writer *w, const struct status *st)
{
	char sysctl[128];

	json_arr_begin(w, "canaries");
	for (size_t i = 0; i < st->nr_canary; i++) {
		const struct status_canary *c = &st->canary[i];

		snprintf(sysctl, sizeof(sysctl), "vm.%s", c->f->name);
		json_obj_begin(w, NULL);
		json_str(w, "feature", c->f->name);
		json_str(w, "sysctl", sysctl);
		json_str(w, "report", c->path);
		json_str(w, "time", c->time);
		json_str(w, "verdict", c->verdict);
		json_boolean(w, "aa", c->aa);
		json_u64(w, "pairs", c->pairs);
		json_obj_begin(w, "decision");
		json_str(w, "action", c->action);
		json_boolean(w, "acted", c->acted);
		json_obj_end(w);
		json_arr_begin(w, "workloads");
		for (int k = 0; k < c->nr_workloads; k++) {
			json_obj_begin(w, NULL);
			json_str(w, "scenario", c->w[k].scenario);
			json_str(w, "metric", canary_metrics[CM_WALL].name);
			json_double(w, "estimate", c->w[k].estimate);
			json_double(w, "lo", c->w[k].lo);
			json_double(w, "hi", c->w[k].hi);
			json_double(w, "delta", c->w[k].delta);
			json_obj_end(w);
		}
		json_arr_end(w);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void warnings_json(struct json_writer *w, const struct status *st)
{
	char lost[64];

	json_arr_begin(w, "warnings");
	for (size_t i = 0; i < st->warn.nr; i++)
		json_str(w, NULL, st->warn.msg[i]);
	if (st->warn.lost) {
		snprintf(lost, sizeof(lost), "%zu more warnings lost: out of memory",
			 st->warn.lost);
		json_str(w, NULL, lost);
	}
	json_arr_end(w);
}

int status_json(FILE *f, const struct status *st)
{
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", STATUS_SCHEMA);
	json_str(&w, "root", st->root);
	json_obj_begin(&w, "kernel");
	json_str(&w, "release", st->release);
	json_boolean(&w, "rafleet", st->rafleet);
	json_u64(&w, "features_present", st->nr_present);
	json_u64(&w, "features_known", nr_features);
	json_obj_end(&w);
	features_json(&w, st);
	sysctl_files_json(&w, st);
	kernels_json(&w, st);
	boot_loader_json(&w, st);
	rollout_json(&w, st);
	canaries_json(&w, st);
	warnings_json(&w, st);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w) ? -EIO : 0;
}

static void features_table(FILE *f, const struct status *st)
{
	fprintf(f, "%-36s %-7s %-15s %s\n", "feature", "live", "boot", "set by");
	for (int i = 0; i < nr_features; i++) {
		const struct feature_status *fs = &st->feat[i];
		const struct sysctld_setting *b = fs->boot;
		char name[128], live[8];

		snprintf(name, sizeof(name), "vm.%s", fs->f->name);
		snprintf(live, sizeof(live), "%s", fs->live >= 0 ? (fs->live ? "1" : "0") :
			 fs->live == -ENOENT ? "absent" : "error");
		if (!b) {
			fprintf(f, "%-36s %-7s %s\n", name, live, "kernel default");
			continue;
		}
		fprintf(f, "%-36s %-7s %-15s %s:%u", name, live, b->value, b->file, b->line);
		if (strcmp(b->written, name))
			fprintf(f, " (%s)", b->written);
		fputc('\n', f);
	}
}

static void kernels_table(FILE *f, const struct status *st)
{
	fprintf(f, "\nkernels installed (modules directory, and the image)\n");
	if (!st->kernels.nr)
		fprintf(f, "  none\n");
	for (size_t i = 0; i < st->kernels.nr; i++) {
		const struct kernel_dir *k = &st->kernels.k[i];

		fprintf(f, "  %-28s %s  %s%s\n", k->release, k->path, k->image,
			k->running ? "  (running)" : "");
	}
}

static void boot_table(FILE *f, const struct status *st)
{
	const struct boot_loader *b = &st->boot;

	if (st->bl_err) {
		fprintf(f, "\nboot loader: none found (%s)\n", st->bl_why);
		return;
	}
	fprintf(f, "\nboot loader: %s (%s)%s\n", st->bl.name, st->bl.chosen_by,
		st->bl.efi ? ", EFI" : "");
	fprintf(f, "boot entries, in menu order\n");
	if (!b->nr_entries)
		fprintf(f, "  none\n");
	for (size_t i = 0; i < b->nr_entries; i++) {
		const struct boot_entry *e = &b->entries[i];

		fprintf(f, "%s %-28s %-24s %s%s\n", e == b->default_entry ? "*" : " ",
			e->id, e->version ? e->version : "-", e->title ? e->title : "-",
			e->bootable ? "" : "  (not bootable)");
	}
	if (st->def_err)
		fprintf(f, "default entry: none (%s)\n", st->def_why);
	else
		fprintf(f, "default entry: %s, %s (%s)\n", st->def.entry,
			st->def.release[0] ? st->def.release : "an unknown kernel", st->def.source);
	if (!st->once_err)
		fprintf(f, "one-shot next boot: %s, %s (%s)\n", st->once.entry,
			st->once.release[0] ? st->once.release : "an unknown kernel",
			st->once.source);
	else
		fprintf(f, "one-shot next boot: none\n");
}

static void rollout_table(FILE *f, const struct status *st)
{
	const struct rollout_status *r = &st->rollout;

	fprintf(f, "\nrollout (%s)\n", r->path);
	if (r->err) {
		fprintf(f, "  cannot be used: %s\n", r->why);
		return;
	}
	rollout_state_table(f, &r->st, r->has_next ? r->next : NULL);
}

/* "seq-read +26.6 % [+17.0, +52.7]": a change and its interval, in %. */
static void change_col(FILE *f, const struct status_canary_workload *w)
{
	if (isnan(w->estimate)) {
		fprintf(f, "%s not measured", w->scenario);
		return;
	}
	fprintf(f, "%s %+.1f %%", w->scenario, w->estimate * 100);
	if (isnan(w->lo) || isnan(w->hi))
		fprintf(f, " [no interval yet]");
	else
		fprintf(f, " [%+.1f, %+.1f]", w->lo * 100, w->hi * 100);
}

static void canaries_table(FILE *f, const struct status *st)
{
	fprintf(f, "\ncanaries (%s), the latest report of each feature\n", st->canary_dir);
	if (!st->nr_canary)
		fprintf(f, "  none\n");
	for (size_t i = 0; i < st->nr_canary; i++) {
		const struct status_canary *c = &st->canary[i];
		char name[128], pairs[32], decision[48];

		snprintf(name, sizeof(name), "vm.%s", c->f->name);
		snprintf(pairs, sizeof(pairs), "%u pairs", c->pairs);
		/* only a turn-off is ever done (--act), or only proposed */
		snprintf(decision, sizeof(decision), "%s%s%s", c->action,
			 c->acted ? " (done)" : !strcmp(c->action, "turn-off") ? " (proposed)" : "",
			 c->aa ? ", A/A" : "");
		fprintf(f, "  %-34s %-7s %-9s %-19s %s ", name, c->verdict, pairs, decision,
			c->time);
		for (int k = 0; k < c->nr_workloads; k++) {
			fputs(k ? ", " : " ", f);
			change_col(f, &c->w[k]);
		}
		fputc('\n', f);
	}
}

int status_table(FILE *f, const struct status *st)
{
	fprintf(f, "kernel  %s: %s (%d of %d vm.readahead_* sysctls)\n",
		st->release, st->rafleet ? "a rafleet kernel" :
		st->nr_present ? "not all of rafleet" : "not a rafleet kernel",
		st->nr_present, nr_features);
	if (strcmp(st->root, "/"))
		fprintf(f, "root    %s\n", st->root);
	fputc('\n', f);
	features_table(f, st);
	kernels_table(f, st);
	boot_table(f, st);
	rollout_table(f, st);
	canaries_table(f, st);
	if (st->warn.nr || st->warn.lost)
		fprintf(f, "\nwarnings\n");
	for (size_t i = 0; i < st->warn.nr; i++)
		fprintf(f, "  %s\n", term_safe(st->warn.msg[i]));
	if (st->warn.lost)
		fprintf(f, "  %zu more warnings lost: out of memory\n", st->warn.lost);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
