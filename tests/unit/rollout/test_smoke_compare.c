// SPDX-License-Identifier: GPL-2.0
/*
 * The smoke run's clock-free verdict (rollout/smoke_compare.c), on bench
 * JSON of the shapes a 32 MiB seq-read and populate-read give: equal
 * counts agree; the device's requests and bytes are reported, not
 * judged; read_ahead_kb 128 against 4096 (folio orders, major faults) is
 * beyond in two measurements, a fluke in one is not; a
 * scenario on one side only and a counter measured on one side only are
 * errors, never a pass; the baseline's key (kernel, scenarios, file,
 * size, repeat, every feature off) and a stale baseline found so.
 *
 * Then a simulation of the real comparison (20,000 trials a cell, fixed
 * seed): A/A counts with run-to-run jitter, how often one measurement is
 * beyond and how often the two-measurement rule fails the kernel; and the
 * read_ahead_kb 128 regression under the same jitter, how often it fails
 * it; and that a +10 % block-request change alone, the device's, fails
 * nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "rollout/smoke_compare.h"
#include "sim.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-smokecmp-XXXXXX";

/* One run's counters: the shape of bench's JSON for one scenario. */
struct shape {
	double majflt, reqs, bytes;
	double order[FOLIO_ORDERS];	/* folios added, by order */
};

/*
 * 32 MiB read in order with every feature off.  read_ahead_kb 4096 on a
 * virtio disk (max_sectors_kb 1280): windows of up to 2 MiB (order-9
 * folios) split into 1280 KiB requests; read_ahead_kb 128: 128 KiB
 * windows, order-5 folios at most, one request each.
 */
static const struct shape seq_4096 = {
	0, 40, 33562624, { [0] = 4, [2] = 2, [4] = 2, [5] = 4, [7] = 4, [8] = 4, [9] = 12 },
};
static const struct shape seq_128 = {
	0, 258, 33562624, { [0] = 4, [2] = 2, [4] = 2, [5] = 254 },
};
/* MAP_POPULATE of the same file: a major fault per window it waits on */
static const struct shape pop_4096 = {
	17, 41, 33562624, { [0] = 5, [2] = 2, [4] = 2, [5] = 4, [7] = 4, [8] = 4, [9] = 12 },
};
static const struct shape pop_128 = {
	256, 259, 33562624, { [0] = 5, [2] = 2, [4] = 2, [5] = 254 },
};

static double folios_of(const struct shape *s)
{
	double t = 0;

	for (int o = 0; o < FOLIO_ORDERS; o++)
		t += s->order[o];
	return t;
}

/* bench's JSON of @n scenarios, each with @runs runs of its shape; @null_folios */
static char *bench_json(const char *kernel, const char *const *names, const struct shape *sh,
			int n, int runs, int feat, bool null_folios, long long size)
{
	size_t cap = 1 << 16, len = 0;
	char *b = malloc(cap);

#define P(...) (len += (size_t)snprintf(b + len, cap - len, __VA_ARGS__))
	P("{\"schema\":\"rafleet-bench/1\",\"kernel\":\"%s\",\"scenarios\":[", kernel);
	for (int i = 0; i < n; i++) {
		P("%s{\"scenario\":\"%s\",\"seed\":\"000\",\"file\":\"/var/lib/rafleet/smoke.dat\",\"size\":%lld,\"runs\":[",
		  i ? "," : "", names[i], size);
		for (int r = 0; r < runs; r++) {
			P("%s{\"sysctls\":{\"vm.readahead_unbounded_large_folios\":%d,\"vm.readahead_exec_large_folio\":%s},",
			  r ? "," : "", feat, feat ? "1" : "null");
			P("\"status\":0,\"wall_ns\":%d,\"major_faults\":%.0f,", 1000000 + r, sh[i].majflt);
			if (null_folios)
				P("\"folios\":null,\"folios_null_reason\":\"no tracefs mounted\",");
			else {
				P("\"folios\":{\"total\":%.0f,\"by_order\":{", folios_of(&sh[i]));
				for (int o = 0, c = 0; o < FOLIO_ORDERS; o++)
					if (sh[i].order[o])
						P("%s\"%d\":%.0f", c++ ? "," : "", o, sh[i].order[o]);
				P("}},");
			}
			P("\"block\":{\"device\":\"vda\",\"read_requests\":%.0f,\"read_bytes\":%.0f}}",
			  sh[i].reqs, sh[i].bytes);
		}
		P("],\"summary\":{\"runs\":%d,\"wall_ns\":{\"median\":1000000,\"min\":1,\"max\":1,\"n\":%d}}}",
		  runs, runs);
	}
	P("]}");
#undef P
	return b;
}

