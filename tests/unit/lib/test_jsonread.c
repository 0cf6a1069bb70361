// SPDX-License-Identifier: GPL-2.0
/*
 * jsonread: a table reads each type into its member; a missing required
 * key, a wrong type, a value out of range or too long is -EBADMSG with a
 * complaint naming the key by its path; null counts as missing unless
 * nullable; the leniencies (LOOSE, FRACTION, TRUNCATE, COERCE, NONFINITE)
 * take what they say and nothing else; bad JSON and bad files are named.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "lib/jsonread.h"
#include "tap.h"

struct inner {
	int64_t n;
	char tag[8];
};

struct rec {
	char name[8];
	const char *ref;
	char *dup;
	bool flag, seen;
	int32_t i32;
	uint8_t u8;
	uint64_t u64;
	unsigned int count;
	double x;
	struct inner in;
	struct json_object *raw;
	double sum;
};

static int add_item(struct json_read *rd, struct json_object *item, size_t i, void *ctx)
{
	static const struct json_field number = { .type = JF_DOUBLE, .size = sizeof(double) };
	double v, *sum = ctx;
	int err = json_read_value(rd, item, &number, &v);

	(void)i;
	if (!err)
		*sum += v;
	return err;
}

static int read_sum(struct json_read *rd, struct json_object *v, void *member)
{
	*(double *)member = 0;
	return json_read_array(rd, v, add_item, member);
}

static const struct json_field inner_fields[] = {
	{ .key = "n", .type = JF_INT, JF_AT(struct inner, n), .flags = JF_REQUIRED },
	{ .key = "tag", .type = JF_STRING, JF_AT(struct inner, tag) },
	{ 0 }
};

static const struct json_field rec_fields[] = {
	{ .key = "name", .type = JF_STRING, JF_AT(struct rec, name),
	  .flags = JF_REQUIRED | JF_NONEMPTY },
	{ .key = "ref", .type = JF_STRREF, JF_AT(struct rec, ref) },
	{ .key = "dup", .type = JF_STRDUP, JF_AT(struct rec, dup), .flags = JF_NULLABLE },
	{ .key = "flag", .type = JF_BOOL, JF_AT(struct rec, flag),
	  .flags = JF_SEEN, .seen = offsetof(struct rec, seen) },
	{ .key = "i32", .type = JF_INT, JF_AT(struct rec, i32) },
	{ .key = "u8", .type = JF_UINT, JF_AT(struct rec, u8) },
	{ .key = "u64", .type = JF_UINT, JF_AT(struct rec, u64) },
	{ .key = "count", .type = JF_UINT, JF_AT(struct rec, count),
	  .flags = JF_RANGE, .min = 1, .max = 10, .bad = "is not a count" },
	{ .key = "x", .type = JF_DOUBLE, JF_AT(struct rec, x) },
	{ .key = "in", .type = JF_OBJECT, JF_AT(struct rec, in), .sub = inner_fields },
	{ .key = "raw", .type = JF_ARRAY, JF_AT(struct rec, raw) },
	{ .key = "sum", .type = JF_ARRAY, JF_AT(struct rec, sum), .cb = read_sum },
	{ 0 }
};

/* @text read by rec_fields into @r: the error, the complaint in @why. */
static int read_rec(const char *text, struct rec *r, char *why, size_t len)
{
	struct json_object *doc;
	struct json_read rd;
	int err;

	memset(r, 0, sizeof(*r));
	json_read_init(&rd, why, len, NULL);
	err = json_read_parse(&rd, text, &doc);
	if (err)
		return err;
	err = json_read_object(&rd, doc, rec_fields, r);
	free(r->dup);
	r->dup = NULL;
	json_object_put(doc);
	return err;
}

static void refused(const char *text, const char *want, const char *name)
{
	struct rec r;
	char why[128];
	int err = read_rec(text, &r, why, sizeof(why));

	ok(err == -EBADMSG && !strcmp(why, want), "%s: -EBADMSG, '%s' (%d, '%s')",
	   name, want, err, why);
}

