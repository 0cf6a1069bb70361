// SPDX-License-Identifier: GPL-2.0
/* lib/options.c - a command's options from one table, see lib/options.h. */
#include "lib/options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/types.h>

#include "lib/exitcode.h"
#include "lib/parsenum.h"

/* rows of one table at most (a programming error past it) */
#define OPTIONS_MAX 32
/* getopt_long()'s value of a row without a short name: this plus its index */
#define LONG_ONLY 256

static bool takes_value(const struct option_spec *o)
{
	return o->type != OPTION_FLAG && o->type != OPTION_CLEAR && o->type != OPTION_HELP;
}

/* "--name" or "-x", as the command line has it: for messages */
static void option_name(const struct option_spec *o, bool as_long, char *buf, size_t len)
{
	if (o->long_name && (as_long || !o->short_name))
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

int options_bad_value(const struct option_spec *o, const char *arg, char *error, size_t len)
{
	char name[64];

	option_name(o, true, name, sizeof(name));
	return parse_bad(error, len, "%s wants %s, not '%s'", name,
			 o->what ? o->what : "a number", arg);
}

static bool power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The argument @arg of row @o into its value: 0, or -EINVAL said. */
static int set_value(const struct option_spec *o, const char *arg, char *error, size_t len)
{
	char name[64];
	uint64_t v;
	off_t size;
	double d;

	switch (o->type) {
	case OPTION_FLAG:
	case OPTION_CLEAR:
		*(bool *)o->value = o->type == OPTION_FLAG;
		return 0;
	case OPTION_STRING:
		if ((o->flags & OPTION_NONEMPTY) && arg && !*arg) {
			option_name(o, true, name, sizeof(name));
			return parse_bad(error, len, "%s wants %s", name,
					 o->what ? o->what : "a value");
		}
		*(const char **)o->value = arg;
		return 0;
	case OPTION_UINT:
	case OPTION_U64:
		if (parse_u64(arg, o->max ? o->max : o->type == OPTION_UINT ? UINT_MAX : UINT64_MAX,
			      &v) || v < o->min ||
		    ((o->flags & OPTION_POWER_OF_2) && !power_of_2(v)))
			return options_bad_value(o, arg, error, len);
		if (o->type == OPTION_UINT)
			*(unsigned int *)o->value = (unsigned int)v;
		else
			*(uint64_t *)o->value = v;
		return 0;
	case OPTION_DOUBLE:
		if (parse_positive(arg, o->fmax, &d))
			return options_bad_value(o, arg, error, len);
		*(double *)o->value = d;
		return 0;
	case OPTION_PERCENT:
		if (parse_percent(arg, o->fmin, o->fmax, &d))
			return options_bad_value(o, arg, error, len);
		*(double *)o->value = d;
		return 0;
	case OPTION_DURATION:
		if (parse_duration(arg, o->min, o->max ? o->max : UINT64_MAX, &v))
			return options_bad_value(o, arg, error, len);
		*(uint64_t *)o->value = v;
		return 0;
	case OPTION_SIZE:
		if (parse_size(arg, &size) || (o->step && size % (off_t)o->step) ||
		    (o->max && (uint64_t)size > o->max))
			return options_bad_value(o, arg, error, len);
		*(off_t *)o->value = size;
		return 0;
	case OPTION_CALLBACK:
		return o->cb(o, arg, error, len);
	default:
		return parse_bad(error, len, "option table: row --%s of no type",
				 o->long_name ? o->long_name : "?");
	}
}

/* The row getopt_long() returned @c for, or NULL. */
static const struct option_spec *row_of(const struct option_spec *spec, int n, int c)
{
	if (c >= LONG_ONLY && c < LONG_ONLY + n)
		return &spec[c - LONG_ONLY];
	for (int i = 0; i < n; i++)
		if (spec[i].short_name && spec[i].short_name == c)
			return &spec[i];
	return NULL;
}

/* getopt_long() said '?' (@missing: ':'): what was wrong, into @error. */
static int bad_option(const struct option_spec *spec, int n, int argc, char **argv,
		      bool missing, char *error, size_t len)
{
	const char *last = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const struct option_spec *o = optopt ? row_of(spec, n, optopt) : NULL;
	bool as_long = !strncmp(last, "--", 2);
	char name[64];

	if (missing && o) {
		option_name(o, as_long, name, sizeof(name));
		return parse_bad(error, len, "option '%s' wants an argument", name);
	}
	if (as_long && o && strchr(last, '=')) {
		option_name(o, true, name, sizeof(name));
		return parse_bad(error, len, "option '%s' takes no value: '%s'", name, last);
	}
	if (as_long && (!optopt || optopt >= LONG_ONLY))
		return parse_bad(error, len, "unknown option '%s'", last);
	return parse_bad(error, len, "unknown option '-%c'", optopt);
}

int options_parse(const struct option_spec *spec, int argc, char **argv,
		  char *error, size_t len)
{
	struct option longs[OPTIONS_MAX + 1];
	/* a leading ':' makes a missing value ':', not '?' */
	char shorts[3 * OPTIONS_MAX + 2] = ":", *p = shorts + 1;
	int n, m = 0, c;

	for (n = 0; spec[n].type != OPTION_END; n++) {
		const struct option_spec *o = &spec[n];
		int has = !takes_value(o) ? no_argument :
			  o->flags & OPTION_OPTARG ? optional_argument : required_argument;

		if (n == OPTIONS_MAX)
			return parse_bad(error, len, "option table: more than %d rows", OPTIONS_MAX);
		if (o->long_name)
			longs[m++] = (struct option){ o->long_name, has, NULL,
						      o->short_name ? o->short_name : LONG_ONLY + n };
		if (o->short_name) {
			*p++ = o->short_name;
			if (has != no_argument)
				*p++ = ':';
			if (has == optional_argument)
				*p++ = ':';
		}
	}
	longs[m] = (struct option){ 0 };
	*p = '\0';

	optind = 0;	/* 0, not 1: GNU getopt forgets a half-read "-Vj" too */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct option_spec *o;

		if (c == '?' || c == ':')
			return bad_option(spec, n, argc, argv, c == ':', error, len);
		o = row_of(spec, n, c);
		if (!o)
			return parse_bad(error, len, "unknown option '-%c'", c);
		if (o->type == OPTION_HELP)
			return OPTIONS_HELP;
		if (set_value(o, optarg, error, len))
			return -EINVAL;
	}
	return optind;
}

