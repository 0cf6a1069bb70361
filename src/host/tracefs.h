/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host/tracefs.h - tracepoint ids and field layouts from tracefs, for perf.
 *
 * Errors are negative errno values: -ENOENT when the tracepoint or field
 * does not exist, -EINVAL for bad arguments, -EBADMSG when a tracefs file
 * does not hold what it should, -ENAMETOOLONG for oversized paths, or
 * whatever opening/reading the file failed with.
 */
#ifndef RAFLEET_TRACEFS_H
#define RAFLEET_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tracefs_field {
	unsigned int offset;	/* bytes from the start of the raw sample */
	unsigned int size;	/* bytes */
	bool is_signed;
};

/*
 * The tracefs mount point: the first of $RAFLEET_TRACEFS (for tests),
 * /sys/kernel/tracing and /sys/kernel/debug/tracing that has an "events"
 * directory; NULL if none. Looked up on every call; the string lives in a
 * static buffer owned by this module (not thread-safe, valid until the
 * next call).
 */
const char *tracefs_root(void);

/* The numeric id of tracepoint system:name, from ROOT/events/system/name/id. */
int tracefs_event_id(const char *root, const char *system, const char *name,
		     uint64_t *id);

/*
 * Offset, size and signedness of @field of tracepoint system:name, parsed
 * from ROOT/events/system/name/format. The field name is the last
 * identifier of the declaration ("char comm[16]" is "comm"). A format file
 * with no field lines, or with a field line that does not parse, is
 * -EBADMSG.
 */
int tracefs_event_field(const char *root, const char *system, const char *name,
			const char *field, struct tracefs_field *out);

/*
 * Read an integer field of size 1, 2, 4 or 8 (host byte order) from a raw
 * sample of @raw_size bytes. Signed fields are sign-extended, so
 * (int64_t)*val is their value. -EINVAL if the field does not lie within
 * the sample or has another size.
 */
int tracefs_field_u64(const void *raw, size_t raw_size,
		      const struct tracefs_field *f, uint64_t *val);

#endif /* RAFLEET_TRACEFS_H */
