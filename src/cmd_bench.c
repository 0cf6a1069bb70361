// SPDX-License-Identifier: GPL-2.0
/* rafleet bench: run scenarios on a file, cold cache, and report. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "feature.h"
#include "json.h"
#include "measure.h"
#include "report.h"
#include "scenario.h"

#define MAX_SETS 8
#define MAX_SCENARIOS 32

struct bench_args {
	const char *file;
	unsigned int runs;
	bool json, verify, list;
	uint64_t seed;
	unsigned int ring_pages;
	const struct feature *set[MAX_SETS];
	bool set_on[MAX_SETS];
	int nr_set;
	const struct scenario *sc[MAX_SCENARIOS];
	int nr_sc;
};

static void bench_usage(FILE *f)
{
	fprintf(f,
"usage: rafleet bench --file PATH [OPTIONS] SCENARIO...\n"
"\n"
"Run each SCENARIO on PATH with a cold page cache and measure folios added\n"
"(by order), readahead tracepoints, block requests, faults and times.\n"
"\n"
"options:\n"
"  -f, --file PATH        the file to read (at least one page)\n"
"  -n, --runs N           runs of each scenario (default 1)\n"
"  -s, --set NAME=0|1     set vm.NAME for the runs, restore it afterwards\n"
"  -V, --verify           check read() and mmap() data against O_DIRECT\n"
"  -j, --json             JSON on stdout instead of a table\n"
"      --seed N           seed of the random offsets (default 1)\n"
"      --ring-pages N     perf ring pages per CPU (power of two, default 1024)\n"
"  -l, --list             list the scenarios and exit\n"
"  -h, --help             this help\n"
"\n"
"exit status: 0 all runs done (and verified), 1 a run failed or data did\n"
"not match, 2 bad arguments.\n");
}

static void list_scenarios(void)
{
	printf("%-24s %-5s %s\n", "scenario", "seed", "workload");
	for (int i = 0; i < nr_scenarios; i++)
		printf("%-24s %-5s %s\n", scenarios[i].name, scenarios[i].seed,
		       scenarios[i].desc);
}

static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *out)
{
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-')
		return -EINVAL;
	*out = strtoull(s, &end, 10);
	if (errno || *end || *out > max)
		return -EINVAL;
	return 0;
}

static int parse_set(struct bench_args *a, const char *arg)
{
	char name[96];
	const char *eq = strchr(arg, '=');
	const struct feature *f;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name) ||
	    (strcmp(eq + 1, "0") && strcmp(eq + 1, "1")))
		return -EINVAL;
	memcpy(name, arg, eq - arg);
	name[eq - arg] = '\0';
	f = feature_find(name);
	if (!f || a->nr_set >= MAX_SETS)
		return -EINVAL;
	a->set[a->nr_set] = f;
	a->set_on[a->nr_set++] = eq[1] == '1';
	return 0;
}

static int parse_args(int argc, char **argv, struct bench_args *a)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "runs", required_argument, NULL, 'n' },
		{ "set", required_argument, NULL, 's' },
		{ "verify", no_argument, NULL, 'V' },
		{ "json", no_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 'S' },
		{ "ring-pages", required_argument, NULL, 'R' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long v;
	int c;

	memset(a, 0, sizeof(*a));
	a->runs = 1;
	a->seed = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:n:s:Vjlh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			a->file = optarg;
			break;
		case 'n':
			if (parse_uint(optarg, 1000, &v) || !v) {
				fprintf(stderr, "rafleet bench: --runs wants 1..1000, not '%s'\n", optarg);
				return -EINVAL;
			}
			a->runs = v;
			break;
		case 's':
			if (parse_set(a, optarg)) {
				fprintf(stderr, "rafleet bench: --set wants FEATURE=0|1 with a known feature, not '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		case 'V':
			a->verify = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'S':
			if (parse_uint(optarg, UINT64_MAX, &v)) {
				fprintf(stderr, "rafleet bench: bad --seed '%s'\n", optarg);
				return -EINVAL;
			}
			a->seed = v;
			break;
		case 'R':
			if (parse_uint(optarg, 1 << 20, &v) || !v || (v & (v - 1))) {
				fprintf(stderr, "rafleet bench: --ring-pages wants a power of two, not '%s'\n", optarg);
				return -EINVAL;
			}
			a->ring_pages = v;
			break;
		case 'l':
			a->list = true;
			break;
		case 'h':
			bench_usage(stdout);
			exit(EXIT_OK);
		default:
			bench_usage(stderr);
			return -EINVAL;
		}
	}
	if (a->list)
		return 0;
	for (int i = optind; i < argc; i++) {
		const struct scenario *s = scenario_find(argv[i]);

		if (!s || a->nr_sc >= MAX_SCENARIOS) {
			fprintf(stderr, "rafleet bench: unknown scenario '%s' (see --list)\n", argv[i]);
			return -EINVAL;
		}
		a->sc[a->nr_sc++] = s;
	}
	if (!a->file || !a->nr_sc) {
		fprintf(stderr, "rafleet bench: --file and at least one scenario are needed\n");
		bench_usage(stderr);
		return -EINVAL;
	}
	return 0;
}

/* Apply the --set values; remember the old ones in @old (-1: leave). */
static int apply_sets(const struct bench_args *a, int *old)
{
	for (int i = 0; i < a->nr_set; i++) {
		int err;

		old[i] = feature_get(a->set[i]);
		err = old[i] < 0 ? old[i] : feature_set(a->set[i], a->set_on[i]);
		if (err) {
			fprintf(stderr, "rafleet bench: cannot set vm.%s: %s\n",
				a->set[i]->name, strerror(-err));
			return err;
		}
	}
	return 0;
}

