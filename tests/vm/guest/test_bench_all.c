// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: every scenario of rafleet bench, with the feature of its
 * seed on and then off (fio jobs: every feature on, then every one off),
 * cold cache each run (one run where the kernel lacks the sysctl).  Each
 * run must complete and its data must verify;
 * the numbers are printed as a table (the "# bench" lines).
 *
 * usage: test_bench_all FILE   (FILE.exec must hold RET instructions)
 */
#include <stdio.h>
#include <string.h>

#include "host/feature.h"
#include "bench/measure.h"
#include "lib/fileio.h"
#include "bench/scenario.h"
#include "tap.h"

/* The feature each seed's scenarios judge; NULL: all of them (fio). */
static const char *feature_of(const struct scenario *s)
{
	if (!strcmp(s->seed, "000"))
		return "readahead_unbounded_large_folios";
	if (!strcmp(s->seed, "001"))
		return "readahead_async_two_windows";
	if (!strcmp(s->seed, "002"))
		return "readahead_async_keep_half";
	if (!strcmp(s->seed, "003"))
		return "readahead_populate_io_pages";
	if (!strcmp(s->name, "exec-random"))
		return "readahead_exec_mmap_miss_bypass";
	if (!strcmp(s->seed, "004"))
		return "readahead_exec_large_folio";
	return NULL;
}

/* Set the scenario's feature(s); false if this kernel has none of them. */
static bool set_features(const struct scenario *s, bool on)
{
	const char *name = feature_of(s);
	bool any = false;

	for (int i = 0; i < nr_features; i++) {
		if (name && strcmp(features[i].name, name))
			continue;
		if (feature_get(&features[i]) >= 0 && !feature_set(&features[i], on))
			any = true;
	}
	return any;
}

static void row(const struct run_result *r, const char *state)
{
	uint64_t large = 0;

	for (int o = 1; o < FOLIO_ORDERS; o++)
		large += r->folios_by_order[o];
	diag("bench %-22s %-3s folios %7llu order>0 %6llu blk_reads %6llu MiB %4llu"
	     " touch %6llu minflt %7llu majflt %5llu sys_ms %7.1f wall_ms %8.1f",
	     r->scenario->name, state,
	     (unsigned long long)r->folios_total, (unsigned long long)large,
	     (unsigned long long)r->block_reads,
	     (unsigned long long)(r->block_sectors * 512 >> 20),
	     (unsigned long long)r->touch_minflt, (unsigned long long)r->minflt,
	     (unsigned long long)r->majflt, r->sys_ns / 1e6, r->wall_ns / 1e6);
}

int main(int argc, char **argv)
{
	char exec_path[512];
	struct measure_file data, exec;

	if (argc < 2) {
		fprintf(stderr, "usage: test_bench_all FILE\n");
		return 2;
	}
	snprintf(exec_path, sizeof(exec_path), "%s.exec", argv[1]);
	if (!ok(!measure_file_open(&data, argv[1]) &&
		!measure_file_open(&exec, exec_path), "%s and %s can be measured",
		argv[1], exec_path))
		return tap_done();
	diag("bench %-22s %-3s (the feature of each seed; fio: all features)", "scenario", "");

	for (int i = 0; i < nr_scenarios; i++) {
		const struct scenario *s = &scenarios[i];
		struct measure_file *mf = s->file == FILE_EXEC ? &exec : &data;
		struct measure_opts o = { .verify = true, .seed = 1,
					  .ring_bytes = 8UL << 20 };

		uint64_t reads_on = 0;

		for (int on = 1; on >= 0; on--) {
			const char *state = on ? "on" : "off";
			struct run_result r;

			if (!set_features(s, on)) {
				/* no such sysctl in this kernel: one plain run */
				if (!on)
					continue;
				state = "n/a";
				diag("%s: this kernel has no vm.%s", s->name, feature_of(s));
			}
			int err = measure_run(mf, s, &o, &r);

			if (!ok(!err && !r.status, "%s %s: the workload ran (%s)",
				s->name, state, strerror(-(err ? err : r.status))))
				continue;
			row(&r, state);
			ok(r.folios.ok, "  folios were counted%s%s",
			   r.folios.ok ? "" : ": ", r.folios.ok ? "" : r.folios.reason);
			/* a cold run that reads adds folios and reads the device:
			 * 0 would mean the counters missed this filesystem */
			if (!s->warm_first)
				ok(r.folios_total > 0 && r.block.ok && r.block_reads > 0,
				   "  a cold run added folios (%llu) and read the device (%llu)",
				   (unsigned long long)r.folios_total,
				   (unsigned long long)r.block_reads);
			ok(r.verify.ok && r.verified, "  read() and mmap() data match O_DIRECT");
			/*
			 * populating in device-sized windows never costs more
			 * requests than the faults made, on any filesystem.
			 * The device counts the filesystem's metadata reads
			 * too, a few requests either way: btrfs, whose off run
			 * reads in large folios as well, once made 24 on
			 * against 21 off (ext4: 16 against 257), hence 10 %
			 * or 4 requests at least.
			 */
			if (s->kind == SC_POPULATE && on && r.block.ok)
				reads_on = r.block_reads;
			if (s->kind == SC_POPULATE && !on && reads_on) {
				uint64_t slack = r.block_reads / 10 > 4 ? r.block_reads / 10 : 4;

				ok(reads_on <= r.block_reads + slack,
				   "  populate on reads in no more requests than off (%llu vs %llu, +%llu allowed)",
				   (unsigned long long)reads_on,
				   (unsigned long long)r.block_reads, (unsigned long long)slack);
			}
			if (s->kind == SC_FIO)
				ok(r.fio.ok, "  fio ran and its JSON was read%s%s",
				   r.fio.ok ? "" : ": ", r.fio.reason);
		}
		set_features(s, true);
	}
	return tap_done();
}