static const char *const two[] = { "seq-read", "populate-read" };

static void parsed(const char *kernel, const struct shape *sh, int n, int runs, int feat,
		   bool null_folios, struct smoke_run *run)
{
	char why[256], *j = bench_json(kernel, two, sh, n, runs, feat, null_folios, 33554432);

	if (smoke_parse(j, run, why, sizeof(why)))
		diag("parse: %s", why);
	free(j);
}

static void test_parse(void)
{
	struct smoke_run *run = malloc(sizeof(*run));
	const struct shape sh[] = { seq_4096, pop_4096 };

	parsed("7.3.4-vanilla", sh, 2, 3, 0, false, run);
	ok(run->nr == 2 && !strcmp(run->kernel, "7.3.4-vanilla") && run->sc[0].nr_runs == 3 &&
	   run->sc[1].size == 33554432 && !strcmp(run->sc[1].file, "/var/lib/rafleet/smoke.dat"),
	   "bench JSON: kernel, scenarios, runs, file, size");
	ok(run->sc[0].count[2][SMOKE_BLOCK_REQUESTS] == 40 &&
	   run->sc[1].count[0][SMOKE_MAJOR_FAULTS] == 17 &&
	   run->sc[0].count[1][SMOKE_BLOCK_BYTES] == 33562624 &&
	   run->sc[0].count[0][SMOKE_FOLIOS] == folios_of(&seq_4096) &&
	   run->sc[0].count[0][SMOKE_FOLIO_ORDER0 + 9] == 12,
	   "  run by run: block requests and bytes, major faults, folios, by order");
	ok(run->sc[0].count[0][SMOKE_FOLIO_ORDER0 + 1] == 0 && run->sc[0].features_on == 0,
	   "  an order bench left out is 0; every feature off in every run");
	parsed("x", sh, 1, 2, 1, true, run);
	ok(run->sc[0].count[0][SMOKE_FOLIOS] < 0 && run->sc[0].count[1][SMOKE_FOLIO_ORDER0] < 0 &&
	   run->sc[0].count[0][SMOKE_BLOCK_REQUESTS] == 40 && run->sc[0].features_on == 2,
	   "  folios null: not measured (< 0), not 0; features on counted");
	free(run);
}

