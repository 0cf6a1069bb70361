// SPDX-License-Identifier: GPL-2.0
#include "rollout/smoke_conf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/feature.h"
#include "host/sysctl.h"
#include "lib/env.h"
#include "lib/envfile.h"
#include "lib/fileio.h"
#include "lib/jsonread.h"
#include "lib/parsenum.h"
#include "lib/rootdir.h"
#include "lib/runcmd.h"

#define MAX_ARGV 64

/* bench's JSON document: its kernel and its scenarios */
struct run_doc {
	char kernel[128];
	struct json_object *scenarios;
};

static void defaults(struct smoke_config *c)
{
	snprintf(c->scenarios, sizeof(c->scenarios), "seq-read readahead-2m");
	snprintf(c->file, sizeof(c->file), "/var/lib/rafleet/smoke.dat");
	snprintf(c->size, sizeof(c->size), "64M");
	snprintf(c->repeat, sizeof(c->repeat), "3");
}

static void set(char *dst, size_t len, const char *val)
{
	snprintf(dst, len, "%s", val);
}

static int config_line(const char *name, const char *val, void *ctx, char *why,
		       size_t len)
{
	struct smoke_config *c = ctx;

	if (!strcmp(name, "RAFLEET_SMOKE_SCENARIOS"))
		set(c->scenarios, sizeof(c->scenarios), val);
	else if (!strcmp(name, "RAFLEET_SMOKE_FILE"))
		set(c->file, sizeof(c->file), val);
	else if (!strcmp(name, "RAFLEET_SMOKE_SIZE"))
		set(c->size, sizeof(c->size), val);
	else if (!strcmp(name, "RAFLEET_SMOKE_REPEAT")) {
		uint64_t n;

		if (parse_u64(val, SMOKE_MAX_RUNS, &n) || !n) {
			snprintf(why, len, "RAFLEET_SMOKE_REPEAT=%s is not a number of runs 1..%d",
				 val, SMOKE_MAX_RUNS);
			return -EINVAL;
		}
		set(c->repeat, sizeof(c->repeat), val);
	}
	else if (!strcmp(name, "RAFLEET_SMOKE_DELTA") &&
		 parse_percent(val, 0.1, 100, &c->delta)) {
		snprintf(why, len, "RAFLEET_SMOKE_DELTA=%s is not a percentage 0.1..100", val);
		return -EINVAL;
	}
	return 0;
}

int smoke_config_load(struct smoke_config *c, char *why, size_t len)
{
	defaults(c);
	return envfile_read(SMOKE_CONF, config_line, c, NULL, why, len);
}

int smoke_file_path(const struct smoke_config *c, char *out, size_t len)
{
	/* the host's file under RAFLEET_ROOT, as every other write */
	return root_path(rootdir_get(), c->file, out, len);
}

int smoke_bench(const struct smoke_config *c, bool features_off,
		unsigned int timeout_s, char **json, char *why, size_t len)
{
	const char *prog = env_get(ENV_BENCH);
	char scen[sizeof(c->scenarios)], off[8][96], res[64], file[PATH_MAX];
	char *argv[MAX_ARGV];
	int n = 0, rc, err;
	FILE *out;

	*json = NULL;
	err = smoke_file_path(c, file, sizeof(file));
	if (err) {
		snprintf(why, len, "RAFLEET_SMOKE_FILE=%s: %s", c->file, strerror(-err));
		return err;
	}
	argv[n++] = (char *)(prog ? prog : "/proc/self/exe");
	argv[n++] = "bench";
	argv[n++] = "run";
	snprintf(scen, sizeof(scen), "%s", c->scenarios);
	for (char *t = strtok(scen, " \t"); t && n < MAX_ARGV - 24; t = strtok(NULL, " \t"))
		argv[n++] = t;
	argv[n++] = "--file";
	argv[n++] = file;
	argv[n++] = "--size";
	argv[n++] = (char *)c->size;
	argv[n++] = "--repeat";
	argv[n++] = (char *)c->repeat;
	argv[n++] = "--verify";
	argv[n++] = "--json";
	for (int i = 0; features_off && i < nr_features && i < 8; i++) {
		/* a kernel without the sysctl has the feature off already */
		if (feature_get(&features[i]) == -ENOENT)
			continue;
		snprintf(off[i], sizeof(off[i]), "vm.%s=0", features[i].name);
		argv[n++] = "--sysctl";
		argv[n++] = off[i];
	}
	argv[n] = NULL;

	out = tmpfile();
	if (!out) {
		snprintf(why, len, "a temporary file: %s", strerror(errno));
		return -errno;
	}
	rc = run_command(argv, fileno(out), timeout_s);
	/*
	 * A bench killed at its time limit (or dead of anything else) leaves
	 * the features it switched off, and its record: put them back now,
	 * not at the next command that takes the lock (which is ours: no one
	 * else writes them meanwhile), since a stage that fails here kexecs
	 * nothing and may be the host's last rafleet command for a while.
	 */
	if (rc && features_off) {
		char msg[256];

		if (sysctl_undo_recover(msg, sizeof(msg)) > 0)
			fprintf(stderr, "rafleet: %s\n", msg);
	}
	err = lseek(fileno(out), 0, SEEK_SET) ? -errno
					      : read_whole_fd(fileno(out), SMOKE_RUN_MAX_BYTES, json, NULL);
	fclose(out);
	if (rc == RUNCMD_TIMED_OUT) {
		snprintf(why, len, "bench did not finish in %u s: killed", timeout_s);
		return -ETIMEDOUT;
	}
	if (rc) {
		snprintf(why, len, "bench %s", run_command_result(rc, res, sizeof(res)));
		return -EIO;
	}
	if (err)
		snprintf(why, len, "bench's output: %s", strerror(-err));
	return err;
}

