// SPDX-License-Identifier: GPL-2.0
/* rafleet bench: list the scenarios, or run them cold and report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench/args.h"
#include "bench/benchfile.h"
#include "commands.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "bench/measure.h"
#include "bench/report.h"
#include "bench/scenario.h"
#include "host/sysctl.h"

static void list_scenarios(bool json)
{
	struct json_writer w;

	if (!json) {
		printf("%-22s %-5s %s\n", "scenario", "seed", "workload");
		for (int i = 0; i < nr_scenarios; i++)
			printf("%-22s %-5s %s\n", scenarios[i].name,
			       scenarios[i].seed, scenarios[i].desc);
		return;
	}
	json_init(&w, stdout, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", REPORT_SCHEMA);
	json_arr_begin(&w, "scenarios");
	for (int i = 0; i < nr_scenarios; i++) {
		json_obj_begin(&w, NULL);
		json_str(&w, "name", scenarios[i].name);
		json_str(&w, "seed", scenarios[i].seed);
		json_str(&w, "workload", scenarios[i].desc);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
}

static int set_sysctls(const struct bench_args *a)
{
	for (int i = 0; i < a->nr_sysctls; i++) {
		int err = sysctl_set_saved(a->sysctl_name[i], a->sysctl_val[i]);

		if (err) {
			fprintf(stderr, "rafleet bench: cannot set %s=%s: %s\n",
				a->sysctl_name[i], a->sysctl_val[i], sysctl_saved_strerror(err));
			return err;
		}
	}
	return 0;
}

struct output {
	struct json_writer w;
	bool json;
};

static void output_begin(struct output *out, const struct bench_args *a)
{
	struct utsname u;

	out->json = a->json;
	if (!out->json) {
		report_table_header(stdout);
		return;
	}
	uname(&u);
	json_init(&out->w, stdout, true);
	json_obj_begin(&out->w, NULL);
	json_str(&out->w, "schema", REPORT_SCHEMA);
	json_str(&out->w, "kernel", u.release);
	json_arr_begin(&out->w, "scenarios");
}

static void output_end(struct output *out)
{
	if (!out->json)
		return;
	json_arr_end(&out->w);
	json_obj_end(&out->w);
	json_end(&out->w);
}

/* Run one scenario --repeat times; 0 if every run went through. */
static int run_scenario(const struct bench_args *a, const struct scenario *s,
			struct output *out)
{
	struct run_result *runs = calloc(a->repeat, sizeof(*runs));
	struct measure_opts o = { .verify = a->verify,
				  .ring_bytes = (size_t)a->ring_pages * page_size() };
	struct measure_file mf;
	char path[4096];
	unsigned int done = 0;
	int err, ret = 0;

	if (!runs)
		return -ENOMEM;
	err = benchfile_prepare("bench", a->file, a->size, s->file, path, sizeof(path));
	if (!err)
		err = measure_file_open(&mf, path);
	if (err) {
		if (err != -EEXIST)
			fprintf(stderr, "rafleet bench: %s: %s: %s\n", s->name, path,
				err == -EFBIG ? "smaller than a page" :
				err == -EINVAL ? "not a regular file" : strerror(-err));
		free(runs);
		return err;
	}
	for (unsigned int n = 0; n < a->repeat; n++) {
		o.seed = a->seed + n;
		err = measure_run(&mf, s, &o, &runs[done]);
		if (err) {
			fprintf(stderr, "rafleet bench: %s: %s\n", s->name, strerror(-err));
			ret = err;
			continue;
		}
		if (runs[done].status || (runs[done].verify.ok && !runs[done].verified))
			ret = ret ? ret : -EIO;
		done++;
	}
	if (out->json)
		report_scenario_json(&out->w, s, mf.path, mf.size, runs, done);
	else
		report_scenario_table(stdout, runs, done);
	free(runs);
	return ret;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args a;
	struct output out;
	int ret = EXIT_OK;

	if (bench_parse_args(argc, argv, &a)) {
		fprintf(stderr, "rafleet bench: %s\n", a.error);
		return EXIT_USAGE;
	}
	switch (a.cmd) {
	case BENCH_HELP:
		bench_usage(stdout);
		return EXIT_OK;
	case BENCH_LIST:
		list_scenarios(a.json);
		return EXIT_OK;
	default:
		break;
	}

	sysctl_restore_on_signals();
	if (set_sysctls(&a)) {
		sysctl_restore_all();
		return EXIT_FAILED;
	}
	output_begin(&out, &a);
	for (int i = 0; i < a.nr_sc; i++) {
		int err = run_scenario(&a, a.sc[i], &out);

		if (err == -EEXIST || err == -ENOENT || err == -EFBIG ||
		    err == -EINVAL || err == -ENOSPC) {
			ret = EXIT_USAGE;	/* the file, not the kernel */
			break;
		}
		if (err)
			ret = EXIT_FAILED;
	}
	output_end(&out);
	if (sysctl_restore_all()) {
		fprintf(stderr, "rafleet bench: could not restore every sysctl\n");
		ret = EXIT_FAILED;
	}
	return ret;
}
