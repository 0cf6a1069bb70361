// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: each readahead feature on and off in one boot, in the
 * setup its seed measured, cold cache each run.  Each check is the
 * clock-free count the seed's table moves, with a margin well inside what
 * was measured (the "# feature" lines print the numbers), and every run's
 * data must hash like an O_DIRECT read.
 *
 * The claims are the 4K-page kernel's (x86-64, arm64 4K).  On 64K pages
 * (arm64 virt-64k), measured there, three read otherwise, for reasons of
 * the page size alone: seed 002's trim does not arise (a 1 MiB read is 16
 * pages: on and off read alike with max_sectors_kb 512), the bypass of
 * seed 004 keeps a read-around of two pages (read_ahead_kb 128), not 32,
 * and the PMD order (13) is above MAX_PAGECACHE_ORDER, so off forces no
 * PMD-order readahead.  Any other page size: the numbers, not the claims.
 *
 * usage: test_features EXT4_DIR XFS_DIR EXT4_DATA_JOURNAL_DIR
 *   EXT4_DIR/file256(.exec), XFS_DIR/file512 and file1024,
 *   EXT4_DATA_JOURNAL_DIR/file64.exec (a mapping without large folios)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/sysmacros.h>

#include "host/blockdev.h"
#include "host/feature.h"
#include "bench/measure.h"
#include "lib/fileio.h"
#include "bench/scenario.h"
#include "tap.h"

#define NR_CASES 2	/* on, off */

/* the page sizes whose claims are stated below */
#define PAGE_4K (page_size() == 4096)
#define PAGE_64K (page_size() == 65536)
/* the orders of 512 KiB and 2 MiB folios: 7 and 9 on 4K pages, 3 and 5 on 64K */
#define O_512K page_order(512 << 10, page_size())
#define O_2M page_order(2 << 20, page_size())

struct setup {
	const char *file;
	uint64_t max_sectors_kb;	/* 0: leave */
	uint64_t read_ahead_kb;
};

/* Set the queue of the disk under @file as @s says (max_sectors_kb first:
 * writing it resets read_ahead_kb in 7.3). */
static bool apply(const struct setup *s, struct measure_file *mf)
{
	struct blockdev bd;
	uint64_t hw = 0;

	if (!ok(!measure_file_open(mf, s->file), "%s can be measured", s->file))
		return false;
	if (!ok(!blockdev_from_dev(NULL, makedev(mf->dev_major, mf->dev_minor), &bd),
		"the disk under %s", s->file))
		return false;
	if (s->max_sectors_kb) {
		blockdev_queue_get(&bd, "max_hw_sectors_kb", &hw);
		if (!ok(hw >= s->max_sectors_kb, "%s allows max_sectors_kb %llu (max_hw_sectors_kb %llu)",
			bd.name, (unsigned long long)s->max_sectors_kb, (unsigned long long)hw))
			return false;
		if (!ok(!blockdev_queue_set(&bd, "max_sectors_kb", s->max_sectors_kb),
			"set %s max_sectors_kb %llu", bd.name, (unsigned long long)s->max_sectors_kb))
			return false;
	}
	return ok(!blockdev_queue_set(&bd, "read_ahead_kb", s->read_ahead_kb),
		  "set %s read_ahead_kb %llu", bd.name, (unsigned long long)s->read_ahead_kb);
}

static uint64_t large(const struct run_result *r, int order)
{
	return order < FOLIO_ORDERS ? r->folios_by_order[order] : 0;
}

static void show(const char *what, const struct run_result *r, const char *state)
{
	diag("feature %-34s %-3s folios %6llu 512K %5llu 2M %4llu blk_reads %6llu MiB %4llu"
	     " majflt %5llu ra_order %5llu async %5llu wall_ms %8.1f",
	     what, state, (unsigned long long)r->folios_total,
	     (unsigned long long)large(r, O_512K),
	     (unsigned long long)large(r, O_2M),
	     (unsigned long long)r->block_reads,
	     (unsigned long long)(r->block_sectors * 512 >> 20),
	     (unsigned long long)r->majflt, (unsigned long long)r->ra_count[1],
	     (unsigned long long)r->ra_count[3], r->wall_ns / 1e6);
}

/*
 * Run @sc on @mf with feature @fname on, then off; fill @r[0] (on) and
 * @r[1] (off).  Every run must complete, be counted, and verify.
 */
