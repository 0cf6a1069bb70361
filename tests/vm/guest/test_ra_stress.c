// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: readahead under stress while its features flip.  Two
 * files of known content, A and B, are read at once through every way
 * into readahead, one process per way and file:
 *
 *	pread-random	pread(2) after POSIX_FADV_RANDOM, random ranges up to 1 MiB
 *	readahead	readahead(2) of a random range, then pread(2) of it
 *	willneed	MADV_WILLNEED on a range of a mapping, then read through it
 *	populate	MADV_POPULATE_READ on a range of a mapping, then read it
 *	sequential	read(2) of the whole file, over and over
 *	exec-huge	random touches of a PROT_READ|PROT_EXEC mapping under
 *			MADV_HUGEPAGE (read, never executed)
 *
 * each dropping what it read from the page cache now and then, so that
 * reads stay cold; meanwhile one process punches 1 MiB holes in B
 * (KEEP_SIZE) and writes the pattern back, and one sets a random
 * vm.readahead_* sysctl to a random 0 or 1 about every millisecond.
 * Every byte read is checked: A must be the pattern, B the pattern or
 * zeros, word by word; no read may fail, no mapping raise SIGBUS.  Then
 * every process must stop within 60 s of being told (else sysrq-w, their
 * kernel stacks, SIGKILL), and the kernel log since the start marker must
 * hold no report (BUG, WARNING, KASAN, lockdep, hung task, ...: ra_check.h).
 * kernel.hung_task_timeout_secs is 20 meanwhile; every feature ends at 1.
 * khugepaged scans without pause meanwhile (scan_sleep_millisecs and
 * alloc_sleep_millisecs 0, pages_to_scan 65536): the exec-huge mappings
 * are MADV_HUGEPAGE, so it collapses B's ranges while holes are punched
 * in them.  That found a deadlock of 7.3.4 (patches/0011): at its
 * default pace, 1 hang in 24 runs of 45 s; without pause, in the third.
 *
 * usage: test_ra_stress DIR SECONDS [SIZE_MIB [flip|noflip]]
 *   DIR: a writable directory; ra_stress.A and ra_stress.B (SIZE_MIB each,
 *   64 by default) are made there and removed at the end.  noflip: the
 *   flipper only sleeps, and the switches need not exist (7.3.4 without
 *   the series runs the same stress: make vm-stress STRESS_VARIANT=vanilla
 *   STRESS_FLIPS=noflip).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/mman.h>

#include "bench/measure.h"
#include "host/feature.h"
#include "host/sysctl.h"
#include "lib/fileio.h"
#include "lib/parsenum.h"
#include "ra_check.h"
#include "ra_knob.h"
#include "tap.h"

#define STOP_TIMEOUT_S 60
#define EXEC_TOUCH (16 * 1024)	/* the most one touch of exec-huge reads */
#define DROP_ONE_IN 4		/* a reader drops what it read after 1 read in 4 */
#define FSYNC_ONE_IN 16		/* the puncher fsyncs after 1 rewrite in 16 */
#define FLIP_NS 1000000L	/* the flipper's period */

struct reader;

/* A way into readahead: its mapping (prot 0: none), advice, one read. */
struct kind {
	const char *name;
	int prot;
	int fadvice;		/* posix_fadvise() of the whole file first */
	int madvice;		/* madvise() of the whole mapping first */
	void (*once)(struct reader *r);
};

/* One process's numbers, in the shared page for the parent. */
struct slot {
	char what[48];
	struct ra_tally t;
	uint64_t punches, flips;
};

enum { NR_KINDS = 6, NR_FILES = 2, NR_PROCS = NR_KINDS * NR_FILES + 2 };

struct shared {
	atomic_int stop;
	struct slot slot[NR_PROCS];
};

static struct shared *sh;
static bool flipping = true;	/* false: noflip */

struct reader {
	const struct kind *kind;
	const struct ra_file *f;
	const char *path;
	struct slot *slot;
	int fd;
	const unsigned char *map;
	unsigned char *buf;	/* RA_MIB */
	uint64_t rng;
	uint64_t off, len;	/* what the last read covered */
};

static bool stopping(void)
{
	return atomic_load(&sh->stop);
}