static void restore_sets(const struct bench_args *a, const int *old)
{
	for (int i = a->nr_set - 1; i >= 0; i--)
		if (old[i] >= 0)
			feature_set(a->set[i], old[i]);
}

int cmd_bench(int argc, char **argv)
{
	struct measure_opts o = { 0 };
	struct measure_file mf;
	struct json_writer w;
	struct bench_args a;
	int old[MAX_SETS], err, ret = EXIT_OK;

	if (parse_args(argc, argv, &a))
		return EXIT_USAGE;
	if (a.list) {
		list_scenarios();
		return EXIT_OK;
	}
	err = measure_file_open(&mf, a.file);
	if (err) {
		fprintf(stderr, "rafleet bench: %s: %s\n", a.file,
			err == -EFBIG ? "smaller than a page" :
			err == -EINVAL ? "not a regular file" : strerror(-err));
		return EXIT_USAGE;
	}
	for (int i = 0; i < MAX_SETS; i++)
		old[i] = -1;
	if (apply_sets(&a, old)) {
		restore_sets(&a, old);
		return EXIT_FAILED;
	}
	o.verify = a.verify;
	o.seed = a.seed;
	o.ring_pages = a.ring_pages;

	if (a.json) {
		json_init(&w, stdout, true);
		json_obj_begin(&w, NULL);
		json_str(&w, "file", a.file);
		json_i64(&w, "size", mf.size);
		json_arr_begin(&w, "runs");
	} else {
		report_table_header(stdout);
	}
	for (int i = 0; i < a.nr_sc; i++) {
		for (unsigned int n = 0; n < a.runs; n++) {
			struct run_result r;

			o.seed = a.seed + n;
			err = measure_run(&mf, a.sc[i], &o, &r);
			if (err) {
				fprintf(stderr, "rafleet bench: %s: %s\n",
					a.sc[i]->name, strerror(-err));
				ret = EXIT_FAILED;
				continue;
			}
			if (r.status || (r.verify.ok && !r.verified))
				ret = EXIT_FAILED;
			if (a.json)
				report_run_json(&w, &r);
			else
				report_table_row(stdout, &r);
		}
	}
	if (a.json) {
		json_arr_end(&w);
		json_obj_end(&w);
		json_end(&w);
	}
	restore_sets(&a, old);
	return ret;
}
