// SPDX-License-Identifier: GPL-2.0
/* ledger: the alpha of reruns halves, the store round-trips, refusals. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canary/ledger.h"
#include "fakefs.h"
#include "tap.h"

int main(void)
{
	char root[] = "/tmp/rafleet-ledger-XXXXXX", state[PATH_MAX], why[PATH_MAX + 128];
	static struct ledger l, back;
	double sum = 0;

	ok(fabs(ledger_alpha(0.01, 0) - 0.005) < 1e-15, "run 1: half of 1 %%");
	ok(fabs(ledger_alpha(0.01, 1) - 0.0025) < 1e-15, "run 2: a quarter");
	for (unsigned int k = 0; k < 100; k++)
		sum += ledger_alpha(0.01, k);
	ok(sum < 0.01, "any number of runs together stay below the total (%.17g)", sum);

	if (!mkdtemp(root))
		return 1;
	snprintf(state, sizeof(state), "%s/var/lib/rafleet", root);
	setenv("RAFLEET_ROOT", root, 1);
	unsetenv("RAFLEET_STATE_DIR");
	is_i64(ledger_load(&l, why, sizeof(why)), 0, "no file: an empty ledger");
	is_u64(ledger_runs(&l, "readahead_async_keep_half", "7.3.4-1"), 0, "no runs yet");
	is_i64(ledger_charge(&l, "readahead_async_keep_half", "7.3.4-1"), 0, "a run counted");
	is_i64(ledger_charge(&l, "readahead_async_keep_half", "7.3.4-1"), 0, "and another");
	is_i64(ledger_charge(&l, "readahead_async_keep_half", "7.3.4-2"), 0, "one on another kernel");
	is_i64(ledger_load(&back, why, sizeof(why)), 0, "loaded back");
	is_u64(ledger_runs(&back, "readahead_async_keep_half", "7.3.4-1"), 2, "two runs on 7.3.4-1");
	is_u64(ledger_runs(&back, "readahead_async_keep_half", "7.3.4-2"), 1,
	       "a new kernel starts its own count");
	is_u64(ledger_runs(&back, "readahead_exec_large_folio", "7.3.4-1"), 0,
	       "another feature has its own");

	/* full: the other kernels' entries go, this kernel's stay */
	memset(&l, 0, sizeof(l));
	for (int i = 0; i < LEDGER_MAX; i++) {
		snprintf(l.e[i].feature, sizeof(l.e[i].feature), "f%d", i);
		snprintf(l.e[i].kernel, sizeof(l.e[i].kernel), "%s", i < 3 ? "new" : "old");
		l.e[i].runs = 1;
	}
	l.n = LEDGER_MAX;
	is_i64(ledger_charge(&l, "g", "new"), 0, "a full ledger makes room");
	ok(l.n == 4 && ledger_runs(&l, "f1", "new") == 1 && ledger_runs(&l, "g", "new") == 1 &&
	   ledger_runs(&l, "f10", "old") == 0, "by dropping the older kernels' entries (%d left)", l.n);

	fakefs_put(state, LEDGER_FILE, "{\"schema\":\"rafleet-canary-alpha/1\",\"runs\":[{\"feature\":\"x\",\"kernel\":\"k\",\"runs\":0}]}");
	is_i64(ledger_load(&back, why, sizeof(why)), -EBADMSG, "0 runs is refused");
	ok(strstr(why, LEDGER_FILE) && strstr(why, "move it away"), "  naming the file: '%s'", why);
	fakefs_put(state, LEDGER_FILE, "{\"schema\":\"rafleet-bench/1\",\"runs\":[]}");
	is_i64(ledger_load(&back, why, sizeof(why)), -EBADMSG, "another schema is refused");
	fakefs_put(state, LEDGER_FILE, "{\"schema\"");
	is_i64(ledger_load(&back, why, sizeof(why)), -EBADMSG, "a truncated file is refused");
	fakefs_rm_tree(root);
	return tap_done();
}