/* An error where none may be: counted, and the first few shown. */
static void fail(struct slot *s, const char *op, uint64_t off, uint64_t len, int err)
{
	if (++s->t.errors > RA_SHOW)
		return;
	if (len)
		diag("%s: %s of %#" PRIx64 "+%#" PRIx64 ": %s", s->what, op, off, len,
		     strerror(err));
	else
		diag("%s: %s: %s", s->what, op, strerror(err));
}

/* A random range of the file, up to @max bytes, page-aligned if a mapping reads it. */
static void pick(struct reader *r, uint64_t max, bool aligned)
{
	uint64_t size = r->f->size;

	r->off = ra_rand(&r->rng) % size;
	r->len = 1 + ra_rand(&r->rng) % max;
	if (aligned) {
		r->off -= r->off % RA_PAGE;
		r->len += RA_PAGE - 1;
		r->len -= r->len % RA_PAGE;
	}
	if (r->len > size - r->off)
		r->len = size - r->off;
}

static void pread_range(struct reader *r)
{
	ssize_t n = ra_pread_check(r->fd, r->f, r->slot->what, r->buf, r->len, r->off,
				   &r->slot->t);

	if (n < 0)
		fail(r->slot, "pread", r->off, r->len, -n);
}

static void once_pread(struct reader *r)
{
	pick(r, RA_MIB, false);
	pread_range(r);
}

static void once_readahead(struct reader *r)
{
	pick(r, RA_MIB, false);
	if (readahead(r->fd, r->off, r->len))
		fail(r->slot, "readahead", r->off, r->len, errno);
	pread_range(r);
}

static void advise_and_map_read(struct reader *r, int advice, const char *op)
{
	pick(r, RA_MIB, true);
	if (madvise((void *)(r->map + r->off), r->len, advice))
		fail(r->slot, op, r->off, r->len, errno);
	ra_map_read(r->f, r->slot->what, r->map, r->off, r->len, &r->slot->t);
}

static void once_willneed(struct reader *r)
{
	advise_and_map_read(r, MADV_WILLNEED, "MADV_WILLNEED");
}

static void once_populate(struct reader *r)
{
	advise_and_map_read(r, MADV_POPULATE_READ, "MADV_POPULATE_READ");
}

/* The next read(2) of the file, 4 KiB to 1 MiB; at the end, back to the start. */
static void once_sequential(struct reader *r)
{
	size_t len = (size_t)RA_PAGE << (ra_rand(&r->rng) % 9);
	ssize_t n;

	r->off += r->len;
	r->len = 0;
	n = read(r->fd, r->buf, len);
	if (n < 0) {
		fail(r->slot, "read", r->off, len, errno);
	} else if (n == 0) {
		if (lseek(r->fd, 0, SEEK_SET))
			fail(r->slot, "lseek to 0", 0, 0, errno);
		r->off = 0;
	} else {
		r->len = n;
		r->slot->t.calls++;
		ra_check(r->f, r->slot->what, r->buf, n, r->off, &r->slot->t);
	}
}

static void once_exec(struct reader *r)
{
	pick(r, EXEC_TOUCH, true);
	ra_map_read(r->f, r->slot->what, r->map, r->off, r->len, &r->slot->t);
}

static const struct kind kinds[NR_KINDS] = {
	{ "pread-random", 0, POSIX_FADV_RANDOM, 0, once_pread },
	{ "readahead", 0, 0, 0, once_readahead },
	{ "willneed", PROT_READ, 0, 0, once_willneed },
	{ "populate", PROT_READ, 0, 0, once_populate },
	{ "sequential", 0, 0, 0, once_sequential },
	{ "exec-huge", PROT_READ | PROT_EXEC, 0, MADV_HUGEPAGE, once_exec },
};

/* Drop what the last read covered: from this process's page tables, then the cache. */
static void drop(struct reader *r)
{
	int err;

	if (!r->len)
		return;
	if (r->map && madvise((void *)(r->map + r->off), r->len, MADV_DONTNEED))
		fail(r->slot, "MADV_DONTNEED", r->off, r->len, errno);
	err = posix_fadvise(r->fd, r->off, r->len, POSIX_FADV_DONTNEED);
	if (err)
		fail(r->slot, "POSIX_FADV_DONTNEED", r->off, r->len, err);
}

