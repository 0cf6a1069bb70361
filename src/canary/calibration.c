// SPDX-License-Identifier: GPL-2.0
/* The per-machine allowed loss of each workload, from A/A runs. */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomicfile.h"
#include "canary/calibration.h"
#include "lib/fileio.h"
#include "lib/json.h"
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

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

static int parse(struct json_object *root, struct calibration *c)
{
	struct json_object *arr;
	const char *s;

	s = str(root, "schema");
	if (!s || strcmp(s, CALIBRATION_SCHEMA))
		return -EBADMSG;
	if (!(s = str(root, "machine_id")))
		return -EBADMSG;
	snprintf(c->machine_id, sizeof(c->machine_id), "%s", s);
	if ((s = str(root, "kernel")))
		snprintf(c->kernel, sizeof(c->kernel), "%s", s);
	if ((s = str(root, "time")))
		snprintf(c->time, sizeof(c->time), "%s", s);
	if (!num(root, "alpha_look", &c->alpha_look) || !num(root, "floor", &c->floor))
		return -EBADMSG;
	if (!json_object_object_get_ex(root, "deltas", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return -EBADMSG;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		struct calibration_entry e = { 0 };
		double pairs;

		if (!(s = str(o, "scenario")) || strlen(s) >= sizeof(e.scenario) ||
		    !num(o, "delta", &e.delta) || !(e.delta > 0 && e.delta < 10) ||
		    !num(o, "estimate", &e.estimate) || !num(o, "lo", &e.lo) ||
		    !num(o, "hi", &e.hi) || !num(o, "pairs", &pairs))
			return -EBADMSG;
		snprintf(e.scenario, sizeof(e.scenario), "%s", s);
		e.pairs = (unsigned int)pairs;
		if (calibration_put(c, &e))
			return -EBADMSG;
	}
	return 0;
}

int calibration_load(struct calibration *c, char *why, size_t len)
{
	char path[PATH_MAX], id[40];
	struct json_object *root;
	int err;

	memset(c, 0, sizeof(*c));
	err = statedir_path(CALIBRATION_FILE, path, sizeof(path));
	if (err)
		return err;
	root = json_object_from_file(path);
	if (!root) {
		FILE *f = fopen(path, "r");

		if (!f)
			return -ENOENT;
		fclose(f);
		snprintf(why, len, "%s is not JSON; run 'rafleet calibrate' again", path);
		return -EBADMSG;
	}
	err = parse(root, c);
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