static void test_compare(void)
{
	struct smoke_run *base = malloc(sizeof(*base)), *run = malloc(sizeof(*run));
	const struct shape good[] = { seq_4096, pop_4096 }, bad[] = { seq_128, pop_128 };
	struct smoke_cmp c1, c2;
	struct smoke_diff d;
	char name[32];

	ok(smoke_tolerance(256, 0) == 5.12 && smoke_tolerance(40, 0) == 4 &&
	   smoke_tolerance(40, 3) == 9 && smoke_tolerance(0, 0) == 4,
	   "tolerance max(3 x range, 2 %%, 4): 256 -> 5.12, 40 -> 4, range 3 -> 9, 0 -> 4");

	parsed("7.3.4-vanilla", good, 2, 3, 0, false, base);
	parsed("7.3.4-rafleet", good, 2, 3, 0, false, run);
	smoke_compare(base, run, &c1);
	ok(!c1.err && c1.compared == 2 * (SMOKE_NR_COUNTERS - 2) && !c1.nr_beyond &&
	   c1.worst_ratio == 0 && c1.dev_compared == 4 && !c1.dev_beyond,
	   "equal counts: %d counters judged, none beyond; the device's 4 reported", c1.compared);
	ok(!smoke_counter_judged(SMOKE_BLOCK_REQUESTS) && !smoke_counter_judged(SMOKE_BLOCK_BYTES) &&
	   smoke_counter_judged(SMOKE_MAJOR_FAULTS) && smoke_counter_judged(SMOKE_FOLIOS) &&
	   smoke_counter_judged(SMOKE_FOLIO_ORDER0 + 9),
	   "judged: major faults and folios; not the device's requests and bytes");

	/*
	 * The device's requests tripled, as a trial boot's other readers made
	 * them in the rollout guest (36 against 12, the same kernel): reported,
	 * never a failure.
	 */
	for (int r = 0; r < 3; r++)
		run->sc[0].count[r][SMOKE_BLOCK_REQUESTS] = 3 * 40;
	smoke_compare(base, run, &c1);
	ok(!c1.err && !c1.nr_beyond && c1.dev_beyond == 1 &&
	   c1.dev_worst.counter == SMOKE_BLOCK_REQUESTS && c1.dev_worst.trial == 120,
	   "the device's requests x3: reported (%d beyond, worst %.0f against %.0f), not judged",
	   c1.dev_beyond, c1.dev_worst.trial, c1.dev_worst.base);
	/* a judged counter: one run off by a few folios, the median does not move */
	run->sc[0].count[1][SMOKE_FOLIO_ORDER0 + 9] = 19;
	base->sc[0].count[2][SMOKE_FOLIO_ORDER0 + 9] = 14;	/* baseline range 2 */
	smoke_compare(base, run, &c1);
	ok(!c1.err && !c1.nr_beyond, "a few order-9 folios more in one run, a range of 2: within");
	run->sc[0].count[0][SMOKE_FOLIO_ORDER0 + 9] = 19;	/* median 19: 7 > max(6, 4) */
	smoke_compare(base, run, &c1);
	ok(c1.nr_beyond == 1 && c1.beyond[0].counter == SMOKE_FOLIO_ORDER0 + 9 &&
	   !strcmp(c1.beyond[0].scenario, "seq-read") && c1.beyond[0].tol == 6,
	   "  7 more in the median, beyond 3 x range 2: folios_order_9 of seq-read");

	parsed("7.3.4-rafleet", bad, 2, 3, 0, false, run);
	smoke_compare(base, run, &c1);
	ok(!c1.err && c1.nr_beyond >= 6, "read_ahead_kb 128 against 4096: %d counters beyond",
	   c1.nr_beyond);
	ok(!strcmp(smoke_counter_name(c1.worst.counter, name, sizeof(name)), "folios_order_5") ||
	   !strcmp(name, "folios") || !strcmp(name, "block_read_requests") ||
	   !strcmp(name, "major_faults"),
	   "  the worst: %s of %s, %.0f against %.0f", name, c1.worst.scenario, c1.worst.trial,
	   c1.worst.base);
	parsed("7.3.4-rafleet", bad, 2, 3, 0, false, run);
	smoke_compare(base, run, &c2);
	memset(&d, 0, sizeof(d));
	bool twice = smoke_beyond_twice(&c1, &c2, &d);

	ok(twice && d.trial > d.base && !strcmp(d.scenario, c1.beyond[0].scenario) &&
	   d.counter == c1.beyond[0].counter,
	   "  twice: the kernel fails (%s of %s, the first beyond both times)",
	   smoke_counter_name(d.counter, name, sizeof(name)), d.scenario);
	parsed("7.3.4-rafleet", good, 2, 3, 0, false, run);
	smoke_compare(base, run, &c2);
	ok(!smoke_beyond_twice(&c1, &c2, &d), "  once, then agreeing: a fluke, no failure");

	/* a scenario on one side only */
	parsed("7.3.4-rafleet", good, 1, 3, 0, false, run);
	smoke_compare(base, run, &c1);
	ok(c1.err == -ENOENT && !strcmp(c1.error, "scenario populate-read is in the baseline but was not measured in this run"),
	   "a scenario missing from the run: an error (%s)", c1.error);
	smoke_compare(run, base, &c1);
	ok(c1.err == -ENOENT && strstr(c1.error, "populate-read was measured but is not in the baseline"),
	   "  a scenario missing from the baseline: an error");
	/* the case that passed 9x slower: no scenario in common */
	snprintf(run->sc[0].name, sizeof(run->sc[0].name), "readahead-2m");
	smoke_compare(base, run, &c1);
	ok(c1.err == -ENOENT, "  no scenario in common: an error, not a pass");

	/* a counter measured on one side only */
	parsed("7.3.4-rafleet", good, 2, 3, 0, true, run);
	smoke_compare(base, run, &c1);
	ok(c1.err == -ENODATA && !strcmp(c1.error, "folios of seq-read was measured in the baseline only"),
	   "folios not measured in the run: an error (%s)", c1.error);
	free(base);
	free(run);
}

