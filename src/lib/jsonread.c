// SPDX-License-Identifier: GPL-2.0
/* lib/jsonread.c - JSON into C structs by tables; see lib/jsonread.h. */
#include "lib/jsonread.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fileio.h"

#define WRONG_TYPE 1	/* internal: the value is not of the field's type */

void json_read_init(struct json_read *rd, char *err, size_t errlen, const char *root)
{
	rd->err = err;
	rd->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	snprintf(rd->path, sizeof(rd->path), "%s", root ? root : "");
	rd->plen = rd->root_len = strlen(rd->path);
}

const char *json_read_path(const struct json_read *rd)
{
	return rd->path;
}

__attribute__((format(printf, 3, 0)))
static void vsay(struct json_read *rd, const char *prefix, const char *fmt, va_list ap)
{
	int n = 0;

	if (!rd->err || !rd->errlen)
		return;
	if (prefix[0])
		n = snprintf(rd->err, rd->errlen, "%s ", prefix);
	if (n >= 0 && (size_t)n < rd->errlen)
		vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
}

int json_read_bad(struct json_read *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(rd, rd->path, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

int json_read_fail(struct json_read *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(rd, "", fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* Append to the path; the length before, for pop(). */
__attribute__((format(printf, 2, 3)))
static size_t push(struct json_read *rd, const char *fmt, ...)
{
	size_t at = rd->plen;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rd->path + at, sizeof(rd->path) - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		rd->plen = at + (size_t)n < sizeof(rd->path) ? at + (size_t)n
							       : sizeof(rd->path) - 1;
	return at;
}

static void pop(struct json_read *rd, size_t at)
{
	rd->plen = at;
	rd->path[at] = '\0';
}

int json_read_parse(struct json_read *rd, const char *text, struct json_object **doc)
{
	enum json_tokener_error jerr;

	*doc = NULL;
	if (!text || !text[strspn(text, " \t\r\n")])
		return json_read_fail(rd, "empty");
	*doc = json_tokener_parse_verbose(text, &jerr);
	if (!*doc)
		return json_read_fail(rd, "not JSON: %s", json_tokener_error_desc(jerr));
	return 0;
}

int json_read_file(struct json_read *rd, const char *path, size_t max,
		   struct json_object **doc)
{
	char *text;
	int err;

	*doc = NULL;
	err = read_whole_file(path, max, &text, NULL);
	if (err == -EFBIG)
		return json_read_fail(rd, "larger than %zu bytes", max);
	if (err == -EBADMSG)
		return json_read_fail(rd, "holds a NUL byte");
	if (err) {
		json_read_fail(rd, "%s", strerror(-err));
		return err;
	}
	err = json_read_parse(rd, text, doc);
	free(text);
	return err;
}

static const char *noun(enum json_ftype type)
{
	switch (type) {
	case JF_STRING:
	case JF_STRREF:
	case JF_STRDUP:
		return "a string";
	case JF_BOOL:
		return "true or false";
	case JF_INT:
	case JF_UINT:
		return "an integer";
	case JF_DOUBLE:
		return "a number";
	case JF_OBJECT:
		return "an object";
	case JF_ARRAY:
		return "an array";
	default:
		return "a value";
	}
}

/* A complaint about field @f: its own words if it has them. */
__attribute__((format(printf, 3, 4)))
static int complain(struct json_read *rd, const struct json_field *f, const char *fmt, ...)
{
	va_list ap;

	if (f->bad)
		return json_read_bad(rd, "%s", f->bad);
	va_start(ap, fmt);
	vsay(rd, rd->path, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static bool size_fits(const struct json_field *f)
{
	if (f->cb || (f->type == JF_OBJECT && f->sub))
		return true;
	switch (f->type) {
	case JF_STRING:
		return f->size > 0;
	case JF_BOOL:
		return f->size == sizeof(bool);
	case JF_INT:
	case JF_UINT:
		return f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8;
	case JF_DOUBLE:
		return f->size == sizeof(double);
	default:	/* pointers */
		return f->size == sizeof(void *);
	}
}

/* An integer value as int64 or (positive past INT64_MAX) uint64. */
static int get_integer(struct json_read *rd, struct json_object *v,
		       const struct json_field *f, int64_t *s, uint64_t *u, bool *big)
{
	double d;

	*big = false;
	if (json_object_is_type(v, json_type_int)) {
		*s = json_object_get_int64(v);
		if (*s == INT64_MAX) {
			*u = json_object_get_uint64(v);
			*big = *u > (uint64_t)INT64_MAX;
		}
		return 0;
	}
	d = json_object_get_double(v);	/* JF_FRACTION, JF_COERCE */
	if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
		return complain(rd, f, "is out of range");
	*s = (int64_t)d;
	return 0;
}

static int store_integer(struct json_read *rd, struct json_object *v,
			 const struct json_field *f, void *member)
{
	unsigned int bits = (unsigned int)f->size * 8;
	int64_t s = 0, lo, hi;
	uint64_t u = 0;
	bool big;
	int err = get_integer(rd, v, f, &s, &u, &big);

	if (err)
		return err;
	if (f->type == JF_INT) {
		hi = bits == 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
		lo = -hi - 1;
		if (big || s < lo || s > hi ||
		    ((f->flags & JF_RANGE) && (s < f->min || s > f->max)))
			return complain(rd, f, "is out of range");
		switch (f->size) {
		case 1: *(int8_t *)member = (int8_t)s; break;
		case 2: *(int16_t *)member = (int16_t)s; break;
		case 4: *(int32_t *)member = (int32_t)s; break;
		default: *(int64_t *)member = s; break;
		}
		return 0;
	}
	if (!big) {
		if (s < 0)
			return complain(rd, f, "is out of range");
		u = (uint64_t)s;
	}
	if ((bits < 64 && u > (UINT64_C(1) << bits) - 1) ||
	    ((f->flags & JF_RANGE) && (big || (int64_t)u < f->min || (int64_t)u > f->max)))
		return complain(rd, f, "is out of range");
	switch (f->size) {
	case 1: *(uint8_t *)member = (uint8_t)u; break;
	case 2: *(uint16_t *)member = (uint16_t)u; break;
	case 4: *(uint32_t *)member = (uint32_t)u; break;
	default: *(uint64_t *)member = u; break;
	}
	return 0;
}

static int store_string(struct json_read *rd, struct json_object *v,
			const struct json_field *f, void *member)
{
	const char *s = json_object_get_string(v);
	size_t n = strlen(s);
	char *copy;

	if ((f->flags & JF_NONEMPTY) && !n)
		return complain(rd, f, "is empty");
	switch (f->type) {
	case JF_STRING:
		if (n >= f->size && !(f->flags & JF_TRUNCATE))
			return complain(rd, f, "is longer than %zu bytes", f->size - 1);
		snprintf(member, f->size, "%s", s);
		return 0;
	case JF_STRREF:
		*(const char **)member = s;
		return 0;
	default:
		copy = strdup(s);
		if (!copy)
			return -ENOMEM;
		free(*(char **)member);
		*(char **)member = copy;
		return 0;
	}
}

/* @v (not null) into @member: 0, WRONG_TYPE, or -errno. */
static int convert(struct json_read *rd, struct json_object *v,
		   const struct json_field *f, void *member)
{
	json_type t = json_object_get_type(v);
	bool coerce = f->flags & JF_COERCE, ok;
	double d;

	if (!size_fits(f)) {
		json_read_bad(rd, "has a table entry of size %zu, which is no %s",
			      f->size, noun(f->type));
		return -EINVAL;
	}
	switch (f->type) {
	case JF_STRING:
	case JF_STRREF:
	case JF_STRDUP:
		ok = t == json_type_string;
		break;
	case JF_BOOL:
		ok = t == json_type_boolean;
		break;
	case JF_INT:
	case JF_UINT:
		ok = t == json_type_int || coerce ||
		     ((f->flags & JF_FRACTION) && t == json_type_double);
		break;
	case JF_DOUBLE:
		ok = t == json_type_double || t == json_type_int || coerce;
		break;
	case JF_OBJECT:
		ok = t == json_type_object;
		break;
	case JF_ARRAY:
		ok = t == json_type_array;
		break;
	default:
		ok = true;
	}
	if (!ok)
		return WRONG_TYPE;
	if (f->cb)
		return f->cb(rd, v, member);
	switch (f->type) {
	case JF_STRING:
	case JF_STRREF:
	case JF_STRDUP:
		return store_string(rd, v, f, member);
	case JF_BOOL:
		*(bool *)member = json_object_get_boolean(v);
		return 0;
	case JF_INT:
	case JF_UINT:
		return store_integer(rd, v, f, member);
	case JF_DOUBLE:
		d = json_object_get_double(v);
		if (!isfinite(d) && !(f->flags & JF_NONFINITE))
			return complain(rd, f, "is not a finite number");
		*(double *)member = d;
		return 0;
	case JF_OBJECT:
		if (f->sub)
			return json_read_object(rd, v, f->sub, member);
		/* fall through */
	default:
		*(struct json_object **)member = v;
		return 0;
	}
}

static int missing(struct json_read *rd, const struct json_field *f)
{
	return f->flags & JF_REQUIRED ? complain(rd, f, "is missing") : 0;
}

static int read_field(struct json_read *rd, struct json_object *o,
		      const struct json_field *f, char *base)
{
	struct json_object *v = NULL;
	bool there = json_object_object_get_ex(o, f->key, &v);
	size_t at = push(rd, rd->plen ? ".%s" : "%s", f->key);
	int err;

	if (there && !v && (f->flags & JF_NULLABLE))
		err = 0;
	else if (!there || !v)
		err = missing(rd, f);
	else
		err = convert(rd, v, f, base + f->offset);
	if (!err && there && v && (f->flags & JF_SEEN))
		*(bool *)(base + f->seen) = true;
	if (err == WRONG_TYPE)
		err = f->flags & JF_LOOSE ? missing(rd, f)
					  : complain(rd, f, "is not %s", noun(f->type));
	pop(rd, at);
	return err;
}

int json_read_object(struct json_read *rd, struct json_object *o,
		     const struct json_field table[], void *base)
{
	if (!json_object_is_type(o, json_type_object))
		return rd->plen == rd->root_len ? json_read_fail(rd, "not a JSON object")
						: json_read_bad(rd, "is not an object");
	for (const struct json_field *f = table; f->key; f++) {
		int err = read_field(rd, o, f, base);

		if (err)
			return err;
	}
	return 0;
}

int json_read_value(struct json_read *rd, struct json_object *v,
		    const struct json_field *f, void *member)
{
	int err;

	if (!v)
		err = f->flags & (JF_NULLABLE | JF_LOOSE) ? 0 : WRONG_TYPE;
	else
		err = convert(rd, v, f, member);
	if (err == WRONG_TYPE)
		err = f->flags & JF_LOOSE ? 0 : complain(rd, f, "is not %s", noun(f->type));
	return err;
}

int json_read_array(struct json_read *rd, struct json_object *arr,
		    int (*each)(struct json_read *rd, struct json_object *item,
				size_t i, void *ctx),
		    void *ctx)
{
	size_t n;

	if (!json_object_is_type(arr, json_type_array))
		return json_read_bad(rd, "is not an array");
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		size_t at = push(rd, "[%zu]", i);
		int err = each(rd, json_object_array_get_idx(arr, i), i, ctx);

		pop(rd, at);
		if (err)
			return err;
	}
	return 0;
}
