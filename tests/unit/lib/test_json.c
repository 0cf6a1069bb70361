// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/lib/json.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "tap.h"

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static int capture_begin(struct capture *c, struct json_writer *w,
			 bool pretty)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f)
		return -errno;
	json_init(w, c->f, pretty);
	return 0;
}

/* closes the stream; the caller frees c->buf */
static const char *capture_end(struct capture *c)
{
	fclose(c->f);
	return c->buf ? c->buf : "";
}

/* one document exercising every value type and both empty containers */
static void write_sample(struct json_writer *w)
{
	json_obj_begin(w, NULL);
	json_str(w, "name", "rafleet");
	json_u64(w, "u", UINT64_MAX);
	json_i64(w, "i", INT64_MIN);
	json_boolean(w, "t", true);
	json_boolean(w, "f", false);
	json_null(w, "n");
	json_str(w, "s", NULL);
	json_arr_begin(w, "a");
	json_u64(w, NULL, 1);
	json_obj_begin(w, NULL);
	json_obj_end(w);
	json_arr_begin(w, NULL);
	json_arr_end(w);
	json_double(w, NULL, 0.5);
	json_arr_end(w);
	json_obj_begin(w, "empty");
	json_obj_end(w);
	json_obj_end(w);
	json_end(w);
}

static void test_compact(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, false)) {
		ok(0, "compact: open_memstream");
		return;
	}
	write_sample(&w);
	is_i64(json_error(&w), 0, "compact: no error");
	is_str(capture_end(&c),
	       "{\"name\":\"rafleet\",\"u\":18446744073709551615,"
	       "\"i\":-9223372036854775808,\"t\":true,\"f\":false,"
	       "\"n\":null,\"s\":null,\"a\":[1,{},[],0.5],\"empty\":{}}\n",
	       "compact: every type, nested and empty containers");
	free(c.buf);
}

static void test_pretty(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, true)) {
		ok(0, "pretty: open_memstream");
		return;
	}
	write_sample(&w);
	is_i64(json_error(&w), 0, "pretty: no error");
	is_str(capture_end(&c),
	       "{\n"
	       "  \"name\": \"rafleet\",\n"
	       "  \"u\": 18446744073709551615,\n"
	       "  \"i\": -9223372036854775808,\n"
	       "  \"t\": true,\n"
	       "  \"f\": false,\n"
	       "  \"n\": null,\n"
	       "  \"s\": null,\n"
	       "  \"a\": [\n"
	       "    1,\n"
	       "    {},\n"
	       "    [],\n"
	       "    0.5\n"
	       "  ],\n"
	       "  \"empty\": {}\n"
	       "}\n",
	       "pretty: two-space indentation, empty containers inline");
	free(c.buf);
}

static void test_escape(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, false)) {
		ok(0, "escape: open_memstream");
		return;
	}
	json_obj_begin(&w, NULL);
	json_str(&w, "k\"\n", "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f \xc3\xa9 end");
	json_str(&w, "empty", "");
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), 0, "escape: no error");
	is_str(capture_end(&c),
	       "{\"k\\\"\\n\":"
	       "\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001f\x7f \xc3\xa9 end\","
	       "\"empty\":\"\"}\n",
	       "escape: quote, backslash, short and \\u00XX controls; "
	       "DEL and UTF-8 pass through; keys escaped too");
	free(c.buf);
}

static void test_double_exact(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, false)) {
		ok(0, "double: open_memstream");
		return;
	}
	json_arr_begin(&w, NULL);
	json_double(&w, NULL, 0.1);
	json_double(&w, NULL, 0.1 + 0.2);
	json_double(&w, NULL, 1.0 / 3.0);
	json_double(&w, NULL, 1e300);
	json_double(&w, NULL, -0.0);
	json_double(&w, NULL, 1.0);
	json_double(&w, NULL, 123456789012345678.0);
	json_double(&w, NULL, 2.5e-8);
	json_double(&w, NULL, NAN);
	json_double(&w, NULL, INFINITY);
	json_double(&w, NULL, -INFINITY);
	json_arr_end(&w);
	json_end(&w);
	is_i64(json_error(&w), 0, "double: no error");
	is_str(capture_end(&c),
	       "[0.1,0.30000000000000004,0.3333333333333333,1e+300,-0,1,"
	       "1.2345678901234568e+17,2.5e-08,null,null,null]\n",
	       "double: shortest round-trip, NaN/Inf -> null");
	free(c.buf);
}

/* xorshift64, so the values are the same on every run */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_double_roundtrip(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned int tried = 0, bad = 0;
	int i;

	for (i = 0; i < 2000; i++) {
		struct json_writer w;
		struct capture c;
		uint64_t bits = next_rand(&seed);
		double v, back;
		const char *out;

		memcpy(&v, &bits, sizeof(v));
		if (!isfinite(v))
			continue;
		if (capture_begin(&c, &w, false)) {
			bad++;
			break;
		}
		json_double(&w, NULL, v);
		out = capture_end(&c);
		back = strtod(out, NULL);
		tried++;
		if (memcmp(&back, &v, sizeof(v)) || strlen(out) > 24) {
			if (!bad)
				diag("%.17g written as '%s'", v, out);
			bad++;
		}
		free(c.buf);
	}
	ok(tried > 1000 && bad == 0,
	   "double: %u random doubles read back bit-exact (%u bad)",
	   tried, bad);
}

