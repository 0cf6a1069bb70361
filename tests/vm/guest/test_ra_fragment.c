// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: seed 000's fragmented-memory table.  With no free block
 * above order 3 and the kept pages pinned, so that compaction cannot
 * help, large folios in page_cache_ra_unbounded() must cost no reclaim,
 * no compaction and no swap, and next to no system time: the large folio
 * is asked for without __GFP_RECLAIM, once per request, and the rest of
 * the request is read with order-0 folios.  (v1 of the seed compacted
 * 2,437 times and had kswapd steal 234,494 pages for 1 GiB.)
 *
 * The memory: compact_unevictable_allowed 0 (and compaction_proactiveness
 * 0, so that kcompactd neither takes CPU from the runs nor undoes the
 * fragmentation between them); most free memory mmap()ed, MADV_NOHUGEPAGE
 * and mlock()ed, then one 32 KiB piece of every 64 KiB unmapped; what
 * larger free blocks remain are taken by anonymous large folios
 * (MADV_HUGEPAGE with the 64 KiB to 2 MiB sizes allowed, no defrag, so
 * that only blocks above order 3 are taken), also pinned, until
 * /proc/buddyinfo shows no free block above order 3.  ZONE_DMA is left
 * out of that count: the page cache reaches its first 16 MiB only down
 * to the lowmem reserve kept for GFP_DMA, a few MiB the soaking takes as
 * well, and what stays there is out of the page cache's reach.
 *
 * Then POSIX_FADV_RANDOM and 1 MiB pread()s over cold FILE (the
 * fadv-random-pread-1m scenario of measure_run()), switch
 * readahead_unbounded_large_folios off and on, alternating, ROUNDS runs
 * each (3 if not given; the first round also checks the data against an
 * O_DIRECT read, which costs user time only).  Per run: the deltas of
 * compact_stall, pgsteal_kswapd and pswpout in /proc/vmstat, the
 * reader's system time and the folios added by order.
 *
 * Checked:
 *  - the memory was fragmented, and still is after the runs;
 *  - each counter's total over the runs is the same on as off (the
 *    seed's: 0 and 0);
 *  - median system time on <= 1.10 x off + 20 ms.  The seed measured
 *    219 -> 239 ms for 1 GiB natively (+9%: the failed free-list lookup,
 *    one per request); v1 was 1,462.  The 20 ms: the reader's system
 *    time is its exact runtime split from user time by ticks (4 ms at
 *    HZ=250), and under TCG the disk interrupts of the reads, charged to
 *    whoever runs, move it by a few ticks between runs.
 *
 * usage: test_ra_fragment FILE [ROUNDS]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/sysctl.h"
#include "bench/measure.h"
#include "bench/scenario.h"
#include "lib/fileio.h"
#include "ra_timing.h"
#include "tap.h"

enum { OFF, ON, NR_STATES };

#define MAX_FREE_ORDER 3	/* no free block above this order */
#define PIECE (32 * RA_KIB)	/* unmapped ... */
#define STRIDE (64 * RA_KIB)	/* ... of every STRIDE */
#define SOAK_ALIGN (2 * RA_MIB)	/* a PMD: room for 2 MiB folios */
#define DEFAULT_ROUNDS 3
#define SYS_MARGIN 1.10
#define SYS_SLACK_MS 20.0
#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

static const char *const counters[] = { "compact_stall", "pgsteal_kswapd", "pswpout" };
#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

/*
 * THP settings while soaking, under THP_DIR: anonymous folios of every
 * size above order 3 in MADV_HUGEPAGE areas, none of orders 2 and 3 (the
 * holes' sizes), and no defrag, so that nothing is reclaimed or
 * compacted to make one.
 */
static const struct {
	const char *file, *val;
} soak_knobs[] = {
	{ "hugepages-16kB/enabled", "never" },
	{ "hugepages-32kB/enabled", "never" },
	{ "hugepages-64kB/enabled", "madvise" },
	{ "hugepages-128kB/enabled", "madvise" },
	{ "hugepages-256kB/enabled", "madvise" },
	{ "hugepages-512kB/enabled", "madvise" },
	{ "hugepages-1024kB/enabled", "madvise" },
	{ "hugepages-2048kB/enabled", "madvise" },
	{ "defrag", "never" },
};
#define NR_KNOBS (sizeof(soak_knobs) / sizeof(soak_knobs[0]))

