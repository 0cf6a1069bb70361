// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: page_cache_ra_unbounded() with large folios on, over a
 * page cache full of shadow entries, in a mapping without large folios
 * (FILE on ext4 data=journal), where the order stays at the minimum.
 * There each step of the large-folio loop scanned every slot from its
 * index to the end of the request, and shadow entries, unlike empty
 * slots, are visited one by one: quadratic in the request.  The scan
 * must be linear again: as cheap as the minimum-order loop.
 *
 * Each run: FILE is emptied from the page cache, read in a memory cgroup
 * of its own, and that cgroup reclaimed (memory.reclaim): reclaim leaves
 * a shadow entry in every slot, which POSIX_FADV_DONTNEED and drop_caches
 * would clear.  Then readahead(2) over FILE in 2 MiB steps (the
 * readahead-2m scenario), with readahead_unbounded_large_folios off and
 * on, alternating, ROUNDS runs each.  Measured: the reader's system time
 * (RUSAGE_THREAD), the folios added by order (host/syscount), the
 * workingset refaults, which count the shadow entries the readahead
 * replaced, and the data, checked against an O_DIRECT read.
 *
 * Checked:
 *  - every run found the file out of the cache and left shadow entries
 *    in at least half its slots, and read the right data;
 *  - the same folios either way, all of order 0 (the mapping has no
 *    large folios);
 *  - median system time on <= 1.25 x off.  Both loops do the same work
 *    per page (an order-0 folio, a shadow entry replaced, a refault
 *    counted, the read submitted).  The reader's system time is its
 *    scheduler runtime, exact, split from user time by ticks, and this
 *    reader is all system time; what still moves it between runs under
 *    TCG (translation cache refills, interrupts of the previous reads'
 *    completions charged to whoever runs) stays well under 10% between
 *    medians of alternating runs.  The quadratic scan visits 256 slots
 *    more per page of a 2 MiB request: many times slower, nowhere near
 *    1.25.
 *
 * usage: test_ra_quadratic FILE ROUNDS
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/syscount.h"
#include "bench/measure.h"
#include "bench/scenario.h"
#include "lib/sha256.h"
#include "ra_timing.h"
#include "tap.h"

enum { OFF, ON, NR_STATES };

#define CG_ROOT "/sys/fs/cgroup"
#define CG_DIR CG_ROOT "/rafleet-quadratic"
#define SYS_MARGIN 1.25

struct run {
	double sys_ms, wall_ms;
	uint64_t resident;	/* pages cached after the reclaim */
	uint64_t shadow_nodes;	/* workingset_nodes after the reclaim */
	uint64_t refaults;	/* workingset_refault_file during the readahead */
	struct sc_values folios;
	bool verified;
};

struct ctx {
	struct measure_file mf;
	struct ra_switch sw;
	struct syscount sc;
	char sha_direct[SHA256_HEX_LEN];
	int pin_fd;		/* keeps the inode, and its shadow entries */
	bool cg_mounted;
	void *ballast;
	size_t ballast_len;
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = -errno;
	close(fd);
	return err;
}

static int join_cgroup(const char *dir)
{
	char path[128], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	return write_str(path, pid);
}

/*
 * Move into a memory cgroup of our own, mounting cgroup2 if nobody has.
 * Then pin a ballast charged to it.  Why: reclaiming the cgroup also runs
 * its shadow-node shrinker, which keeps about one node (64 slots) per 8
 * pages the cgroup still has on its LRU lists; with the file reclaimed
 * that would be none, and the shrinker would free the shadow entries
 * this test needs.  Mlocked (unevictable) pages count too and cannot be
 * reclaimed: a ballast of a quarter of the file keeps twice the nodes
 * the file has.
 */
static bool cgroup_enter(struct ctx *x)
{
	int err = 0;

	if (access(CG_ROOT "/cgroup.controllers", F_OK)) {
		if (mount("none", CG_ROOT, "cgroup2", 0, NULL))
			err = -errno;
		x->cg_mounted = !err;
	}
	if (!err)
		err = write_str(CG_ROOT "/cgroup.subtree_control", "+memory");
	if (!err && mkdir(CG_DIR, 0755) && errno != EEXIST)
		err = -errno;
	if (!err)
		err = join_cgroup(CG_DIR);
	if (!ok(!err, "in memory cgroup %s (%s)", CG_DIR, err ? strerror(-err) : "ok"))
		return false;

	x->ballast_len = (size_t)x->mf.size / 4;
	if (x->ballast_len < 32 * RA_MIB)
		x->ballast_len = 32 * RA_MIB;
	x->ballast = mmap(NULL, x->ballast_len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x->ballast != MAP_FAILED && mlock(x->ballast, x->ballast_len)) {
		munmap(x->ballast, x->ballast_len);
		x->ballast = MAP_FAILED;
	}
	return ok(x->ballast != MAP_FAILED, "%zu MiB pinned in the cgroup (keeps its shadow entries)",
		  x->ballast_len / RA_MIB);
}

