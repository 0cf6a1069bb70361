// SPDX-License-Identifier: GPL-2.0
/* state.json: read with json-c, written with the lib/json.h writer, atomically. */
#include "rollout/state.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/atomicfile.h"
#include "lib/json.h"

/* Reading: each helper fails with -EBADMSG and says why in @why. */
struct reader {
	char *why;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->why, rd->len, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* @obj.@key into *@dst: a string, or NULL for null or missing. */
static int get_str(struct reader *rd, struct json_object *obj, const char *where,
		   const char *key, char **dst)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return state_set(dst, NULL);
	if (!json_object_is_type(v, json_type_string))
		return bad(rd, "%s.%s is not a string", where, key);
	return state_set(dst, json_object_get_string(v));
}

/* @obj.@key, which must be a string. */
static int need_str(struct reader *rd, struct json_object *obj, const char *where,
		    const char *key, char **dst)
{
	int err = get_str(rd, obj, where, key, dst);

	if (!err && !*dst)
		return bad(rd, "%s.%s is missing", where, key);
	return err;
}

/* @obj.@key: an object, NULL for null or missing; -EBADMSG for others. */
static int get_obj(struct reader *rd, struct json_object *obj, const char *key,
		   json_type type, struct json_object **out)
{
	*out = NULL;
	if (!json_object_object_get_ex(obj, key, out) || !*out)
		return 0;
	if (!json_object_is_type(*out, type))
		return bad(rd, "%s is not %s", key,
			   type == json_type_array ? "an array" : "an object");
	return 0;
}

static int read_kernel(struct reader *rd, struct json_object *doc, const char *key,
		       struct state_kernel *k)
{
	struct json_object *o;
	int err = get_obj(rd, doc, key, json_type_object, &o);

	if (err || !o)
		return err;
	err = need_str(rd, o, key, "release", &k->release);
	if (!err)
		err = get_str(rd, o, key, "image", &k->image);
	if (!err)
		err = get_str(rd, o, key, "initrd", &k->initrd);
	if (!err)
		err = get_str(rd, o, key, "cmdline", &k->cmdline);
	if (!err)
		err = get_str(rd, o, key, "token", &k->token);
	if (!err)
		err = get_str(rd, o, key, "staged_boot_id", &k->staged_boot_id);
	if (!err)
		err = get_str(rd, o, key, "trial_boot_id", &k->trial_boot_id);
	if (!err)
		err = get_str(rd, o, key, "default_entry", &k->default_entry);
	if (!err)
		err = get_str(rd, o, key, "default_how", &k->default_how);
	return err;
}

/*
 * @doc.@key, an array of objects (null or missing: none), as a new array of
 * @size-byte items: @item reads each object into its item.  *@nr counts
 * the items begun, so that state_free() frees a half-read one: the array
 * is returned on an error too (NULL when none was made), the error in *@err.
 */
static void *read_objects(struct reader *rd, struct json_object *doc, const char *key,
			  size_t size, size_t *nr,
			  int (*item)(struct reader *rd, struct json_object *o, size_t i,
				      void *dst),
			  int *err)
{
	struct json_object *arr, *o;
	char *items;
	size_t n;

	*err = get_obj(rd, doc, key, json_type_array, &arr);
	if (*err || !arr)
		return NULL;
	n = json_object_array_length(arr);
	if (!n)
		return NULL;
	items = calloc(n, size);
	if (!items) {
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < n && !*err; i++) {
		void *dst = items + (*nr)++ * size;

		o = json_object_array_get_idx(arr, i);
		if (!o || !json_object_is_type(o, json_type_object))
			*err = bad(rd, "%s[%zu] is not an object", key, i);
		else
			*err = item(rd, o, i, dst);
	}
	return items;
}

