/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command's options as one table (git's parse_options() as the model):
 * each row says the option's names, its type, where its value goes, the
 * name of its argument and its help line.  options_parse() drives
 * getopt_long() from the table and words every error the same way for
 * every command; options_usage() prints the option list of --help from
 * the same rows, so the two cannot disagree.
 *
 *	unknown option '--frob'			(or '-x')
 *	option '--window' wants an argument		(or '-w')
 *	option '--json' takes no value: '--json=1'
 *	--repeat wants 1..1000, not 'x'		(the row's @what)
 *	takes no arguments, not 'extra'		(options_no_args())
 *
 * The messages go into a buffer (the pure parsers of bench, canary and
 * guard keep them there, fuzzed without side effects); options_run() is
 * the same for a command that prints them as "rafleet CMD: MESSAGE".
 */
#ifndef RAFLEET_OPTIONS_H
#define RAFLEET_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum option_type {
	OPTION_END,		/* the last row */
	OPTION_FLAG,		/* bool *: set */
	OPTION_CLEAR,		/* bool *: cleared (--no-THING) */
	OPTION_STRING,		/* const char **: the argument itself */
	OPTION_UINT,		/* unsigned int *: min..max (parse_u64) */
	OPTION_U64,		/* uint64_t *: min..max (parse_u64) */
	OPTION_DOUBLE,		/* double *: a decimal number above 0, at most fmax */
	OPTION_PERCENT,		/* double *: fmin..fmax percent, as a fraction */
	OPTION_DURATION,	/* uint64_t *: min..max seconds ("90s", "2min") */
	OPTION_SIZE,		/* off_t *: "4096", "512K", "1G", a multiple of step */
	OPTION_CALLBACK,	/* cb(row, argument, error, len) */
	OPTION_HELP,		/* -h, --help: options_parse() stops, OPTIONS_HELP */
};

/* option_spec.flags */
enum {
	OPTION_OPTARG = 1 << 0,		/* the value is optional: --name[=ARGH] */
	OPTION_NONEMPTY = 1 << 1,	/* STRING: "" is refused ("--x wants WHAT") */
	OPTION_POWER_OF_2 = 1 << 2,	/* UINT, U64: a power of two */
	OPTION_HIDDEN = 1 << 3,		/* not in the help (for tests and tuning) */
};

struct option_spec {
	char short_name;	/* 0: long only */
	const char *long_name;
	enum option_type type;
	void *value;		/* where the value goes, of the type's C type */
	const char *argh;	/* the argument's name in the help ("N", "PATH") */
	const char *help;	/* the help text; '\n' starts a line at the column */
	unsigned int flags;
	uint64_t min, max;	/* UINT, U64, DURATION, SIZE: the range (max 0: none) */
	double fmin, fmax;	/* DOUBLE, PERCENT */
	uint64_t step;		/* SIZE: a multiple of this */
	const char *what;	/* what a bad value should be: "--x wants WHAT, not 'v'" */
	/* CALLBACK: 0, or -EINVAL with the message in @error */
	int (*cb)(const struct option_spec *o, const char *arg, char *error, size_t len);
};

#define OPT_END() { .type = OPTION_END }
#define OPT_FLAG(s, l, v, h) \
	{ .short_name = (s), .long_name = (l), .type = OPTION_FLAG, .value = (v), .help = (h) }
#define OPT_CLEAR(s, l, v, h) \
	{ .short_name = (s), .long_name = (l), .type = OPTION_CLEAR, .value = (v), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .short_name = (s), .long_name = (l), .type = OPTION_STRING, .value = (v), \
	  .argh = (a), .help = (h) }
/* a row with a value of @t; the rest (.min, .max, .what, .flags ...) after @h */
#define OPT_VALUE(t, s, l, v, a, h, ...) \
	{ .short_name = (s), .long_name = (l), .type = (t), .value = (v), \
	  .argh = (a), .help = (h), __VA_ARGS__ }
#define OPT_UINT(s, l, v, a, h, ...) OPT_VALUE(OPTION_UINT, s, l, v, a, h, __VA_ARGS__)
#define OPT_U64(s, l, v, a, h, ...) OPT_VALUE(OPTION_U64, s, l, v, a, h, __VA_ARGS__)
#define OPT_DOUBLE(s, l, v, a, h, ...) OPT_VALUE(OPTION_DOUBLE, s, l, v, a, h, __VA_ARGS__)
#define OPT_PERCENT(s, l, v, a, h, ...) OPT_VALUE(OPTION_PERCENT, s, l, v, a, h, __VA_ARGS__)
#define OPT_DURATION(s, l, v, a, h, ...) OPT_VALUE(OPTION_DURATION, s, l, v, a, h, __VA_ARGS__)
#define OPT_SIZE(s, l, v, a, h, ...) OPT_VALUE(OPTION_SIZE, s, l, v, a, h, __VA_ARGS__)
#define OPT_CALLBACK(s, l, v, a, h, f, ...) \
	OPT_VALUE(OPTION_CALLBACK, s, l, v, a, h, .cb = (f), __VA_ARGS__)
#define OPT_HELP() \
	{ .short_name = 'h', .long_name = "help", .type = OPTION_HELP, .help = "this help" }

/* options_parse(): --help was given (argv[0], the command, is never an argument). */
#define OPTIONS_HELP 0

/*
 * Parse the options of argv[1..] by @spec (GNU getopt_long() order:
 * arguments may come between options, "--" ends them).  The index in
 * argv of the first argument that is not an option (argc if none);
 * OPTIONS_HELP when -h or --help came, the rest unread; or -EINVAL with
 * the message in @error (@len bytes).
 */
int options_parse(const struct option_spec *spec, int argc, char **argv,
		  char *error, size_t len);

/* After the options: 0 if no argument is left at @ind, else -EINVAL, said. */
int options_no_args(int ind, int argc, char **argv, char *error, size_t len);

/*
 * The message of a bad value of @o, "--NAME wants @o->what, not 'ARG'",
 * into @error: -EINVAL (for callbacks).
 */
int options_bad_value(const struct option_spec *o, const char *arg, char *error, size_t len);

/*
 * The option list of --help from @spec: "  -x, --name ARGH", the help text
 * from column @col (a line of its own when the names reach it).
 */
void options_usage(FILE *f, const struct option_spec *spec, int col);

/* A command's --help: @head, the option list, @tail. */
struct options_help {
	const char *head;	/* "usage: ..." down to the line before the options */
	int col;		/* the column of the options' help text */
	const char *tail;	/* after the options: environment, exit status */
};

void options_help_print(FILE *f, const struct options_help *h, const struct option_spec *spec);

/* options_run(): go on, the options are read. */
#define OPTIONS_RUN (-1)

/*
 * options_parse() for command @cmd: OPTIONS_RUN with *@ind the first
 * argument, or the exit status to return: EXIT_OK after the help on
 * stdout, EXIT_USAGE after "rafleet CMD: MESSAGE" on stderr.  With
 * @no_args, an argument left over is such an error.
 */
int options_run(const char *cmd, const struct option_spec *spec, const struct options_help *h,
		int argc, char **argv, bool no_args, int *ind);

/* "rafleet CMD: MESSAGE" on stderr; EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int options_fail(const char *cmd, const char *fmt, ...);

#endif
