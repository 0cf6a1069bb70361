// SPDX-License-Identifier: GPL-2.0
/* tune/state.c - STATEDIR/tune.json, what --restore puts back; see tune/state.h. */
#include "tune/state.h"
#include "lib/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/json.h"

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* a non-negative integer member; false if missing or of another type */
static bool get_u64(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	x = json_object_get_int64(v);
	if (x < 0)
		return false;
	*out = (uint64_t)x;
	return true;
}

static bool copy(char *dst, size_t len, const char *src)
{
	return src && (size_t)snprintf(dst, len, "%s", src) < len;
}

static int parse_entry(struct json_object *o, struct tune_saved *e)
{
	struct json_object *v;
	uint64_t t;

	memset(e, 0, sizeof(*e));
	if (!json_object_is_type(o, json_type_object) ||
	    !copy(e->name, sizeof(e->name), get_str(o, "device")) ||
	    !e->name[0] || strchr(e->name, '/') ||
	    !get_u64(o, "old_read_ahead_kb", &e->old_kb) ||
	    !get_u64(o, "set_read_ahead_kb", &e->set_kb) ||
	    !copy(e->rule, sizeof(e->rule), get_str(o, "rule")) ||
	    !get_u64(o, "time", &t))
		return -EBADMSG;
	e->time = (int64_t)t;
	if (json_object_object_get_ex(o, "diskseq", &v) && !json_object_is_type(v, json_type_null)) {
		if (!get_u64(o, "diskseq", &e->diskseq))
			return -EBADMSG;
		e->have_diskseq = true;
	}
	return 0;
}

static int parse(struct json_object *root, const char *boot_id,
		 struct tune_state *s)
{
	struct json_object *arr;
	const char *schema, *boot;
	size_t n;
	bool other_boot;

	schema = get_str(root, "schema");
	if (!schema || strcmp(schema, TUNE_STATE_SCHEMA))
		return -EBADMSG;
	boot = get_str(root, "boot_id");
	if (!json_object_object_get_ex(root, "devices", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return -EBADMSG;
	n = json_object_array_length(arr);
	other_boot = boot && boot[0] && boot_id[0] && strcmp(boot, boot_id);
	if (other_boot) {
		s->dropped = n;
		return 0;
	}
	s->dev = calloc(n ? n : 1, sizeof(*s->dev));
	if (!s->dev)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int ret = parse_entry(json_object_array_get_idx(arr, i), &s->dev[i]);

		if (ret)
			return ret;
		s->nr++;
	}
	return 0;
}

int tune_state_load(const char *path, const char *boot_id,
		    struct tune_state *s, char *err, size_t errlen)
{
	struct json_object *root;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->boot_id, sizeof(s->boot_id), "%s", boot_id ? boot_id : "");
	if (access(path, F_OK)) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	root = json_object_from_file(path);
	if (!root) {
		snprintf(err, errlen, "%s: not JSON; move it away to start afresh", path);
		return -EBADMSG;
	}
	ret = parse(root, s->boot_id, s);
	json_object_put(root);
	if (ret) {
		tune_state_free(s);
		snprintf(s->boot_id, sizeof(s->boot_id), "%s", boot_id ? boot_id : "");
		if (ret == -EBADMSG)
			snprintf(err, errlen, "%s: not a %s file; move it away to start afresh",
				 path, TUNE_STATE_SCHEMA);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	}
	return ret;
}

static int fill(FILE *f, const void *arg)
{
	const struct tune_state *s = arg;
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", TUNE_STATE_SCHEMA);
	json_str(&w, "boot_id", s->boot_id[0] ? s->boot_id : NULL);
	json_arr_begin(&w, "devices");
	for (size_t i = 0; i < s->nr; i++) {
		const struct tune_saved *e = &s->dev[i];

		json_obj_begin(&w, NULL);
		json_str(&w, "device", e->name);
		if (e->have_diskseq)
			json_u64(&w, "diskseq", e->diskseq);
		else
			json_null(&w, "diskseq");
		json_u64(&w, "old_read_ahead_kb", e->old_kb);
		json_u64(&w, "set_read_ahead_kb", e->set_kb);
		json_str(&w, "rule", e->rule);
		json_i64(&w, "time", e->time);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w) ? -EIO : 0;
}

int tune_state_save(const char *path, const struct tune_state *s)
{
	return atomic_write_stream(path, 0644, fill, s);
}

struct tune_saved *tune_state_find(struct tune_state *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->dev[i].name, name))
			return &s->dev[i];
	return NULL;
}

bool tune_saved_is(const struct tune_saved *e, const struct tune_dev *d)
{
	if (strcmp(e->name, d->disk.name))
		return false;
	if (e->have_diskseq && d->have_diskseq)
		return e->diskseq == d->diskseq;
	return e->have_diskseq == d->have_diskseq;
}

int tune_state_record(struct tune_state *s, const struct tune_dev *d,
		      uint64_t set_kb, const char *rule, int64_t now)
{
	struct tune_saved *e = tune_state_find(s, d->disk.name), *more;

	if (!e) {
		more = realloc(s->dev, (s->nr + 1) * sizeof(*more));
		if (!more)
			return -ENOMEM;
		s->dev = more;
		e = &s->dev[s->nr++];
	}
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", d->disk.name);
	e->have_diskseq = d->have_diskseq;
	e->diskseq = d->diskseq;
	e->old_kb = d->ra_kb;
	e->set_kb = set_kb;
	snprintf(e->rule, sizeof(e->rule), "%s", rule);
	e->time = now;
	return 0;
}

void tune_state_remove(struct tune_state *s, struct tune_saved *e)
{
	size_t i = (size_t)(e - s->dev);

	if (i >= s->nr)
		return;
	memmove(e, e + 1, (s->nr - i - 1) * sizeof(*e));
	s->nr--;
}

void tune_state_free(struct tune_state *s)
{
	free(s->dev);
	s->dev = NULL;
	s->nr = 0;
}

int tune_state_lock(struct lockfile *l, const char *path)
{
	char lock[PATH_MAX];

	if ((size_t)snprintf(lock, sizeof(lock), "%s.lock", path) >= sizeof(lock))
		return -ENAMETOOLONG;
	return lockfile_take_path(l, lock, "tune", LOCKFILE_WAIT_FOREVER);
}