static void test_key(void)
{
	struct smoke_config c = { .scenarios = "  seq-read\tpopulate-read ", .file = "/var/lib/rafleet/smoke.dat",
				  .size = "32M", .repeat = "3" };
	const struct shape good[] = { seq_4096, pop_4096 };
	struct smoke_run *run = malloc(sizeof(*run));
	struct smoke_key want, have;
	char why[256], h1[17], h2[17], path[sizeof(tmp) + 16], *j;

	is_i64(smoke_key_of_config(&c, "7.3.4-vanilla", &want, why, sizeof(why)), 0, "the key of smoke.conf");
	ok(!strcmp(want.scenarios, "seq-read populate-read") && want.size == 33554432 && want.repeat == 3,
	   "  scenarios one space apart, size in bytes, repeat");
	parsed("7.3.4-vanilla", good, 2, 3, 0, false, run);
	smoke_key_of_run(run, &have);
	ok(smoke_key_match(&want, &have, why, sizeof(why)), "  a baseline of that smoke.conf on that kernel matches");
	smoke_key_hash(&want, h1);
	smoke_key_hash(&have, h2);
	ok(strlen(h1) == 16 && !strcmp(h1, h2), "  the same hash (%s)", h1);

	parsed("7.3.4-rafleet", good, 2, 3, 0, false, run);
	smoke_key_of_run(run, &have);
	ok(!smoke_key_match(&want, &have, why, sizeof(why)) &&
	   !strcmp(why, "it was measured on 7.3.4-rafleet, not 7.3.4-vanilla"), "another kernel: %s", why);
	parsed("7.3.4-vanilla", good, 1, 3, 0, false, run);
	smoke_key_of_run(run, &have);
	ok(!smoke_key_match(&want, &have, why, sizeof(why)) &&
	   !strcmp(why, "its scenarios are 'seq-read', not 'seq-read populate-read'"), "other scenarios: %s", why);
	parsed("7.3.4-vanilla", good, 2, 5, 0, false, run);
	smoke_key_of_run(run, &have);
	ok(!smoke_key_match(&want, &have, why, sizeof(why)) &&
	   !strcmp(why, "it ran each scenario 5 times, not 3"), "another repeat: %s", why);
	parsed("7.3.4-vanilla", good, 2, 3, 1, false, run);
	smoke_key_of_run(run, &have);
	ok(!smoke_key_match(&want, &have, why, sizeof(why)) &&
	   !strcmp(why, "6 of its runs had a vm.readahead_* feature on"), "features on: %s", why);
	snprintf(c.size, sizeof(c.size), "64M");
	smoke_key_of_config(&c, "7.3.4-vanilla", &want, why, sizeof(why));
	smoke_key_hash(&want, h2);
	ok(strcmp(h1, h2), "  another size, another hash");

	/* stage: a baseline of the smoke.conf before is stale, measured again */
	snprintf(path, sizeof(path), "%s/baseline.json", tmp);
	ok(!smoke_baseline_fresh(path, &want, why, sizeof(why)) && !strcmp(why, "there is none"),
	   "stage: no baseline file: measure it (%s)", why);
	j = bench_json("7.3.4-vanilla", two, good, 2, 3, 0, false, 33554432);
	fakefs_put(tmp, "baseline.json", j);
	free(j);
	ok(!smoke_baseline_fresh(path, &want, why, sizeof(why)) &&
	   !strcmp(why, "its file was 33554432 bytes, not 67108864"),
	   "  smoke.conf's size went from 32M to 64M: stale, measure it again (%s)", why);
	snprintf(c.size, sizeof(c.size), "32M");
	smoke_key_of_config(&c, "7.3.4-vanilla", &want, why, sizeof(why));
	ok(smoke_baseline_fresh(path, &want, why, sizeof(why)), "  the same key: kept");
	fakefs_put(tmp, "baseline.json", "{\"scenarios\": 3}");
	ok(!smoke_baseline_fresh(path, &want, why, sizeof(why)), "  an unreadable one: measured again (%s)", why);
	snprintf(c.repeat, sizeof(c.repeat), "0");
	is_i64(smoke_key_of_config(&c, "x", &want, why, sizeof(why)), -EINVAL, "RAFLEET_SMOKE_REPEAT=0: refused");
	free(run);
}