const char *smoke_counter_name(int counter, char *buf, size_t len)
{
	static const char *const names[SMOKE_FOLIO_ORDER0] = {
		"major_faults", "block_read_requests", "block_read_bytes", "folios",
	};

	if (counter >= 0 && counter < SMOKE_FOLIO_ORDER0)
		snprintf(buf, len, "%s", names[counter]);
	else
		snprintf(buf, len, "folios_order_%d", counter - SMOKE_FOLIO_ORDER0);
	return buf;
}

/*
 * A run of bench's scenarios[].runs[], read into this: the counters (a
 * missing or null one stays < 0) and the features' sysctls.
 */
struct run_read {
	double c[SMOKE_NR_COUNTERS];
	int64_t sysctl[8];
};

#define COUNT_AT(i) .offset = (i) * sizeof(double), .size = sizeof(double)
#define ORDER(o) { .key = #o, .type = JF_DOUBLE, COUNT_AT(SMOKE_FOLIO_ORDER0 + (o)), \
		   .flags = JF_LOOSE }

static const struct json_field order_fields[FOLIO_ORDERS + 1] = {
	ORDER(0), ORDER(1), ORDER(2), ORDER(3), ORDER(4), ORDER(5),
	ORDER(6), ORDER(7), ORDER(8), ORDER(9), ORDER(10), ORDER(11),
	{ 0 }
};

static const struct json_field folio_fields[] = {
	{ .key = "total", .type = JF_DOUBLE, COUNT_AT(SMOKE_FOLIOS), .flags = JF_LOOSE },
	{ .key = "by_order", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE,
	  .sub = order_fields },
	{ 0 }
};

static const struct json_field block_fields[] = {
	{ .key = "read_requests", .type = JF_DOUBLE, COUNT_AT(SMOKE_BLOCK_REQUESTS),
	  .flags = JF_LOOSE },
	{ .key = "read_bytes", .type = JF_DOUBLE, COUNT_AT(SMOKE_BLOCK_BYTES), .flags = JF_LOOSE },
	{ 0 }
};

/* "sysctls": {"vm.readahead_x": 0, 1 or null}, by features[] */
static int read_sysctls(struct json_read *rd, struct json_object *v, void *member)
{
	struct json_field f[8 + 1];
	char keys[8][96];
	int n = 0;

	memset(f, 0, sizeof(f));
	for (int i = 0; i < nr_features && i < 8; i++, n++) {
		snprintf(keys[i], sizeof(keys[i]), "vm.%s", features[i].name);
		f[n] = (struct json_field){ .key = keys[i], .type = JF_INT,
					    JF_AT(struct run_read, sysctl[i]), .flags = JF_LOOSE };
	}
	return json_read_object(rd, v, f, member);
}

static const struct json_field run_count_fields[] = {
	{ .key = "sysctls", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE,
	  .cb = read_sysctls },
	{ .key = "major_faults", .type = JF_DOUBLE, COUNT_AT(SMOKE_MAJOR_FAULTS), .flags = JF_LOOSE },
	{ .key = "block", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE, .sub = block_fields },
	{ .key = "folios", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE, .sub = folio_fields },
	{ 0 }
};

/* One of a scenario's runs; one that is no object counts as measuring nothing. */
static int read_run(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct smoke_scenario *s = ctx;
	struct run_read r;
	bool on = false;

	(void)i;
	if (s->nr_runs >= SMOKE_MAX_RUNS)
		return 0;
	for (int k = 0; k < SMOKE_NR_COUNTERS; k++)
		r.c[k] = -1;
	for (int k = 0; k < 8; k++)
		r.sysctl[k] = -1;
	json_read_object(rd, o, run_count_fields, &r);
	/* bench leaves out the orders it saw none of */
	for (int o2 = 0; r.c[SMOKE_FOLIOS] >= 0 && o2 < FOLIO_ORDERS; o2++)
		if (r.c[SMOKE_FOLIO_ORDER0 + o2] < 0)
			r.c[SMOKE_FOLIO_ORDER0 + o2] = 0;
	for (int k = 0; k < SMOKE_NR_COUNTERS; k++)
		if (r.c[k] < 0 || !isfinite(r.c[k]))
			r.c[k] = -1;
	for (int k = 0; k < 8; k++)
		on |= r.sysctl[k] == 1;
	s->features_on += on;
	memcpy(s->count[s->nr_runs++], r.c, sizeof(r.c));
	return 0;
}