static void cgroup_leave(struct ctx *x)
{
	if (x->ballast && x->ballast != MAP_FAILED)
		munmap(x->ballast, x->ballast_len);
	join_cgroup(CG_ROOT);
	rmdir(CG_DIR);
	if (x->cg_mounted)
		umount(CG_ROOT);
}

/* Read all of the file with read(); hash it into @hex if not NULL. */
static int read_file(const struct measure_file *mf, char hex[SHA256_HEX_LEN])
{
	struct sha256 h;
	struct scenario_io io;
	int err = hex ? sha256_init(&h) : 0;

	if (err)
		return err;
	err = scenario_run(scenario_find("seq-read"), mf->path, mf->size, 1,
			   hex ? &h : NULL, &io);
	if (hex && err)
		sha256_abort(&h);
	else if (hex)
		err = sha256_final_hex(&h, hex);
	return err;
}

/*
 * Leave FILE out of the page cache with a shadow entry in its slots:
 * evict it (its old pages and shadows: so that the read below allocates
 * pages, charged to this cgroup), read it, reclaim the cgroup.  Asking
 * for twice the file: memory.reclaim then fails with EAGAIN, as the
 * ballast cannot go, once everything else has.
 */
static bool make_shadows(struct ctx *x, struct run *r)
{
	char want[32], how[48];
	int err;

	measure_evict(x->mf.path, how, sizeof(how));
	err = read_file(&x->mf, NULL);
	if (err) {
		diag("  reading %s: %s", x->mf.path, strerror(-err));
		return false;
	}
	snprintf(want, sizeof(want), "%lld", (long long)x->mf.size * 2);
	err = write_str(CG_DIR "/memory.reclaim", want);
	if (err && err != -EAGAIN) {
		diag("  memory.reclaim: %s", strerror(-err));
		return false;
	}
	r->resident = measure_resident_pages(x->mf.path, x->mf.size);
	r->shadow_nodes = ra_vmstat("workingset_nodes");
	return true;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

/* The measured part: readahead(2) over the whole file, 2 MiB a call. */
static int readahead_file(struct ctx *x, struct run *r)
{
	struct sc_values a, b;
	struct rusage ru0, ru1;
	struct scenario_io io;
	uint64_t refaults = ra_vmstat("workingset_refault_file");
	double t0;
	int err;

	sc_read(&x->sc, &a);
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = now_ms();
	err = scenario_run(scenario_find("readahead-2m"), x->mf.path, x->mf.size, 1,
			   NULL, &io);
	r->wall_ms = now_ms() - t0;
	getrusage(RUSAGE_THREAD, &ru1);
	sc_read(&x->sc, &b);
	sc_delta(&a, &b, &r->folios);
	r->sys_ms = tv_ms(ru1.ru_stime) - tv_ms(ru0.ru_stime);
	r->refaults = ra_vmstat("workingset_refault_file") - refaults;
	return err;
}

static void show_run(int on, unsigned round, const struct run *r)
{
	char orders[128] = "";
	size_t len = 0;

	for (int o = 0; o < SC_ORDERS && len < sizeof(orders); o++)
		if (r->folios.by_order[o])
			len += snprintf(orders + len, sizeof(orders) - len, " o%d:%llu", o,
					(unsigned long long)r->folios.by_order[o]);
	diag("quadratic %-3s round %u: sys_ms %8.1f wall_ms %8.1f folios %llu (%s )"
	     " cached_after_reclaim %llu shadow_nodes %llu refaults %llu%s",
	     on ? "on" : "off", round, r->sys_ms, r->wall_ms,
	     (unsigned long long)r->folios.folios, orders,
	     (unsigned long long)r->resident, (unsigned long long)r->shadow_nodes,
	     (unsigned long long)r->refaults, r->verified ? "" : " DATA DIFFERS");
}

/* One run: shadows, the switch, readahead, then the data read back. */
static bool run_once(struct ctx *x, int on, struct run *r)
{
	char sha[SHA256_HEX_LEN];
	int err;

	if (!make_shadows(x, r) || ra_switch_set(&x->sw, on))
		return false;
	err = readahead_file(x, r);
	if (err) {
		diag("  readahead: %s", strerror(-err));
		return false;
	}
	/* read() waits for the readahead's I/O: the next run starts idle */
	r->verified = !read_file(&x->mf, sha) && !strcmp(sha, x->sha_direct);
	if (!r->folios.orders_ok.ok)
		diag("  folios by order not counted: %s", r->folios.orders_ok.why);
	return r->folios.orders_ok.ok;
}

/* Every run good: cold, shadowed, verified.  Said per property. */
static void check_runs(const struct ctx *x, struct run runs[NR_STATES][RA_MAX_ROUNDS],
		       unsigned rounds)
{
	uint64_t pages = x->mf.size / RA_PAGE;
	bool cold = true, shadowed = true, verified = true;

	for (int on = OFF; on <= ON; on++) {
		for (unsigned i = 0; i < rounds; i++) {
			cold &= runs[on][i].resident * 64 <= pages;
			shadowed &= runs[on][i].refaults * 2 >= pages;
			verified &= runs[on][i].verified;
		}
	}
	ok(cold, "every run: memory.reclaim left at most 1/64 of the file cached");
	ok(shadowed, "every run: the readahead replaced shadow entries in >= half of the %llu slots (refaults)",
	   (unsigned long long)pages);
	ok(verified, "every run: the file read back matches O_DIRECT");
}

static void check_folios(struct run runs[NR_STATES][RA_MAX_ROUNDS], unsigned rounds)
{
	const struct sc_values *ref = &runs[OFF][0].folios;
	bool same = true;

	for (int on = OFF; on <= ON; on++)
		for (unsigned i = 0; i < rounds; i++)
			same &= !memcmp(runs[on][i].folios.by_order, ref->by_order,
					sizeof(ref->by_order));
	ok(same && ref->folios && ref->folios == ref->by_order[0],
	   "the same folios every run, all of order 0 (%llu)", (unsigned long long)ref->folios);
}

static void check_sys(struct run runs[NR_STATES][RA_MAX_ROUNDS], unsigned rounds)
{
	double v[NR_STATES][RA_MAX_ROUNDS], med[NR_STATES];

	for (int on = OFF; on <= ON; on++) {
		for (unsigned i = 0; i < rounds; i++)
			v[on][i] = runs[on][i].sys_ms;
		med[on] = ra_median(v[on], rounds);
	}
	ok(med[ON] <= med[OFF] * SYS_MARGIN,
	   "readahead system time on %.1f ms <= %.2f x off %.1f ms (medians of %u; on/off %.2f)",
	   med[ON], SYS_MARGIN, med[OFF], rounds, med[OFF] > 0 ? med[ON] / med[OFF] : 0);
}

static bool run_all(struct ctx *x, unsigned rounds, struct run runs[NR_STATES][RA_MAX_ROUNDS])
{
	struct run warmup = { 0 };
	uint64_t pages = x->mf.size / RA_PAGE;
	unsigned warmups = 0;
	bool good = true;

	/*
	 * Runs not counted first, until one's readahead finds the shadow
	 * entries (up to 8): the cgroup's first reclaim left none (0 shadow
	 * nodes, 0 refaults, then 256 and 16,379 in every later run, in the
	 * first measurement); in vm-slow boots, after other tests, the first
	 * two have left none (3 runs, in make check of 7ebd636).
	 */
	while (good && warmups < 8 && warmup.refaults * 2 < pages) {
		good = run_once(x, 1, &warmup);
		warmups++;
	}
	if (good)
		diag("%u run(s) before the counted ones; the last: %llu refaults", warmups,
		     (unsigned long long)warmup.refaults);
	for (unsigned i = 0; i < rounds && good; i++) {
		for (int k = 0; k < NR_STATES && good; k++) {
			int on = (k == 0) == ra_on_first(i);

			good = run_once(x, on, &runs[on][i]);
			if (good)
				show_run(on, i, &runs[on][i]);
		}
	}
	return ok(good, "%u runs each way over shadow entries", rounds);
}

int main(int argc, char **argv)
{
	static struct run runs[NR_STATES][RA_MAX_ROUNDS];
	static struct ctx x;
	unsigned rounds;

	if (argc < 3 || !ra_parse_rounds(argv[2], &rounds)) {
		fprintf(stderr, "usage: test_ra_quadratic FILE ROUNDS (1..%d)\n", RA_MAX_ROUNDS);
		return 2;
	}
	if (!ok(!measure_file_open(&x.mf, argv[1]), "%s can be measured", argv[1]) ||
	    !ok(scenario_find("readahead-2m") && scenario_find("seq-read"),
		"scenarios readahead-2m and seq-read exist") ||
	    !ok(!measure_sha_direct(x.mf.path, x.sha_direct), "O_DIRECT hash of %s", argv[1]) ||
	    !ra_switch_open(&x.sw, "readahead_unbounded_large_folios"))
		return tap_done();
	/* an inode nobody holds open can be reclaimed, shadow entries and all */
	x.pin_fd = open(x.mf.path, O_RDONLY | O_CLOEXEC);
	sc_open(&x.sc, NULL, 0);
	if (cgroup_enter(&x) && run_all(&x, rounds, runs)) {
		check_runs(&x, runs, rounds);
		check_folios(runs, rounds);
		check_sys(runs, rounds);
	}
	cgroup_leave(&x);
	sc_close(&x.sc);
	if (x.pin_fd >= 0)
		close(x.pin_fd);
	ra_switch_restore(&x.sw);
	return tap_done();
}