/* ---- the simulation ---- */

struct jitter {
	const char *name;
	double sd;		/* relative, of every counter */
	double p_burst;		/* a run with other readers on the disk */
	double burst;		/* their mean requests (exponential), 32 KiB each */
};

/* One run of @sh with @j into @out's run @r. */
static void sim_run(struct sim_rng *g, const struct shape *sh, const struct jitter *j,
		    struct smoke_scenario *out, int r)
{
	double *c = out->count[r], t = 0, extra = 0;

	c[SMOKE_MAJOR_FAULTS] = fmax(0, round(sh->majflt * (1 + j->sd * sim_normal(g))));
	for (int o = 0; o < FOLIO_ORDERS; o++) {
		/* the boundaries move a folio or two between orders, never the bytes much */
		double v = sh->order[o] ? round(sh->order[o] * (1 + j->sd * sim_normal(g))) : 0;

		c[SMOKE_FOLIO_ORDER0 + o] = fmax(0, v);
		t += c[SMOKE_FOLIO_ORDER0 + o];
	}
	c[SMOKE_FOLIOS] = t;
	if (sim_uniform(g) < j->p_burst)
		extra = round(sim_exponential(g, j->burst));
	c[SMOKE_BLOCK_REQUESTS] = fmax(1, round(sh->reqs * (1 + j->sd * sim_normal(g)))) + extra;
	c[SMOKE_BLOCK_BYTES] = sh->bytes + 32768 * extra;
}

static void sim_measure(struct sim_rng *g, const struct shape *sh, const struct jitter *j,
			int runs, struct smoke_run *out)
{
	out->nr = 2;
	for (int s = 0; s < 2; s++) {
		snprintf(out->sc[s].name, sizeof(out->sc[s].name), "%s", two[s]);
		out->sc[s].nr_runs = runs;
		for (int r = 0; r < runs; r++)
			sim_run(g, &sh[s], j, &out->sc[s], r);
	}
}