/* A sysfs choice file ("always [madvise] never") changed for a while. */
struct knob {
	char path[160];
	char was[32];	/* "" if not changed */
};

struct frag {
	char *main;		/* mlocked, a hole of PIECE in every STRIDE */
	size_t main_len;
	char *soak_map, *soak;	/* the mapping; soak: it aligned to 2 MiB */
	size_t soak_map_len, soak_len, soaked;
	struct knob knobs[NR_KNOBS];
};

struct run {
	double sys_ms;
	uint64_t delta[NR_COUNTERS];
	uint64_t folios, by_order[FOLIO_ORDERS];
};

/*
 * The free pages in blocks above MAX_FREE_ORDER outside ZONE_DMA, from
 * /proc/buddyinfo (each line printed if @print); UINT64_MAX if it cannot
 * be read.
 */
static uint64_t big_free_pages(bool print)
{
	char *text, *line, *next;
	uint64_t big = 0;

	if (read_whole_file("/proc/buddyinfo", 1 << 16, &text, NULL))
		return UINT64_MAX;
	for (line = text; line && *line; line = next) {
		char zone[32];
		int pos = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (print)
			diag("buddyinfo %s", line);
		if (sscanf(line, "Node %*d, zone %31s%n", zone, &pos) != 1 || !strcmp(zone, "DMA"))
			continue;
		for (int o = 0; line[pos]; o++) {
			char *end;
			uint64_t n = strtoull(line + pos, &end, 10);

			if (end == line + pos)
				break;
			pos = end - line;
			if (o > MAX_FREE_ORDER)
				big += n << o;
		}
	}
	free(text);
	return big;
}

/* Set @path to @val, keeping the bracketed choice it had. */
static int knob_set(struct knob *k, const char *path, const char *val)
{
	char buf[256], *open_, *close_;
	int fd, err = read_small_file(path, buf, sizeof(buf));

	k->was[0] = '\0';
	if (err)
		return err;
	open_ = strchr(buf, '[');
	close_ = open_ ? strchr(open_, ']') : NULL;
	if (!close_ || close_ - open_ - 1 >= (long)sizeof(k->was))
		return -EBADMSG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write_full(fd, val, strlen(val));
	close(fd);
	if (!err) {
		snprintf(k->path, sizeof(k->path), "%s", path);
		snprintf(k->was, sizeof(k->was), "%.*s", (int)(close_ - open_ - 1), open_ + 1);
	}
	return err;
}

static void knobs_restore(struct frag *fr)
{
	for (size_t i = 0; i < NR_KNOBS; i++) {
		struct knob *k = &fr->knobs[i];
		int fd;

		if (!k->was[0])
			continue;
		fd = open(k->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write_full(fd, k->was, strlen(k->was)))
			diag("cannot put %s back to %s", k->path, k->was);
		if (fd >= 0)
			close(fd);
		k->was[0] = '\0';
	}
}

/*
 * Anonymous faults in the soak area then take the largest free block up
 * to 2 MiB that fits there, of order 4 at least, or else one page.
 */
static void knobs_for_soaking(struct frag *fr)
{
	char path[160];

	for (size_t i = 0; i < NR_KNOBS; i++) {
		snprintf(path, sizeof(path), THP_DIR "/%s", soak_knobs[i].file);
		if (knob_set(&fr->knobs[i], path, soak_knobs[i].val))
			diag("cannot set %s to %s", path, soak_knobs[i].val);
	}
}

/*
 * How much to pin in pages: the free memory but what keeps clear of the
 * watermarks (4 x min_free_kbytes) with room for page tables and VMAs
 * (128 MiB, whose larger blocks the soaking takes), and no more holes
 * than vm.max_map_count allows VMAs (one per hole).  0: too little free.
 */
static size_t main_size(uint64_t free_kb)
{
	uint64_t min_kb = 0, max_maps = 65530, keep_kb;
	char val[32];
	size_t len;

	if (!sysctl_get("vm.min_free_kbytes", val, sizeof(val)))
		min_kb = strtoull(val, NULL, 10);
	if (!sysctl_get("vm.max_map_count", val, sizeof(val)))
		max_maps = strtoull(val, NULL, 10);
	keep_kb = 4 * min_kb + 128 * 1024;
	if (free_kb <= 2 * keep_kb)
		return 0;
	len = (free_kb - keep_kb) * RA_KIB;
	if (max_maps > 1024 && len / STRIDE > max_maps - 1024)
		len = (max_maps - 1024) * STRIDE;
	return len - len % STRIDE;
}