int options_no_args(int ind, int argc, char **argv, char *error, size_t len)
{
	if (ind < argc)
		return parse_bad(error, len, "takes no arguments, not '%s'", argv[ind]);
	return 0;
}

void options_usage(FILE *f, const struct option_spec *spec, int col)
{
	for (const struct option_spec *o = spec; o->type != OPTION_END; o++) {
		const char *h = o->help;
		int w;

		if (o->flags & OPTION_HIDDEN)
			continue;
		if (o->short_name && o->long_name)
			w = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
		else if (o->long_name)
			w = fprintf(f, "      --%s", o->long_name);
		else
			w = fprintf(f, "  -%c", o->short_name);
		if (o->argh)
			w += fprintf(f, o->flags & OPTION_OPTARG ? "[=%s]" : " %s", o->argh);
		if (w >= col) {
			fputc('\n', f);
			w = 0;
		}
		fprintf(f, "%*s", col - w, "");
		for (const char *nl; h && (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n%*s", (int)(nl - h), h, col, "");
		fprintf(f, "%s\n", h ? h : "");
	}
}

void options_help_print(FILE *f, const struct options_help *h, const struct option_spec *spec)
{
	fputs(h->head, f);
	options_usage(f, spec, h->col);
	fputs(h->tail, f);
}

int options_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rafleet %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int options_run(const char *cmd, const struct option_spec *spec, const struct options_help *h,
		int argc, char **argv, bool no_args, int *ind)
{
	char error[256];
	int r = options_parse(spec, argc, argv, error, sizeof(error));

	if (r == OPTIONS_HELP) {
		options_help_print(stdout, h, spec);
		return EXIT_OK;
	}
	if (r < 0 || (no_args && options_no_args(r, argc, argv, error, sizeof(error))))
		return options_fail(cmd, "%s", error);
	*ind = r;
	return OPTIONS_RUN;
}
