// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: is vm.readahead_exec_mmap_miss_bypass safe to flip while
 * an exec mapping faults?  The switch decides whether faults on VM_EXEC
 * mappings count towards file->f_ra.mmap_miss (a major fault adds one, a
 * page found by fault-around takes one off; over MMAP_LOTSAMISS, 100, the
 * file's faults stop reading around).  7.3.4 fixed a counter that only
 * went up on exec mappings; a flip between a fault's increment and
 * another's decrement is the same asymmetry in small.  Our 0009 reads the
 * switch once per fault handler, and says in mm/filemap.c why what a flip
 * leaves is what one of the two settings could have left; this test
 * looks at that from the outside.
 *
 * The unit is a sweep: zap the mapping's page tables, evict the file's
 * pages, touch every page of SPAN in order, count the major faults.  With
 * reading around, about one per window; without, one per page.  The disk's
 * read_ahead_kb is 128 meanwhile (a window of 32 pages; each open takes
 * it), so that a miss reads little and the two differ 32-fold.
 *
 *  1. A fresh open of FILE, a PROT_READ|PROT_EXEC mapping, one sweep with
 *     the switch at 1 and one at 0 (each its own open): the reference.
 *  2. One open and mapping for the rest.  SECONDS of storm: a SCHED_FIFO
 *     child flips the switch every millisecond while this process takes
 *     faults on the mapping: random single pages evicted after each touch
 *     (misses), and now and then a warm pass (hits).
 *  3. Switch at 1: a sweep reads around as the fresh one did (the bypass
 *     ignores whatever the storm left in the counter).
 *  4. Switch at 0: 2 x MMAP_LOTSAMISS misses, then a sweep: it must not
 *     read around (more than 4x the fresh sweep's major faults).  This is
 *     what shows the sweep can see a counter over MMAP_LOTSAMISS.
 *  5. Switch at 0: warm passes pay the counter off (each fault that
 *     fault-around serves takes one off: SPAN / 64 KiB a pass, and the
 *     counter stops at MMAP_LOTSAMISS * 10), then a sweep reads around as
 *     the fresh one did: the counter was in its range, not wrapped or
 *     stuck, after the flips.
 *
 * Counts, no times.  Within 5/4 of the reference plus 4 faults: the
 * sweep's windows start where its own faults fall, a few either way.
 *
 * usage: test_mmap_miss_flip FILE SECONDS
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/measure.h"
#include "host/feature.h"
#include "lib/parsenum.h"
#include "ra_timing.h"
#include "tap.h"

#define SWITCH "readahead_exec_mmap_miss_bypass"
#define SPAN (16 * RA_MIB)	/* of FILE, swept */
#define MMAP_LOTSAMISS 100	/* mm/filemap.c */
#define WARM_ONE_IN 64		/* storm: a warm pass after 1 touch in 64 */
#define FLIP_NS 1000000L
#define FAULT_AROUND (64 * RA_KIB)	/* fault_around_bytes, as 7.3.4 sets it */
/* warm passes that pay off a counter at its ceiling, and one more */
#define PAY_OFF_PASSES (MMAP_LOTSAMISS * 10 / (SPAN / FAULT_AROUND) + 2)

struct flips {
	atomic_int stop;
	atomic_ulong flips, errors;
};

/* splitmix64: the storm's pages, the same every run */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t majflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

/* Drop the mapping's page tables over [off, off + len) and the file's pages there. */
static int evict(int fd, unsigned char *map, size_t off, size_t len)
{
	if (madvise(map + off, len, MADV_DONTNEED))
		return -errno;
	return -posix_fadvise(fd, off, len, POSIX_FADV_DONTNEED);
}

/* Touch every page of SPAN in order, cold: the major faults it took. */
static uint64_t sweep(int fd, unsigned char *map, int *err)
{
	volatile unsigned char sink = 0;
	uint64_t m0;

	*err = evict(fd, map, 0, SPAN);
	m0 = majflt_now();
	for (size_t off = 0; off < SPAN; off += RA_PAGE)
		sink += map[off];
	(void)sink;
	return majflt_now() - m0;
}

/* Every page cached and then touched through fresh page tables: hits. */
static int warm_pass(int fd, unsigned char *map)
{
	volatile unsigned char sink = 0;
	static unsigned char buf[1 << 20];

	for (size_t off = 0; off < SPAN; off += sizeof(buf))
		if (pread(fd, buf, sizeof(buf), off) < 0)
			return -errno;
	if (madvise(map, SPAN, MADV_DONTNEED))
		return -errno;
	for (size_t off = 0; off < SPAN; off += RA_PAGE)
		sink += map[off];
	(void)sink;
	return 0;
}

/* @n random single pages, each evicted after its touch: @n misses. */
static int misses(int fd, unsigned char *map, unsigned n, uint64_t *rng)
{
	volatile unsigned char sink = 0;
	int err = 0;

	for (unsigned i = 0; i < n && !err; i++) {
		size_t off = next_rand(rng) % (SPAN / RA_PAGE) * RA_PAGE;

		/* what reading around brought in is evicted with it */
		size_t lo = off >= 64 * RA_PAGE ? off - 64 * RA_PAGE : 0;
		size_t len = lo + 128 * RA_PAGE <= SPAN ? 128 * RA_PAGE : SPAN - lo;

		sink += map[off];
		err = evict(fd, map, lo, len);
	}
	(void)sink;
	return err;
}

/*
 * Flip the switch every millisecond until told to stop.  SCHED_FIFO so
 * that the faulting process does not starve it; deadlines absolute.
 */
static int flipper(struct flips *fl, const struct feature *f)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct timespec next;
	int on = 0;

	sched_setscheduler(0, SCHED_FIFO, &sp);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&fl->stop)) {
		if (feature_set(f, on))
			atomic_fetch_add(&fl->errors, 1);
		else
			atomic_fetch_add(&fl->flips, 1);
		on = !on;
		next.tv_nsec += FLIP_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}

