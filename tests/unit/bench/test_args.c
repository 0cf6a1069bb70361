// SPDX-License-Identifier: GPL-2.0
/* bench_args: what `rafleet bench` accepts and what it refuses, and why. */
#include <string.h>

#include "bench/args.h"
#include "tap.h"

static int parse(struct bench_args *a, const char *line)
{
	static char buf[512];
	char *argv[32];
	int argc = 0;

	strncpy(buf, line, sizeof(buf) - 1);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return bench_parse_args(argc, argv, a);
}

static void refused(const char *line, const char *why)
{
	struct bench_args a;

	ok(parse(&a, line) && strstr(a.error, why),
	   "'%s' is refused: %s", line, a.error);
}

int main(void)
{
	struct bench_args a;

	ok(!parse(&a, "bench list") && a.cmd == BENCH_LIST && !a.json, "bench list");
	ok(!parse(&a, "bench list --json") && a.json, "bench list --json");
	ok(!parse(&a, "bench --help") && a.cmd == BENCH_HELP, "bench --help");
	ok(!parse(&a, "bench run --help") && a.cmd == BENCH_HELP, "bench run --help");
	ok(!parse(&a, "bench run seq-read") && a.cmd == BENCH_RUN && a.nr_sc == 1 &&
	   a.repeat == 1 && !a.file && !a.size && a.seed == 1, "run with defaults");
	ok(!parse(&a, "bench run seq-read readahead-2m --json -V --repeat 5 --size 64M --file /x --seed 9") &&
	   a.nr_sc == 2 && a.json && a.verify && a.repeat == 5 && a.size == 64 << 20 &&
	   !strcmp(a.file, "/x") && a.seed == 9, "options after the scenarios");
	ok(!parse(&a, "bench run -Vj seq-read") && a.verify && a.json, "clustered short options");
	ok(!parse(&a, "bench run --sysctl vm.readahead_async_keep_half=0 --sysctl vm.page-cluster=3 seq-read") &&
	   a.nr_sysctls == 2 && !strcmp(a.sysctl_name[0], "vm.readahead_async_keep_half") &&
	   !strcmp(a.sysctl_val[0], "0") && !strcmp(a.sysctl_val[1], "3"), "two --sysctl");
	/* a parse that stops inside "-Vq" must not leave getopt half-way */
	ok(parse(&a, "bench run -Vq seq-read"), "an unknown option in a cluster is refused");
	ok(!parse(&a, "bench run -j seq-read") && a.json && !a.verify,
	   "and the next parse starts clean");

	refused("bench", "subcommand");
	refused("bench frob", "unknown bench subcommand");
	refused("bench list extra", "list takes only --json");
	refused("bench run", "at least one scenario");
	refused("bench run nope", "unknown scenario 'nope'");
	refused("bench run --repeat 0 seq-read", "--repeat");
	refused("bench run --repeat 1001 seq-read", "--repeat");
	refused("bench run --repeat x seq-read", "--repeat");
	refused("bench run --size 1000 seq-read", "--size");
	refused("bench run --size 0 seq-read", "--size");
	refused("bench run --sysctl vm.x seq-read", "NAME=VALUE");
	refused("bench run --sysctl =1 seq-read", "NAME=VALUE");
	refused("bench run --sysctl vm.x= seq-read", "NAME=VALUE");
	refused("bench run --sysctl ../etc=1 seq-read", "not a sysctl name");
	refused("bench run --sysctl vm.readahead_async_keep_half=2 seq-read", "takes 0 or 1");
	refused("bench run --ring-pages 3 seq-read", "power of two");
	refused("bench run --seed -1 seq-read", "--seed");
	refused("bench run --bogus seq-read", "unknown option");
	return tap_done();
}