static void test_types(void)
{
	struct json_object *doc;
	struct json_read rd;
	struct rec r = { 0 };
	char why[128];
	int err;

	json_read_init(&rd, why, sizeof(why), NULL);
	err = json_read_parse(&rd, "{\"name\": \"vda\", \"ref\": \"r\", \"dup\": \"d\", "
			      "\"flag\": true, \"i32\": -2147483648, \"u8\": 255, "
			      "\"u64\": 18446744073709551615, \"count\": 10, \"x\": 2.5, "
			      "\"in\": {\"n\": -7, \"tag\": \"t\"}, \"raw\": [1, 2], "
			      "\"sum\": [1, 2.5, 3]}", &doc);
	is_i64(err, 0, "a document parses");
	is_i64(json_read_object(&rd, doc, rec_fields, &r), 0, "every type is read");
	is_str(r.name, "vda", "  a string into its buffer");
	is_str(r.ref, "r", "  a string referred to");
	is_str(r.dup, "d", "  a string copied");
	ok(r.flag && r.seen, "  a boolean, and its presence noted");
	is_i64(r.i32, INT32_MIN, "  int32 at its minimum");
	is_u64(r.u8, 255, "  uint8 at its maximum");
	is_u64(r.u64, UINT64_MAX, "  uint64 at its maximum");
	is_u64(r.count, 10, "  a count at the top of its range");
	ok(r.x == 2.5, "  a double");
	ok(r.in.n == -7 && !strcmp(r.in.tag, "t"), "  a nested object by its table");
	ok(r.raw && json_object_array_length(r.raw) == 2, "  an array kept as json-c's");
	ok(r.sum == 6.5, "  an array read by a callback, item by item");
	is_str(why, "", "  and no complaint");
	free(r.dup);
	json_object_put(doc);

	err = read_rec("{\"name\": \"a\", \"dup\": null, \"flag\": null, \"x\": 3}", &r, why,
		       sizeof(why));
	ok(!err && !r.dup && !r.flag && !r.seen && r.x == 3.0,
	   "null: nullable taken, otherwise missing; an integer is a double (%d, '%s')", err, why);
}

static void test_refused(void)
{
	refused("{}", "name is missing", "a required key missing");
	refused("{\"name\": null}", "name is missing", "  null for a required key");
	refused("{\"name\": \"\"}", "name is empty", "an empty string where NONEMPTY");
	refused("{\"name\": \"12345678\"}", "name is longer than 7 bytes", "a string too long");
	refused("{\"name\": 1}", "name is not a string", "a number for a string");
	refused("{\"name\": \"a\", \"flag\": 1}", "flag is not true or false", "1 for a boolean");
	refused("{\"name\": \"a\", \"i32\": 2147483648}", "i32 is out of range", "int32 over");
	refused("{\"name\": \"a\", \"i32\": 1.5}", "i32 is not an integer", "a fraction for an integer");
	refused("{\"name\": \"a\", \"i32\": \"1\"}", "i32 is not an integer", "a string for an integer");
	refused("{\"name\": \"a\", \"u8\": 256}", "u8 is out of range", "uint8 over");
	refused("{\"name\": \"a\", \"u8\": -1}", "u8 is out of range", "a negative unsigned");
	refused("{\"name\": \"a\", \"count\": 0}", "count is not a count", "under the range, its words");
	refused("{\"name\": \"a\", \"count\": 11}", "count is not a count", "over the range");
	refused("{\"name\": \"a\", \"count\": true}", "count is not a count", "  the wrong type too");
	refused("{\"name\": \"a\", \"x\": \"2\"}", "x is not a number", "a string for a double");
	refused("{\"name\": \"a\", \"x\": NaN}", "x is not a finite number", "NaN (json-c reads it)");
	refused("{\"name\": \"a\", \"in\": []}", "in is not an object", "an array for an object");
	refused("{\"name\": \"a\", \"in\": {}}", "in.n is missing", "a nested key named by its path");
	refused("{\"name\": \"a\", \"in\": {\"n\": 1, \"tag\": 2}}", "in.tag is not a string",
		"  and its type");
	refused("{\"name\": \"a\", \"raw\": {}}", "raw is not an array", "an object for an array");
	refused("{\"name\": \"a\", \"sum\": [1, \"2\"]}", "sum[1] is not a number",
		"an array item named by its index");
	refused("{\"name\": \"a\", \"sum\": [1, null]}", "sum[1] is not a number", "  a null item");
	refused("[1]", "not a JSON object", "an array for the document");
	refused("", "empty", "empty text");
	refused(" \n", "empty", "  only blanks");
	refused("{\"name\": ", "not JSON: unexpected end of data", "JSON cut short");
	refused("{name}", "not JSON: quoted object property name expected", "not JSON");
}

struct loose {
	char s[4];
	const char *ref;
	unsigned int pairs;
	int64_t big;
	double d;
	uint64_t u;
};

static const struct json_field loose_fields[] = {
	{ .key = "s", .type = JF_STRING, JF_AT(struct loose, s), .flags = JF_TRUNCATE },
	{ .key = "ref", .type = JF_STRREF, JF_AT(struct loose, ref), .flags = JF_LOOSE },
	{ .key = "pairs", .type = JF_UINT, JF_AT(struct loose, pairs), .flags = JF_FRACTION },
	{ .key = "big", .type = JF_INT, JF_AT(struct loose, big),
	  .flags = JF_RANGE, .min = -5, .max = 5 },
	{ .key = "d", .type = JF_DOUBLE, JF_AT(struct loose, d), .flags = JF_COERCE | JF_NONFINITE },
	{ .key = "u", .type = JF_UINT, JF_AT(struct loose, u), .flags = JF_COERCE },
	{ 0 }
};

