// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: seed 004's benchmark as its cover letter ran it, with each
 * of its two switches on and off in one boot.  A PROT_EXEC mapping of a
 * file of RET instructions, MADV_HUGEPAGE, a call at every PAGE_SIZE
 * offset: "cold" faults everything in from a cold cache (exec-cold);
 * "random" makes an unmeasured sweep, then calls at random pages
 * (exec-random); and, for the mmap_miss bypass, calls at random pages of
 * a cold mapping without MADV_HUGEPAGE (exec-random-cold), where the
 * misses pile up.  Four states: vm.readahead_exec_mmap_miss_bypass x
 * vm.readahead_exec_large_folio, each run cold, each run's data hashed
 * against O_DIRECT.
 *
 * Printed per run ("# 004" lines): the folios added by order, major
 * faults, page_cache_ra_order calls (the read-around and forced-THP
 * path), device requests and MiB, and the wall time with its ratio to
 * both switches on.  Asserted, on a kernel with 64K pages only, where the
 * cover letter measured (HPAGE_PMD_ORDER 13 above MAX_PAGECACHE_ORDER 11,
 * fault-around one page), clock-free:
 *   - exec-cold, large_folio on: at least 90 % of the pages come in
 *     folios of 2 MiB (order 5) or more (readahead ramps the order up
 *     from there), with at most a quarter of off's major faults and
 *     device requests;
 *   - exec-cold, large_folio off: no folio of 2 MiB (forced THP would
 *     need order 13);
 *   - exec-random-cold, bypass off: more major faults than on (past
 *     MMAP_LOTSAMISS misses the read-around stops for VM_EXEC too).  A
 *     cold sequential sweep never gets there: each read-around's second
 *     page is a hit, which takes a miss back.
 * On 4K pages (x86-64, arm64 4K) HPAGE_PMD_ORDER is 9 and fits, so both
 * states force PMD-order folios on a mapping with large folios: the
 * numbers are printed, the runs must complete and verify.
 *
 * usage: test_seed004 EXEC_FILE [READ_AHEAD_KB]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/sysmacros.h>

#include "host/blockdev.h"
#include "host/feature.h"
#include "bench/measure.h"
#include "bench/scenario.h"
#include "lib/fileio.h"
#include "tap.h"

#define SZ_2M (2UL << 20)

struct state {
	bool bypass, large_folio;
};

/* both on first: the ratios are to it */
static const struct state states[] = {
	{ true, true }, { true, false }, { false, true }, { false, false },
};
#define NR_STATES (int)(sizeof(states) / sizeof(states[0]))

static void show(const char *sc, const struct state *st, const struct run_result *r,
		 const struct run_result *base)
{
	char orders[256] = "";
	size_t n = 0;

	for (int o = 0; o < FOLIO_ORDERS; o++)
		if (r->folios_by_order[o] && n < sizeof(orders))
			n += snprintf(orders + n, sizeof(orders) - n, " o%d:%llu", o,
				      (unsigned long long)r->folios_by_order[o]);
	diag("004 %-11s bypass %-3s large_folio %-3s majflt %6llu ra_order %5llu blk_reads %6llu"
	     " MiB %4llu wall_ms %9.1f ratio %5.2f folios%s",
	     sc, st->bypass ? "on" : "off", st->large_folio ? "on" : "off",
	     (unsigned long long)r->majflt, (unsigned long long)r->ra_count[1],
	     (unsigned long long)r->block_reads,
	     (unsigned long long)(r->block_sectors * 512 >> 20), r->wall_ns / 1e6,
	     base->wall_ns ? (double)r->wall_ns / base->wall_ns : 0.0, orders);
}

/* pages added in folios of @order or larger */
static uint64_t pages_from(const struct run_result *r, int order)
{
	uint64_t n = 0;

	for (int o = order; o < FOLIO_ORDERS; o++)
		n += r->folios_by_order[o] << o;
	return n;
}

static uint64_t pages_all(const struct run_result *r)
{
	return pages_from(r, 0);
}

