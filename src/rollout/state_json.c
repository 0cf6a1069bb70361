// SPDX-License-Identifier: GPL-2.0
/* state.json: read by lib/jsonread.h tables, written with the lib/json.h writer, atomically. */
#include "rollout/state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomicfile.h"
#include "lib/json.h"
#include "lib/jsonread.h"

/* Reading: the tables of rafleet-state/1, paths from "state". */

static const struct json_field kernel_fields[] = {
	{ .key = "release", .type = JF_STRDUP, JF_AT(struct state_kernel, release),
	  .flags = JF_REQUIRED },
	{ .key = "image", .type = JF_STRDUP, JF_AT(struct state_kernel, image) },
	{ .key = "initrd", .type = JF_STRDUP, JF_AT(struct state_kernel, initrd) },
	{ .key = "cmdline", .type = JF_STRDUP, JF_AT(struct state_kernel, cmdline) },
	{ .key = "token", .type = JF_STRDUP, JF_AT(struct state_kernel, token) },
	{ .key = "boot", .type = JF_STRDUP, JF_AT(struct state_kernel, boot) },
	{ .key = "staged_boot_id", .type = JF_STRDUP, JF_AT(struct state_kernel, staged_boot_id) },
	{ .key = "trial_boot_id", .type = JF_STRDUP, JF_AT(struct state_kernel, trial_boot_id) },
	{ .key = "default_entry", .type = JF_STRDUP, JF_AT(struct state_kernel, default_entry) },
	{ .key = "default_how", .type = JF_STRDUP, JF_AT(struct state_kernel, default_how) },
	{ 0 }
};

static const struct json_field decision_fields[] = {
	{ .key = "value", .type = JF_INT, JF_AT(struct state_decision, value),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 0, .max = 1, .bad = "is not 0 or 1" },
	{ .key = "feature", .type = JF_STRDUP, JF_AT(struct state_decision, feature),
	  .flags = JF_REQUIRED },
	{ .key = "reason", .type = JF_STRDUP, JF_AT(struct state_decision, reason),
	  .flags = JF_REQUIRED },
	{ .key = "time", .type = JF_STRDUP, JF_AT(struct state_decision, time),
	  .flags = JF_REQUIRED },
	{ .key = "evidence", .type = JF_STRDUP, JF_AT(struct state_decision, evidence) },
	{ 0 }
};

static const struct json_field event_fields[] = {
	{ .key = "time", .type = JF_STRDUP, JF_AT(struct state_event, time), .flags = JF_REQUIRED },
	{ .key = "action", .type = JF_STRDUP, JF_AT(struct state_event, action),
	  .flags = JF_REQUIRED },
	{ .key = "detail", .type = JF_STRDUP, JF_AT(struct state_event, detail) },
	{ .key = "kernel", .type = JF_STRDUP, JF_AT(struct state_event, kernel) },
	{ 0 }
};

/* "smoke" or "health": null or {verdict, time, detail} */
static const struct json_field verdict_fields[] = {
	{ .key = "verdict", .type = JF_STRDUP, JF_AT(struct state_verdict, verdict),
	  .flags = JF_REQUIRED },
	{ .key = "time", .type = JF_STRDUP, JF_AT(struct state_verdict, time) },
	{ .key = "detail", .type = JF_STRDUP, JF_AT(struct state_verdict, detail) },
	{ 0 }
};

/* An array of objects read by a table into items of a new array. */
struct list {
	char *items;
	size_t size, *nr;
	const struct json_field *table;
};

static int list_item(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct list *l = ctx;

	(*l->nr)++;	/* begun: state_free() frees a half-read one */
	return json_read_object(rd, o, l->table, l->items + i * l->size);
}

/*
 * @arr as a new array of @size-byte items (NULL when empty), returned on
 * an error too, the error in *@err; *@nr counts the items begun.
 */
static void *read_list(struct json_read *rd, struct json_object *arr, size_t size,
		       size_t *nr, const struct json_field *table, int *err)
{
	struct list l = { NULL, size, nr, table };
	size_t n = json_object_array_length(arr);

	*err = 0;
	if (!n)
		return NULL;
	l.items = calloc(n, size);
	if (!l.items) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = json_read_array(rd, arr, list_item, &l);
	return l.items;
}

