// SPDX-License-Identifier: GPL-2.0
/* The latest canary report of each feature, for `rafleet status`. */
#include "status/canary.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canary/report.h"
#include "lib/jsonread.h"

#define STAMP_LEN 16		/* 20261130T214501Z */

#define ACTION_BAD "is none of keep, turn-off, none"

/* workloads[i].metrics[k]: is it the wall metric? */
static const struct json_field name_field[] = {
	{ .key = "name", .type = JF_STRREF, .size = sizeof(const char *), .flags = JF_LOOSE },
	{ 0 }
};

/* the wall metric's estimate (null: none) and interval (null or missing: none) */
static const struct json_field wall_fields[] = {
	{ .key = "estimate", .type = JF_DOUBLE, JF_AT(struct status_canary_workload, estimate),
	  .flags = JF_REQUIRED | JF_NULLABLE },
	{ .key = "lo", .type = JF_DOUBLE, JF_AT(struct status_canary_workload, lo) },
	{ .key = "hi", .type = JF_DOUBLE, JF_AT(struct status_canary_workload, hi) },
	{ 0 }
};

static const struct json_field workload_fields[] = {
	{ .key = "scenario", .type = JF_STRING, JF_AT(struct status_canary_workload, scenario),
	  .flags = JF_REQUIRED | JF_NONEMPTY, .bad = "is not a scenario name" },
	{ .key = "delta", .type = JF_DOUBLE, JF_AT(struct status_canary_workload, delta),
	  .flags = JF_REQUIRED, .bad = "is not a number" },
	{ 0 }
};

static const struct json_field metrics_field[] = {
	{ .key = "metrics", .type = JF_ARRAY, .size = sizeof(struct json_object *),
	  .flags = JF_REQUIRED, .bad = "is not an array" },
	{ 0 }
};

/* The wall time metric of workloads[@i] into @c->w[@i]. */
static int read_workload(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	const char *wall = canary_metrics[CM_WALL].name;
	struct status_canary *c = ctx;
	struct status_canary_workload *cw = &c->w[i];
	struct json_object *metrics, *m = NULL;
	int err = json_read_object(rd, o, workload_fields, cw);

	if (!err)
		err = json_read_object(rd, o, metrics_field, &metrics);
	if (err)
		return err;
	for (size_t k = 0; k < json_object_array_length(metrics) && !m; k++) {
		struct json_object *e = json_object_array_get_idx(metrics, k);
		const char *name = NULL;

		if (json_object_is_type(e, json_type_object) &&
		    !json_read_object(rd, e, name_field, &name) && name && !strcmp(name, wall))
			m = e;
	}
	if (!m)
		return json_read_bad(rd, "has no %s metric", wall);
	cw->estimate = cw->lo = cw->hi = NAN;
	if (json_read_object(rd, m, wall_fields, cw))
		return json_read_fail(rd, "%s: the %s estimate or its interval is not a number",
				      json_read_path(rd), wall);
	for (size_t k = 0; k < i; k++)	/* the canary refuses that */
		if (!strcmp(c->w[k].scenario, cw->scenario))
			return json_read_fail(rd, "%s: scenario '%s' twice", json_read_path(rd),
					      cw->scenario);
	c->nr_workloads++;
	return 0;
}

/* member: the whole report */
static int read_workloads(struct json_read *rd, struct json_object *arr, void *member)
{
	size_t n = json_object_array_length(arr);

	if (n > CANARY_MAX_WORKLOADS)
		return json_read_fail(rd, "%zu workloads, a canary runs at most %d", n,
				      CANARY_MAX_WORKLOADS);
	return json_read_array(rd, arr, read_workload, member);
}

static int read_action(struct json_read *rd, struct json_object *v, void *member)
{
	struct status_canary *c = member;
	const char *action = json_object_get_string(v);

	if (strcmp(action, "keep") && strcmp(action, "turn-off") && strcmp(action, "none"))
		return json_read_bad(rd, ACTION_BAD);
	snprintf(c->action, sizeof(c->action), "%s", action);
	return 0;
}

static const struct json_field decision_fields[] = {
	{ .key = "action", .type = JF_STRREF, .offset = 0, .flags = JF_REQUIRED | JF_LOOSE,
	  .cb = read_action, .bad = ACTION_BAD },
	{ .key = "acted", .type = JF_BOOL, JF_AT(struct status_canary, acted),
	  .flags = JF_REQUIRED, .bad = "is not true or false" },
	{ 0 }
};

/* What follows the schema, the feature and the verdict. */
static const struct json_field report_fields[] = {
	{ .key = "pairs", .type = JF_UINT, JF_AT(struct status_canary, pairs),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 0, .max = 1000000, .bad = "is not a count" },
	{ .key = "aa", .type = JF_BOOL, JF_AT(struct status_canary, aa), .flags = JF_LOOSE },
	{ .key = "decision", .type = JF_OBJECT, .offset = 0, .flags = JF_REQUIRED,
	  .sub = decision_fields, .bad = "is not an object" },
	{ .key = "workloads", .type = JF_ARRAY, .offset = 0, .flags = JF_REQUIRED,
	  .cb = read_workloads, .bad = "is not an array" },
	{ 0 }
};

struct report_head {
	const char *schema, *feature, *verdict;
};

static const struct json_field head_fields[] = {
	{ .key = "schema", .type = JF_STRREF, JF_AT(struct report_head, schema), .flags = JF_LOOSE },
	{ .key = "feature", .type = JF_STRREF, JF_AT(struct report_head, feature),
	  .flags = JF_LOOSE },
	{ .key = "verdict", .type = JF_STRREF, JF_AT(struct report_head, verdict),
	  .flags = JF_LOOSE },
	{ 0 }
};

