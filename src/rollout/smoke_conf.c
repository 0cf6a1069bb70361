// SPDX-License-Identifier: GPL-2.0
#include "rollout/smoke_conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/feature.h"
#include "lib/env.h"
#include "lib/envfile.h"
#include "lib/fileio.h"
#include "lib/jsonread.h"
#include "lib/parsenum.h"
#include "lib/rootdir.h"
#include "lib/runcmd.h"

#define MAX_ARGV 64

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
	else if (!strcmp(name, "RAFLEET_SMOKE_REPEAT"))
		set(c->repeat, sizeof(c->repeat), val);
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

int smoke_bench(const struct smoke_config *c, bool features_off,
		unsigned int timeout_s, char **json, char *why, size_t len)
{
	const char *prog = env_get(ENV_BENCH);
	char scen[sizeof(c->scenarios)], off[8][96], res[64];
	char *argv[MAX_ARGV];
	int n = 0, rc, err;
	FILE *out;

	*json = NULL;
	argv[n++] = (char *)(prog ? prog : "/proc/self/exe");
	argv[n++] = "bench";
	argv[n++] = "run";
	snprintf(scen, sizeof(scen), "%s", c->scenarios);
	for (char *t = strtok(scen, " \t"); t && n < MAX_ARGV - 24; t = strtok(NULL, " \t"))
		argv[n++] = t;
	argv[n++] = "--file";
	argv[n++] = (char *)c->file;
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
	{ .key = "summary", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE,
	  .sub = summary_fields },
	{ 0 }
};

static const struct json_field run_fields[] = {
	{ .key = "scenarios", .type = JF_ARRAY, .size = sizeof(struct json_object *),
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
	s->wall_ns = -1;
	if (!json_read_object(rd, o, scenario_fields, s))
		run->nr++;
	return 0;
}

int smoke_parse(const char *text, struct smoke_run *run, char *why, size_t len)
{
	struct json_object *doc = NULL, *arr;
	struct json_read rd;
	int err;

	memset(run, 0, sizeof(*run));
	json_read_init(&rd, why, len, NULL);
	err = json_read_parse(&rd, text, &doc);
	if (!err)
		err = json_read_object(&rd, doc, run_fields, &arr);
	if (!err)
		err = json_read_array(&rd, arr, read_scenario, run);
	if (err == -EBADMSG)
		snprintf(why, len, "not rafleet-bench JSON with scenarios");
	json_object_put(doc);
	return err;
}

double smoke_median(const struct smoke_run *run, const char *name)
{
	for (int i = 0; i < run->nr; i++)
		if (!strcmp(run->sc[i].name, name))
			return run->sc[i].wall_ns;
	return -1;
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