static int reader_main(void *arg)
{
	struct reader *r = arg;
	const struct kind *k = r->kind;
	int err;

	r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
	r->buf = malloc(RA_MIB);
	if (r->fd < 0 || !r->buf) {
		fail(r->slot, "open", 0, 0, r->fd < 0 ? errno : ENOMEM);
		return 1;
	}
	if (k->prot) {
		void *m = mmap(NULL, r->f->size, k->prot, MAP_SHARED, r->fd, 0);

		if (m == MAP_FAILED) {
			fail(r->slot, "mmap", 0, r->f->size, errno);
			return 1;
		}
		r->map = m;
		if (madvise(m, r->f->size, k->madvice)) {
			fail(r->slot, "madvise", 0, r->f->size, errno);
			return 1;
		}
	}
	err = posix_fadvise(r->fd, 0, 0, k->fadvice);
	if (err) {
		fail(r->slot, "posix_fadvise", 0, 0, err);
		return 1;
	}
	while (!stopping()) {
		k->once(r);
		if (ra_rand(&r->rng) % DROP_ONE_IN == 0)
			drop(r);
	}
	return 0;
}

struct writer {
	const struct ra_file *f;
	const char *path;
	struct slot *slot;
	uint64_t rng;
};

/*
 * Punch a 1 MiB hole at a random 1 MiB of B and write the pattern back,
 * leaving the hole open up to 2 ms half the time, so that readers see it.
 */
static int puncher_main(void *arg)
{
	struct writer *w = arg;
	int fd = open(w->path, O_WRONLY | O_CLOEXEC);
	void *buf = malloc(RA_MIB);

	if (fd < 0 || !buf) {
		fail(w->slot, "open", 0, 0, fd < 0 ? errno : ENOMEM);
		return 1;
	}
	while (!stopping()) {
		uint64_t off = ra_rand(&w->rng) % (w->f->size / RA_MIB) * RA_MIB;
		int err = 0;

		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, RA_MIB))
			fail(w->slot, "fallocate(PUNCH_HOLE)", off, RA_MIB, errno);
		if (ra_rand(&w->rng) % 2)
			usleep(ra_rand(&w->rng) % 2000);
		ra_fill(w->f->id, off, buf, RA_MIB);
		if (lseek(fd, off, SEEK_SET) < 0)
			err = errno;
		else
			err = -write_full(fd, buf, RA_MIB);
		if (err)
			fail(w->slot, "rewrite", off, RA_MIB, err);
		w->slot->punches++;
		if (w->slot->punches % FSYNC_ONE_IN == 0 && fsync(fd))
			fail(w->slot, "fsync", 0, 0, errno);
	}
	return 0;
}

/*
 * Set a random feature to a random 0 or 1 every millisecond, or as fast
 * as the flips go when one takes longer (each is a static key's text
 * patch, with IPIs, and a debug kernel under TCG makes that slow).
 * SCHED_FIFO, so that the twelve readers do not starve it (at their
 * fair share it flipped 17 to 59 times a second); the deadlines are
 * absolute, so that the time a flip takes is not added to the sleep.
 * The kernel's RT throttling (95% of a CPU) bounds what it may take.
 */