static bool on_off(const char *what, const char *fname, struct measure_file *mf,
		   const char *sc, struct run_result r[NR_CASES])
{
	const struct feature *f = feature_find(fname);
	const struct scenario *s = scenario_find(sc);
	struct measure_opts o = { .verify = true, .seed = 1,
					  .ring_bytes = 16UL << 20 };
	bool good = true;

	if (!ok(f && s && feature_get(f) >= 0, "%s: vm.%s and %s exist", what, fname, sc))
		return false;
	for (int i = 0; i < NR_CASES; i++) {
		const char *state = i == 0 ? "on" : "off";
		int err = feature_set(f, i == 0);

		if (!err)
			err = measure_run(mf, s, &o, &r[i]);
		if (!ok(!err && !r[i].status, "%s %s: ran (%s)", what, state,
			strerror(-(err ? err : r[i].status)))) {
			good = false;
			continue;
		}
		show(what, &r[i], state);
		good &= ok(r[i].folios.ok && r[i].block.ok, "  %s %s: folios and device reads counted",
			   what, state);
		good &= is_u64(r[i].resident_after_evict, 0, "  the file was evicted first");
		good &= ok(r[i].verify.ok && r[i].verified,
			   "  %s %s: read() and mmap() data match O_DIRECT", what, state);
	}
	feature_set(f, true);
	return good;
}

/* a <= b * num / den, said with the numbers */
static void at_most(const char *what, uint64_t a, uint64_t b, unsigned num,
		    unsigned den, const char *count)
{
	ok(a * den <= b * num, "%s: %s on %llu <= %u/%u of off %llu", what, count,
	   (unsigned long long)a, num, den, (unsigned long long)b);
}

/* at_most() with the bound of this page size's claim: 4K's or 64K's; on
 * another page size, no claim (the "# feature" lines have the numbers) */
static void at_most_paged(const char *what, uint64_t a, uint64_t b, unsigned num4k,
			  unsigned den4k, unsigned num64k, unsigned den64k, const char *count)
{
	if (PAGE_4K)
		at_most(what, a, b, num4k, den4k, count);
	else if (PAGE_64K)
		at_most(what, a, b, num64k, den64k, count);
	else
		diag("%s: %s %llu against %llu: no claim for %zu KiB pages", what, count,
		     (unsigned long long)a, (unsigned long long)b, page_size() >> 10);
}

static void seed001(const char *ext4)
{
	struct setup su = { .read_ahead_kb = 8192 };
	struct measure_file mf;
	struct run_result r[NR_CASES];
	char file[256];

	snprintf(file, sizeof(file), "%s/file256", ext4);
	su.file = file;
	if (!apply(&su, &mf))
		return;
	if (on_off("001 pcopy 1 thread from 1/8", "readahead_async_two_windows", &mf,
		   "pcopy-1t-skip", r)) {
		at_most("001 pcopy 1 thread", r[0].majflt, r[1].majflt, 1, 2,
			"synchronous read-arounds (major faults)");
		ok(r[1].majflt >= 8, "001 pcopy 1 thread: off still reads around synchronously (%llu)",
		   (unsigned long long)r[1].majflt);
	}
	if (on_off("001 pcopy 4 threads", "readahead_async_two_windows", &mf,
		   "pcopy-4t", r))
		at_most("001 pcopy 4 threads", r[0].majflt, r[1].majflt, 1, 2,
			"synchronous read-arounds (major faults)");
	su.read_ahead_kb = 128;
	apply(&su, &mf);
}