static int read_decision(struct reader *rd, struct json_object *o, size_t i, void *dst)
{
	struct state_decision *d = dst;
	struct json_object *v;
	int err;

	if (!json_object_object_get_ex(o, "value", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    (json_object_get_int(v) != 0 && json_object_get_int(v) != 1))
		return bad(rd, "decisions[%zu].value is not 0 or 1", i);
	d->value = json_object_get_int(v);
	err = need_str(rd, o, "decisions[]", "feature", &d->feature);
	if (!err)
		err = need_str(rd, o, "decisions[]", "reason", &d->reason);
	if (!err)
		err = need_str(rd, o, "decisions[]", "time", &d->time);
	if (!err)
		err = get_str(rd, o, "decisions[]", "evidence", &d->evidence);
	return err;
}

static int read_event(struct reader *rd, struct json_object *o, size_t i, void *dst)
{
	struct state_event *e = dst;
	int err;

	(void)i;
	err = need_str(rd, o, "history[]", "time", &e->time);
	if (!err)
		err = need_str(rd, o, "history[]", "action", &e->action);
	if (!err)
		err = get_str(rd, o, "history[]", "detail", &e->detail);
	if (!err)
		err = get_str(rd, o, "history[]", "kernel", &e->kernel);
	return err;
}

static int read_pending(struct reader *rd, struct json_object *doc, struct state *s)
{
	struct state_pending *p = &s->pending;
	struct json_object *o, *arr, *v;
	int err = get_obj(rd, doc, "pending", json_type_object, &o);
	size_t n;

	if (err || !o)
		return err;
	err = need_str(rd, o, "pending", "action", &p->action);
	if (!err)
		err = need_str(rd, o, "pending", "step", &p->step);
	if (!err)
		err = get_obj(rd, o, "args", json_type_array, &arr);
	if (err)
		return err;
	n = arr ? json_object_array_length(arr) : 0;
	p->args = calloc(n ? n : 1, sizeof(*p->args));
	if (!p->args)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		if (!v || !json_object_is_type(v, json_type_string))
			return bad(rd, "pending.args[%zu] is not a string", i);
		if (state_set(&p->args[p->nr_args++], json_object_get_string(v)))
			return -ENOMEM;
	}
	return 0;
}

/* "smoke" or "health": null or {verdict, time, detail} */
static int read_verdict(struct reader *rd, struct json_object *doc, const char *key,
			struct state_verdict *v)
{
	struct json_object *o;
	int err = get_obj(rd, doc, key, json_type_object, &o);

	if (err || !o)
		return err;
	err = need_str(rd, o, key, "verdict", &v->verdict);
	if (!err)
		err = get_str(rd, o, key, "time", &v->time);
	if (!err)
		err = get_str(rd, o, key, "detail", &v->detail);
	return err;
}

static int read_doc(struct reader *rd, struct json_object *doc, struct state *s)
{
	char *schema = NULL, *phase = NULL;
	int err, p;

	if (!json_object_is_type(doc, json_type_object))
		return bad(rd, "not a JSON object");
	err = need_str(rd, doc, "state", "schema", &schema);
	if (!err && strcmp(schema, STATE_SCHEMA))
		err = bad(rd, "schema is '%s', not '%s'", schema, STATE_SCHEMA);
	if (!err)
		err = need_str(rd, doc, "state", "phase", &phase);
	if (!err) {
		p = state_phase_parse(phase);
		if (p < 0)
			err = bad(rd, "phase '%s' is none of idle, staged, trial, promoted, rolled-back",
				  phase);
		else
			s->phase = p;
	}
	free(schema);
	free(phase);
	if (!err)
		err = read_kernel(rd, doc, "previous_kernel", &s->previous);
	if (!err)
		err = read_kernel(rd, doc, "trial_kernel", &s->trial);
	if (!err)
		err = get_str(rd, doc, "state", "baseline", &s->baseline);
	if (!err)
		err = read_verdict(rd, doc, "smoke", &s->smoke);
	if (!err)
		err = read_verdict(rd, doc, "health", &s->health);
	if (!err)
		s->decisions = read_objects(rd, doc, "decisions", sizeof(*s->decisions),
					    &s->nr_decisions, read_decision, &err);
	if (!err)
		err = read_pending(rd, doc, s);
	if (!err)
		s->history = read_objects(rd, doc, "history", sizeof(*s->history),
					  &s->nr_history, read_event, &err);
	return err;
}

/* All of @path, NUL-terminated; -EFBIG past STATE_MAX_BYTES. */
static int slurp(const char *path, char **out)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n;
	int err = 0;

	*out = NULL;
	if (!f)
		return -errno;
	buf = malloc(STATE_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, STATE_MAX_BYTES + 1, f);
	if (ferror(f))
		err = -EIO;
	else if (n > STATE_MAX_BYTES)
		err = -EFBIG;
	fclose(f);
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

int state_load(struct state *s, const char *path, char *why, size_t len)
{
	struct reader rd = { why, len };
	enum json_tokener_error jerr;
	struct json_object *doc;
	char *text;
	int err;

	state_init(s);
	snprintf(why, len, "%s", "");
	err = slurp(path, &text);
	if (err == -ENOENT)
		return 0;
	if (err == -EFBIG)
		return bad(&rd, "larger than %d bytes", STATE_MAX_BYTES);
	if (err)
		return err;
	if (strlen(text) == 0) {
		free(text);
		return bad(&rd, "empty");
	}
	doc = json_tokener_parse_verbose(text, &jerr);
	free(text);
	if (!doc)
		return bad(&rd, "not JSON: %s", json_tokener_error_desc(jerr));
	err = read_doc(&rd, doc, s);
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
