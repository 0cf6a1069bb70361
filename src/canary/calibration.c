// SPDX-License-Identifier: GPL-2.0
/* The per-machine allowed loss of each workload, from A/A runs. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomicfile.h"
#include "canary/calibration.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/jsonread.h"
#include "lib/rootdir.h"
#include "lib/sim.h"
#include "lib/statedir.h"
#include "bench/stats.h"

int machine_id_get(char *out, size_t len)
{
	char path[PATH_MAX], buf[64];
	int err = root_path(rootdir_get(), "/etc/machine-id", path, sizeof(path));

	if (!err)
		err = read_small_file(path, buf, sizeof(buf));
	if (err)
		return err;
	buf[strcspn(buf, "\n")] = '\0';
	if (strlen(buf) != 32 || strspn(buf, "0123456789abcdef") != 32)
		return -EBADMSG;
	if ((size_t)snprintf(out, len, "%s", buf) >= len)
		return -ENAMETOOLONG;
	return 0;
}

double calibration_noise(const double *d, size_t n)
{
	double v[SIGNRANK_MAX_N], dev[SIGNRANK_MAX_N];
	struct summary s;

	if (!n || n > SIGNRANK_MAX_N)
		return NAN;
	memcpy(v, d, n * sizeof(*d));
	s = summarize(v, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(d[i] - s.median);
	return 1.4826 * summarize(dev, n).median;
}

/* Simulated trials of one regressed workload under @p: REGRESS count. */
static unsigned int simulate(const struct seqrule_plan *p, double sigma, double delta)
{
	double shift = log1p(delta + CALIBRATION_DETECT);
	struct sim_rng rng;
	unsigned int hits = 0;

	sim_seed(&rng, 20261203);
	for (int t = 0; t < CALIBRATION_TRIALS; t++) {
		double d[SIGNRANK_MAX_N];
		unsigned int passed = 0;
		int v = VERDICT_CONTINUE;

		for (unsigned int n = 1; n <= p->pairs_max && v == VERDICT_CONTINUE; n++) {
			d[n - 1] = shift + sigma * sim_normal(&rng);
			if (seqrule_is_look(p, n))
				v = seqrule_decide(p, d, n, delta, &passed);
		}
		hits += v == VERDICT_REGRESS;
	}
	return hits;
}

int calibration_choose_cap(const struct seqrule_plan *base, double sigma, double delta,
			   unsigned int *cap, double *power)
{
	if (!(sigma >= 0) || !isfinite(sigma) || !(delta > 0))
		return -EINVAL;
	for (unsigned int c = CALIBRATION_CAP_MIN; c <= SIGNRANK_MAX_N; c += 4) {
		struct seqrule_plan p = *base;
		unsigned int hits;

		p.pairs_max = c;
		if (seqrule_plan(&p, NULL))
			continue;
		hits = simulate(&p, sigma, delta);
		*cap = c;
		*power = (double)hits / CALIBRATION_TRIALS;
		if (*power >= CALIBRATION_POWER)
			return 0;
	}
	return 0;
}

/*
 * Every fault is "not a rafleet-calibration/1 file".  As before the tables:
 * kernel and time of another type are ignored, strings too long for
 * machine_id, kernel and time cut, pairs given with a fraction truncated.
 */
struct calibration_doc {
	const char *schema;
	struct json_object *workloads;
};

static const struct json_field doc_fields[] = {
	{ .key = "schema", .type = JF_STRREF, JF_AT(struct calibration_doc, schema),
	  .flags = JF_REQUIRED },
	{ .key = "workloads", .type = JF_ARRAY, JF_AT(struct calibration_doc, workloads),
	  .flags = JF_LOOSE },
	{ 0 }
};

static const struct json_field calibration_fields[] = {
	{ .key = "machine_id", .type = JF_STRING, JF_AT(struct calibration, machine_id),
	  .flags = JF_REQUIRED | JF_TRUNCATE },
	{ .key = "kernel", .type = JF_STRING, JF_AT(struct calibration, kernel),
	  .flags = JF_LOOSE | JF_TRUNCATE },
	{ .key = "time", .type = JF_STRING, JF_AT(struct calibration, time),
	  .flags = JF_LOOSE | JF_TRUNCATE },
	{ .key = "delta", .type = JF_DOUBLE, JF_AT(struct calibration, delta),
	  .flags = JF_REQUIRED },
	{ .key = "alpha", .type = JF_DOUBLE, JF_AT(struct calibration, alpha),
	  .flags = JF_REQUIRED },
	{ .key = "metrics", .type = JF_UINT, JF_AT(struct calibration, metrics),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 1, .max = 4 },
	{ 0 }
};

