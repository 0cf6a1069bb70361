/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/jsonread.h - reading JSON (json-c) into C structs by tables; the
 * writer is lib/json.h.
 *
 * A reader is a table of the members it fills, as systemd's
 * sd_json_dispatch() has it, not a page of getters:
 *
 *	static const struct json_field entry_fields[] = {
 *		{ .key = "device", .type = JF_STRING, JF_AT(struct tune_saved, name),
 *		  .flags = JF_REQUIRED | JF_NONEMPTY },
 *		{ .key = "time", .type = JF_INT, JF_AT(struct tune_saved, time),
 *		  .flags = JF_REQUIRED | JF_RANGE, .min = 0, .max = INT64_MAX },
 *		{ 0 }
 *	};
 *	err = json_read_object(&rd, o, entry_fields, e);
 *
 * The fields are read in table order; the first that is wrong stops the
 * read with -EBADMSG and a complaint in the reader's buffer that names it
 * by its path from the document's root: "decisions[2].value is not 0 or 1".
 * Members the document lacks are left as they were: set the defaults
 * before reading.  JSON null counts as missing unless the field is
 * JF_NULLABLE.
 */
#ifndef RAFLEET_JSONREAD_H
#define RAFLEET_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* The limit of a JSON file whose reader has none of its own. */
#define JSON_FILE_MAX_BYTES (16 << 20)
#define JSON_READ_PATH_MAX 256

struct json_read {
	char *err;		/* the complaint */
	size_t errlen;
	char path[JSON_READ_PATH_MAX];	/* of the value being read */
	size_t plen, root_len;
};

enum json_ftype {
	JF_STRING,	/* char[size], NUL-terminated */
	JF_STRREF,	/* const char *, into the document (valid while it lives) */
	JF_STRDUP,	/* char *, a malloc()ed copy; the old one is freed */
	JF_BOOL,	/* bool */
	JF_INT,		/* a signed integer member of size 1, 2, 4 or 8 */
	JF_UINT,	/* an unsigned one; a negative value is out of range */
	JF_DOUBLE,	/* double, finite; an integer is taken too */
	JF_OBJECT,	/* .sub read into the member, or .cb, or the json_object * stored */
	JF_ARRAY,	/* .cb, or the json_object * stored */
	JF_ANY,		/* any type, for .cb */
};

enum {
	JF_REQUIRED = 1 << 0,	/* missing (or null, unless NULLABLE): "is missing" */
	JF_NULLABLE = 1 << 1,	/* null is a value: taken, nothing stored */
	JF_LOOSE = 1 << 2,	/* a value of another type counts as missing */
	JF_NONEMPTY = 1 << 3,	/* a string: "" is refused */
	JF_TRUNCATE = 1 << 4,	/* a string: cut to the buffer, not refused */
	JF_RANGE = 1 << 5,	/* an integer: within .min .. .max */
	JF_FRACTION = 1 << 6,	/* an integer: a number with a fraction is taken, truncated */
	JF_NONFINITE = 1 << 7,	/* a double: NaN and the infinities (json-c reads them) taken */
	JF_COERCE = 1 << 8,	/* a number: any type, converted as json-c does ("12" is 12) */
	JF_SEEN = 1 << 9,	/* when stored, the bool at .seen is set true */
};

struct json_read;
/* Read @v (of the field's type) into @member: 0 or -errno (json_read_bad()). */
typedef int (*json_read_fn)(struct json_read *rd, struct json_object *v, void *member);

struct json_field {
	const char *key;		/* NULL ends a table */
	enum json_ftype type;
	size_t offset, size;		/* of the member: JF_AT() */
	unsigned int flags;
	int64_t min, max;		/* JF_RANGE */
	size_t seen;			/* JF_SEEN: offset of a bool in the struct */
	json_read_fn cb;		/* called, after the type check, instead of storing */
	const struct json_field *sub;	/* JF_OBJECT: the table of its members */
	const char *bad;		/* every complaint about it: "is not a count" */
};

#define JF_AT(type, member) \
	.offset = offsetof(type, member), .size = sizeof(((type *)0)->member)

/*
 * Start reading: complaints go to @err (@errlen bytes, cleared here), and
 * paths start with @root ("state" makes "state.phase"; NULL: none).
 */
void json_read_init(struct json_read *rd, char *err, size_t errlen, const char *root);

/*
 * @text as JSON into *@doc (json_object_put() it): -EBADMSG, "empty" or
 * "not JSON: <json-c's reason>", when it is none.
 */
int json_read_parse(struct json_read *rd, const char *text, struct json_object **doc);

/*
 * The file @path (at most @max bytes) as JSON: as json_read_parse(), and
 * -EBADMSG with "larger than MAX bytes" or "holds a NUL byte"; -errno
 * (the complaint strerror()) if it cannot be read, -ENOENT if missing.
 */
int json_read_file(struct json_read *rd, const char *path, size_t max,
		   struct json_object **doc);

/*
 * The members of object @o named in @table into the struct at @base.
 * 0, -EBADMSG (the complaint names the first wrong field, or says "not a
 * JSON object" of the document), -ENOMEM, or what a callback returned;
 * -EINVAL for a table entry whose size does not fit its type.
 */
int json_read_object(struct json_read *rd, struct json_object *o,
		     const struct json_field table[], void *base);

/*
 * Each item of array @arr given to @each with its index, the path naming
 * it ("history[3]").  The first error stops the walk and is returned.
 */
int json_read_array(struct json_read *rd, struct json_object *arr,
		    int (*each)(struct json_read *rd, struct json_object *item,
				size_t i, void *ctx),
		    void *ctx);

/* One value (an array's item) read as field @f would read it, into @member. */
int json_read_value(struct json_read *rd, struct json_object *v,
		    const struct json_field *f, void *member);

/* The path of the value being read ("workloads[1]"), "" at the root. */
const char *json_read_path(const struct json_read *rd);

/* Complain "<path> <message>" (the message alone at the root): -EBADMSG. */
__attribute__((format(printf, 2, 3)))
int json_read_bad(struct json_read *rd, const char *fmt, ...);

/* Complain in the message's own words: -EBADMSG. */
__attribute__((format(printf, 2, 3)))
int json_read_fail(struct json_read *rd, const char *fmt, ...);

#endif /* RAFLEET_JSONREAD_H */