/* member: the whole state */
static int read_decisions(struct json_read *rd, struct json_object *arr, void *member)
{
	struct state *s = member;
	int err;

	s->decisions = read_list(rd, arr, sizeof(*s->decisions), &s->nr_decisions,
				 decision_fields, &err);
	return err;
}

static int read_history(struct json_read *rd, struct json_object *arr, void *member)
{
	struct state *s = member;
	int err;

	s->history = read_list(rd, arr, sizeof(*s->history), &s->nr_history, event_fields,
			       &err);
	return err;
}

static int read_arg(struct json_read *rd, struct json_object *v, size_t i, void *ctx)
{
	static const struct json_field arg = { .type = JF_STRDUP, .size = sizeof(char *) };
	struct state_pending *p = ctx;

	(void)i;
	return json_read_value(rd, v, &arg, &p->args[p->nr_args++]);
}

/* member: the pending action */
static int read_args(struct json_read *rd, struct json_object *arr, void *member)
{
	struct state_pending *p = member;
	size_t n = json_object_array_length(arr);

	p->args = calloc(n ? n : 1, sizeof(*p->args));
	if (!p->args)
		return -ENOMEM;
	return json_read_array(rd, arr, read_arg, p);
}

static const struct json_field pending_fields[] = {
	{ .key = "action", .type = JF_STRDUP, JF_AT(struct state_pending, action),
	  .flags = JF_REQUIRED },
	{ .key = "step", .type = JF_STRDUP, JF_AT(struct state_pending, step),
	  .flags = JF_REQUIRED },
	{ .key = "args", .type = JF_ARRAY, .offset = 0, .cb = read_args },
	{ 0 }
};

static int read_pending(struct json_read *rd, struct json_object *o, void *member)
{
	struct state_pending *p = member;
	int err = json_read_object(rd, o, pending_fields, p);

	if (!err && !p->args) {		/* no arguments: an empty list */
		p->args = calloc(1, sizeof(*p->args));
		if (!p->args)
			return -ENOMEM;
	}
	return err;
}

static int check_schema(struct json_read *rd, struct json_object *v, void *member)
{
	const char *schema = json_object_get_string(v);

	(void)member;
	if (strcmp(schema, STATE_SCHEMA))
		return json_read_fail(rd, "schema is '%s', not '%s'", schema, STATE_SCHEMA);
	return 0;
}

static int read_phase(struct json_read *rd, struct json_object *v, void *member)
{
	int p = state_phase_parse(json_object_get_string(v));

	if (p < 0)
		return json_read_fail(rd, "phase '%s' is none of idle, staged, trial, promoted, rolled-back",
				      json_object_get_string(v));
	*(enum rollout_phase *)member = p;
	return 0;
}

static const struct json_field state_fields[] = {
	{ .key = "schema", .type = JF_STRREF, .flags = JF_REQUIRED, .cb = check_schema },
	{ .key = "phase", .type = JF_STRREF, JF_AT(struct state, phase), .flags = JF_REQUIRED,
	  .cb = read_phase },
	{ .key = "previous_kernel", .type = JF_OBJECT, JF_AT(struct state, previous),
	  .sub = kernel_fields },
	{ .key = "trial_kernel", .type = JF_OBJECT, JF_AT(struct state, trial),
	  .sub = kernel_fields },
	{ .key = "baseline", .type = JF_STRDUP, JF_AT(struct state, baseline) },
	{ .key = "smoke", .type = JF_OBJECT, JF_AT(struct state, smoke), .sub = verdict_fields },
	{ .key = "health", .type = JF_OBJECT, JF_AT(struct state, health), .sub = verdict_fields },
	{ .key = "decisions", .type = JF_ARRAY, .offset = 0, .cb = read_decisions },
	{ .key = "pending", .type = JF_OBJECT, JF_AT(struct state, pending), .cb = read_pending },
	{ .key = "history", .type = JF_ARRAY, .offset = 0, .cb = read_history },
	{ 0 }
};

