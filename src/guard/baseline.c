// SPDX-License-Identifier: GPL-2.0
/* guard/baseline.c - the guard's baseline file, see guard/baseline.h. */
#include "guard/baseline.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomicfile.h"
#include "lib/json.h"
#include "lib/jsonread.h"

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

/*
 * The document's members, each of its type or missing: this reader says
 * what is wrong in its own words, in the order it checks them.
 */
struct baseline_doc {
	const char *schema, *kernel, *devices;
	int64_t mask, windows, learn;
	bool have_mask, have_windows, have_learn;
	struct json_object *metrics;
};

static const struct json_field doc_fields[] = {
	{ .key = "schema", .type = JF_STRREF, JF_AT(struct baseline_doc, schema), .flags = JF_LOOSE },
	{ .key = "kernel", .type = JF_STRREF, JF_AT(struct baseline_doc, kernel), .flags = JF_LOOSE },
	{ .key = "feature_mask", .type = JF_INT, JF_AT(struct baseline_doc, mask),
	  .flags = JF_LOOSE | JF_SEEN, .seen = offsetof(struct baseline_doc, have_mask) },
	{ .key = "devices", .type = JF_STRREF, JF_AT(struct baseline_doc, devices), .flags = JF_LOOSE },
	{ .key = "windows", .type = JF_INT, JF_AT(struct baseline_doc, windows),
	  .flags = JF_LOOSE | JF_SEEN, .seen = offsetof(struct baseline_doc, have_windows) },
	{ .key = "learn_windows", .type = JF_INT, JF_AT(struct baseline_doc, learn),
	  .flags = JF_LOOSE | JF_SEEN, .seen = offsetof(struct baseline_doc, have_learn) },
	{ .key = "metrics", .type = JF_OBJECT, JF_AT(struct baseline_doc, metrics),
	  .flags = JF_LOOSE },
	{ 0 }
};

struct metric_values {
	struct baseline *b;
	int m;
};

static int load_value(struct json_read *rd, struct json_object *v, size_t i, void *ctx)
{
	static const struct json_field number = { .type = JF_DOUBLE, .size = sizeof(double),
						  .bad = "is not a number" };
	struct metric_values *mv = ctx;

	return json_read_value(rd, v, &number, &mv->b->v[mv->m][i]);
}

static int load_metrics(struct json_object *metrics, struct baseline *b,
			char *err, size_t errlen)
{
	for (int m = 0; m < GM_NR; m++) {
		const struct json_field array[] = {
			{ .key = guard_metric_names[m], .type = JF_ARRAY,
			  .size = sizeof(struct json_object *), .flags = JF_REQUIRED },
			{ 0 }
		};
		struct json_object *arr;
		struct metric_values mv = { b, m };
		struct json_read rd;
		size_t n;
		int ret;

		json_read_init(&rd, err, errlen, NULL);
		if (json_read_object(&rd, metrics, array, &arr)) {
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
		json_read_init(&rd, err, errlen, guard_metric_names[m]);
		ret = json_read_array(&rd, arr, load_value, &mv);
		if (ret)
			return ret;
		b->n[m] = n;
	}
	return 0;
}

static int load_root(struct json_object *root, struct baseline *b, char *err,
		     size_t errlen)
{
	struct baseline_doc d = { 0 };
	struct json_read rd;

	json_read_init(&rd, err, errlen, NULL);
	if (!json_object_is_type(root, json_type_object) ||
	    json_read_object(&rd, root, doc_fields, &d) ||
	    !d.schema || strcmp(d.schema, GUARD_BASELINE_SCHEMA)) {
		snprintf(err, errlen, "not a %s document", GUARD_BASELINE_SCHEMA);
		return -EBADMSG;
	}
	if (!d.kernel || !d.have_mask || !d.devices || !d.have_windows || !d.have_learn ||
	    !d.metrics) {
		snprintf(err, errlen, "kernel, feature_mask, devices, learn_windows, windows or metrics missing");
		return -EBADMSG;
	}
	if (strcmp(d.kernel, b->release) || d.mask != (int64_t)b->mask) {
		snprintf(err, errlen, "it is the baseline of another kernel or feature mask");
		return -EBADMSG;
	}
	if (d.windows < 0 || d.windows > GUARD_MAX_LEARN ||
	    d.learn < 1 || d.learn > GUARD_MAX_LEARN ||
	    strlen(d.devices) >= GUARD_DEVICES_LEN) {
		snprintf(err, errlen, "learn_windows, windows or devices out of range");
		return -EBADMSG;
	}
	b->windows = (unsigned int)d.windows;
	/*
	 * A baseline begun for fewer windows than a band needs (before
	 * issue 17 K was 10 and a band needed 3) keeps its values and
	 * learns on up to the minimum.
	 */
	b->learn_windows = d.learn < GUARD_MIN_SAMPLES ? GUARD_MIN_SAMPLES :
			   (unsigned int)d.learn;
	snprintf(b->devices, sizeof(b->devices), "%s", d.devices);
	return load_metrics(d.metrics, b, err, errlen);
}

int guard_baseline_load(const char *path, struct baseline *b, char *err,
			size_t errlen)
{
	struct json_object *root;
	struct json_read rd;
	int ret;

	json_read_init(&rd, err, errlen, NULL);
	ret = json_read_file(&rd, path, JSON_FILE_MAX_BYTES, &root);
	if (ret == -EBADMSG) {
		snprintf(err, errlen, "not JSON (cut short or damaged)");
		return ret;
	}
	if (ret)
		return ret;
	ret = load_root(root, b, err, errlen);
	json_object_put(root);
	return ret;
}