/* Fraction of @n trials where one measurement is beyond, and where the kernel fails. */
static void sim_cell(const struct jitter *j, const struct shape *base_sh, const struct shape *trial_sh,
		     int runs, int n, double *once, double *fail)
{
	struct smoke_run *b = malloc(sizeof(*b)), *t = malloc(sizeof(*t));
	struct smoke_cmp c1, c2;
	struct smoke_diff d;
	struct sim_rng g;
	int n_once = 0, n_fail = 0;

	sim_seed(&g, 17);
	memset(b, 0, sizeof(*b));
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++) {
		sim_measure(&g, base_sh, j, runs, b);
		sim_measure(&g, trial_sh, j, runs, t);
		smoke_compare(b, t, &c1);
		if (!c1.nr_beyond)
			continue;
		n_once++;
		sim_measure(&g, trial_sh, j, runs, t);
		smoke_compare(b, t, &c2);
		n_fail += smoke_beyond_twice(&c1, &c2, &d);
	}
	*once = (double)n_once / n;
	*fail = (double)n_fail / n;
	free(b);
	free(t);
}

static void test_simulation(void)
{
	const struct jitter jit[] = {
		{ "quiet: 0.5 % sd", 0.005, 0, 0 },
		{ "realistic: 1 % sd, 10 % of runs +exp(4) requests", 0.01, 0.10, 4 },
		{ "noisy: 2 % sd, 25 % of runs +exp(8) requests", 0.02, 0.25, 8 },
	};
	const struct shape good[] = { seq_4096, pop_4096 }, ra128[] = { seq_128, pop_128 };
	struct shape plus10[2] = { seq_4096, pop_4096 };
	const int n = 20000;
	double once, fail;

	plus10[0].reqs = round(plus10[0].reqs * 1.10);
	plus10[1].reqs = round(plus10[1].reqs * 1.10);
	diag("smoke counters, 2 scenarios x %d counters, 3 runs a side, %d trials a cell (seed 17):",
	     SMOKE_NR_COUNTERS, n);
	diag("%-52s %-16s %10s %10s", "jitter", "trial", "1st beyond", "fails");
	for (size_t k = 0; k < sizeof(jit) / sizeof(jit[0]); k++) {
		sim_cell(&jit[k], good, good, 3, n, &once, &fail);
		diag("%-52s %-16s %9.3f%% %9.3f%%", jit[k].name, "A/A", 100 * once, 100 * fail);
		if (k < 2)
			ok(fail <= 0.001, "A/A, %s: the kernel fails in %.3f %% of trials (<= 0.1 %%)",
			   jit[k].name, 100 * fail);
		else
			ok(fail <= 0.01, "A/A, %s: fails in %.3f %% (<= 1 %%)", jit[k].name, 100 * fail);
		sim_cell(&jit[k], good, ra128, 3, n, &once, &fail);
		diag("%-52s %-16s %9.3f%% %9.3f%%", jit[k].name, "read_ahead_kb 128", 100 * once, 100 * fail);
		ok(fail >= 0.999, "  read_ahead_kb 128 against 4096: fails in %.3f %% (>= 99.9 %%)", 100 * fail);
		sim_cell(&jit[k], good, plus10, 3, n, &once, &fail);
		diag("%-52s %-16s %9.3f%% %9.3f%%", jit[k].name, "+10 % requests", 100 * once, 100 * fail);
		ok(fail == 0, "  +10 %% of the device's requests alone: not judged, fails %.3f %%",
		   100 * fail);
	}
	/* one run a side (test_trial_failures' smoke.conf): no spread, the floors alone */
	sim_cell(&jit[1], good, good, 1, n, &once, &fail);
	diag("%-52s %-16s %9.3f%% %9.3f%%", "realistic, 1 run a side", "A/A", 100 * once, 100 * fail);
}

int main(void)
{
	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	test_parse();
	test_compare();
	test_key();
	test_simulation();
	fakefs_rm_tree(tmp);
	return tap_done();
}
