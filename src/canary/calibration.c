// SPDX-License-Identifier: GPL-2.0
/* The per-machine allowed loss of each workload, from A/A runs. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomicfile.h"
#include "canary/calibration.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/jsonread.h"
#include "lib/rootdir.h"
#include "lib/statedir.h"

int machine_id_get(char *out, size_t len)
{
	char path[PATH_MAX], buf[64];
	int err = root_path(rootdir_get(), "/etc/machine-id", path, sizeof(path));

	if (!err)
		err = read_small_file(path, buf, sizeof(buf));
	if (err)
		return err;
	buf[strcspn(buf, "\n")] = '\0';
	if (strlen(buf) != 32 || strspn(buf, "0123456789abcdef") != 32)
		return -EBADMSG;
	if ((size_t)snprintf(out, len, "%s", buf) >= len)
		return -ENAMETOOLONG;
	return 0;
}

double calibration_delta(const struct hl_estimate *aa, double floor)
{
	double far;

	if (!aa->ci_valid)
		return floor;
	far = fmax(fabs(expm1(aa->lo)), fabs(expm1(aa->hi)));
	far = ceil(far * 200 - 1e-9) / 200;	/* up to the next 0.5 % */
	return far > floor ? far : floor;
}

/*
 * Every fault is "not a rafleet-calibration/1 file".  As before the tables:
 * kernel and time of another type are ignored, strings too long for
 * machine_id, kernel and time cut, pairs given with a fraction truncated.
 */
struct calibration_doc {
	const char *schema;
	struct json_object *deltas;
};

static const struct json_field doc_fields[] = {
	{ .key = "schema", .type = JF_STRREF, JF_AT(struct calibration_doc, schema),
	  .flags = JF_REQUIRED },
	{ .key = "deltas", .type = JF_ARRAY, JF_AT(struct calibration_doc, deltas),
	  .flags = JF_REQUIRED },
	{ 0 }
};

static const struct json_field calibration_fields[] = {
	{ .key = "machine_id", .type = JF_STRING, JF_AT(struct calibration, machine_id),
	  .flags = JF_REQUIRED | JF_TRUNCATE },
	{ .key = "kernel", .type = JF_STRING, JF_AT(struct calibration, kernel),
	  .flags = JF_LOOSE | JF_TRUNCATE },
	{ .key = "time", .type = JF_STRING, JF_AT(struct calibration, time),
	  .flags = JF_LOOSE | JF_TRUNCATE },
	{ .key = "alpha_look", .type = JF_DOUBLE, JF_AT(struct calibration, alpha_look),
	  .flags = JF_REQUIRED },
	{ .key = "floor", .type = JF_DOUBLE, JF_AT(struct calibration, floor),
	  .flags = JF_REQUIRED },
	{ 0 }
};

static const struct json_field entry_fields[] = {
	{ .key = "scenario", .type = JF_STRING, JF_AT(struct calibration_entry, scenario),
	  .flags = JF_REQUIRED },
	{ .key = "delta", .type = JF_DOUBLE, JF_AT(struct calibration_entry, delta),
	  .flags = JF_REQUIRED },
	{ .key = "estimate", .type = JF_DOUBLE, JF_AT(struct calibration_entry, estimate),
	  .flags = JF_REQUIRED },
	{ .key = "lo", .type = JF_DOUBLE, JF_AT(struct calibration_entry, lo),
	  .flags = JF_REQUIRED },
	{ .key = "hi", .type = JF_DOUBLE, JF_AT(struct calibration_entry, hi),
	  .flags = JF_REQUIRED },
	{ .key = "pairs", .type = JF_UINT, JF_AT(struct calibration_entry, pairs),
	  .flags = JF_REQUIRED | JF_FRACTION },
	{ 0 }
};

static int parse_entry(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct calibration_entry e = { 0 };
	int err = json_read_object(rd, o, entry_fields, &e);

	(void)i;
	if (err)
		return err;
	if (!(e.delta > 0 && e.delta < 10))
		return json_read_bad(rd, "has a delta out of (0, 10)");
	return calibration_put(ctx, &e) ? -EBADMSG : 0;
}

static int parse(struct json_read *rd, struct json_object *root, struct calibration *c)
{
	struct calibration_doc d = { 0 };
	int err = json_read_object(rd, root, doc_fields, &d);

	if (err)
		return err;
	if (strcmp(d.schema, CALIBRATION_SCHEMA))
		return -EBADMSG;
	err = json_read_object(rd, root, calibration_fields, c);
	if (!err)
		err = json_read_array(rd, d.deltas, parse_entry, c);
	return err;
}

int calibration_load(struct calibration *c, char *why, size_t len)
{
	char path[PATH_MAX], id[40], jwhy[256];
	struct json_object *root;
	struct json_read rd;
	int err;

	memset(c, 0, sizeof(*c));
	err = statedir_path(CALIBRATION_FILE, path, sizeof(path));
	if (err)
		return err;
	json_read_init(&rd, jwhy, sizeof(jwhy), NULL);
	err = json_read_file(&rd, path, JSON_FILE_MAX_BYTES, &root);
	if (err == -EBADMSG) {
		snprintf(why, len, "%s is not JSON; run 'rafleet calibrate' again", path);
		return err;
	}
	if (err)
		return -ENOENT;	/* none that can be read */
	err = parse(&rd, root, c);
	json_object_put(root);
	if (err) {
		snprintf(why, len, "%s is not a %s file; run 'rafleet calibrate' again",
			 path, CALIBRATION_SCHEMA);
		return err;
	}
	if (machine_id_get(id, sizeof(id)) || strcmp(id, c->machine_id))
		return -EXDEV;
	return 0;
}

int calibration_put(struct calibration *c, const struct calibration_entry *e)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].scenario, e->scenario)) {
			c->e[i] = *e;
			return 0;
		}
	if (c->n >= CALIBRATION_MAX)
		return -ENOSPC;
	c->e[c->n++] = *e;
	return 0;
}

const struct calibration_entry *calibration_find(const struct calibration *c,
						 const char *scenario)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].scenario, scenario))
			return &c->e[i];
	return NULL;
}

int calibration_write_json(FILE *f, const struct calibration *c)
{
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", CALIBRATION_SCHEMA);
	json_str(&w, "machine_id", c->machine_id);
	json_str(&w, "kernel", c->kernel);
	json_str(&w, "time", c->time);
	json_double(&w, "alpha_look", c->alpha_look);
	json_double(&w, "floor", c->floor);
	json_arr_begin(&w, "deltas");
	for (int i = 0; i < c->n; i++) {
		json_obj_begin(&w, NULL);
		json_str(&w, "scenario", c->e[i].scenario);
		json_str(&w, "metric", "wall");
		json_double(&w, "delta", c->e[i].delta);
		json_double(&w, "estimate", c->e[i].estimate);
		json_double(&w, "lo", c->e[i].lo);
		json_double(&w, "hi", c->e[i].hi);
		json_u64(&w, "pairs", c->e[i].pairs);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w);
}

static int calibration_fill(FILE *f, const void *c)
{
	return calibration_write_json(f, c);
}

int calibration_save(const struct calibration *c)
{
	char path[PATH_MAX];
	int err = statedir_ensure();

	if (!err)
		err = statedir_path(CALIBRATION_FILE, path, sizeof(path));
	if (err)
		return err;
	return atomic_write_stream(path, 0644, calibration_fill, c);
}