static bool within(uint64_t got, uint64_t ref)
{
	return got <= ref * 5 / 4 + 4;
}

/* Open FILE and map SPAN of it PROT_READ|PROT_EXEC; false (said) if not. */
static bool map_file(const char *path, int *fd, unsigned char **map)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	*map = *fd < 0 ? MAP_FAILED : mmap(NULL, SPAN, PROT_READ | PROT_EXEC, MAP_PRIVATE, *fd, 0);
	if (*map == MAP_FAILED) {
		ok(false, "map %s PROT_EXEC: %s", path, strerror(errno));
		if (*fd >= 0)
			close(*fd);
		return false;
	}
	return true;
}

static void unmap_file(int fd, unsigned char *map)
{
	munmap(map, SPAN);
	close(fd);
}

/* Step 1: a fresh open's sweep at @on. */
static bool fresh_sweep(const char *path, const struct ra_switch *sw, int on, uint64_t *out)
{
	unsigned char *map;
	int fd, err;

	if (ra_switch_set(sw, on) || !map_file(path, &fd, &map))
		return false;
	*out = sweep(fd, map, &err);
	unmap_file(fd, map);
	return ok(!err && *out > 0 && *out < SPAN / RA_PAGE / 4,
		  "fresh open, switch %d: a sweep of %lu MiB reads around (%llu major faults)%s%s",
		  on, SPAN / RA_MIB, (unsigned long long)*out, err ? ": " : "",
		  err ? strerror(-err) : "");
}

