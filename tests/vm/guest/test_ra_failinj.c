// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: readahead when the page cache refuses a folio.
 * fail_function makes __filemap_add_folio() return -EIO, then -EINVAL, in
 * 50% of its calls with the six vm.readahead_* features all on, then in
 * 10% with them all off, while one of this test's reading processes runs
 * (0 otherwise), under each way in below.  Why more with them on: their
 * large folios make few calls (16 for 32 MiB of 2 MiB folios), and at 10%
 * a workload got 0 to 20 failures, readahead(2) once none.
 *
 * Not task-filter with /proc/self/make-it-fail: fail_function works by a
 * kprobe, whose handler runs from int3 in the kernel, an NMI-like context
 * on x86, where in_task() is false, so a task filter never lets a failure
 * through.  The guest runs nothing else meanwhile; a kernel thread's call
 * that fails too is one more path that must survive it.
 *
 *	readahead(2) in 2 MiB steps, each then read with pread(2)
 *	1 MiB preads in random order after POSIX_FADV_RANDOM
 *	MADV_WILLNEED in 8 MiB steps, each then read through the mapping
 *	MADV_POPULATE_READ of the whole mapping, then read through it
 *	sequential read(2)
 *	random page touches of a PROT_READ|PROT_EXEC mapping under
 *	MADV_HUGEPAGE (read, never executed)
 *
 * each from a cold cache, in a child given 60 s + 1 s per MiB (else
 * sysrq-w, its kernel stack, SIGKILL, and nothing more runs).  A read may fail as the
 * kernel maps the injected error: read(2) with the errno itself,
 * MADV_POPULATE_READ with ENOMEM (filemap_fault() turns any error of
 * __filemap_get_folio() into VM_FAULT_OOM) or EFAULT (VM_FAULT_SIGBUS), a
 * mapping with SIGBUS (caught and counted); but every byte it returns
 * must be the file's, and then, the injection stopped, a process must read
 * the whole file right, through read(2) and a mapping, from the cache as
 * the failures left it.  Failures must have been injected for each
 * errno (fail_function's own count, and one "FAULT_INJECTION: forcing a
 * failure" kernel record each), else nothing was shown; and the kernel
 * log must hold no report (ra_check.h) since the start marker.  At the
 * end the function is removed from the injection list and every feature
 * is back to 1.
 *
 * usage: test_ra_failinj DIR [SIZE_MIB]
 *   DIR: a writable directory; ra_failinj.data (SIZE_MIB, 32 by default)
 *   is made there and removed at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mman.h>

#include "host/feature.h"
#include "host/sysctl.h"
#include "lib/fileio.h"
#include "lib/parsenum.h"
#include "lib/rootdir.h"
#include "ra_check.h"
#include "tap.h"

#define FI_DIR "/sys/kernel/debug/fail_function"
#define FI_FUNC "__filemap_add_folio"
/* "times" counts down by one per injected failure: fail_function's own
 * count, so we set it high rather than to -1 (unlimited, not counted). */
#define FI_TIMES "1000000000"
/* A child reads the file once or twice: at 50 MB/s (TCG, KASAN) 1 s per
 * MiB is a margin of 25 at least; the 60 s are for the rest. */
#define LIMIT_S(size_mib) (60 + (size_mib))
#define EXEC_TOUCH_EVERY (16 * 1024)	/* exec touches: one page per 16 KiB of file */
#define SEQ_READ (128 * 1024)		/* sequential read(2) size, as cat's */

static const struct {
	int err;
	const char *name;
} injected[] = {
	{ EIO, "EIO" },
	{ EINVAL, "EINVAL" },
};

/* ---- fail_function --------------------------------------------------- */

static int fi_path(const char *file, char *path, size_t len)
{
	char name[128];

	snprintf(name, sizeof(name), FI_DIR "/%s", file);
	return host_path(name, path, len);
}

/* Write @val to fail_function's @file, as echo does: 0 or -errno. */
static int fi_write(const char *file, const char *val)
{
	char path[PATH_MAX];
	int fd, err = fi_path(file, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write_full(fd, val, strlen(val));
	close(fd);
	return err;
}

static int fi_read(const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	int err = fi_path(file, path, sizeof(path));

	return err ? err : read_small_file(path, buf, len);
}

/* What is left of "times": it counts the failures injected. */
static int fi_times(long long *left)
{
	char buf[32];
	int err = fi_read("times", buf, sizeof(buf));

	if (!err)
		*left = strtoll(buf, NULL, 10);
	return err;
}

/*
 * The fault attributes first, the function last: once the function is
 * on the list, the attributes decide whose calls fail, and until they are
 * ours they are whatever was set before (no task filter, by default).
 */
static bool fi_arm(void)
{
	static const char *const settings[][2] = {
		{ "task-filter", "N" },
		{ "probability", "0" },		/* 50 or 10 while a reader runs */
		{ "interval", "1" },
		{ "space", "0" },
		{ "times", FI_TIMES },
		{ "verbose", "1" },		/* one record per failure, no stack */
		{ "verbose_ratelimit_interval_ms", "0" },	/* 0: no limit */
		{ "verbose_ratelimit_burst", "1000000" },	/* should one apply */
	};
	const char *file = "inject";
	int err;

	/* a run killed before its cleanup may have left it listed */
	err = fi_write("inject", "!" FI_FUNC);
	if (err == -ENOENT)
		err = 0;
	for (size_t i = 0; !err && i < sizeof(settings) / sizeof(settings[0]); i++) {
		file = settings[i][0];
		err = fi_write(file, settings[i][1]);
	}
	if (!err) {
		file = "inject";
		err = fi_write(file, FI_FUNC);
	}
	return ok(!err, "fail_function armed on " FI_FUNC ": 10%% while a reader runs, verbose%s%s%s",
		  err ? ": " : "", err ? file : "", err ? strerror(-err) : "");
}

/*
 * retval is a u64 debugfs attribute (kstrtoull, base 0; read back as
 * %llx): a negative errno is written as the unsigned long it is, in hex,
 * -EIO as 0xfffffffffffffffb on 64-bit (the docs' printf %#x -5).  A
 * value outside -1..-MAX_ERRNO is refused for an ERRNO function.
 */
static bool fi_retval(int err, const char *name)
{
	unsigned long want = (unsigned long)-(long)err;
	char val[32], back[32] = "";
	int e;

	snprintf(val, sizeof(val), "%#lx", want);
	e = fi_write(FI_FUNC "/retval", val);
	if (!e)
		e = fi_read(FI_FUNC "/retval", back, sizeof(back));
	back[strcspn(back, "\n")] = '\0';
	return ok(!e && strtoull(back, NULL, 16) == want,
		  FI_FUNC " returns -%s: retval %s reads back '%s'%s%s", name, val, back,
		  e ? ": " : "", e ? strerror(-e) : "");
}

static bool fi_disarm(void)
{
	char list[256] = "";
	int err = fi_write("inject", "!" FI_FUNC);

	if (!err)
		err = fi_read("inject", list, sizeof(list));
	return ok(!err && !strstr(list, FI_FUNC), FI_FUNC " removed from the injection list%s%s",
		  err ? ": " : "", err ? strerror(-err) : "");
}

/* The injection on (@percent of the calls) or off (0), for everyone. */
static int fi_inject(int percent)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", percent);
	return fi_write("probability", buf);
}

/* ---- the readers, in a child --------------------------------------------- */

struct reader {
	const struct ra_file *f;
	const char *what;
	int fd;
	const unsigned char *map;
	unsigned char *buf;	/* RA_MIB */
	int inject;		/* the errno injected, 0: none */
	struct ra_tally *t;
	uint64_t rng;
};

/* @err is the errno injected (a reader without injection has none). */
static bool is_injected(const struct reader *r, int err)
{
	return r->inject && err == r->inject;
}

/* A read that failed: as the injection may make it, or not (shown). */
static void failed(struct reader *r, const char *op, uint64_t off, int err, bool may)
{
	if (may) {
		r->t->failed++;
		return;
	}
	if (++r->t->errors <= RA_SHOW)
		diag("%s: %s at %#" PRIx64 ": %s", r->what, op, off, strerror(err));
}

static uint64_t next_page(uint64_t off)
{
	return off - off % RA_PAGE + RA_PAGE;
}

/* pread [@off, @off + @len) in pieces of at most 1 MiB; a failure skips its page. */
static void pread_range(struct reader *r, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	while (off < end) {
		size_t want = end - off < RA_MIB ? end - off : RA_MIB;
		ssize_t n = ra_pread_check(r->fd, r->f, r->what, r->buf, want, off, r->t);

		if (n > 0) {
			off += n;
			continue;
		}
		failed(r, "pread", off, n ? -n : ENODATA, n && is_injected(r, -n));
		off = next_page(off);
	}
}

/* The @step bytes from @off, or what is left of the file. */
static uint64_t step_len(const struct reader *r, uint64_t off, uint64_t step)
{
	return r->f->size - off < step ? r->f->size - off : step;
}

static void wl_readahead(struct reader *r)
{
	for (uint64_t off = 0; off < r->f->size; off += 2 * RA_MIB) {
		uint64_t len = step_len(r, off, 2 * RA_MIB);

		if (readahead(r->fd, off, len))
			failed(r, "readahead", off, errno, false);
		pread_range(r, off, len);
	}
}

static void wl_random(struct reader *r)
{
	uint64_t n = r->f->size / RA_MIB, *order = malloc(n * sizeof(*order));
	int err = posix_fadvise(r->fd, 0, 0, POSIX_FADV_RANDOM);

	if (err || !order) {
		failed(r, "POSIX_FADV_RANDOM", 0, err ? err : ENOMEM, false);
		free(order);
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		order[i] = i;
	for (uint64_t i = n - 1; i > 0; i--) {	/* Fisher-Yates */
		uint64_t j = ra_rand(&r->rng) % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (uint64_t i = 0; i < n; i++)
		pread_range(r, order[i] * RA_MIB, RA_MIB);
	free(order);
}

static void wl_willneed(struct reader *r)
{
	for (uint64_t off = 0; off < r->f->size; off += 8 * RA_MIB) {
		uint64_t len = step_len(r, off, 8 * RA_MIB);

		if (madvise((void *)(r->map + off), len, MADV_WILLNEED))
			failed(r, "MADV_WILLNEED", off, errno, false);
		ra_map_read(r->f, r->what, r->map, off, len, r->t);
	}
}

static void wl_populate(struct reader *r)
{
	if (madvise((void *)r->map, r->f->size, MADV_POPULATE_READ)) {
		int err = errno;

		failed(r, "MADV_POPULATE_READ", 0, err, r->inject && (err == ENOMEM || err == EFAULT));
	}
	ra_map_read(r->f, r->what, r->map, 0, r->f->size, r->t);
}

static void wl_sequential(struct reader *r)
{
	uint64_t off = 0;

	for (;;) {
		ssize_t n = read(r->fd, r->buf, SEQ_READ);
		int err = errno;

		if (n == 0)
			break;
		if (n > 0) {
			r->t->calls++;
			ra_check(r->f, r->what, r->buf, n, off, r->t);
			off += n;
			continue;
		}
		failed(r, "read", off, err, is_injected(r, err));
		off = next_page(off);
		if (lseek(r->fd, off, SEEK_SET) < 0) {
			failed(r, "lseek", off, errno, false);
			break;
		}
	}
	if (off < r->f->size)
		failed(r, "read: early end of file", off, ENODATA, false);
}

static void wl_exec(struct reader *r)
{
	uint64_t pages = r->f->size / RA_PAGE;

	for (uint64_t i = 0; i < r->f->size / EXEC_TOUCH_EVERY; i++) {
		uint64_t off = ra_rand(&r->rng) % pages * RA_PAGE;

		ra_map_read(r->f, r->what, r->map, off, RA_PAGE, r->t);
	}
}

/* After the failures, without them: all of it, through read(2) and a mapping. */
static void wl_reread(struct reader *r)
{
	pread_range(r, 0, r->f->size);
	ra_map_read(r->f, r->what, r->map, 0, r->f->size, r->t);
}

struct workload {
	const char *name;
	int prot;		/* of the mapping, 0: none */
	int madvice;		/* of all of it */
	bool cold;		/* starts with the file out of the cache */
	void (*run)(struct reader *r);
};

static const struct workload workloads[] = {
	{ "readahead(2) 2 MiB steps", 0, 0, true, wl_readahead },
	{ "POSIX_FADV_RANDOM 1 MiB preads", 0, 0, true, wl_random },
	{ "MADV_WILLNEED 8 MiB steps", PROT_READ, 0, true, wl_willneed },
	{ "MADV_POPULATE_READ", PROT_READ, 0, true, wl_populate },
	{ "sequential read(2)", 0, 0, true, wl_sequential },
	{ "PROT_EXEC MADV_HUGEPAGE touches", PROT_READ | PROT_EXEC, MADV_HUGEPAGE, true,
	  wl_exec },
};

/* the check after each: as the cache was left, so not cold */
static const struct workload reread = { "re-read", PROT_READ, 0, false, wl_reread };

struct job {
	const struct workload *wl;
	const struct ra_file *f;
	const char *path;
	int inject;		/* 0: not subject to it */
	int percent;		/* the probability of a failure while it runs */
	unsigned int limit_s;	/* to run in, else it overran */
	char what[96];
	struct ra_tally *t;	/* shared with the parent */
	uint64_t seed;
};

/* The child: open, map, evict, and run (the parent turns the injection on). */
static int job_main(void *arg)
{
	const struct job *j = arg;
	struct reader r = { .f = j->f, .what = j->what, .inject = j->inject, .t = j->t,
			    .rng = j->seed };
	int err = 0;

	r.fd = open(j->path, O_RDONLY | O_CLOEXEC);
	r.buf = malloc(RA_MIB);
	if (r.fd < 0 || !r.buf)
		err = r.fd < 0 ? -errno : -ENOMEM;
	if (!err && j->wl->prot) {
		void *m = mmap(NULL, j->f->size, j->wl->prot, MAP_SHARED, r.fd, 0);

		if (m == MAP_FAILED || madvise(m, j->f->size, j->wl->madvice))
			err = -errno;
		r.map = m;
	}
	if (!err && j->wl->cold)
		err = -posix_fadvise(r.fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err) {
		diag("%s: cannot start: %s", j->what, strerror(-err));
		return 1;
	}
	j->wl->run(&r);
	return 0;
}

/* ---- the parent ----------------------------------------------------------- */

struct totals {
	uint64_t injected;	/* fail_function's count */
	uint64_t logged;	/* kernel records of them */
	uint64_t failed;	/* reads that failed, pages lost to SIGBUS */
	uint64_t bytes;		/* checked */
};

/*
 * Run @j in a child, in its time: false if it overran (it was shown and
 * killed: nothing more should run).  *@good says it read all right.
 */
static bool run_job(struct job *j, struct ra_kmsg *k, bool *good)
{
	int status = 0;
	pid_t pid;

	bool overran;
	int err;

	memset(j->t, 0, sizeof(*j->t));
	err = j->inject ? fi_inject(j->percent) : 0;
	pid = err ? err : ra_spawn(job_main, j);
	if (pid < 0) {
		diag("%s: %s: %s", j->what, err ? "injection" : "fork", strerror(-pid));
		fi_inject(0);
		*good = false;
		return true;
	}
	overran = ra_reap(&pid, &status, 1, j->limit_s, k);
	if (j->inject && fi_inject(0))
		diag("%s: the injection cannot be turned off", j->what);
	if (overran) {
		ra_overrun(j->what, &pid, &status, 1, k);
		return false;
	}
	*good = ra_exited_ok(j->what, status) && !j->t->bad && !j->t->errors;
	return true;
}

/*
 * @wl under the injection of @state (its errno, its "what"), then the
 * re-read; false if one overran.
 */
static bool workload(const struct job *state, const struct workload *wl, struct ra_kmsg *k,
		     struct totals *tot)
{
	struct job j = *state;
	long long before = 0, after = 0;
	uint64_t logged = k->injected;
	bool good;

	j.wl = wl;
	snprintf(j.what, sizeof(j.what), "%.60s, %s", state->what, wl->name);
	if (fi_times(&before))
		diag("fail_function's times cannot be read: nothing is counted");
	if (!run_job(&j, k, &good))
		return false;
	if (fi_times(&after))
		after = before;
	tot->injected += before - after;
	tot->logged += k->injected - logged;
	tot->failed += j.t->failed + j.t->sigbus;
	tot->bytes += j.t->bytes;
	ok(good, "%s: every byte returned is right (%" PRIu64 " MiB checked; %" PRIu64
	   " reads failed, %" PRIu64 " pages SIGBUS, %lld failures injected)",
	   j.what, j.t->bytes / RA_MIB, j.t->failed, j.t->sigbus, before - after);

	j.wl = &reread;
	j.inject = 0;
	strncat(j.what, ", re-read", sizeof(j.what) - strlen(j.what) - 1);
	if (!run_job(&j, k, &good))
		return false;
	ok(good && !j.t->sigbus && j.t->bytes == 2 * j.f->size,
	   "  then a re-read without injection is right (%" PRIu64 " MiB checked)",
	   j.t->bytes / RA_MIB);
	return true;
}

/* Each errno, each feature state, each workload; stops where one overran. */
static void inject_all(const struct job *base, struct ra_kmsg *k)
{
	for (size_t e = 0; e < sizeof(injected) / sizeof(injected[0]); e++) {
		struct totals tot = { 0 };

		if (!fi_retval(injected[e].err, injected[e].name))
			continue;
		for (int on = 1; on >= 0; on--) {
			int err = ra_features_set_all(on);
			uint64_t injected_before = tot.injected;
			struct job j = *base;

			if (!ok(!err, "-%s: every feature set to %d%s%s", injected[e].name, on,
				err ? ": " : "", err ? strerror(-err) : ""))
				continue;
			j.inject = injected[e].err;
			j.percent = on ? 50 : 10;
			snprintf(j.what, sizeof(j.what), "-%s, features %s", injected[e].name,
				 on ? "on" : "off");
			for (size_t w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++)
				if (!workload(&j, &workloads[w], k, &tot))
					return;
			ok(tot.injected > injected_before,
			   "-%s, features %s: %" PRIu64 " failures injected over the workloads (%d%%)",
			   injected[e].name, on ? "on" : "off", tot.injected - injected_before,
			   j.percent);
		}
		ok(tot.injected > 0 && tot.logged > 0,
		   "-%s: %" PRIu64 " failures injected (%" PRIu64 " kernel records of them); %"
		   PRIu64 " reads failed, %" PRIu64 " MiB checked",
		   injected[e].name, tot.injected, tot.logged, tot.failed, tot.bytes / RA_MIB);
		if (tot.injected != tot.logged)
			diag("-%s: fail_function counted %" PRIu64 ", the kernel log %" PRIu64,
			     injected[e].name, tot.injected, tot.logged);
	}
}

int main(int argc, char **argv)
{
	uint64_t size_mib = 32;
	struct ra_file f = { .name = "data", .id = 3 };
	struct job base = { .f = &f, .seed = (uint64_t)getpid() };
	char path[PATH_MAX];
	struct ra_kmsg k;
	int err;

	if (argc < 2 || argc > 3 ||
	    (argc == 3 && (parse_u64(argv[2], 1 << 20, &size_mib) || !size_mib))) {
		fprintf(stderr, "usage: test_ra_failinj DIR [SIZE_MIB]\n");
		return 2;
	}
	f.size = size_mib * RA_MIB;
	base.limit_s = LIMIT_S(size_mib);
	snprintf(path, sizeof(path), "%s/ra_failinj.data", argv[1]);
	base.path = path;

	ra_kmsg_open(&k, "test_ra_failinj", argv[1]);
	if (!ra_features_exist(argv[1]))
		return tap_done();
	ra_hung_task_timeout();
	base.t = mmap(NULL, sizeof(*base.t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	err = base.t == MAP_FAILED ? -errno : ra_catch_sigbus();
	if (!err)
		err = ra_make_file(path, &f);
	if (ok(!err, "%s: %" PRIu64 " MiB of known content written%s%s", argv[1], size_mib,
	       err ? ": " : "", err ? strerror(-err) : "") && fi_arm()) {
		inject_all(&base, &k);
		fi_disarm();
	}
	err = ra_features_set_all(true);
	ok(!err, "every feature back to 1%s%s", err ? ": " : "", err ? strerror(-err) : "");
	sysctl_restore_all();
	unlink(path);
	ra_kmsg_clean(&k, argv[1]);
	ra_kmsg_close(&k);
	return tap_done();
}