static void test_null_reason(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, false)) {
		ok(0, "null_reason: open_memstream");
		return;
	}
	json_obj_begin(&w, NULL);
	json_u64(&w, "before", 1);
	json_null_reason(&w, "rss_kb", "no permission");
	json_null_reason(&w, "q\"", NULL);
	json_arr_begin(&w, "arr");
	json_null_reason(&w, NULL, "dropped: no key in an array");
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), 0, "null_reason: no error");
	is_str(capture_end(&c),
	       "{\"before\":1,\"rss_kb\":null,"
	       "\"rss_kb_null_reason\":\"no permission\","
	       "\"q\\\"\":null,\"q\\\"_null_reason\":null,\"arr\":[null]}\n",
	       "null_reason: key plus key_null_reason; in arrays only null");
	free(c.buf);
}

static void test_misuse(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, false)) {
		ok(0, "misuse: open_memstream");
		return;
	}
	json_obj_begin(&w, NULL);
	json_u64(&w, NULL, 1);
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), -EINVAL, "misuse: missing key in object");

	json_init(&w, c.f, false);
	is_i64(json_error(&w), 0, "misuse: json_init clears the error");
	json_arr_begin(&w, NULL);
	json_u64(&w, "k", 2);
	json_arr_end(&w);
	json_end(&w);
	is_i64(json_error(&w), -EINVAL, "misuse: key inside array");

	json_init(&w, c.f, false);
	json_arr_begin(&w, NULL);
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), -EINVAL, "misuse: obj_end closes an array");

	json_init(&w, c.f, false);
	json_obj_end(&w);
	json_arr_end(&w);
	json_u64(&w, NULL, 3);
	json_end(&w);
	is_i64(json_error(&w), -EINVAL, "misuse: end without begin");

	json_init(&w, c.f, false);
	json_obj_begin(&w, NULL);
	json_arr_begin(&w, "a");
	json_u64(&w, NULL, 4);
	json_end(&w);
	is_i64(json_error(&w), -EINVAL,
	       "misuse: json_end with open containers");

	is_str(capture_end(&c),
	       "{\"\":1}\n[2]\n[]\n3\n{\"a\":[4]}\n",
	       "misuse: output stays valid JSON");
	free(c.buf);
}

static void test_depth(void)
{
	char want[256];
	struct json_writer w;
	struct capture c;
	size_t n = 0;
	int i, arrays = JSON_MAX_DEPTH - 2;	/* room inside the object */

	if (capture_begin(&c, &w, false)) {
		ok(0, "depth: open_memstream");
		return;
	}
	json_obj_begin(&w, NULL);
	json_arr_begin(&w, "deep");
	for (i = 1; i < 40; i++)
		json_arr_begin(&w, NULL);
	json_u64(&w, NULL, 7);
	json_null_reason(&w, NULL, "x");
	json_obj_begin(&w, NULL);
	json_u64(&w, "k", 8);
	json_obj_end(&w);
	for (i = 0; i < 40; i++)
		json_arr_end(&w);
	json_u64(&w, "after", 1);
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), -E2BIG, "depth: too deep is reported");

	n += (size_t)snprintf(want + n, sizeof(want) - n, "{\"deep\":");
	for (i = 0; i < arrays; i++)
		want[n++] = '[';
	for (i = 0; i < arrays; i++)
		want[n++] = ']';
	snprintf(want + n, sizeof(want) - n, ",\"after\":1}\n");
	is_str(capture_end(&c), want,
	       "depth: contents past the limit dropped, siblings kept");
	free(c.buf);
}

static void test_documents(void)
{
	struct json_writer w;
	struct capture c;

	if (capture_begin(&c, &w, true)) {
		ok(0, "documents: open_memstream");
		return;
	}
	json_u64(&w, NULL, 1);
	json_end(&w);
	json_str(&w, NULL, "two");
	json_boolean(&w, NULL, false);
	json_end(&w);
	json_obj_begin(&w, NULL);
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), 0, "documents: no error");
	is_str(capture_end(&c), "1\n\"two\"\nfalse\n{}\n",
	       "documents: one top-level value per line");
	free(c.buf);
}

static void test_stream_error(void)
{
	struct json_writer w;
	FILE *f = fopen("/dev/null", "r");

	if (!f) {
		ok(0, "stream error: open /dev/null");
		return;
	}
	json_init(&w, f, false);
	json_obj_begin(&w, NULL);
	json_str(&w, "k", "v");
	json_obj_end(&w);
	json_end(&w);
	is_i64(json_error(&w), -EIO, "stream error: write failure is -EIO");
	fclose(f);
}

int main(void)
{
	test_compact();
	test_pretty();
	test_escape();
	test_double_exact();
	test_double_roundtrip();
	test_null_reason();
	test_misuse();
	test_depth();
	test_documents();
	test_stream_error();
	return tap_done();
}