static void seed002(const char *xfs)
{
	struct setup su = { .read_ahead_kb = 128 };
	struct measure_file mf;
	struct run_result r[NR_CASES];
	char file[256];

	snprintf(file, sizeof(file), "%s/file512", xfs);
	su.file = file;

	su.max_sectors_kb = 512;
	if (apply(&su, &mf) &&
	    on_off("002 ms512 1M reads", "readahead_async_keep_half", &mf, "read-4k-then-1m", r)) {
		/* 64K: no window is trimmed short; on and off read alike */
		at_most_paged("002 ms512 1M reads", r[0].block_reads, r[1].block_reads,
			      1, 2, 101, 100, "device reads");
		ok(large(&r[0], O_512K) * 10 >= r[0].folios_total * 9,
		   "002 ms512 1M reads: on, >= 90%% of folios of 512 KiB (order %d; %llu of %llu)",
		   O_512K, (unsigned long long)large(&r[0], O_512K),
		   (unsigned long long)r[0].folios_total);
	}
	/*
	 * 64K pages: on adds half the folios (1,027 against 2,052), but in
	 * 512 KiB windows, one device request each: 1,026 against off's 687
	 * of up to 1 MiB, 1.49x (docs/testing.md).  Not explained yet: held
	 * to at most 8/5 of off's, so that it cannot grow unseen.
	 */
	for (uint64_t ms = 1024; ms <= 2048; ms *= 2) {
		char what[64];

		snprintf(what, sizeof(what), "002 ms%llu 1M reads", (unsigned long long)ms);
		su.max_sectors_kb = ms;
		if (!apply(&su, &mf) ||
		    !on_off(what, "readahead_async_keep_half", &mf, "read-4k-then-1m", r))
			continue;
		at_most_paged(what, r[0].folios_total, r[1].folios_total, 1, 2, 11, 20, "folios");
		if (PAGE_64K)
			at_most(what, r[0].block_reads, r[1].block_reads, 8, 5,
				"device reads (64K pages: more than off's)");
	}
	if (apply(&su, &mf) &&
	    on_off("002 ms2048 3M reads", "readahead_async_keep_half", &mf, "read-4k-then-3m", r))
		at_most("002 ms2048 3M reads", r[0].block_reads, r[1].block_reads, 21, 20,
			"device reads");
}

static void seed003(const char *xfs)
{
	struct setup su = { .max_sectors_kb = 2048, .read_ahead_kb = 128 };
	struct measure_file mf;
	struct run_result r[NR_CASES];
	char file[256];

	snprintf(file, sizeof(file), "%s/file1024", xfs);
	su.file = file;
	if (apply(&su, &mf) &&
	    on_off("003 MADV_POPULATE_READ 1 GiB", "readahead_populate_io_pages", &mf,
		   "populate-read", r)) {
		at_most("003 populate", r[0].block_reads, r[1].block_reads, 1, 4,
			"device reads");
		ok(r[0].block_sectors * 512 >= (uint64_t)mf.size &&
		   r[1].block_sectors * 512 >= (uint64_t)mf.size,
		   "003 populate: the whole file came from the device in both runs (no holes)");
		diag("003 populate: wall time on/off %.3f", (double)r[0].wall_ns / r[1].wall_ns);
	}
}

static void seed004(const char *ext4, const char *ext4dj)
{
	struct setup su = { .read_ahead_kb = 128 };
	bool differ;
	struct measure_file mf;
	struct run_result r[NR_CASES];
	char file[256];

	/* exec-random-cold: beyond MMAP_LOTSAMISS misses, only the bypass
	 * keeps read-around for VM_EXEC */
	snprintf(file, sizeof(file), "%s/file256.exec", ext4);
	su.file = file;
	/* 64K pages: read_ahead_kb 128 is a read-around of two pages, so
	 * the bypass can at best halve the faults (measured: 0.75) */
	if (apply(&su, &mf) &&
	    on_off("004/1 exec random cold", "readahead_exec_mmap_miss_bypass", &mf,
		   "exec-random-cold", r))
		at_most_paged("004/1 exec random cold", r[0].majflt, r[1].majflt, 2, 3, 4, 5,
			      "major faults");

	/* a mapping without large folios (ext4 data=journal) under
	 * MADV_HUGEPAGE: off forces PMD-order readahead it cannot have */
	snprintf(file, sizeof(file), "%s/file64.exec", ext4dj);
	su.file = file;
	if (!apply(&su, &mf) ||
	    !on_off("004/2 exec cold, no large folios", "readahead_exec_large_folio", &mf,
		    "exec-cold", r))
		return;
	/* 64K: off forces order 13 only where the page cache holds it
	 * (MAX_PAGECACHE_ORDER 11): neither state forces, both read alike */
	differ = r[0].ra_count[1] != r[1].ra_count[1] || r[0].majflt != r[1].majflt;
	if (PAGE_4K || PAGE_64K)
		ok(PAGE_64K ? !differ : differ, "004/2: the readahead %s "
		   "(page_cache_ra_order %llu vs %llu, major faults %llu vs %llu)",
		   PAGE_64K ? "is the same on 64K pages" : "differs",
		   (unsigned long long)r[0].ra_count[1], (unsigned long long)r[1].ra_count[1],
		   (unsigned long long)r[0].majflt, (unsigned long long)r[1].majflt);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: test_features EXT4_DIR XFS_DIR EXT4_DJ_DIR\n");
		return 2;
	}
	seed001(argv[1]);
	seed002(argv[2]);
	seed003(argv[2]);
	seed004(argv[1], argv[3]);
	return tap_done();
}