static const struct json_field entry_fields[] = {
	{ .key = "scenario", .type = JF_STRING, JF_AT(struct calibration_entry, scenario),
	  .flags = JF_REQUIRED },
	{ .key = "sigma", .type = JF_DOUBLE, JF_AT(struct calibration_entry, sigma),
	  .flags = JF_REQUIRED },
	{ .key = "estimate", .type = JF_DOUBLE, JF_AT(struct calibration_entry, estimate),
	  .flags = JF_REQUIRED },
	{ .key = "lo", .type = JF_DOUBLE, JF_AT(struct calibration_entry, lo),
	  .flags = JF_REQUIRED },
	{ .key = "hi", .type = JF_DOUBLE, JF_AT(struct calibration_entry, hi),
	  .flags = JF_REQUIRED },
	{ .key = "pairs", .type = JF_UINT, JF_AT(struct calibration_entry, pairs),
	  .flags = JF_REQUIRED | JF_FRACTION },
	{ .key = "cap", .type = JF_UINT, JF_AT(struct calibration_entry, cap),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 1, .max = SIGNRANK_MAX_N },
	{ .key = "power", .type = JF_DOUBLE, JF_AT(struct calibration_entry, power),
	  .flags = JF_REQUIRED },
	{ 0 }
};

static int parse_entry(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct calibration_entry e = { 0 };
	int err = json_read_object(rd, o, entry_fields, &e);

	(void)i;
	if (err)
		return err;
	if (!(e.sigma >= 0 && e.sigma < 10))
		return json_read_bad(rd, "has a sigma out of [0, 10)");
	return calibration_put(ctx, &e) ? -EBADMSG : 0;
}

static int parse(struct json_read *rd, struct json_object *root, struct calibration *c)
{
	struct calibration_doc d = { 0 };
	int err = json_read_object(rd, root, doc_fields, &d);

	if (err)
		return err;
	if (!strcmp(d.schema, "rafleet-calibration/1"))
		return -ESTALE;
	if (strcmp(d.schema, CALIBRATION_SCHEMA))
		return -EBADMSG;
	err = json_read_object(rd, root, calibration_fields, c);
	if (!err && !d.workloads)
		err = json_read_bad(rd, "has no workloads");
	if (!err)
		err = json_read_array(rd, d.workloads, parse_entry, c);
	return err;
}

int calibration_load(struct calibration *c, char *why, size_t len)
{
	char path[PATH_MAX], id[40], jwhy[256];
	struct json_object *root;
	struct json_read rd;
	int err;

	memset(c, 0, sizeof(*c));
	err = statedir_path(CALIBRATION_FILE, path, sizeof(path));
	if (err)
		return err;
	json_read_init(&rd, jwhy, sizeof(jwhy), NULL);
	err = json_read_file(&rd, path, JSON_FILE_MAX_BYTES, &root);
	if (err == -EBADMSG) {
		snprintf(why, len, "%s is not JSON; run 'rafleet calibrate' again", path);
		return err;
	}
	if (err)
		return -ENOENT;	/* none that can be read */
	err = parse(&rd, root, c);
	json_object_put(root);
	if (err == -ESTALE) {
		snprintf(why, len, "%s was made by an older rafleet (it stored a learned delta); run 'rafleet calibrate' again",
			 path);
		return err;
	}
	if (err) {
		snprintf(why, len, "%s is not a %s file; run 'rafleet calibrate' again",
			 path, CALIBRATION_SCHEMA);
		return err;
	}
	if (machine_id_get(id, sizeof(id)) || strcmp(id, c->machine_id))
		return -EXDEV;
	return 0;
}

int calibration_put(struct calibration *c, const struct calibration_entry *e)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].scenario, e->scenario)) {
			c->e[i] = *e;
			return 0;
		}
	if (c->n >= CALIBRATION_MAX)
		return -ENOSPC;
	c->e[c->n++] = *e;
	return 0;
}

const struct calibration_entry *calibration_find(const struct calibration *c,
						 const char *scenario)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].scenario, scenario))
			return &c->e[i];
	return NULL;
}

int calibration_write_json(FILE *f, const struct calibration *c)
{
	struct json_writer w;

	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", CALIBRATION_SCHEMA);
	json_str(&w, "machine_id", c->machine_id);
	json_str(&w, "kernel", c->kernel);
	json_str(&w, "time", c->time);
	json_double(&w, "delta", c->delta);
	json_double(&w, "alpha", c->alpha);
	json_u64(&w, "metrics", c->metrics);
	json_double(&w, "detect", c->delta + CALIBRATION_DETECT);
	json_double(&w, "power_target", CALIBRATION_POWER);
	json_arr_begin(&w, "workloads");
	for (int i = 0; i < c->n; i++) {
		json_obj_begin(&w, NULL);
		json_str(&w, "scenario", c->e[i].scenario);
		json_str(&w, "metric", "wall");
		json_double(&w, "sigma", c->e[i].sigma);
		json_double(&w, "estimate", c->e[i].estimate);
		json_double(&w, "lo", c->e[i].lo);
		json_double(&w, "hi", c->e[i].hi);
		json_u64(&w, "pairs", c->e[i].pairs);
		json_u64(&w, "cap", c->e[i].cap);
		json_double(&w, "power", c->e[i].power);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w);
}

static int calibration_fill(FILE *f, const void *c)
{
	return calibration_write_json(f, c);
}

int calibration_save(const struct calibration *c)
{
	char path[PATH_MAX];
	int err = statedir_ensure();

	if (!err)
		err = statedir_path(CALIBRATION_FILE, path, sizeof(path));
	if (err)
		return err;
	return atomic_write_stream(path, 0644, calibration_fill, c);
}
