// SPDX-License-Identifier: GPL-2.0
/* guard_args: `rafleet guard`'s options, their defaults, and bad input. */
#include <errno.h>
#include <string.h>

#include "guard/args.h"
#include "tap.h"

#define ARGS(...) ((char *[]){ "guard", __VA_ARGS__, NULL })
#define NARGS(...) (int)(sizeof((char *[]){ "guard", __VA_ARGS__ }) / sizeof(char *))

static int parse(int argc, char **argv, struct guard_args *a)
{
	return guard_parse_args(argc, argv, a);
}

#define PARSE(a, ...) parse(NARGS(__VA_ARGS__), ARGS(__VA_ARGS__), (a))

static void bad(const char *want, int argc, char **argv)
{
	struct guard_args a;
	int ret = parse(argc, argv, &a);

	ok(ret == -EINVAL && strstr(a.error, want),
	   "%s %s: refused, '%s'", argv[1], argc > 2 ? argv[2] : "", a.error);
}

#define BAD(want, ...) bad(want, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__))

int main(void)
{
	struct guard_args a;
	char *none[] = { "guard", NULL };

	is_i64(parse(1, none, &a), 0, "no options");
	ok(a.window_s == 60 && a.windows == 0 && !a.learn && !a.act && !a.json,
	   "defaults: 60 s windows, until stopped, no learn, no act, a table");
	ok(a.band.learn_windows == 30 && a.band.floor == 0.03 &&
	   a.band.mads == 4.0 && a.min.min_read_mib == 1.0 &&
	   a.min.min_folios == 256 && a.nr_dev == 0,
	   "defaults: K 30, floor 3 %%, 4 MADs, 1 MiB, 256 folios, default devices");

	is_i64(PARSE(&a, "--window", "5", "--windows", "3", "--learn", "--act",
		     "--json"), 0, "every flag");
	ok(a.window_s == 5 && a.windows == 3 && a.learn && a.act && a.json,
	   "  as given");
	is_i64(PARSE(&a, "-1", "-law", "2"), 0, "short options in a cluster");
	ok(a.windows == 1 && a.learn && a.act && a.window_s == 2, "  as given");
	is_i64(PARSE(&a, "--learn-windows", "50", "--floor", "2.5%", "--mads",
		     "3.5", "--min-read", "0.5", "--min-folios", "64"), 0,
	       "the band's options");
	ok(a.band.learn_windows == 50 && a.band.floor == 0.025 &&
	   a.band.mads == 3.5 && a.min.min_read_mib == 0.5 &&
	   a.min.min_folios == 64, "  as given");
	is_i64(PARSE(&a, "-d", "loop0", "--device", "vda"), 0, "two devices");
	ok(a.nr_dev == 2 && !strcmp(a.dev[0], "loop0") &&
	   !strcmp(a.dev[1], "vda"), "  in order");
	is_i64(PARSE(&a, "--help"), 0, "--help");
	ok(a.help, "  asks for help");

	BAD("--window wants seconds", "--window", "0");
	BAD("--window wants seconds", "--window", "1.5");
	BAD("--window wants seconds", "--window", "86401");
	BAD("--windows wants a count", "--windows", "0");
	BAD("--windows wants a count", "--windows", "-3");
	BAD("--once and --windows together", "--once", "--windows", "2");
	BAD("--learn-windows wants 30 to 1000", "--learn-windows", "29");
	BAD("--floor wants a percentage", "--floor", "101");
	BAD("--mads wants a number above 0", "--mads", "0");
	BAD("--mads wants a number above 0", "--mads", "x");
	BAD("--min-read wants MiB", "--min-read", "-1");
	BAD("--min-folios wants a count", "--min-folios", "0");
	BAD("--device wants a name", "--device", "../sda");
	BAD("--device wants a name", "--device", "");
	BAD("unknown option '--frob'", "--frob");
	BAD("unknown option '-x'", "-x");
	BAD("option '--window' wants an argument", "--window");
	BAD("takes no arguments, not 'extra'", "extra");
	return tap_done();
}