/* Pin most free memory in single pages, then free half of it in holes. */
static bool fragment_main(struct frag *fr, uint64_t free_kb)
{
	fr->main_len = main_size(free_kb);
	if (!ok(fr->main_len, "%llu MiB free: enough to fragment", (unsigned long long)free_kb / 1024))
		return false;
	fr->main = mmap(NULL, fr->main_len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (fr->main == MAP_FAILED) {
		fr->main = NULL;
		return ok(false, "mmap %zu MiB: %s", fr->main_len / RA_MIB, strerror(errno));
	}
	/*
	 * Single pages, which any free block can give; not in the reader
	 * measure_run() forks (copying the page tables of 40,000 VMAs each
	 * run); mlock faults them all in and pins them, and compaction may
	 * not move them now.
	 */
	if (madvise(fr->main, fr->main_len, MADV_NOHUGEPAGE) ||
	    madvise(fr->main, fr->main_len, MADV_DONTFORK) ||
	    mlock(fr->main, fr->main_len))
		return ok(false, "pin %zu MiB: %s", fr->main_len / RA_MIB, strerror(errno));
	for (size_t off = 0; off < fr->main_len; off += STRIDE)
		if (munmap(fr->main + off, PIECE))
			return ok(false, "unmap a piece: %s", strerror(errno));
	diag("pinned %zu MiB in pages, then freed 32 KiB of every 64 KiB", fr->main_len / RA_MIB);
	return true;
}

/*
 * Take every free block above MAX_FREE_ORDER with pinned anonymous large
 * folios: each pass faults in as much as buddyinfo says is left in such
 * blocks, until none is left or a pass takes none.
 */
/*
 * One soaking: fault in more of the soak area until no free block above
 * MAX_FREE_ORDER is left.  Before every run too: what a run frees (its
 * page cache, the tracing buffers) and what kswapd reclaims in the
 * background can merge into larger blocks again.
 */
static bool soak_more(struct frag *fr)
{
	uint64_t big, last = UINT64_MAX;
	size_t before = fr->soaked;

	knobs_for_soaking(fr);
	if (madvise(fr->soak, fr->soak_len, MADV_HUGEPAGE))
		diag("soak area: %s", strerror(errno));
	while ((big = big_free_pages(false)) && big < last && fr->soaked < fr->soak_len) {
		size_t end = fr->soaked + big * RA_PAGE;

		last = big;
		for (; fr->soaked < end && fr->soaked < fr->soak_len; fr->soaked += STRIDE)
			fr->soak[fr->soaked] = 1;
	}
	/* khugepaged leaves it alone; the runs see THP as it was */
	madvise(fr->soak, fr->soak_len, MADV_NOHUGEPAGE);
	knobs_restore(fr);
	diag("soaked %zu more MiB of address space with large folios",
	     (fr->soaked - before) / RA_MIB);
	return !big_free_pages(false);
}

static bool soak(struct frag *fr, uint64_t free_kb)
{

	fr->soak_len = free_kb * RA_KIB;
	fr->soak_len -= fr->soak_len % SOAK_ALIGN;
	fr->soak_map_len = fr->soak_len + SOAK_ALIGN;
	fr->soak_map = mmap(NULL, fr->soak_map_len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (fr->soak_map == MAP_FAILED) {
		diag("soak area of %zu MiB: %s", fr->soak_len / RA_MIB, strerror(errno));
		fr->soak_map = NULL;
		return false;
	}
	fr->soak = (char *)(((uintptr_t)fr->soak_map + SOAK_ALIGN - 1) & ~(SOAK_ALIGN - 1));
	if (madvise(fr->soak, fr->soak_len, MADV_DONTFORK) ||
	    mlock2(fr->soak, fr->soak_len, MLOCK_ONFAULT))
		diag("soak area: %s", strerror(errno));
	return soak_more(fr);
}

/* Wait (up to 30 s) until kswapd and kcompactd are done with the setup. */
static void settle(void)
{
	uint64_t last = UINT64_MAX;

	for (int i = 0; i < 30; i++) {
		uint64_t now = ra_vmstat("pgscan_kswapd") + ra_vmstat("compact_daemon_wake");

		if (now == last)
			return;
		last = now;
		sleep(1);
	}
}

static uint64_t mem_free_kb(void)
{
	uint64_t kb = 0;

	ra_proc_u64("/proc/meminfo", "MemFree", &kb);
	return kb;
}

static bool fragment(struct frag *fr, int64_t file_size)
{
	uint64_t need_kb = (2 * file_size + 64 * RA_MIB) / RA_KIB;
	int err = sysctl_set_saved("vm.compact_unevictable_allowed", "0\n");

	if (!ok(!err, "vm.compact_unevictable_allowed=0 (%s)", err ? strerror(-err) : "ok"))
		return false;
	err = sysctl_set_saved("vm.compaction_proactiveness", "0\n");
	if (err)
		diag("vm.compaction_proactiveness: %s", strerror(-err));
	measure_drop_caches();	/* the most memory free */
	big_free_pages(true);
	if (!fragment_main(fr, mem_free_kb()))
		return false;
	if (!soak(fr, mem_free_kb()))
		diag("the soaking left blocks above order %d", MAX_FREE_ORDER);
	settle();
	/* the file, its mapping touched afterwards, the sampler's rings:
	 * all from the holes, without reclaim */
	return ok(!big_free_pages(true) && mem_free_kb() >= need_kb,
		  "no free block above order %d outside ZONE_DMA, %llu MiB free for the runs (>= %llu)",
		  MAX_FREE_ORDER, (unsigned long long)mem_free_kb() / 1024,
		  (unsigned long long)need_kb / 1024);
}

static void unfragment(struct frag *fr)
{
	knobs_restore(fr);
	if (fr->soak_map)
		munmap(fr->soak_map, fr->soak_map_len);
	if (fr->main)
		munmap(fr->main, fr->main_len);
	sysctl_restore_all();
}

static void show_run(int on, unsigned round, const struct run *r)
{
	char orders[256] = "";
	size_t len = 0;

	for (int o = 0; o < FOLIO_ORDERS && len < sizeof(orders); o++)
		if (r->by_order[o])
			len += snprintf(orders + len, sizeof(orders) - len, " o%d:%llu", o,
					(unsigned long long)r->by_order[o]);
	diag("fragment %-3s round %u: sys_ms %8.1f folios %llu (%s ) compact_stall %llu"
	     " pgsteal_kswapd %llu pswpout %llu", on ? "on" : "off", round, r->sys_ms,
	     (unsigned long long)r->folios, orders, (unsigned long long)r->delta[0],
	     (unsigned long long)r->delta[1], (unsigned long long)r->delta[2]);
}

/*
 * One run; false (said) unless it ran cold and its folios were counted.
 * The ring of 1024 pages keeps the sampler's own page array a small
 * kmalloc: the runs ask for no block above order 3 themselves.
 */
static bool run_once(struct measure_file *mf, const struct ra_switch *sw, int on,
		     bool verify, struct run *out)
{
	struct measure_opts o = { .verify = verify, .seed = 1, .ring_pages = 1024 };
	uint64_t before[NR_COUNTERS];
	struct run_result r;
	int err;

	for (size_t i = 0; i < NR_COUNTERS; i++)
		before[i] = ra_vmstat(counters[i]);
	err = ra_switch_set(sw, on);
	if (!err)
		err = measure_run(mf, scenario_find("fadv-random-pread-1m"), &o, &r);
	for (size_t i = 0; i < NR_COUNTERS; i++)
		out->delta[i] = ra_vmstat(counters[i]) - before[i];
	if (!err)
		err = r.status;
	if (err) {
		diag("  %s: %s", on ? "on" : "off", strerror(-err));
		return false;
	}
	out->sys_ms = r.sys_ns / 1e6;
	out->folios = r.folios_total;
	memcpy(out->by_order, r.folios_by_order, sizeof(out->by_order));
	if (verify)
		ok(r.verify.ok && r.verified, "%s: pread() and mmap() data match O_DIRECT",
		   on ? "on" : "off");
	if (r.resident_after_evict || !r.folios.ok) {
		diag("  %llu pages cached after the eviction; folios: %s",
		     (unsigned long long)r.resident_after_evict,
		     r.folios.ok ? "counted" : r.folios.reason);
		return false;
	}
	return true;
}

static bool run_all(struct frag *fr, struct measure_file *mf, const struct ra_switch *sw,
		    unsigned rounds, struct run runs[NR_STATES][RA_MAX_ROUNDS])
{
	bool good = true;

	for (unsigned i = 0; i < rounds && good; i++) {
		for (int k = 0; k < NR_STATES && good; k++) {
			int on = (k == 0) == ra_on_first(i);

			uint64_t big;

			soak_more(fr);
			settle();
			/*
			 * What a run frees can merge again faster than a
			 * soaking takes it; a few such blocks give the on
			 * arm a few large folios (printed by order), not a
			 * different test.
			 */
			big = big_free_pages(false);
			good = ok(big <= (uint64_t)(mf->size / RA_PAGE) / 16,
				  "%s round %u: %llu free pages in blocks above order %d when it starts (<= 1/16 of the file)",
				  on ? "on" : "off", i, (unsigned long long)big, MAX_FREE_ORDER);
			if (!good)
				break;
			good = run_once(mf, sw, on, i == 0, &runs[on][i]);
			if (good)
				show_run(on, i, &runs[on][i]);
		}
	}
	return ok(good, "%u cold runs each way on fragmented memory", rounds);
}

static void check(struct run runs[NR_STATES][RA_MAX_ROUNDS], unsigned rounds, int64_t size)
{
	double sys[NR_STATES][RA_MAX_ROUNDS], med[NR_STATES];
	/*
	 * compact_stall and pswpout: none either way (the seed: 0, 0).
	 * pgsteal_kswapd: kswapd reclaims in the background of this memory
	 * whatever the switch (every high-order slab that SLUB tries wakes
	 * it: 4,260 pages off, 12,687 on over 3 runs of a 65,536-page file,
	 * first measured, varying run to run either way), so on may exceed
	 * off by an eighth of the file per run; the defect it guards
	 * against, v1 of seed 000, made kswapd steal 0.9 of the file per run.
	 */
	const uint64_t slack[NR_COUNTERS] = {
		0, rounds * (uint64_t)(size / RA_PAGE) / 8, 0,
	};

	for (size_t c = 0; c < NR_COUNTERS; c++) {
		uint64_t sum[NR_STATES] = { 0 };

		for (int on = OFF; on <= ON; on++)
			for (unsigned i = 0; i < rounds; i++)
				sum[on] += runs[on][i].delta[c];
		ok(sum[ON] <= sum[OFF] + slack[c], "%s: on %llu <= off %llu + %llu (all runs)",
		   counters[c], (unsigned long long)sum[ON], (unsigned long long)sum[OFF],
		   (unsigned long long)slack[c]);
	}
	for (int on = OFF; on <= ON; on++) {
		for (unsigned i = 0; i < rounds; i++)
			sys[on][i] = runs[on][i].sys_ms;
		med[on] = ra_median(sys[on], rounds);
	}
	ok(med[ON] <= med[OFF] * SYS_MARGIN + SYS_SLACK_MS,
	   "reader's system time on %.1f ms <= %.2f x off %.1f ms + %.0f ms (medians of %u; on/off %.2f)",
	   med[ON], SYS_MARGIN, med[OFF], SYS_SLACK_MS, rounds,
	   med[OFF] > 0 ? med[ON] / med[OFF] : 0);
}

int main(int argc, char **argv)
{
	static struct run runs[NR_STATES][RA_MAX_ROUNDS];
	struct frag fr = { 0 };
	struct measure_file mf;
	struct ra_switch sw;
	unsigned rounds = DEFAULT_ROUNDS;

	if (argc < 2 || (argc > 2 && !ra_parse_rounds(argv[2], &rounds))) {
		fprintf(stderr, "usage: test_ra_fragment FILE [ROUNDS (1..%d)]\n", RA_MAX_ROUNDS);
		return 2;
	}
	if (!ok(!measure_file_open(&mf, argv[1]), "%s can be measured", argv[1]) ||
	    !ok(scenario_find("fadv-random-pread-1m"), "scenario fadv-random-pread-1m exists") ||
	    !ra_switch_open(&sw, "readahead_unbounded_large_folios"))
		return tap_done();
	sysctl_restore_on_signals();
	if (fragment(&fr, mf.size) && run_all(&fr, &mf, &sw, rounds, runs))
		check(runs, rounds, mf.size);
	unfragment(&fr);
	ra_switch_restore(&sw);
	return tap_done();
}
