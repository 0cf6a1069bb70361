// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: a MADV_POPULATE_READ killed at a random moment leaves
 * mmap_lock as it found it, and the killed task is reaped within seconds.
 *
 * With vm.readahead_populate_io_pages at 1, madvise_populate() drops
 * mmap_lock to issue its readahead windows, and must take it again before
 * it returns, whatever happens meanwhile: its callers end in
 * madvise_unlock().  The patch of the series that dropped it (0010)
 * returned -EINTR unlocked when a fatal signal came in while the windows
 * were issued; the caller's mmap_read_unlock() then released a lock the
 * task no longer held, the reader count went negative, and exit_mmap()'s
 * mmap_write_lock() never succeeded: the killed task stayed in D state
 * for good (12 of 47 kills on the virt kernel of 6ccca71).  On the debug
 * kernel (PROVE_LOCKING, DEBUG_RWSEMS) the unlock is also reported as a
 * bad unlock, which the log check below catches.
 *
 * The test: a populate of FILE, cold, uninterrupted, is timed three
 * times, to the byte the child writes when madvise() returns (T, the
 * median); then KILLS times: evict FILE, fork a child that maps it
 * shared and populates all of it, SIGKILL the child after a delay drawn
 * uniformly from [0, T) (a fixed seed: the same delays every run), and
 * wait up to REAP_S for it to be reaped.  A kill landed in the populate
 * when the child had not yet written its done byte.  Checked: every
 * child is reaped in time; at least half of the kills landed in the
 * populate (else the test tested nothing); nothing in the kernel log
 * since the start (lockdep, DEBUG_RWSEMS's warning, a hung task).
 *
 * usage: test_populate_kill FILE KILLS
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/measure.h"
#include "ra_check.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#define REAP_S 20.0		/* a killed child must be gone by then */
#define SEED 0x5eed0010ULL	/* the delays: the same every run */

/* The child: map @path shared, say so on @ready_fd, populate it all. */
struct child_arg {
	const char *path;
	int ready_fd;
};

static int child_populate(void *p)
{
	const struct child_arg *a = p;
	struct stat st;
	void *map;
	int fd = open(a->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st))
		return 2;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 3;
	if (write(a->ready_fd, "r", 1) != 1)
		return 4;
	if (madvise(map, (size_t)st.st_size, MADV_POPULATE_READ))
		return 5;
	/* done: a kill after this did not land in the populate */
	if (write(a->ready_fd, "d", 1) != 1)
		return 6;
	return 0;
}

/* Is the "done" byte readable on @fd now? */
static bool done_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * Start a child on @path; once it has mapped the file, wait @delay_s and
 * SIGKILL it (@delay_s < 0: never) and reap it within REAP_S.  *@landed:
 * the kill came before the populate returned.  Returns the seconds from
 * the ready byte to the done byte (uninterrupted) or to the reap
 * (killed), or -1 (overran: the TAP line is written) or -2 (the child
 * could not start).
 */
static double one_run(const char *path, double delay_s, int *status, bool *landed,
		      struct ra_kmsg *k)
{
	int pipefd[2];
	struct child_arg a = { .path = path };
	pid_t pid;
	char c;
	double t0, t = -1;

	if (pipe(pipefd))
		return -2;
	a.ready_fd = pipefd[1];
	pid = ra_spawn(child_populate, &a);
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], &c, 1) != 1) {
		close(pipefd[0]);
		if (pid > 0)
			ra_reap(&pid, status, 1, REAP_S, k);
		return -2;
	}
	t0 = ra_now();
	*landed = false;
	if (delay_s >= 0) {
		if (delay_s > 0)
			usleep((useconds_t)(delay_s * 1e6));
		*landed = !done_now(pipefd[0]);
		kill(pid, SIGKILL);
	} else if (read(pipefd[0], &c, 1) == 1) {
		t = ra_now() - t0;
	}
	close(pipefd[0]);
	if (ra_reap(&pid, status, 1, delay_s >= 0 ? REAP_S : 600, k)) {
		ra_overrun("a killed MADV_POPULATE_READ", &pid, status, 1, k);
		return -1;
	}
	return delay_s >= 0 ? ra_now() - t0 : t;
}

/*
 * Empty the cache of @path as the bench does (POSIX_FADV_DONTNEED, then
 * drop_caches: DONTNEED alone left a populated file cached here); the
 * pages still cached, reported when any are.
 */
static uint64_t evict(const char *path, int64_t size)
{
	char how[48];
	uint64_t left;

	measure_evict(path, how, sizeof(how));
	left = measure_resident_pages(path, size);
	if (left)
		diag("%s: %llu pages still cached after %s", path, (unsigned long long)left, how);
	return left;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const struct feature *f = feature_find("readahead_populate_io_pages");
	uint64_t rng = SEED;
	int kills, status = 0, landed = 0, reaped = 0, warm = 0;
	struct stat st;
	double full, worst = 0, times[3];
	struct ra_kmsg k;
	char label[64];

	if (argc != 3 || (kills = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: test_populate_kill FILE KILLS\n");
		return 2;
	}
	snprintf(label, sizeof(label), "populate_kill %s", argv[1]);
	if (stat(argv[1], &st)) {
		fprintf(stderr, "test_populate_kill: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	ra_hung_task_timeout();
	ra_kmsg_open(&k, "test_populate_kill", argv[1]);
	if (!ok(f && feature_get(f) >= 0 && !feature_set(f, 1),
		"%s: vm.readahead_populate_io_pages is 1", label))
		return tap_done();

	/* the populate's time, cold: the median of three */
	for (int i = 0; i < 3; i++) {
		bool unused;

		warm += evict(argv[1], st.st_size) != 0;
		times[i] = one_run(argv[1], -1, &status, &unused, &k);
		if (!ok(times[i] > 0 && ra_exited_ok("an uninterrupted populate", status),
			"%s: an uninterrupted cold populate succeeds (%.3f s)", label, times[i]))
			return tap_done();
	}
	qsort(times, 3, sizeof(times[0]), cmp_double);
	full = times[1];

	for (int i = 0; i < kills; i++) {
		double delay = full * (double)(ra_rand(&rng) % 1000) / 1000.0, t;
		bool in_populate = false;

		warm += evict(argv[1], st.st_size) != 0;
		t = one_run(argv[1], delay, &status, &in_populate, &k);
		if (t == -2) {
			ok(false, "%s: run %d: the child could not start", label, i);
			break;
		}
		if (t < 0)
			break;		/* overran: said, and the task may stay */
		reaped++;
		landed += in_populate;
		if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) &&
		    !ra_exited_ok("a populate not killed in time", status))
			diag("run %d ended otherwise", i);
		if (t - delay > worst)
			worst = t - delay;
	}
	ok(reaped == kills, "%s: %d of %d killed populates reaped within %.0f s (worst %.3f s after the kill)",
	   label, reaped, kills, REAP_S, worst);
	ok(landed * 2 >= kills, "%s: %d of %d kills landed while the populate ran", label, landed,
	   kills);
	ok(!warm, "%s: the file was cold before every run (%d runs found pages cached)", label, warm);
	ra_kmsg_clean(&k, label);
	sysctl_restore_all();
	return tap_done();
}