static int read_runs(struct json_read *rd, struct json_object *v, void *member)
{
	json_read_array(rd, v, read_run, member);
	return 0;
}

/* bench's scenarios[]: a name and summary.wall_ns.median, if a number */
static const struct json_field wall_fields[] = {
	{ .key = "median", .type = JF_DOUBLE, JF_AT(struct smoke_scenario, wall_ns),
	  .flags = JF_LOOSE | JF_NONFINITE },
	{ 0 }
};

static const struct json_field summary_fields[] = {
	{ .key = "wall_ns", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE, .sub = wall_fields },
	{ 0 }
};

static const struct json_field scenario_fields[] = {
	{ .key = "scenario", .type = JF_STRING, JF_AT(struct smoke_scenario, name),
	  .flags = JF_REQUIRED | JF_TRUNCATE },
	{ .key = "file", .type = JF_STRING, JF_AT(struct smoke_scenario, file),
	  .flags = JF_LOOSE | JF_TRUNCATE },
	{ .key = "size", .type = JF_DOUBLE, JF_AT(struct smoke_scenario, size), .flags = JF_LOOSE },
	{ .key = "runs", .type = JF_ARRAY, .offset = 0, .flags = JF_LOOSE, .cb = read_runs },
	{ .key = "summary", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE,
	  .sub = summary_fields },
	{ 0 }
};

static const struct json_field run_fields[] = {
	{ .key = "kernel", .type = JF_STRING, JF_AT(struct run_doc, kernel),
	  .flags = JF_LOOSE | JF_TRUNCATE },
	{ .key = "scenarios", .type = JF_ARRAY, JF_AT(struct run_doc, scenarios),
	  .flags = JF_REQUIRED },
	{ 0 }
};

/* An item that is no object or has no scenario name is skipped. */
static int read_scenario(struct json_read *rd, struct json_object *o, size_t i, void *ctx)
{
	struct smoke_run *run = ctx;
	struct smoke_scenario *s = &run->sc[run->nr];

	(void)i;
	if (run->nr >= BENCH_MAX_SCENARIOS)
		return 0;
	memset(s, 0, sizeof(*s));
	s->wall_ns = -1;
	s->size = -1;
	if (!json_read_object(rd, o, scenario_fields, s))
		run->nr++;
	return 0;
}

int smoke_parse(const char *text, struct smoke_run *run, char *why, size_t len)
{
	struct json_object *doc = NULL;
	struct run_doc d = { "", NULL };
	struct json_read rd;
	int err;

	memset(run, 0, sizeof(*run));
	json_read_init(&rd, why, len, NULL);
	err = json_read_parse(&rd, text, &doc);
	if (!err)
		err = json_read_object(&rd, doc, run_fields, &d);
	if (!err)
		err = json_read_array(&rd, d.scenarios, read_scenario, run);
	if (err == -EBADMSG)
		snprintf(why, len, "not rafleet-bench JSON with scenarios");
	snprintf(run->kernel, sizeof(run->kernel), "%s", d.kernel);
	json_object_put(doc);
	return err;
}

const struct smoke_scenario *smoke_scenario_find(const struct smoke_run *run,
						 const char *name)
{
	for (int i = 0; i < run->nr; i++)
		if (!strcmp(run->sc[i].name, name))
			return &run->sc[i];
	return NULL;
}

double smoke_median(const struct smoke_run *run, const char *name)
{
	const struct smoke_scenario *s = smoke_scenario_find(run, name);

	return s ? s->wall_ns : -1;
}

bool smoke_loses(const struct smoke_run *base, const struct smoke_run *run,
		 double delta, double *worst, char *which, size_t len)
{
	*worst = 0;
	snprintf(which, len, "-");
	for (int i = 0; i < run->nr; i++) {
		double b = smoke_median(base, run->sc[i].name);
		double ratio;

		if (b <= 0 || run->sc[i].wall_ns < 0)
			continue;
		ratio = run->sc[i].wall_ns / b;
		if (ratio > *worst) {
			*worst = ratio;
			snprintf(which, len, "%s", run->sc[i].name);
		}
	}
	return *worst > 1.0 + delta;
}

int smoke_load(const char *path, struct smoke_run *run)
{
	char why[128], *text;
	int err;

	if (!path)
		return -ENOENT;
	err = read_whole_file(path, SMOKE_RUN_MAX_BYTES, &text, NULL);
	if (err)
		return err;
	err = smoke_parse(text, run, why, sizeof(why));
	free(text);
	if (!err && !run->nr)
		err = -ENODATA;
	return err;
}