int state_load(struct state *s, const char *path, char *why, size_t len)
{
	struct json_object *doc;
	struct json_read rd;
	int err;

	state_init(s);
	json_read_init(&rd, why, len, "state");
	err = json_read_file(&rd, path, STATE_MAX_BYTES, &doc);
	if (err == -ENOENT) {
		snprintf(why, len, "%s", "");
		return 0;
	}
	if (err)
		return err;
	err = json_read_object(&rd, doc, state_fields, s);
	json_object_put(doc);
	if (err)
		state_free(s);
	return err;
}

static void kernel_json(struct json_writer *w, const char *key,
			const struct state_kernel *k, bool trial)
{
	if (!k->release) {
		json_null(w, key);
		return;
	}
	json_obj_begin(w, key);
	json_str(w, "release", k->release);
	json_str(w, "image", k->image);
	json_str(w, "initrd", k->initrd);
	json_str(w, "cmdline", k->cmdline);
	if (trial) {
		json_str(w, "token", k->token);
		json_str(w, "boot", k->boot);
		json_str(w, "staged_boot_id", k->staged_boot_id);
		json_str(w, "trial_boot_id", k->trial_boot_id);
	} else {
		json_str(w, "default_entry", k->default_entry);
		json_str(w, "default_how", k->default_how);
	}
	json_obj_end(w);
}

static void pending_json(struct json_writer *w, const struct state_pending *p)
{
	if (!p->action) {
		json_null(w, "pending");
		return;
	}
	json_obj_begin(w, "pending");
	json_str(w, "action", p->action);
	json_str(w, "step", p->step);
	json_arr_begin(w, "args");
	for (size_t i = 0; i < p->nr_args; i++)
		json_str(w, NULL, p->args[i]);
	json_arr_end(w);
	json_obj_end(w);
}

static void verdict_json(struct json_writer *w, const char *key,
			 const struct state_verdict *v)
{
	if (!v->verdict) {
		json_null(w, key);
		return;
	}
	json_obj_begin(w, key);
	json_str(w, "verdict", v->verdict);
	json_str(w, "time", v->time);
	json_str(w, "detail", v->detail);
	json_obj_end(w);
}

void state_json(struct json_writer *w, const char *key, const struct state *s,
		size_t max_history)
{
	size_t first = s->nr_history > max_history ? s->nr_history - max_history : 0;

	json_obj_begin(w, key);
	json_str(w, "schema", STATE_SCHEMA);
	json_str(w, "phase", state_phase_name(s->phase));
	kernel_json(w, "previous_kernel", &s->previous, false);
	kernel_json(w, "trial_kernel", &s->trial, true);
	json_str(w, "baseline", s->baseline);
	verdict_json(w, "smoke", &s->smoke);
	verdict_json(w, "health", &s->health);
	json_arr_begin(w, "decisions");
	for (size_t i = 0; i < s->nr_decisions; i++) {
		const struct state_decision *d = &s->decisions[i];

		json_obj_begin(w, NULL);
		json_str(w, "feature", d->feature);
		json_i64(w, "value", d->value);
		json_str(w, "reason", d->reason);
		json_str(w, "time", d->time);
		json_str(w, "evidence", d->evidence);
		json_obj_end(w);
	}
	json_arr_end(w);
	pending_json(w, &s->pending);
	json_arr_begin(w, "history");
	for (size_t i = first; i < s->nr_history; i++) {
		const struct state_event *e = &s->history[i];

		json_obj_begin(w, NULL);
		json_str(w, "time", e->time);
		json_str(w, "action", e->action);
		json_str(w, "detail", e->detail);
		json_str(w, "kernel", e->kernel);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

int state_write_json(FILE *f, const struct state *s)
{
	struct json_writer w;

	json_init(&w, f, true);
	state_json(&w, NULL, s, STATE_HISTORY_MAX);
	json_end(&w);
	return json_error(&w) || ferror(f) ? -EIO : 0;
}

static int state_fill(FILE *f, const void *s)
{
	return state_write_json(f, s);
}

int state_save(const struct state *s, const char *path)
{
	return atomic_write_stream(path, 0644, state_fill, s);
}
