// SPDX-License-Identifier: GPL-2.0
/* tune/state.c - STATEDIR/tune.json, what --restore puts back; see tune/state.h. */
#include "tune/state.h"
#include "lib/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/json.h"
#include "lib/jsonread.h"

/* Every fault is "not a rafleet-tune-state/1 file", so no field has words of its own. */
static const struct json_field entry_fields[] = {
	{ .key = "device", .type = JF_STRING, JF_AT(struct tune_saved, name),
	  .flags = JF_REQUIRED | JF_NONEMPTY },
	{ .key = "old_read_ahead_kb", .type = JF_UINT, JF_AT(struct tune_saved, old_kb),
	  .flags = JF_REQUIRED },
	{ .key = "set_read_ahead_kb", .type = JF_UINT, JF_AT(struct tune_saved, set_kb),
	  .flags = JF_REQUIRED },
	{ .key = "rule", .type = JF_STRING, JF_AT(struct tune_saved, rule), .flags = JF_REQUIRED },
	{ .key = "time", .type = JF_INT, JF_AT(struct tune_saved, time),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 0, .max = INT64_MAX },
	{ .key = "diskseq", .type = JF_UINT, JF_AT(struct tune_saved, diskseq),
	  .flags = JF_SEEN, .seen = offsetof(struct tune_saved, have_diskseq) },
	{ 0 }
};

static int parse_entry(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct tune_state *s = ctx;
	struct tune_saved *e = &s->dev[i];
	int ret;

	memset(e, 0, sizeof(*e));
	ret = json_read_object(rd, o, entry_fields, e);
	if (!ret && strchr(e->name, '/'))
		ret = json_read_bad(rd, "is the device '%s', not a name", e->name);
	if (!ret)
		s->nr++;
	return ret;
}

struct tune_doc {
	const char *schema, *boot;
	struct json_object *devices;
};

static const struct json_field doc_fields[] = {
	{ .key = "schema", .type = JF_STRREF, JF_AT(struct tune_doc, schema),
	  .flags = JF_REQUIRED },
	{ .key = "boot_id", .type = JF_STRREF, JF_AT(struct tune_doc, boot), .flags = JF_LOOSE },
	{ .key = "devices", .type = JF_ARRAY, JF_AT(struct tune_doc, devices),
	  .flags = JF_REQUIRED },
	{ 0 }
};

static int parse(struct json_read *rd, struct json_object *root, const char *boot_id,
		 struct tune_state *s)
{
	struct tune_doc d = { 0 };
	size_t n;
	int ret = json_read_object(rd, root, doc_fields, &d);

	if (ret)
		return ret;
	if (strcmp(d.schema, TUNE_STATE_SCHEMA))
		return -EBADMSG;
	n = json_object_array_length(d.devices);
	if (d.boot && d.boot[0] && boot_id[0] && strcmp(d.boot, boot_id)) {
		s->dropped = n;		/* of another boot */
		return 0;
	}
	s->dev = calloc(n ? n : 1, sizeof(*s->dev));
	if (!s->dev)
		return -ENOMEM;
	return json_read_array(rd, d.devices, parse_entry, s);
}

int tune_state_load(const char *path, const char *boot_id,
		    struct tune_state *s, char *err, size_t errlen)
{
	struct json_object *root;
	struct json_read rd;
	char why[256];
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->boot_id, sizeof(s->boot_id), "%s", boot_id ? boot_id : "");
	json_read_init(&rd, why, sizeof(why), NULL);
	ret = json_read_file(&rd, path, JSON_FILE_MAX_BYTES, &root);
	if (ret == -ENOENT)
		return 0;
	if (ret == -EBADMSG) {
		snprintf(err, errlen, "%s: not JSON; move it away to start afresh", path);
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = parse(&rd, root, s->boot_id, s);
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