static int read_loose(const char *text, struct loose *l, char *why, size_t len)
{
	struct json_object *doc;
	struct json_read rd;
	int err;

	memset(l, 0, sizeof(*l));
	json_read_init(&rd, why, len, "top");
	err = json_read_parse(&rd, text, &doc);
	if (!err)
		err = json_read_object(&rd, doc, loose_fields, l);
	json_object_put(doc);
	return err;
}

static void test_leniency(void)
{
	struct loose l;
	char why[128];
	int err;

	err = read_loose("{\"s\": \"abcdef\", \"ref\": 5, \"pairs\": 3.9, \"d\": \"1.5\", \"u\": \"7\"}",
			 &l, why, sizeof(why));
	ok(!err && !strcmp(l.s, "abc") && !l.ref && l.pairs == 3 && l.d == 1.5 && l.u == 7,
	   "TRUNCATE cuts, LOOSE ignores a number, FRACTION truncates 3.9, COERCE reads strings "
	   "(%d, '%s')", err, why);
	err = read_loose("{\"d\": Infinity}", &l, why, sizeof(why));
	ok(!err && isinf(l.d), "NONFINITE takes Infinity (%d, '%s')", err, why);
	err = read_loose("{\"pairs\": -1.5}", &l, why, sizeof(why));
	ok(err == -EBADMSG && !strcmp(why, "top.pairs is out of range"),
	   "FRACTION still checks the range, the root's name leads the path ('%s')", why);
	err = read_loose("{\"big\": -6}", &l, why, sizeof(why));
	ok(err == -EBADMSG && !strcmp(why, "top.big is out of range"), "a negative range ('%s')", why);
	err = read_loose("{\"big\": -5}", &l, why, sizeof(why));
	ok(!err && l.big == -5, "  its bottom is in it");
	{
		struct rec r;

		err = read_rec("{\"name\": \"a\", \"flag\": \"yes\"}", &r, why, sizeof(why));
		ok(err == -EBADMSG && !r.seen, "a value of the wrong type is not seen (%d)", err);
	}
	err = read_loose("[]", &l, why, sizeof(why));
	ok(err == -EBADMSG && !strcmp(why, "not a JSON object"),
	   "the document that is no object, with a root name too ('%s')", why);
}

struct wrong {
	double d;
};

static void test_table_error(void)
{
	static const struct json_field bad_table[] = {
		{ .key = "d", .type = JF_INT, .offset = 0, .size = 3 },
		{ 0 }
	};
	struct json_object *doc = json_tokener_parse("{\"d\": 1}");
	struct json_read rd;
	struct wrong w;
	char why[128];

	json_read_init(&rd, why, sizeof(why), NULL);
	is_i64(json_read_object(&rd, doc, bad_table, &w), -EINVAL,
	       "a table entry of 3 bytes for an integer: -EINVAL");
	ok(strstr(why, "d has a table entry of size 3") != NULL, "  and says so ('%s')", why);
	json_object_put(doc);
}

static void test_file(void)
{
	char dir[] = "/tmp/rafleet-jsonread-XXXXXX", path[256], why[128];
	struct json_object *doc;
	struct json_read rd;

	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return;
	json_read_init(&rd, why, sizeof(why), NULL);
	snprintf(path, sizeof(path), "%s/none.json", dir);
	is_i64(json_read_file(&rd, path, 100, &doc), -ENOENT, "a missing file: -ENOENT");
	fakefs_put(dir, "a.json", "{\"a\": 1}");
	snprintf(path, sizeof(path), "%s/a.json", dir);
	ok(!json_read_file(&rd, path, 100, &doc) && doc, "a file parses");
	json_object_put(doc);
	is_i64(json_read_file(&rd, path, 7, &doc), -EBADMSG, "8 bytes past a limit of 7: -EBADMSG");
	is_str(why, "larger than 7 bytes", "  says how large it may be");
	fakefs_put(dir, "a.json", "");
	is_i64(json_read_file(&rd, path, 100, &doc), -EBADMSG, "an empty file: -EBADMSG");
	is_str(why, "empty", "  says so");
	fakefs_rm_tree(dir);
}

int main(void)
{
	test_types();
	test_refused();
	test_leniency();
	test_table_error();
	test_file();
	return tap_done();
}