static int flipper_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct writer *w = arg;
	struct timespec next;

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		diag("flipper: SCHED_FIFO: %s (left at its fair share)", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!flipping && !stopping())
		usleep(100000);
	while (!stopping()) {
		const struct feature *f = &features[ra_rand(&w->rng) % nr_features];
		int err = feature_set(f, ra_rand(&w->rng) & 1);

		if (err)
			fail(w->slot, f->name, 0, 0, -err);
		else
			w->slot->flips++;
		ra_next_deadline(&next, FLIP_NS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}

/* A, B: written, synced, and out of the page cache. */
static bool make_files(const char *label, const struct ra_file *files,
		       char paths[NR_FILES][PATH_MAX])
{
	int err = 0;

	for (int i = 0; i < NR_FILES && !err; i++) {
		err = ra_make_file(paths[i], &files[i]);
		if (!err)
			err = ra_evict(paths[i]);
	}
	if (!err)
		err = measure_drop_caches();
	return ok(!err, "%s: A and B written (%" PRIu64 " MiB each), synced, dropped from the cache%s%s",
		  label, files[0].size / RA_MIB, err ? ": " : "", err ? strerror(-err) : "");
}

/* Start every process; false (and the started ones told to stop) if one cannot be. */
static bool start(const struct ra_file *files, char paths[NR_FILES][PATH_MAX], uint64_t seed,
		  pid_t *pids)
{
	static struct reader readers[NR_FILES * NR_KINDS];
	static struct writer writers[2];
	int n = 0;

	for (int i = 0; i < NR_FILES; i++) {
		for (int j = 0; j < NR_KINDS; j++, n++) {
			readers[n] = (struct reader){ .kind = &kinds[j], .f = &files[i],
						      .path = paths[i], .slot = &sh->slot[n],
						      .rng = seed + n };
			snprintf(sh->slot[n].what, sizeof(sh->slot[n].what), "%s %s",
				 files[i].name, kinds[j].name);
			pids[n] = ra_spawn(reader_main, &readers[n]);
		}
	}
	writers[0] = (struct writer){ &files[1], paths[1], &sh->slot[n], seed + n };
	snprintf(sh->slot[n].what, sizeof(sh->slot[n].what), "B puncher");
	pids[n] = ra_spawn(puncher_main, &writers[0]);
	n++;
	writers[1] = (struct writer){ NULL, NULL, &sh->slot[n], seed + n };
	snprintf(sh->slot[n].what, sizeof(sh->slot[n].what), "flipper");
	pids[n] = ra_spawn(flipper_main, &writers[1]);

	for (int i = 0; i < NR_PROCS; i++) {
		if (pids[i] < 0) {
			diag("%s: fork: %s", sh->slot[i].what, strerror(-pids[i]));
			pids[i] = 0;
			atomic_store(&sh->stop, 1);
		}
	}
	return !atomic_load(&sh->stop);
}

/* Run for @seconds, reading the kernel log as it goes. */
static double run(unsigned int seconds, struct ra_kmsg *k)
{
	double t0 = ra_now();

	while (ra_now() < t0 + seconds) {
		usleep(200000);
		ra_kmsg_drain(k);
	}
	atomic_store(&sh->stop, 1);
	return ra_now() - t0;
}

/* The readers' lines: every read right, none failed, each reader read. */
static bool readers_ok(const int *status, struct ra_tally *sum)
{
	bool good = true;

	for (int i = 0; i < NR_FILES * NR_KINDS; i++) {
		const struct slot *s = &sh->slot[i];

		diag("%-16s %8" PRIu64 " reads %6" PRIu64 " MiB checked, %" PRIu64
		     " wrong words, %" PRIu64 " holes, %" PRIu64 " torn, %" PRIu64
		     " SIGBUS, %" PRIu64 " errors",
		     s->what, s->t.calls, s->t.bytes / RA_MIB, s->t.bad, s->t.holes, s->t.torn,
		     s->t.sigbus, s->t.errors);
		good &= ra_exited_ok(s->what, status[i]);
		if (!s->t.calls) {
			diag("%s never read", s->what);
			good = false;
		}
		good &= !s->t.bad && !s->t.sigbus && !s->t.errors;
		sum->calls += s->t.calls;
		sum->bytes += s->t.bytes;
		sum->bad += s->t.bad;
		sum->holes += s->t.holes;
		sum->torn += s->t.torn;
		sum->sigbus += s->t.sigbus;
		sum->errors += s->t.errors;
	}
	return good;
}

/* The puncher and the flipper worked, and each ran at least once. */
static bool writers_ok(const int *status, const struct slot *punch, const struct slot *flip)
{
	bool good = ra_exited_ok(punch->what, status[NR_PROCS - 2]);

	good &= ra_exited_ok(flip->what, status[NR_PROCS - 1]);
	return good && !punch->t.errors && !flip->t.errors && punch->punches &&
	       (flip->flips || !flipping);
}

static void stress(const char *dir, unsigned int seconds, uint64_t size, struct ra_kmsg *k)
{
	struct ra_file files[NR_FILES] = {
		{ .name = "A", .id = 1, .size = size },
		{ .name = "B", .id = 2, .size = size, .holes = true },
	};
	char paths[NR_FILES][PATH_MAX];
	pid_t pids[NR_PROCS] = { 0 };
	int status[NR_PROCS] = { 0 };
	uint64_t seed = (uint64_t)getpid() << 32 ^ (uint64_t)(ra_now() * 1e6);
	struct ra_tally sum = { 0 };
	const struct slot *punch, *flip;
	bool started, stopped, data, writers;
	double secs;
	int err;

	for (int i = 0; i < NR_FILES; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/ra_stress.%s", dir, files[i].name);
	if (!make_files(dir, files, paths))
		goto out;

	started = start(files, paths, seed, pids);
	secs = started ? run(seconds, k) : 0;
	stopped = !ra_reap(pids, status, NR_PROCS, STOP_TIMEOUT_S, k);
	if (stopped)
		ok(true, "%s: every process stopped within %d s", dir, STOP_TIMEOUT_S);
	else
		ra_overrun("the stress", pids, status, NR_PROCS, k);

	data = readers_ok(status, &sum);
	ok(started && data, "%s: data intact (%" PRIu64 " reads, %" PRIu64 " MiB checked: %"
	   PRIu64 " wrong words, %" PRIu64 " SIGBUS pages, %" PRIu64 " failed calls)",
	   dir, sum.calls, sum.bytes / RA_MIB, sum.bad, sum.sigbus, sum.errors);

	punch = &sh->slot[NR_PROCS - 2];
	flip = &sh->slot[NR_PROCS - 1];
	writers = writers_ok(status, punch, flip);
	err = flipping ? ra_features_set_all(true) : 0;
	ok(started && writers && !err,
	   "%s: %" PRIu64 " holes punched and rewritten, %" PRIu64 " flips%s%s%s",
	   dir, punch->punches, flip->flips,
	   flipping ? ", then every feature back to 1" : " (noflip)", err ? ": " : "",
	   err ? strerror(-err) : "");

	diag("%s: checked %" PRIu64 " reads, %" PRIu64 " bytes (%" PRIu64 " words of holes, %"
	     PRIu64 " torn); %" PRIu64 " flips; %" PRIu64 " punches; %.1f s; seed %#" PRIx64,
	     dir, sum.calls, sum.bytes, sum.holes, sum.torn, flip->flips, punch->punches, secs,
	     seed);
out:
	for (int i = 0; i < NR_FILES; i++)
		unlink(paths[i]);
}

/* khugepaged without pause, as the top says */
static const struct ra_knob_val khugepaged_fast[] = {
	{ "khugepaged/scan_sleep_millisecs", "0" },
	{ "khugepaged/alloc_sleep_millisecs", "0" },
	{ "khugepaged/pages_to_scan", "65536" },
};
#define NR_KHUGEPAGED (sizeof(khugepaged_fast) / sizeof(khugepaged_fast[0]))
static struct ra_knob khugepaged[NR_KHUGEPAGED];

int main(int argc, char **argv)
{
	uint64_t seconds, size_mib = 64;
	struct ra_kmsg k;
	int err;

	if (argc < 3 || argc > 5 || parse_u64(argv[2], 24 * 3600, &seconds) || !seconds ||
	    (argc >= 4 && (parse_u64(argv[3], 1 << 20, &size_mib) || !size_mib)) ||
	    (argc == 5 && strcmp(argv[4], "flip") && strcmp(argv[4], "noflip"))) {
		fprintf(stderr, "usage: test_ra_stress DIR SECONDS [SIZE_MIB [flip|noflip]]\n");
		return 2;
	}
	flipping = argc < 5 || !strcmp(argv[4], "flip");
	ra_kmsg_open(&k, "test_ra_stress", argv[1]);
	if (flipping && !ra_features_exist(argv[1]))
		return tap_done();
	ra_hung_task_timeout();
	ra_knobs_apply(khugepaged, khugepaged_fast, NR_KHUGEPAGED);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	err = sh == MAP_FAILED ? -errno : ra_catch_sigbus();
	if (ok(!err, "%s: shared page and SIGBUS handler%s%s", argv[1], err ? ": " : "",
	       err ? strerror(-err) : ""))
		stress(argv[1], seconds, size_mib * RA_MIB, &k);
	sysctl_restore_all();
	ra_knobs_restore(khugepaged, NR_KHUGEPAGED);
	ra_kmsg_clean(&k, argv[1]);
	ra_kmsg_close(&k);
	return tap_done();
}
