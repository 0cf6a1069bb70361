/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/json.h - streaming JSON writer to a FILE *.
 *
 * The writer inserts commas, keys and (in pretty mode, two-space)
 * indentation itself. Inside objects every value takes a key; inside
 * arrays and at top level the key must be NULL.
 *
 * Output functions return nothing. Misuse (a missing key inside an object,
 * a key inside an array, unbalanced ends, nesting deeper than
 * JSON_MAX_DEPTH - 1 containers) is recorded and the writer still emits
 * valid JSON; stream errors stick in the FILE. json_error() reports the
 * first problem.
 *
 * Compact mode emits no whitespace at all:   {"a":1,"b":[true,null]}
 * Pretty mode puts every member on its own line, "key": value, and writes
 * empty containers as {} and [].
 */
#ifndef RAFLEET_JSON_H
#define RAFLEET_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	int depth;			/* containers open now */
	bool need_comma[JSON_MAX_DEPTH];/* [depth]: a value was written */
	bool is_obj[JSON_MAX_DEPTH];	/* [depth]: container is an object */
	bool pretty;
	int skip;			/* containers dropped past max depth */
	int err;			/* first misuse, negative errno */
};

void json_init(struct json_writer *w, FILE *f, bool pretty);
/* key is NULL inside arrays and at top level */
void json_obj_begin(struct json_writer *w, const char *key);
void json_obj_end(struct json_writer *w);
void json_arr_begin(struct json_writer *w, const char *key);
void json_arr_end(struct json_writer *w);
/* val NULL -> null */
void json_str(struct json_writer *w, const char *key, const char *val);
void json_u64(struct json_writer *w, const char *key, uint64_t val);
void json_i64(struct json_writer *w, const char *key, int64_t val);
/* NaN and infinities -> null; otherwise the shortest round-trip form */
void json_double(struct json_writer *w, const char *key, double val);
void json_boolean(struct json_writer *w, const char *key, bool val);
void json_null(struct json_writer *w, const char *key);
/*
 * A measurement that could not be taken: "key": null followed by
 * "key_null_reason": "reason". Outside an object there is no key to attach
 * the reason to, so only null is written.
 */
void json_null_reason(struct json_writer *w, const char *key,
		      const char *reason);
/*
 * Finish the document: close whatever is still open (recorded as -EINVAL),
 * write a newline and flush. The writer can then start another document.
 */
void json_end(struct json_writer *w);
/*
 * 0 if all went well, else the first error: -EINVAL for misuse, -E2BIG
 * for nesting too deep, -EIO if the stream reported an error.
 */
int json_error(const struct json_writer *w);

#endif /* RAFLEET_JSON_H */