static int read_doc(struct json_read *rd, struct json_object *doc, const struct feature *f,
		    struct status_canary *c)
{
	struct report_head h = { 0 };
	const char *s;
	int err = json_read_object(rd, doc, head_fields, &h);

	if (err)
		return err;
	s = h.schema;
	/* /1 (before issue 17) has every field read here: still read */
	if (!s || (strcmp(s, CANARY_SCHEMA) && strcmp(s, "rafleet-canary/1")))
		return json_read_fail(rd, "schema is %s%s%s, not '%s'", s ? "'" : "",
				      s ? s : "missing", s ? "'" : "", CANARY_SCHEMA);
	s = h.feature;
	if (!s || strcmp(s, f->name))
		return json_read_fail(rd, "its feature is %s%s%s, not '%s' as its name says",
				      s ? "'" : "", s ? s : "missing", s ? "'" : "", f->name);
	s = h.verdict;
	if (!s || (strcmp(s, "PASS") && strcmp(s, "REGRESS") && strcmp(s, "UNKNOWN")))
		return json_read_fail(rd, "verdict is none of PASS, REGRESS, UNKNOWN");
	snprintf(c->verdict, sizeof(c->verdict), "%s", s);
	c->aa = false;
	return json_read_object(rd, doc, report_fields, c);
}

int status_canary_read(const char *path, const struct feature *f,
		       struct status_canary *c, char *why, size_t len)
{
	struct json_object *doc;
	struct json_read rd;
	int err;

	c->nr_workloads = 0;
	json_read_init(&rd, why, len, NULL);
	err = json_read_file(&rd, path, STATUS_CANARY_MAX_BYTES, &doc);
	if (err)
		return err;
	err = read_doc(&rd, doc, f, c);
	json_object_put(doc);
	return err;
}

/*
 * Which feature @name (a directory entry) is a report of, its TIME in
 * @stamp; NULL if it is no FEATURE-TIME.json (the pictures, temporary
 * files of a report being written, anything else).
 */
static const struct feature *report_of(const char *name, char stamp[STAMP_LEN + 1])
{
	size_t n = strlen(name);
	const char *dash;

	if (n < STAMP_LEN + 6 || strcmp(name + n - 5, ".json"))
		return NULL;
	dash = name + n - 5 - STAMP_LEN - 1;
	if (*dash != '-')
		return NULL;
	memcpy(stamp, dash + 1, STAMP_LEN);
	stamp[STAMP_LEN] = '\0';
	for (int i = 0; i < STAMP_LEN; i++)
		if (i == 8 ? stamp[i] != 'T' : i == 15 ? stamp[i] != 'Z' :
		    (stamp[i] < '0' || stamp[i] > '9'))
			return NULL;
	for (int i = 0; i < nr_features; i++)
		if (strlen(features[i].name) == (size_t)(dash - name) &&
		    !strncmp(name, features[i].name, (size_t)(dash - name)))
			return &features[i];
	return NULL;
}

/* TIME as RFC 3339 and as seconds; false if it is no time. */
static bool stamp_time(const char *stamp, char *rfc, size_t len, time_t *when)
{
	struct tm tm = { 0 };
	const char *end = strptime(stamp, "%Y%m%dT%H%M%SZ", &tm);

	if (!end || *end)
		return false;
	*when = timegm(&tm);
	return *when != (time_t)-1 &&
	       strftime(rfc, len, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0;
}

int status_canaries_load(const char *dir, struct status_canary *out, size_t *nr,
			 struct warnings *w)
{
	char (*latest)[STAMP_LEN + 1];
	char stamp[STAMP_LEN + 1], why[256];
	struct dirent *de;
	DIR *d;

	*nr = 0;
	d = opendir(dir);
	if (!d) {
		if (errno != ENOENT)
			warn_add(w, "%s: %s: the canary reports cannot be read", dir,
				 strerror(errno));
		return 0;
	}
	latest = calloc((size_t)nr_features, sizeof(*latest));
	if (!latest) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		const struct feature *f = report_of(de->d_name, stamp);

		if (f && strcmp(stamp, latest[f - features]) > 0)
			memcpy(latest[f - features], stamp, sizeof(stamp));
	}
	closedir(d);
	for (int i = 0; i < nr_features; i++) {
		struct status_canary *c = &out[*nr];
		int err;

		if (!latest[i][0])
			continue;
		memset(c, 0, sizeof(*c));
		c->f = &features[i];
		if ((size_t)snprintf(c->path, sizeof(c->path), "%s/%s-%s.json", dir,
				     features[i].name, latest[i]) >= sizeof(c->path)) {
			warn_add(w, "%s: a path too long for a canary report", dir);
			continue;
		}
		if (!stamp_time(latest[i], c->time, sizeof(c->time), &c->when)) {
			warn_add(w, "%s: %s is no time: the canary report is not used",
				 c->path, latest[i]);
			continue;
		}
		err = status_canary_read(c->path, c->f, c, why, sizeof(why));
		if (err == -ENOMEM) {
			free(latest);
			return err;
		}
		if (err) {
			warn_add(w, "%s: %s: the latest canary report of vm.%s cannot be used",
				 c->path, err == -EBADMSG ? why : strerror(-err), features[i].name);
			continue;
		}
		(*nr)++;
	}
	free(latest);
	return 0;
}
