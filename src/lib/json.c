// SPDX-License-Identifier: GPL-2.0
/*
 * lib/json.c - streaming JSON writer, see lib/json.h.
 */
#include "lib/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmtdouble.h"

void json_init(struct json_writer *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

int json_error(const struct json_writer *w)
{
	if (w->err)
		return w->err;
	if (ferror(w->f))
		return -EIO;
	return 0;
}

static void json_set_err(struct json_writer *w, int err)
{
	if (!w->err)
		w->err = err;
}

static void json_newline(struct json_writer *w)
{
	int i;

	if (!w->pretty)
		return;
	putc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Write s escaped per RFC 8259, without quotes. Bytes >= 0x80 pass through. */
static void json_put_escaped(FILE *f, const char *s)
{
	const char *run = s;
	char buf[8];

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		fwrite(run, 1, (size_t)(s - run), f);
		run = s + 1;
		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		default:
			snprintf(buf, sizeof(buf), "\\u%04x", c);
			esc = buf;
			break;
		}
		fputs(esc, f);
	}
	fwrite(run, 1, (size_t)(s - run), f);
}

/* "str<suffix>" with both parts escaped; suffix may be NULL */
static void json_put_string(struct json_writer *w, const char *s,
			    const char *suffix)
{
	putc('"', w->f);
	json_put_escaped(w->f, s);
	if (suffix)
		json_put_escaped(w->f, suffix);
	putc('"', w->f);
}

/*
 * Everything that goes before a value: the separator, the indentation and,
 * inside an object, the key. Returns false if the value must be dropped
 * because it sits inside a container that was too deep to write.
 */
static bool json_prefix(struct json_writer *w, const char *key,
			const char *suffix)
{
	if (w->skip)
		return false;

	if (w->depth == 0) {
		/* several documents without json_end(): one per line */
		if (w->need_comma[0])
			putc('\n', w->f);
		w->need_comma[0] = true;
		if (key)
			json_set_err(w, -EINVAL);
		return true;
	}

	if (w->need_comma[w->depth])
		putc(',', w->f);
	w->need_comma[w->depth] = true;
	json_newline(w);

	if (!w->is_obj[w->depth]) {
		if (key)
			json_set_err(w, -EINVAL);
		return true;
	}
	if (!key) {
		json_set_err(w, -EINVAL);
		key = "";
	}
	json_put_string(w, key, suffix);
	fputs(w->pretty ? ": " : ":", w->f);
	return true;
}

static void json_begin(struct json_writer *w, const char *key, bool obj)
{
	if (w->skip || w->depth + 1 >= JSON_MAX_DEPTH) {
		json_set_err(w, -E2BIG);
		w->skip++;
		return;
	}
	json_prefix(w, key, NULL);
	putc(obj ? '{' : '[', w->f);
	w->depth++;
	w->need_comma[w->depth] = false;
	w->is_obj[w->depth] = obj;
}

/* close the innermost open container, whatever its type */
static void json_close(struct json_writer *w)
{
	bool had_members = w->need_comma[w->depth];
	bool obj = w->is_obj[w->depth];

	w->depth--;
	if (had_members)
		json_newline(w);
	putc(obj ? '}' : ']', w->f);
}

static void json_finish(struct json_writer *w, bool obj)
{
	if (w->skip) {
		w->skip--;
		return;
	}
	if (w->depth == 0) {
		json_set_err(w, -EINVAL);
		return;
	}
	if (w->is_obj[w->depth] != obj)
		json_set_err(w, -EINVAL);
	json_close(w);
}

void json_obj_begin(struct json_writer *w, const char *key)
{
	json_begin(w, key, true);
}

void json_obj_end(struct json_writer *w)
{
	json_finish(w, true);
}

void json_arr_begin(struct json_writer *w, const char *key)
{
	json_begin(w, key, false);
}

void json_arr_end(struct json_writer *w)
{
	json_finish(w, false);
}

void json_str(struct json_writer *w, const char *key, const char *val)
{
	if (!json_prefix(w, key, NULL))
		return;
	if (val)
		json_put_string(w, val, NULL);
	else
		fputs("null", w->f);
}

void json_u64(struct json_writer *w, const char *key, uint64_t val)
{
	if (json_prefix(w, key, NULL))
		fprintf(w->f, "%" PRIu64, val);
}

void json_i64(struct json_writer *w, const char *key, int64_t val)
{
	if (json_prefix(w, key, NULL))
		fprintf(w->f, "%" PRId64, val);
}

void json_double(struct json_writer *w, const char *key, double val)
{
	char buf[FMT_DOUBLE_LEN];

	if (!isfinite(val)) {
		json_null(w, key);
		return;
	}
	if (!json_prefix(w, key, NULL))
		return;
	fmt_double(buf, sizeof(buf), val);
	fputs(buf, w->f);
}

void json_boolean(struct json_writer *w, const char *key, bool val)
{
	if (json_prefix(w, key, NULL))
		fputs(val ? "true" : "false", w->f);
}

void json_null(struct json_writer *w, const char *key)
{
	if (json_prefix(w, key, NULL))
		fputs("null", w->f);
}

void json_null_reason(struct json_writer *w, const char *key,
		      const char *reason)
{
	json_null(w, key);
	if (w->skip || w->depth == 0 || !w->is_obj[w->depth] || !key)
		return;
	json_prefix(w, key, "_null_reason");
	if (reason)
		json_put_string(w, reason, NULL);
	else
		fputs("null", w->f);
}

void json_end(struct json_writer *w)
{
	if (w->skip || w->depth)
		json_set_err(w, -EINVAL);
	w->skip = 0;
	while (w->depth)
		json_close(w);
	putc('\n', w->f);
	w->need_comma[0] = false;
	if (fflush(w->f))
		json_set_err(w, -EIO);
}