/* Step 2: the storm; false (said) if it could not run. */
static bool storm(int fd, unsigned char *map, const struct ra_switch *sw, uint64_t seconds,
		  uint64_t *rng)
{
	struct flips *fl = mmap(NULL, sizeof(*fl), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t touches = 0, warm = 0;
	int status = 0, err = 0;
	double t0 = now_s();
	pid_t pid;

	if (fl == MAP_FAILED)
		return ok(false, "shared page: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(flipper(fl, sw->f));
	if (pid < 0) {
		munmap(fl, sizeof(*fl));
		return ok(false, "fork: %s", strerror(errno));
	}
	while (!err && now_s() < t0 + seconds) {
		err = misses(fd, map, 1, rng);
		touches++;
		if (!err && next_rand(rng) % WARM_ONE_IN == 0) {
			err = warm_pass(fd, map);
			warm++;
		}
	}
	atomic_store(&fl->stop, 1);
	waitpid(pid, &status, 0);
	ok(!err && WIFEXITED(status) && !WEXITSTATUS(status) && !atomic_load(&fl->errors) &&
	   atomic_load(&fl->flips) >= seconds,
	   "storm: %lu flips of vm.%s in %llu s (%.0f a second) during %llu exec faults, %llu warm passes%s%s",
	   atomic_load(&fl->flips), SWITCH, (unsigned long long)seconds, atomic_load(&fl->flips) / (double)seconds,
	   (unsigned long long)touches, (unsigned long long)warm, err ? ": " : "",
	   err ? strerror(-err) : "");
	munmap(fl, sizeof(*fl));
	return !err;
}

int main(int argc, char **argv)
{
	uint64_t fresh[2], got = 0, rng = 0x5eed;
	struct measure_file mf;
	struct ra_queue q;
	struct ra_switch sw;
	unsigned char *map;
	uint64_t seconds;
	int fd, err;

	if (argc != 3 || parse_u64(argv[2], 3600, &seconds) || !seconds) {
		fprintf(stderr, "usage: test_mmap_miss_flip FILE SECONDS (1..3600)\n");
		return 2;
	}
	if (!ok(!measure_file_open(&mf, argv[1]) && mf.size >= (int64_t)SPAN,
		"%s: at least %lu MiB, on a disk", argv[1], SPAN / RA_MIB) ||
	    !ra_queue_open(&q, &mf) || !ra_switch_open(&sw, SWITCH))
		return tap_done();
	if (!ra_queue_set(&q, 0, 128))
		goto out;
	if (!fresh_sweep(argv[1], &sw, 1, &fresh[1]) || !fresh_sweep(argv[1], &sw, 0, &fresh[0]) ||
	    !map_file(argv[1], &fd, &map))
		goto out;
	if (!storm(fd, map, &sw, seconds, &rng))
		goto out_unmap;

	if (!ra_switch_set(&sw, 1)) {
		got = sweep(fd, map, &err);
		ok(!err && within(got, fresh[1]),
		   "after the storm, switch 1: %llu major faults, fresh %llu (the bypass ignores the counter)",
		   (unsigned long long)got, (unsigned long long)fresh[1]);
	}
	if (ra_switch_set(&sw, 0))
		goto out_unmap;
	err = misses(fd, map, 2 * MMAP_LOTSAMISS, &rng);
	if (!err)
		got = sweep(fd, map, &err);
	ok(!err && got > 4 * fresh[0],
	   "switch 0, %d misses: the sweep stops reading around (%llu major faults > 4 x fresh %llu)",
	   2 * MMAP_LOTSAMISS, (unsigned long long)got, (unsigned long long)fresh[0]);
	for (unsigned i = 0; i < PAY_OFF_PASSES && !err; i++)
		err = warm_pass(fd, map);
	if (!err)
		got = sweep(fd, map, &err);
	ok(!err && within(got, fresh[0]),
	   "switch 0, %lu warm passes later: reads around again (%llu major faults, fresh %llu)",
	   (unsigned long)PAY_OFF_PASSES, (unsigned long long)got, (unsigned long long)fresh[0]);
out_unmap:
	unmap_file(fd, map);
out:
	ra_queue_restore(&q);
	ra_switch_restore(&sw);
	return tap_done();
}
