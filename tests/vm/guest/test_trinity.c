// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: Debian's trinity, a system-call fuzzer nobody here wrote,
 * aimed at the calls the series touches (madvise, fadvise64, readahead,
 * mmap, munmap, mremap, read, pread64, fallocate, sync_file_range,
 * process_madvise) on files of each DIR, as user nobody (65534: trinity
 * refuses root, and a fuzzer running as root could wreck the guest rather
 * than find a kernel bug), while a flipper sets a random one of the six
 * vm.readahead_* switches to a random 0 or 1 about every millisecond, as
 * test_ra_stress's does.
 *
 * For each DIR, SECONDS of trinity (its own process group, -C 4 children,
 * logging off, 64-bit calls only, no socket fds), its victims (-V) a directory of files
 * of several sizes there that nobody owns, its cwd (where it makes its
 * own test files) the same directory.  Then SIGINT; trinity and every
 * child it made must be gone within 60 s, or the stage fails as a hang
 * (their kernel stacks, the tasks in D state and sysrq-w are shown).
 * And, as every test of the debug suite: no kernel report (ra_reports[]:
 * lockdep, KASAN, BUG, WARNING, a hung task...) in the log since the
 * start marker, and no new taint flag.
 *
 * usage: test_trinity SECONDS DIR...
 *   trinity is /tests/trinity (tests/vm/run puts it there with its
 *   libraries); its output goes to /tmp/trinity-N.log, whose tail is shown.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sys/prctl.h>

#include "host/feature.h"
#include "host/sysctl.h"
#include "lib/fileio.h"
#include "lib/parsenum.h"
#include "ra_check.h"
#include "tap.h"

#define TRINITY "/tests/trinity"
#define NOBODY 65534
#define FLIP_NS 1000000L
#define STOP_S 60	/* trinity and its children, after SIGINT */

struct shared {
	atomic_int stop;
	uint64_t flips;
	uint64_t errors;
};

static struct shared *sh;

