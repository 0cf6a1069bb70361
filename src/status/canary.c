// SPDX-License-Identifier: GPL-2.0
/* The latest canary report of each feature, for `rafleet status`. */
#include "status/canary.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "canary/report.h"
#include "lib/fileio.h"

#define STAMP_LEN 16		/* 20261130T214501Z */

__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* @o.@key as a string (NULL if missing, null or not a string). */
static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/*
 * @o.@key as a number into *@out: NaN for null (or missing, if @may_miss).
 * false if it is something else.
 */
static bool get_num(struct json_object *o, const char *key, bool may_miss, double *out)
{
	struct json_object *v;
	bool have = json_object_object_get_ex(o, key, &v);

	*out = NAN;
	if (!have)
		return may_miss;
	if (!v)
		return true;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

/* The wall time metric of workloads[@i] into @cw. */
static int read_workload(struct json_object *o, size_t i, struct status_canary_workload *cw,
			 char *why, size_t len)
{
	const char *scenario = get_str(o, "scenario");
	struct json_object *metrics, *m = NULL;

	if (!scenario || !*scenario || strlen(scenario) >= sizeof(cw->scenario))
		return bad(why, len, "workloads[%zu].scenario is not a scenario name", i);
	snprintf(cw->scenario, sizeof(cw->scenario), "%s", scenario);
	if (!get_num(o, "delta", false, &cw->delta) || isnan(cw->delta))
		return bad(why, len, "workloads[%zu].delta is not a number", i);
	if (!json_object_object_get_ex(o, "metrics", &metrics) ||
	    !json_object_is_type(metrics, json_type_array))
		return bad(why, len, "workloads[%zu].metrics is not an array", i);
	for (size_t k = 0; k < json_object_array_length(metrics) && !m; k++) {
		struct json_object *e = json_object_array_get_idx(metrics, k);
		const char *name = json_object_is_type(e, json_type_object) ?
				   get_str(e, "name") : NULL;

		if (name && !strcmp(name, canary_metrics[CM_WALL].name))
			m = e;
	}
	if (!m)
		return bad(why, len, "workloads[%zu] has no %s metric", i,
			   canary_metrics[CM_WALL].name);
	if (!get_num(m, "estimate", false, &cw->estimate) ||
	    !get_num(m, "lo", true, &cw->lo) || !get_num(m, "hi", true, &cw->hi))
		return bad(why, len, "workloads[%zu]: the %s estimate or its interval is not a number",
			   i, canary_metrics[CM_WALL].name);
	return 0;
}

static int read_decision(struct json_object *doc, struct status_canary *c,
			 char *why, size_t len)
{
	struct json_object *d, *acted;
	const char *action;

	if (!json_object_object_get_ex(doc, "decision", &d) ||
	    !json_object_is_type(d, json_type_object))
		return bad(why, len, "decision is not an object");
	action = get_str(d, "action");
	if (!action || (strcmp(action, "keep") && strcmp(action, "turn-off") &&
			strcmp(action, "none")))
		return bad(why, len, "decision.action is none of keep, turn-off, none");
	snprintf(c->action, sizeof(c->action), "%s", action);
	if (!json_object_object_get_ex(d, "acted", &acted) ||
	    !json_object_is_type(acted, json_type_boolean))
		return bad(why, len, "decision.acted is not true or false");
	c->acted = json_object_get_boolean(acted);
	return 0;
}

static int read_doc(struct json_object *doc, const struct feature *f,
		    struct status_canary *c, char *why, size_t len)
{
	struct json_object *v, *arr;
	const char *s;
	int err;
	size_t n;

	if (!json_object_is_type(doc, json_type_object))
		return bad(why, len, "not a JSON object");
	s = get_str(doc, "schema");
	if (!s || strcmp(s, CANARY_SCHEMA))
		return bad(why, len, "schema is %s%s%s, not '%s'", s ? "'" : "", s ? s : "missing",
			   s ? "'" : "", CANARY_SCHEMA);
	s = get_str(doc, "feature");
	if (!s || strcmp(s, f->name))
		return bad(why, len, "its feature is %s%s%s, not '%s' as its name says",
			   s ? "'" : "", s ? s : "missing", s ? "'" : "", f->name);
	s = get_str(doc, "verdict");
	if (!s || (strcmp(s, "PASS") && strcmp(s, "REGRESS") && strcmp(s, "UNKNOWN")))
		return bad(why, len, "verdict is none of PASS, REGRESS, UNKNOWN");
	snprintf(c->verdict, sizeof(c->verdict), "%s", s);
	if (!json_object_object_get_ex(doc, "pairs", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0 || json_object_get_int64(v) > 1000000)
		return bad(why, len, "pairs is not a count");
	c->pairs = (unsigned int)json_object_get_int64(v);
	c->aa = json_object_object_get_ex(doc, "aa", &v) &&
		json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
	err = read_decision(doc, c, why, len);
	if (err)
		return err;
	if (!json_object_object_get_ex(doc, "workloads", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return bad(why, len, "workloads is not an array");
	n = json_object_array_length(arr);
	if (n > CANARY_MAX_WORKLOADS)
		return bad(why, len, "%zu workloads, a canary runs at most %d", n,
			   CANARY_MAX_WORKLOADS);
	for (size_t i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(v, json_type_object))
			return bad(why, len, "workloads[%zu] is not an object", i);
		err = read_workload(v, i, &c->w[i], why, len);
		if (err)
			return err;
		for (size_t k = 0; k < i; k++)	/* the canary refuses that */
			if (!strcmp(c->w[k].scenario, c->w[i].scenario))
				return bad(why, len, "workloads[%zu]: scenario '%s' twice", i,
					   c->w[i].scenario);
		c->nr_workloads++;
	}
	return 0;
}

int status_canary_read(const char *path, const struct feature *f,
		       struct status_canary *c, char *why, size_t len)
{
	enum json_tokener_error jerr;
	struct json_object *doc;
	char *text;
	int err;

	snprintf(why, len, "%s", "");
	c->nr_workloads = 0;
	text = malloc(STATUS_CANARY_MAX_BYTES + 1);
	if (!text)
		return -ENOMEM;
	err = read_small_file(path, text, STATUS_CANARY_MAX_BYTES + 1);
	if (err == -EBADMSG)
		err = bad(why, len, "larger than %d bytes, or holds a NUL byte",
			  STATUS_CANARY_MAX_BYTES);
	else if (!err && !text[strspn(text, " \t\r\n")])
		err = bad(why, len, "empty");
	if (err) {
		free(text);
		return err;
	}
	doc = json_tokener_parse_verbose(text, &jerr);
	free(text);
	if (!doc)
		return bad(why, len, "not JSON: %s", json_tokener_error_desc(jerr));
	err = read_doc(doc, f, c, why, len);
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
