// SPDX-License-Identifier: GPL-2.0
/* guard/args.c - `rafleet guard`'s options, see guard/args.h. */
#include "guard/args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lib/parsenum.h"

/* The message in @a->error (an array); -EINVAL. */
#define bad(a, ...) parse_bad((a)->error, sizeof((a)->error), __VA_ARGS__)

static void defaults(struct guard_args *a)
{
	memset(a, 0, sizeof(*a));
	a->window_s = GUARD_DEFAULT_WINDOW;
	a->band.learn_windows = GUARD_DEFAULT_LEARN;
	a->band.floor = GUARD_DEFAULT_FLOOR;
	a->band.mads = GUARD_DEFAULT_MADS;
	a->min.min_read_mib = GUARD_DEFAULT_MIN_READ_MIB;
	a->min.min_folios = GUARD_DEFAULT_MIN_FOLIOS;
}

static int add_device(struct guard_args *a, const char *name)
{
	if (a->nr_dev >= SC_MAX_DEVS)
		return bad(a, "at most %d --device", SC_MAX_DEVS);
	if (!*name || strchr(name, '/') || strchr(name, ',') ||
	    !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= SC_NAME_LEN)
		return bad(a, "--device wants a name under /sys/block such as vda, not '%s'",
			   name);
	a->dev[a->nr_dev++] = name;
	return 0;
}

enum { OPT_LEARN_WINDOWS = 256, OPT_FLOOR, OPT_MADS, OPT_MIN_READ,
       OPT_MIN_FOLIOS };

int guard_parse_args(int argc, char **argv, struct guard_args *a)
{
	static const struct option opts[] = {
		{ "window", required_argument, NULL, 'w' },
		{ "windows", required_argument, NULL, 'n' },
		{ "once", no_argument, NULL, '1' },
		{ "learn", no_argument, NULL, 'l' },
		{ "act", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "learn-windows", required_argument, NULL, OPT_LEARN_WINDOWS },
		{ "floor", required_argument, NULL, OPT_FLOOR },
		{ "mads", required_argument, NULL, OPT_MADS },
		{ "min-read", required_argument, NULL, OPT_MIN_READ },
		{ "min-folios", required_argument, NULL, OPT_MIN_FOLIOS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool once = false, counted = false;
	uint64_t v;
	int c;

	defaults(a);
	optind = 0;	/* as bench: a fresh parse, clusters included */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:n:1lajd:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (parse_u64(optarg, GUARD_MAX_WINDOW, &v) || !v)
				return bad(a, "--window wants seconds, 1 to %d, not '%s'",
					   GUARD_MAX_WINDOW, optarg);
			a->window_s = (unsigned int)v;
			break;
		case 'n':
			if (parse_u64(optarg, UINT32_MAX, &v) || !v)
				return bad(a, "--windows wants a count of at least 1, not '%s'",
					   optarg);
			a->windows = v;
			counted = true;
			break;
		case '1':
			once = true;
			break;
		case 'l':
			a->learn = true;
			break;
		case 'a':
			a->act = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'd':
			if (add_device(a, optarg))
				return -EINVAL;
			break;
		case OPT_LEARN_WINDOWS:
			if (parse_u64(optarg, GUARD_MAX_LEARN, &v) ||
			    v < GUARD_MIN_SAMPLES)
				return bad(a, "--learn-windows wants %d to %d, not '%s'",
					   GUARD_MIN_SAMPLES, GUARD_MAX_LEARN, optarg);
			a->band.learn_windows = (unsigned int)v;
			break;
		case OPT_FLOOR:
			if (parse_percent(optarg, 0, 100, &a->band.floor))
				return bad(a, "--floor wants a percentage 0 to 100, not '%s'",
					   optarg);
			break;
		case OPT_MADS:
			if (parse_positive(optarg, 1000, &a->band.mads))
				return bad(a, "--mads wants a number above 0, not '%s'",
					   optarg);
			break;
		case OPT_MIN_READ:
			if (parse_positive(optarg, 1e9, &a->min.min_read_mib))
				return bad(a, "--min-read wants MiB above 0, not '%s'",
					   optarg);
			break;
		case OPT_MIN_FOLIOS:
			if (parse_u64(optarg, UINT32_MAX, &a->min.min_folios) ||
			    !a->min.min_folios)
				return bad(a, "--min-folios wants a count of at least 1, not '%s'",
					   optarg);
			break;
		case 'h':
			a->help = true;
			return 0;
		case ':':
			return bad(a, "option '%s' wants an argument", argv[optind - 1]);
		default:
			if (optopt)
				return bad(a, "unknown option '-%c'", optopt);
			return bad(a, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad(a, "takes no arguments, not '%s'", argv[optind]);
	if (once && counted)
		return bad(a, "--once and --windows together: choose one");
	if (once)
		a->windows = 1;
	return 0;
}
