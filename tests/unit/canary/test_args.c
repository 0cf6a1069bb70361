// SPDX-License-Identifier: GPL-2.0
/* canary_args: what `rafleet canary` and `rafleet calibrate` accept. */
#include <errno.h>
#include <math.h>

#include "canary/args.h"
#include "tap.h"

static int parse(struct canary_args *a, int argc, ...)
{
	char *argv[32];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	return canary_parse_args(argc, argv, a);
}

int main(void)
{
	struct canary_args a;

	is_i64(parse(&a, 2, "canary", "readahead_async_keep_half"), 0, "a feature");
	ok(a.feature && !strcmp(a.feature->name, "readahead_async_keep_half"), "is found");
	ok(a.pairs_min == 8 && a.pairs_max == 0 && fabs(a.alpha - 0.01) < 1e-12 &&
	   fabs(a.floor - 0.03) < 1e-12 && !a.act && !a.aa,
	   "defaults: looks from 8 pairs, the cap not given (calibrated or 32), 1 %%, floor 3 %%");
	is_i64(parse(&a, 2, "canary", "vm.readahead_exec_large_folio"), 0, "vm. prefix");
	is_i64(parse(&a, 9, "canary", "readahead_exec_large_folio", "-w", "exec-cold",
		     "--workload", "seq-read", "--pairs-max", "20", "--act"), 0, "workloads, cap, act");
	ok(a.nr_workloads == 2 && a.pairs_max == 20 && a.act, "taken");
	is_i64(parse(&a, 4, "canary", "readahead_exec_large_folio", "--delta", "5%"), 0, "--delta 5%%");
	ok(fabs(a.delta - 0.05) < 1e-12, "is 0.05");
	is_i64(parse(&a, 1, "canary"), -EINVAL, "no feature");
	ok(strstr(a.error, "FEATURE") != NULL, "says so: %s", a.error);
	is_i64(parse(&a, 2, "canary", "readahead_nothing"), -EINVAL, "unknown feature");
	is_i64(parse(&a, 3, "canary", "readahead_exec_large_folio", "readahead_async_keep_half"),
	       -EINVAL, "two features");
	is_i64(parse(&a, 4, "canary", "readahead_exec_large_folio", "-w", "nope"), -EINVAL,
	       "unknown workload");
	is_i64(parse(&a, 6, "canary", "readahead_exec_large_folio", "-w", "seq-read", "-w",
		     "seq-read"), -EINVAL, "a workload twice");
	is_i64(parse(&a, 4, "canary", "readahead_exec_large_folio", "--pairs-max", "61"),
	       -EINVAL, "cap 61");
	is_i64(parse(&a, 6, "canary", "readahead_exec_large_folio", "--pairs-min", "8",
		     "--pairs-max", "6"), -EINVAL, "first look after the cap");
	is_i64(parse(&a, 4, "canary", "readahead_exec_large_folio", "--delta", "1"), -EINVAL,
	       "delta below the floor");
	is_i64(parse(&a, 4, "canary", "readahead_exec_large_folio", "--alpha", "x"), -EINVAL,
	       "alpha not a number");
	is_i64(parse(&a, 4, "canary", "readahead_exec_large_folio", "--aa", "--act"), -EINVAL,
	       "--aa with --act");
	is_i64(parse(&a, 3, "canary", "readahead_exec_large_folio", "--bogus"), -EINVAL,
	       "unknown option");
	is_i64(parse(&a, 2, "canary", "--help"), 0, "--help");
	ok(a.help, "is help");
	is_i64(parse(&a, 1, "calibrate"), 0, "calibrate alone");
	ok(a.calibrate && !a.feature && a.pairs_max == 20, "is calibrate, 20 pairs");
	is_i64(parse(&a, 3, "calibrate", "--pairs", "16"), 0, "calibrate --pairs 16");
	is_u64(a.pairs_max, 16, "16 pairs");
	is_i64(parse(&a, 2, "calibrate", "readahead_exec_large_folio"), -EINVAL,
	       "calibrate takes no feature");
	is_i64(parse(&a, 2, "calibrate", "--act"), -EINVAL, "calibrate has no --act");
	return tap_done();
}
