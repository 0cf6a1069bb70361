// SPDX-License-Identifier: GPL-2.0
/* guard/baseline.c - the guard's baseline file, see guard/baseline.h. */
#include "guard/baseline.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/atomicfile.h"
#include "lib/json.h"

int guard_baseline_name(const char *release, unsigned int mask, char *out,
			size_t len)
{
	char rel[GUARD_RELEASE_LEN];
	size_t i;

	snprintf(rel, sizeof(rel), "%s", release);
	for (i = 0; rel[i]; i++)
		if (!isalnum((unsigned char)rel[i]) && !strchr(".-_+", rel[i]))
			rel[i] = '_';
	if (!i)
		return -EINVAL;
	if ((size_t)snprintf(out, len, "guard-baseline-%s-%02x.json", rel,
			     mask) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int baseline_fill(FILE *f, const void *arg)
{
	const struct baseline *b = arg;
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", GUARD_BASELINE_SCHEMA);
	json_str(&w, "kernel", b->release);
	json_u64(&w, "feature_mask", b->mask);
	json_str(&w, "devices", b->devices);
	json_u64(&w, "learn_windows", b->learn_windows);
	json_u64(&w, "windows", b->windows);
	json_obj_begin(&w, "metrics");
	for (int m = 0; m < GM_NR; m++) {
		json_arr_begin(&w, guard_metric_names[m]);
		for (size_t i = 0; i < b->n[m]; i++)
			json_double(&w, NULL, b->v[m][i]);
		json_arr_end(&w);
	}
	json_obj_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w);
}

int guard_baseline_save(const char *path, const struct baseline *b)
{
	return atomic_write_stream(path, 0644, baseline_fill, b);
}

static struct json_object *member(struct json_object *o, const char *key,
				  json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

static int load_metrics(struct json_object *metrics, struct baseline *b,
			char *err, size_t errlen)
{
	for (int m = 0; m < GM_NR; m++) {
		struct json_object *arr = member(metrics, guard_metric_names[m],
						 json_type_array);
		size_t n;

		if (!arr) {
			snprintf(err, errlen, "no array \"%s\"",
				 guard_metric_names[m]);
			return -EBADMSG;
		}
		n = json_object_array_length(arr);
		if (n > GUARD_MAX_LEARN) {
			snprintf(err, errlen, "more than %d values of %s",
				 GUARD_MAX_LEARN, guard_metric_names[m]);
			return -EBADMSG;
		}
		for (size_t i = 0; i < n; i++) {
			struct json_object *v = json_object_array_get_idx(arr, i);

			if (!is_number(v) || !isfinite(json_object_get_double(v))) {
				snprintf(err, errlen, "%s[%zu] is not a number",
					 guard_metric_names[m], i);
				return -EBADMSG;
			}
			b->v[m][i] = json_object_get_double(v);
		}
		b->n[m] = n;
	}
	return 0;
}

static int load_root(struct json_object *root, struct baseline *b, char *err,
		     size_t errlen)
{
	struct json_object *schema = member(root, "schema", json_type_string);
	struct json_object *kernel = member(root, "kernel", json_type_string);
	struct json_object *mask = member(root, "feature_mask", json_type_int);
	struct json_object *devs = member(root, "devices", json_type_string);
	struct json_object *wins = member(root, "windows", json_type_int);
	struct json_object *k = member(root, "learn_windows", json_type_int);
	struct json_object *metrics = member(root, "metrics", json_type_object);

	if (!schema || strcmp(json_object_get_string(schema), GUARD_BASELINE_SCHEMA)) {
		snprintf(err, errlen, "not a %s document", GUARD_BASELINE_SCHEMA);
		return -EBADMSG;
	}
	if (!kernel || !mask || !devs || !wins || !k || !metrics) {
		snprintf(err, errlen, "kernel, feature_mask, devices, learn_windows, windows or metrics missing");
		return -EBADMSG;
	}
	if (strcmp(json_object_get_string(kernel), b->release) ||
	    json_object_get_int64(mask) != (int64_t)b->mask) {
		snprintf(err, errlen, "it is the baseline of another kernel or feature mask");
		return -EBADMSG;
	}
	if (json_object_get_int64(wins) < 0 ||
	    json_object_get_int64(wins) > GUARD_MAX_LEARN ||
	    json_object_get_int64(k) < GUARD_MIN_SAMPLES ||
	    json_object_get_int64(k) > GUARD_MAX_LEARN ||
	    strlen(json_object_get_string(devs)) >= GUARD_DEVICES_LEN) {
		snprintf(err, errlen, "learn_windows, windows or devices out of range");
		return -EBADMSG;
	}
	b->windows = (unsigned int)json_object_get_int64(wins);
	b->learn_windows = (unsigned int)json_object_get_int64(k);
	snprintf(b->devices, sizeof(b->devices), "%s", json_object_get_string(devs));
	return load_metrics(metrics, b, err, errlen);
}

int guard_baseline_load(const char *path, struct baseline *b, char *err,
			size_t errlen)
{
	struct json_object *root;
	struct stat st;
	int ret;

	if (stat(path, &st))
		return -errno;
	root = json_object_from_file(path);
	if (!root) {
		snprintf(err, errlen, "not JSON (cut short or damaged)");
		return -EBADMSG;
	}
	ret = load_root(root, b, err, errlen);
	json_object_put(root);
	return ret;
}
