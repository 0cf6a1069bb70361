// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: seed 000 (large folios in page_cache_ra_unbounded()) with
 * vm.readahead_unbounded_large_folios on and off in the same boot, cold
 * cache each run, on the file given (256 MiB on ext4 on virtio-blk).
 *
 *  - on: at least 100x fewer folios added to the page cache (on 64K
 *    pages, where a 1 MiB request is 16 pages, half the pages of a
 *    request: the folios are the request's size) and at least 10x fewer
 *    minor faults to touch an mmap of the file afterwards;
 *  - off: the same counts as Linux 7.3.4 without the patches, on a kernel
 *    of the same page size;
 *  - every run: read() and mmap() data hash like an O_DIRECT read.
 *
 * usage: test_seed000 FILE
 */
#include <stdio.h>
#include <string.h>

#include "host/feature.h"
#include "bench/measure.h"
#include "lib/fileio.h"
#include "bench/scenario.h"
#include "tap.h"

/*
 * Linux 7.3.4 (Debian's source, no patches, the same virt config), the same
 * 256 MiB file, measured in QEMU by `make vm-baseline`, which boots the
 * vanilla kernel with this very program in baseline mode and prints these
 * numbers: every folio of order 0, one per page, and one fault per
 * fault-around window (64 KiB) to touch the mapping.
 */
struct baseline {
	size_t page;
	const char *scenario;
	uint64_t folios_order0;
	uint64_t touch_minflt;
};

static const struct baseline vanilla_734[] = {
	{ 4096, "fadv-random-pread-1m", 65536, 4096 },
	{ 4096, "readahead-2m", 65536, 4096 },
	/* arm64 with 64K pages: make vm-baseline RAFLEET_ARCH=arm64 FLAVOR=virt-64k
	 * (7.3.4-0.vanilla+virt.64k): a folio a page, a fault a page */
	{ 65536, "fadv-random-pread-1m", 4096, 4096 },
	{ 65536, "readahead-2m", 4096, 4096 },
};

static const struct baseline *baseline_of(const char *scenario)
{
	for (size_t i = 0; i < sizeof(vanilla_734) / sizeof(vanilla_734[0]); i++)
		if (vanilla_734[i].page == page_size() && !strcmp(vanilla_734[i].scenario, scenario))
			return &vanilla_734[i];
	return NULL;
}

static void show(const struct run_result *r, const char *state)
{
	char orders[256] = "";
	size_t len = 0;

	for (int o = 0; o < FOLIO_ORDERS; o++)
		if (r->folios_by_order[o])
			len += snprintf(orders + len, sizeof(orders) - len,
					" o%d:%llu", o,
					(unsigned long long)r->folios_by_order[o]);
	diag("%-22s %-3s folios %llu (%s ) touch_minflt %llu block_reads %llu"
	     " MiB %llu wall_ms %.1f evict %s",
	     r->scenario->name, state,
	     (unsigned long long)r->folios_total, orders,
	     (unsigned long long)r->touch_minflt,
	     (unsigned long long)r->block_reads,
	     (unsigned long long)(r->block_sectors * 512 >> 20),
	     r->wall_ns / 1e6, r->evict);
}

static bool run(struct measure_file *mf, const struct scenario *s,
		const struct feature *f, bool on, struct run_result *r)
{
	struct measure_opts o = { .verify = true, .seed = 1,
					  .ring_bytes = 8UL << 20 };
	const char *state = on ? "on" : "off";

	if (f && !ok(!feature_set(f, on), "%s: set vm.%s=%d", s->name, f->name, on))
		return false;
	if (!ok(!measure_run(mf, s, &o, r) && !r->status,
		"%s %s: the workload ran", s->name, state))
		return false;
	show(r, state);
	is_u64(r->resident_after_evict, 0, "  the file was evicted before the run");
	if (!ok(r->folios.ok, "  folios were counted")) {
		diag("%s", r->folios.reason);
		return false;
	}
	ok(r->touch.ok, "  touching the mapping was counted");
	ok(r->verify.ok && r->verified,
	   "  read() and mmap() data match O_DIRECT (%s)",
	   r->verify.ok ? r->sha_direct : r->verify.reason);
	return true;
}

static void compare(const struct run_result *on, const struct run_result *off)
{
	const char *name = on->scenario->name;
	const struct baseline *b = baseline_of(name);
	/* 100x, or half the pages of a request where that is less (64K),
	 * and never less than 2x */
	uint64_t half = on->scenario->step / page_size() / 2;
	uint64_t fewer = half > 100 ? 100 : half < 2 ? 2 : half;

	ok(off->folios_total >= fewer * on->folios_total,
	   "%s: on adds >= %llux fewer folios (off %llu, on %llu)", name,
	   (unsigned long long)fewer, (unsigned long long)off->folios_total,
	   (unsigned long long)on->folios_total);
	ok(off->touch_minflt >= 10 * on->touch_minflt,
	   "%s: on takes >= 10x fewer minor faults to touch the mapping (off %llu, on %llu)",
	   name, (unsigned long long)off->touch_minflt,
	   (unsigned long long)on->touch_minflt);
	if (!ok(b, "%s: a 7.3.4 baseline is recorded for %zu KiB pages", name, page_size() >> 10))
		return;
	is_u64(off->folios_total, b->folios_order0, "  off: folios as on 7.3.4");
	is_u64(off->folios_by_order[0], b->folios_order0, "  off: all of order 0, as on 7.3.4");
	is_u64(off->touch_minflt, b->touch_minflt, "  off: touch faults as on 7.3.4");
}

/* Baseline mode: on a kernel without the sysctl, just measure and print. */
static int baseline_mode(struct measure_file *mf)
{
	for (size_t i = 0; i < sizeof(vanilla_734) / sizeof(vanilla_734[0]); i++) {
		const struct scenario *s = scenario_find(vanilla_734[i].scenario);
		struct run_result r;

		if (vanilla_734[i].page != page_size())
			continue;
		if (run(mf, s, NULL, false, &r))
			diag("baseline %zu KiB pages %s folios %llu order0 %llu touch_minflt %llu",
			       page_size() >> 10, s->name, (unsigned long long)r.folios_total,
			       (unsigned long long)r.folios_by_order[0],
			       (unsigned long long)r.touch_minflt);
	}
	return tap_done();
}

int main(int argc, char **argv)
{
	const struct feature *f = feature_find("readahead_unbounded_large_folios");
	const char *names[] = { "fadv-random-pread-1m", "readahead-2m" };
	struct measure_file mf;

	if (argc < 2) {
		fprintf(stderr, "usage: test_seed000 FILE [--baseline]\n");
		return 2;
	}
	if (!ok(!measure_file_open(&mf, argv[1]), "%s can be measured", argv[1]))
		return tap_done();
	if (argc > 2 && !strcmp(argv[2], "--baseline"))
		return baseline_mode(&mf);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct scenario *s = scenario_find(names[i]);
		struct run_result on, off;

		if (!ok(s, "scenario %s exists", names[i]))
			continue;
		if (run(&mf, s, f, true, &on) && run(&mf, s, f, false, &off))
			compare(&on, &off);
	}
	if (f)
		feature_set(f, true);
	return tap_done();
}
