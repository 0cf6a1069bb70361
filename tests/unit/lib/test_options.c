// SPDX-License-Identifier: GPL-2.0
/*
 * options: one table drives getopt_long(): flags, clusters, values of each
 * type into their variables, arguments between options and after "--";
 * --help stops the parse; the errors in one wording (unknown option, a
 * missing value, a value where none goes, a bad value with what it should
 * be); and the --help option list printed from the same table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lib/options.h"
#include "tap.h"

struct vals {
	bool json, exec, help_seen;
	const char *file, *opt;
	unsigned int repeat, pages;
	uint64_t seed, timeout;
	double mads, alpha;
	off_t size;
	int calls;
};

static struct vals v;
static char error[160];

static int count(const struct option_spec *o, const char *arg, char *err, size_t len)
{
	struct vals *p = o->value;

	if (!strcmp(arg, "bad"))
		return options_bad_value(o, arg, err, len);
	p->calls++;
	return 0;
}

static const struct option_spec spec[] = {
	OPT_FLAG('j', "json", &v.json, "JSON instead of a table"),
	OPT_CLEAR('n', "no-exec", &v.exec, "load only"),
	OPT_STRING('f', "file", &v.file, "PATH", "the file\nto read"),
	OPT_UINT('r', "repeat", &v.repeat, "N", "runs", .min = 1, .max = 1000, .what = "1..1000"),
	OPT_U64(0, "seed", &v.seed, "N", "the seed", .min = 0),
	OPT_UINT(0, "ring-pages", &v.pages, "N", "pages", .flags = OPTION_POWER_OF_2,
		 .max = 1 << 20, .what = "a power of two"),
	OPT_DOUBLE(0, "mads", &v.mads, "K", "MADs", .fmax = 1000, .what = "a number above 0"),
	OPT_PERCENT('a', "alpha", &v.alpha, "PCT", "level", .fmin = 0.01, .fmax = 20,
		    .what = "a percentage 0.01..20"),
	OPT_DURATION('t', "timeout", &v.timeout, "DURATION", "limit", .min = 5, .max = 3600,
		     .what = "a duration of 5s..1h"),
	OPT_SIZE('z', "size", &v.size, "SIZE", "size", .step = 4096, .what = "a multiple of 4K"),
	OPT_VALUE(OPTION_STRING, 0, "opt", &v.opt, "FILE", "optional", .flags = OPTION_OPTARG),
	OPT_VALUE(OPTION_STRING, 0, "path", &v.file, "PATH", "not empty",
		  .flags = OPTION_NONEMPTY, .what = "a path"),
	OPT_CALLBACK('c', "count", &v, "X", "counted", count, .what = "not bad"),
	OPT_HELP(),
	OPT_END()
};

/* parse LINE (split at spaces; argv[0] "cmd") */
static int parse(const char *line)
{
	static char buf[512];
	char *argv[32];
	int argc = 0;

	memset(&v, 0, sizeof(v));
	v.exec = true;
	error[0] = '\0';
	snprintf(buf, sizeof(buf), "cmd %s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return options_parse(spec, argc, argv, error, sizeof(error));
}

static void refused(const char *line, const char *want)
{
	int r = parse(line);

	ok(r == -EINVAL && !strcmp(error, want), "'%s' refused: '%s' (want '%s', %d)",
	   line, error, want, r);
}

static void test_values(void)
{
	is_i64(parse(""), 1, "nothing: the first argument is argv[1]");
	ok(!v.json && v.exec && !v.file, "  nothing set");
	is_i64(parse("-jn"), 2, "a cluster -jn");
	ok(v.json && !v.exec, "  --json set, --no-exec cleared");
	is_i64(parse("--file x.dat -r 7 --seed 18446744073709551615"), 7, "values");
	ok(v.file && !strcmp(v.file, "x.dat") && v.repeat == 7 && v.seed == UINT64_MAX,
	   "  file x.dat, repeat 7, seed 2^64-1");
	is_i64(parse("-fy.dat -r7"), 3, "short values joined");
	ok(!strcmp(v.file, "y.dat") && v.repeat == 7, "  file y.dat, repeat 7");
	is_i64(parse("--repeat=9"), 2, "--name=value");
	is_u64(v.repeat, 9, "  repeat 9");
	is_i64(parse("--ring-pages 64 --mads 0.5 --alpha 1 --timeout 2min --size 1M"), 11,
	       "each type");
	ok(v.pages == 64 && v.mads == 0.5 && v.alpha == 0.01 && v.timeout == 120 &&
	   v.size == 1 << 20, "  64 pages, 0.5 MADs, alpha 0.01, 120 s, 1 MiB");
	is_i64(parse("--opt"), 2, "an optional value left out");
	ok(v.opt == NULL, "  none");
	is_i64(parse("--opt=f.prom"), 2, "an optional value given");
	ok(v.opt && !strcmp(v.opt, "f.prom"), "  f.prom");
	is_i64(parse("-c 1 --count 2"), 5, "a callback, twice");
	is_u64(v.calls, 2, "  called twice");
}

static void test_arguments(void)
{
	char *argv[] = { "cmd", "a", "-j", "b", "--", "-n", NULL };
	int r;

	memset(&v, 0, sizeof(v));
	v.exec = true;
	r = options_parse(spec, 6, argv, error, sizeof(error));
	is_i64(r, 3, "arguments between options: moved after them");
	ok(v.json && v.exec, "  -j read, -n after -- is an argument");
	ok(!strcmp(argv[3], "a") && !strcmp(argv[4], "b") && !strcmp(argv[5], "-n"),
	   "  the arguments in order: a b -n");
	is_i64(options_no_args(r, 6, argv, error, sizeof(error)), -EINVAL, "options_no_args: refused");
	is_str(error, "takes no arguments, not 'a'", "  the first named");
	is_i64(options_no_args(6, 6, argv, error, sizeof(error)), 0, "options_no_args: none left");
	is_i64(parse("-j --help --bogus"), OPTIONS_HELP, "--help stops the parse");
	ok(v.json, "  what came before it is read");
	is_i64(parse("-h"), OPTIONS_HELP, "-h");
	is_i64(parse("--jso"), 2, "a long option abbreviated (getopt_long)");
	ok(v.json, "  --jso is --json");
}

static void test_errors(void)
{
	refused("--bogus", "unknown option '--bogus'");
	refused("-Q", "unknown option '-Q'");
	refused("-jQ", "unknown option '-Q'");
	refused("--json -Qj", "unknown option '-Q'");
	refused("--repeat", "option '--repeat' wants an argument");
	refused("-r", "option '-r' wants an argument");
	refused("-jr", "option '-r' wants an argument");
	refused("--seed", "option '--seed' wants an argument");
	refused("--json=1", "option '--json' takes no value: '--json=1'");
	refused("--once=1", "unknown option '--once=1'");
	refused("--repeat x", "--repeat wants 1..1000, not 'x'");
	refused("-r 0", "--repeat wants 1..1000, not '0'");
	refused("-r 1001", "--repeat wants 1..1000, not '1001'");
	refused("--seed -1", "--seed wants a number, not '-1'");
	refused("--ring-pages 3", "--ring-pages wants a power of two, not '3'");
	refused("--ring-pages 0", "--ring-pages wants a power of two, not '0'");
	refused("--mads 0", "--mads wants a number above 0, not '0'");
	refused("--alpha 21", "--alpha wants a percentage 0.01..20, not '21'");
	refused("--timeout 4s", "--timeout wants a duration of 5s..1h, not '4s'");
	refused("--size 1000", "--size wants a multiple of 4K, not '1000'");
	refused("--size 12X", "--size wants a multiple of 4K, not '12X'");
	refused("--path=", "--path wants a path");
	refused("-c bad", "--count wants not bad, not 'bad'");
}

static void test_usage(void)
{
	static const struct option_spec small[] = {
		OPT_FLAG('j', "json", &v.json, "JSON"),
		OPT_VALUE(OPTION_STRING, 0, "prometheus", &v.opt, "FILE", "metrics\nto FILE",
			  .flags = OPTION_OPTARG),
		OPT_STRING('t', "timeout", &v.file, "SECONDS", "limit"),
		OPT_STRING('l', "a-very-long-option", &v.file, "ARG", "on a line of its own"),
		OPT_VALUE(OPTION_FLAG, 'x', "hidden", &v.json, NULL, "not shown", .flags = OPTION_HIDDEN),
		OPT_HELP(),
		OPT_END()
	};
	static const struct options_help h = { "usage: cmd\n\noptions:\n", 24, "\nexit.\n" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!ok(f != NULL, "a memory stream"))
		return;
	options_help_print(f, &h, small);
	fclose(f);
	is_str(buf,
	       "usage: cmd\n"
	       "\n"
	       "options:\n"
	       "  -j, --json            JSON\n"
	       "      --prometheus[=FILE]\n"
	       "                        metrics\n"
	       "                        to FILE\n"
	       "  -t, --timeout SECONDS limit\n"
	       "  -l, --a-very-long-option ARG\n"
	       "                        on a line of its own\n"
	       "  -h, --help            this help\n"
	       "\n"
	       "exit.\n",
	       "the help: head, a row per option at column 24 (none for a hidden one), tail");
	free(buf);
}

int main(void)
{
	test_values();
	test_arguments();
	test_errors();
	test_usage();
	return tap_done();
}