static bool run_states(struct measure_file *mf, const char *sc, struct run_result r[NR_STATES])
{
	const struct feature *bypass = feature_find("readahead_exec_mmap_miss_bypass");
	const struct feature *large = feature_find("readahead_exec_large_folio");
	const struct scenario *s = scenario_find(sc);
	/* 16 MiB of perf ring a CPU, whatever the page size */
	struct measure_opts o = { .verify = true, .seed = 1,
				  .ring_bytes = 16UL << 20 };
	bool good = true;

	if (!ok(bypass && large && s && feature_get(bypass) >= 0 && feature_get(large) >= 0,
		"%s: both switches of seed 004 and the scenario exist", sc))
		return false;
	for (int i = 0; i < NR_STATES; i++) {
		int err = feature_set(bypass, states[i].bypass);

		if (!err)
			err = feature_set(large, states[i].large_folio);
		memset(&r[i], 0, sizeof(r[i]));
		if (!err)
			err = measure_run(mf, s, &o, &r[i]);
		if (!ok(!err && !r[i].status, "%s bypass %s large_folio %s: ran (%s)", sc,
			states[i].bypass ? "on" : "off", states[i].large_folio ? "on" : "off",
			strerror(-(err ? err : r[i].status)))) {
			good = false;
			continue;
		}
		show(sc, &states[i], &r[i], &r[0]);
		good &= ok(r[i].folios.ok && r[i].block.ok && r[i].ra.ok,
			   "  folios, read-arounds and device reads counted");
		good &= is_u64(r[i].resident_after_evict, 0, "  the file was evicted first");
		good &= ok(r[i].verify.ok && r[i].verified,
			   "  read() and mmap() data match O_DIRECT");
	}
	feature_set(bypass, true);
	feature_set(large, true);
	return good;
}

int main(int argc, char **argv)
{
	struct measure_file mf;
	struct blockdev bd;
	struct run_result cold[NR_STATES], rnd[NR_STATES], rcold[NR_STATES];
	uint64_t ra_kb = argc > 2 ? strtoull(argv[2], NULL, 10) : 128;
	int o2m = page_order(SZ_2M, page_size());
	bool k64 = page_size() == 65536;

	if (argc < 2) {
		fprintf(stderr, "usage: test_seed004 EXEC_FILE [READ_AHEAD_KB]\n");
		return 2;
	}
	diag("004 page size %zu KiB: 2 MiB is order %d", page_size() >> 10, o2m);
	if (!ok(!measure_file_open(&mf, argv[1]), "%s can be measured", argv[1]) ||
	    !ok(!blockdev_from_dev(NULL, makedev(mf.dev_major, mf.dev_minor), &bd),
		"the disk under %s", argv[1]) ||
	    !ok(!blockdev_queue_set(&bd, "read_ahead_kb", ra_kb), "set %s read_ahead_kb %llu",
		bd.name, (unsigned long long)ra_kb))
		return tap_done();
	/* [0]: both on, [1]: large_folio off, [2]: bypass off, [3]: both off */
	if (run_states(&mf, "exec-cold", cold) && k64) {
		ok(pages_from(&cold[0], o2m) * 10 >= pages_all(&cold[0]) * 9,
		   "64K exec-cold, large_folio on: >= 90%% of pages in folios of 2 MiB or more (%llu of %llu)",
		   (unsigned long long)pages_from(&cold[0], o2m),
		   (unsigned long long)pages_all(&cold[0]));
		ok(cold[0].majflt * 4 <= cold[1].majflt && cold[0].block_reads * 4 <= cold[1].block_reads,
		   "64K exec-cold, large_folio on: major faults %llu and device reads %llu <= 1/4 of off's %llu and %llu",
		   (unsigned long long)cold[0].majflt, (unsigned long long)cold[0].block_reads,
		   (unsigned long long)cold[1].majflt, (unsigned long long)cold[1].block_reads);
		is_u64(pages_from(&cold[1], o2m), 0,
		       "64K exec-cold, large_folio off: no folio of 2 MiB (forced THP would need order 13)");
	}
	run_states(&mf, "exec-random", rnd);
	if (run_states(&mf, "exec-random-cold", rcold) && k64)
		ok(rcold[2].majflt > rcold[0].majflt,
		   "64K exec-random-cold: bypass off has more major faults (%llu) than on (%llu)",
		   (unsigned long long)rcold[2].majflt, (unsigned long long)rcold[0].majflt);
	return tap_done();
}
