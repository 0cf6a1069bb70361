// SPDX-License-Identifier: GPL-2.0
/* The alpha ledger of the canary's reruns, see canary/ledger.h. */
#include "canary/ledger.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/atomicfile.h"
#include "lib/json.h"
#include "lib/jsonread.h"
#include "lib/statedir.h"

struct ledger_doc {
	const char *schema;
	struct json_object *runs;
};

static const struct json_field doc_fields[] = {
	{ .key = "schema", .type = JF_STRREF, JF_AT(struct ledger_doc, schema),
	  .flags = JF_REQUIRED },
	{ .key = "runs", .type = JF_ARRAY, JF_AT(struct ledger_doc, runs),
	  .flags = JF_REQUIRED },
	{ 0 }
};

static const struct json_field entry_fields[] = {
	{ .key = "feature", .type = JF_STRING, JF_AT(struct ledger_entry, feature),
	  .flags = JF_REQUIRED | JF_NONEMPTY },
	{ .key = "kernel", .type = JF_STRING, JF_AT(struct ledger_entry, kernel),
	  .flags = JF_REQUIRED | JF_NONEMPTY },
	{ .key = "runs", .type = JF_UINT, JF_AT(struct ledger_entry, runs),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 1, .max = 64 },
	{ 0 }
};

static int parse_entry(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct ledger *l = ctx;
	int err;

	(void)i;
	if (l->n >= LEDGER_MAX)
		return json_read_bad(rd, "has more than %d entries", LEDGER_MAX);
	err = json_read_object(rd, o, entry_fields, &l->e[l->n]);
	if (!err)
		l->n++;
	return err;
}

int ledger_load(struct ledger *l, char *why, size_t len)
{
	char path[PATH_MAX], jwhy[256];
	struct ledger_doc d = { 0 };
	struct json_object *root;
	struct json_read rd;
	int err;

	memset(l, 0, sizeof(*l));
	err = statedir_path(LEDGER_FILE, path, sizeof(path));
	if (err)
		return err;
	json_read_init(&rd, jwhy, sizeof(jwhy), NULL);
	err = json_read_file(&rd, path, JSON_FILE_MAX_BYTES, &root);
	if (err == -ENOENT)
		return 0;
	if (!err) {
		err = json_read_object(&rd, root, doc_fields, &d);
		if (!err && strcmp(d.schema, LEDGER_SCHEMA))
			err = -EBADMSG;
		if (!err)
			err = json_read_array(&rd, d.runs, parse_entry, l);
		json_object_put(root);
	}
	if (err) {
		snprintf(why, len, "%s is not a %s file (%s); move it away to start afresh",
			 path, LEDGER_SCHEMA, jwhy[0] ? jwhy : strerror(-err));
		memset(l, 0, sizeof(*l));
		return -EBADMSG;
	}
	return 0;
}

unsigned int ledger_runs(const struct ledger *l, const char *feature, const char *kernel)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].feature, feature) && !strcmp(l->e[i].kernel, kernel))
			return l->e[i].runs;
	return 0;
}

double ledger_alpha(double total, unsigned int runs)
{
	return ldexp(total, -(int)(runs > 60 ? 61 : runs + 1));
}

static int write_doc(FILE *f, const void *ctx)
{
	const struct ledger *l = ctx;
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", LEDGER_SCHEMA);
	json_arr_begin(&w, "runs");
	for (int i = 0; i < l->n; i++) {
		json_obj_begin(&w, NULL);
		json_str(&w, "feature", l->e[i].feature);
		json_str(&w, "kernel", l->e[i].kernel);
		json_u64(&w, "runs", l->e[i].runs);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w);
}

int ledger_charge(struct ledger *l, const char *feature, const char *kernel)
{
	char path[PATH_MAX];
	int i, err;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].feature, feature) && !strcmp(l->e[i].kernel, kernel))
			break;
	if (i == l->n) {
		if (l->n >= LEDGER_MAX) {	/* keep this kernel's entries only */
			int k = 0;

			for (int j = 0; j < l->n; j++)
				if (!strcmp(l->e[j].kernel, kernel))
					l->e[k++] = l->e[j];
			l->n = k;
			if (l->n >= LEDGER_MAX)
				return -ENOSPC;
			i = l->n;
		}
		memset(&l->e[i], 0, sizeof(l->e[i]));
		snprintf(l->e[i].feature, sizeof(l->e[i].feature), "%s", feature);
		snprintf(l->e[i].kernel, sizeof(l->e[i].kernel), "%s", kernel);
		l->n++;
	}
	if (l->e[i].runs < 64)
		l->e[i].runs++;
	err = statedir_ensure();
	if (!err)
		err = statedir_path(LEDGER_FILE, path, sizeof(path));
	if (!err)
		err = atomic_write_stream(path, 0644, write_doc, l);
	return err;
}