/* The flipper: a random switch to a random 0 or 1 every millisecond. */
static int flipper_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	uint64_t rng = (uint64_t)(uintptr_t)arg;
	struct timespec next;

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		diag("flipper: SCHED_FIFO: %s (left at its fair share)", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&sh->stop)) {
		const struct feature *f = &features[ra_rand(&rng) % nr_features];

		if (feature_set(f, ra_rand(&rng) & 1)) {
			if (++sh->errors <= 4)
				diag("flipper: cannot set %s", f->name);
		} else {
			sh->flips++;
		}
		ra_next_deadline(&next, FLIP_NS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}

/* An empty file, or @mib MiB of pattern (ra_make_file), owned by nobody. */
static int victim(const char *dir, const char *name, unsigned int id, uint64_t mib,
		  uint64_t extra)
{
	char path[PATH_MAX];
	int err = 0, fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mib) {
		struct ra_file f = { name, id, mib * RA_MIB, false };

		err = ra_make_file(path, &f);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* a tail that ends mid-page */
	if (!err && extra && write(fd, path, extra < strlen(path) ? extra : strlen(path)) < 0)
		err = -errno;
	if (!err && fchown(fd, NOBODY, NOBODY))
		err = -errno;
	close(fd);
	return err;
}

/* DIR/trinity: nobody's, with the victims, out of the page cache. */
static bool make_victims(const char *dir, char *work, size_t len)
{
	static const struct { const char *name; uint64_t mib, extra; } v[] = {
		{ "large", 64, 0 }, { "medium", 8, 100 }, { "two-mib", 2, 0 },
		{ "one-mib", 1, 3000 }, { "empty", 0, 0 },
	};
	int err = 0;

	snprintf(work, len, "%s/trinity", dir);
	if (mkdir(work, 0755) && errno != EEXIST)
		err = -errno;
	if (!err && chown(work, NOBODY, NOBODY))
		err = -errno;
	for (unsigned int i = 0; i < sizeof(v) / sizeof(v[0]) && !err; i++)
		err = victim(work, v[i].name, 40 + i, v[i].mib, v[i].extra);
	if (!err) {
		sync();
		for (unsigned int i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			char p[PATH_MAX];

			snprintf(p, sizeof(p), "%s/%s", work, v[i].name);
			ra_evict(p);
		}
	}
	return ok(!err, "%s: trinity's victims (64, 8, 2, 1 MiB and empty files of nobody's)%s%s",
		  dir, err ? ": " : "", err ? strerror(-err) : "");
}

static long tainted(void)
{
	char buf[64];

	if (read_small_file("/proc/sys/kernel/tainted", buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/* The child: its own process group, nobody, trinity. */
static void exec_trinity(const char *work, const char *log, unsigned int seed)
{
	static const char *const calls[] = {
		"madvise", "fadvise64", "readahead", "mmap", "munmap", "mremap", "read",
		"pread64", "fallocate", "sync_file_range", "process_madvise",
	};
	char seedarg[32];
	const char *argv[64];
	int n = 0, fd;

	setpgid(0, 0);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "1000", 4) < 0)
			perror("oom_score_adj");
		close(fd);
	}
	if (chdir(work) || setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		perror("test_trinity: chdir, or becoming nobody");
		_exit(126);
	}
	snprintf(seedarg, sizeof(seedarg), "-s%u", seed);
	argv[n++] = "trinity";
	argv[n++] = "-q";
	argv[n++] = "-l";
	argv[n++] = "off";
	argv[n++] = "-a64";
	argv[n++] = "-C4";
	/*
	 * No sockets among its fds: the series' calls need none, and
	 * bookworm's trinity aborts ("stack smashing detected") while
	 * making them in the guest
	 */
	argv[n++] = "--disable-fds=sockets,pipes,perf,epoll,eventfd,pseudo,timerfd,memfd,drm";
	argv[n++] = seedarg;
	argv[n++] = "-V";
	argv[n++] = work;
	for (unsigned int i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		argv[n++] = "-c";
		argv[n++] = calls[i];
	}
	argv[n] = NULL;
	execv(TRINITY, (char *const *)argv);
	perror(TRINITY);
	_exit(127);
}

/* The last @n lines of @path as "#" lines. */
static void show_tail(const char *path, int n)
{
	char buf[65536];
	int lines = 0, fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;
	char *p, *save = NULL;
	off_t size;

	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0, SEEK_SET);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return;
	buf[len] = '\0';
	for (p = buf + len; p > buf; p--)
		if (*p == '\n' && ++lines > n)
			break;
	for (char *l = strtok_r(p, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		diag("trinity: %s", l);
}

/* Is any process of group @pgid left? */
static bool group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0;
}

/*
 * Reap whatever has ended of trinity's orphans (we are their subreaper),
 * by its process group: never the flipper, which ra_reap() waits for.
 */
static void reap_orphans(pid_t pgid)
{
	while (waitpid(-pgid, NULL, WNOHANG) > 0)
		;
}

static void fuzz(const char *dir, unsigned int seconds, unsigned int nr)
{
	char work[512], log[64];
	pid_t pids[2] = { 0, 0 };	/* trinity, the flipper */
	int status[2] = { 0, 0 };
	struct ra_kmsg k;
	long taint0, taint1;
	unsigned int seed;
	bool early = false;
	pid_t pgid;
	double t0, end;

	ra_kmsg_open(&k, "test_trinity", dir);
	if (!make_victims(dir, work, sizeof(work)))
		goto out;
	taint0 = tainted();
	seed = (unsigned int)time(NULL) ^ (unsigned int)getpid() ^ nr;
	snprintf(log, sizeof(log), "/tmp/trinity-%u.log", nr);
	atomic_store(&sh->stop, 0);
	sh->flips = sh->errors = 0;
	pids[1] = ra_spawn(flipper_main, (void *)(uintptr_t)(seed * 2654435761u + 1));
	fflush(stdout);
	pids[0] = fork();
	if (pids[0] == 0)
		exec_trinity(work, log, seed);
	if (pids[0] < 0 || pids[1] < 0) {
		ok(false, "%s: fork: %s", dir, strerror(errno));
		if (pids[0] < 0)
			pids[0] = 0;
		atomic_store(&sh->stop, 1);
		goto stop_flipper;
	}
	pgid = pids[0];
	setpgid(pgid, pgid);
	diag("%s: trinity (seed %u) and the flipper for %u s", dir, seed, seconds);
	t0 = ra_now();
	while (ra_now() < t0 + seconds) {
		usleep(200000);
		ra_kmsg_drain(&k);
		if (waitpid(pids[0], &status[0], WNOHANG) == pids[0]) {
			pids[0] = 0;
			early = true;
			break;
		}
	}
	if (!ok(!early, "%s: trinity fuzzed for %u s as nobody%s", dir, seconds,
		early ? ", but ended early" : "")) {
		ra_exited_ok("trinity", status[0]);
		show_tail(log, 30);
	}
	/* stop: SIGINT, trinity stops its children and says what it ran */
	if (pids[0])
		kill(pids[0], SIGINT);
	end = ra_now() + STOP_S;
	if (pids[0] && ra_reap(pids, status, 1, STOP_S, &k)) {
		ra_overrun("trinity after SIGINT", pids, status, 1, &k);
	} else {
		/* and every child it made, whatever became of trinity */
		while (reap_orphans(pgid), group_alive(pgid) && ra_now() < end) {
			usleep(100000);
			ra_kmsg_drain(&k);
		}
		if (!ok(!group_alive(pgid), "%s: trinity and every child it made gone within %d s"
			" of SIGINT", dir, STOP_S)) {
			ra_show_d_tasks(NULL, 0);
			k.copy = 400;
			ra_sysrq('w');
			sleep(1);
			ra_kmsg_drain(&k);
			k.copy = 0;
		}
	}
	kill(-pgid, SIGKILL);
	usleep(100000);
	reap_orphans(pgid);
stop_flipper:
	atomic_store(&sh->stop, 1);
	if (pids[1] > 0 && ra_reap(&pids[1], &status[1], 1, 30, &k))
		ra_overrun("the flipper", &pids[1], &status[1], 1, &k);
	ok(sh->flips > 0 && !sh->errors, "%s: %" PRIu64 " switch flips beside it, %" PRIu64
	   " failed", dir, sh->flips, sh->errors);
	show_tail(log, 8);
	taint1 = tainted();
	ok(taint1 == taint0, "%s: the kernel's taint flags unchanged (%ld, %ld before)", dir,
	   taint1, taint0);
out:
	ra_kmsg_clean(&k, dir);
	ra_kmsg_close(&k);
}

int main(int argc, char **argv)
{
	uint64_t seconds;

	if (argc < 3 || parse_u64(argv[1], 24 * 3600, &seconds) || !seconds) {
		fprintf(stderr, "usage: test_trinity SECONDS DIR...\n");
		return 2;
	}
	if (!ok(access(TRINITY, X_OK) == 0, "trinity is in the initramfs (%s)", TRINITY) ||
	    !ra_features_exist("test_trinity"))
		return tap_done();
	ra_hung_task_timeout();
	/* trinity's children, orphaned, come to us to be reaped */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		diag("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!ok(sh != MAP_FAILED, "shared page%s%s", sh == MAP_FAILED ? ": " : "",
		sh == MAP_FAILED ? strerror(errno) : ""))
		return tap_done();
	for (int i = 2; i < argc; i++)
		fuzz(argv[i], (unsigned int)seconds, (unsigned int)(i - 1));
	ok(ra_features_set_all(true) == 0, "every switch back to 1");
	sysctl_restore_all();
	return tap_done();
}
