/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_check.h - what test_ra_stress and test_ra_failinj share:
 *
 *	files whose every byte can be checked without a reference copy
 *	(each 8-byte word is a hash of the file's id and the word's index),
 *	reads through a file or a mapping that check what they return,
 *	the kernel log since a start marker, searched for reports,
 *	children that must stop in time, or are shown (sysrq-w, their
 *	kernel stacks) and killed.
 *
 * Header-only: each guest program is one translation unit (the Makefile
 * builds each .c of tests/vm/guest alone), hence static inline throughout.
 * Paths a test may move (/proc, /sys, /dev/kmsg) go through host_path().
 * Children print only "#" lines; the TAP lines are the parent's.
 */
#ifndef RAFLEET_RA_CHECK_H
#define RAFLEET_RA_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/wait.h>

#include "host/feature.h"
#include "host/sysctl.h"
#include "lib/fileio.h"
#include "lib/rootdir.h"
#include "lib/strbuf.h"
#include "tap.h"

#define RA_MIB (1024 * 1024)
#define RA_PAGE 4096		/* x86-64: the unit a mapping faults in */
#define RA_SHOW 8		/* wrong words and errors shown per process (all are counted) */

/* ---- the pattern ---------------------------------------------------- */

#define RA_GAMMA 0x9e3779b97f4a7c15ULL

/* The next number of splitmix64's sequence from *@state. */
static inline uint64_t ra_rand(uint64_t *state)
{
	uint64_t z = (*state += RA_GAMMA);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Word @idx (bytes 8 * @idx ...) of file @id: splitmix64's first number from (id, idx). */
static inline uint64_t ra_word(unsigned int id, uint64_t idx)
{
	uint64_t s = (uint64_t)id << 56 | idx;

	return ra_rand(&s);
}

/* Fill @buf with the @len bytes of file @id at @off (both multiples of 8). */
static inline void ra_fill(unsigned int id, uint64_t off, void *buf, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = ra_word(id, (off + i) / 8);

		memcpy((char *)buf + i, &w, 8);
	}
}

struct ra_file {
	const char *name;	/* for messages */
	unsigned int id;	/* of the pattern */
	uint64_t size;		/* bytes, a multiple of RA_MIB */
	bool holes;		/* punched and rewritten meanwhile: a word may read 0 */
};

/* What a process read and what it found; in shared memory, for the parent. */
struct ra_tally {
	uint64_t calls;		/* reads checked */
	uint64_t bytes;		/* bytes checked */
	uint64_t bad;		/* words that were wrong */
	uint64_t holes;		/* words of a file with holes read as 0 */
	uint64_t torn;		/* words of it read mid-rewrite: each byte new or 0 */
	uint64_t failed;	/* reads that failed as they may (the injected error) */
	uint64_t sigbus;	/* pages whose read through a mapping raised SIGBUS */
	uint64_t errors;	/* anything else that failed */
};

static inline void ra_hex(char *out, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

static inline void ra_show_bad(const struct ra_file *f, const char *what, uint64_t off,
			       const unsigned char *got, const unsigned char *want, size_t n,
			       struct ra_tally *t)
{
	char g[17], w[17];

	if (++t->bad > RA_SHOW)
		return;
	ra_hex(g, got, n);
	ra_hex(w, want, n);
	diag("%s: %s offset %#" PRIx64 ": got %s want %s%s", what, f->name, off, g, w,
	     f->holes ? " (or zeros)" : "");
	if (t->bad == RA_SHOW)
		diag("%s: further wrong words are counted, not shown", what);
}

/*
 * @n bytes of word @idx, from its byte @lo, read at @got and not equal to
 * the pattern.  In a file with holes, all zeros is a hole, and a mix of
 * the pattern's bytes and zeros is a rewrite caught half way: pwrite(2)
 * copies in bytes (rep movsb, which TCG emulates a byte at a time), so
 * a word is not written at once.  Anything else is wrong.
 */
static inline void ra_check_word(const struct ra_file *f, const char *what, uint64_t idx,
				 size_t lo, const unsigned char *got, size_t n,
				 struct ra_tally *t)
{
	uint64_t word = ra_word(f->id, idx);
	const unsigned char *want = (const unsigned char *)&word + lo;
	bool zero = true, torn = true;

	if (!memcmp(got, want, n))
		return;
	for (size_t i = 0; i < n; i++) {
		zero &= !got[i];
		torn &= !got[i] || got[i] == want[i];
	}
	if (f->holes && zero)
		t->holes++;
	else if (f->holes && torn)
		t->torn++;
	else
		ra_show_bad(f, what, idx * 8 + lo, got, want, n, t);
}

/* Check the @len bytes at @buf, read from @f at @off. */
static inline void ra_check(const struct ra_file *f, const char *what, const void *buf,
			    size_t len, uint64_t off, struct ra_tally *t)
{
	const unsigned char *p = buf;
	uint64_t end = off + len;

	t->bytes += len;
	while (off < end) {
		size_t lo = off % 8, n = end - off < 8 - lo ? end - off : 8 - lo;

		/* the common case, a whole word that is right, without a call */
		if (n == 8) {
			uint64_t got;

			memcpy(&got, p, 8);
			if (got == ra_word(f->id, off / 8)) {
				p += 8;
				off += 8;
				continue;
			}
		}
		ra_check_word(f, what, off / 8, lo, p, n, t);
		p += n;
		off += n;
	}
}

/* pread(2) @len bytes at @off and check them: the bytes read, or -errno. */
static inline ssize_t ra_pread_check(int fd, const struct ra_file *f, const char *what,
				     void *buf, size_t len, uint64_t off, struct ra_tally *t)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	t->calls++;
	ra_check(f, what, buf, n, off, t);
	return n;
}

/* ---- reads through a mapping, SIGBUS caught ------------------------- */

static sigjmp_buf ra_bus_env;
static volatile sig_atomic_t ra_bus_armed;

/*
 * A SIGBUS in ra_map_read()'s copy jumps back to it; any other one kills
 * as it would have (the handler steps aside and the access faults again).
 */
static inline void ra_on_sigbus(int sig)
{
	if (!ra_bus_armed) {
		signal(sig, SIG_DFL);
		return;
	}
	ra_bus_armed = 0;
	siglongjmp(ra_bus_env, 1);
}

/*
 * SA_NODEFER: SIGBUS is not blocked in the handler, so the jump out of it
 * needs no signal mask restored, and ra_map_read() can use sigsetjmp(, 0),
 * which makes no system call (it runs once a page).
 */
static inline int ra_catch_sigbus(void)
{
	struct sigaction sa = { .sa_handler = ra_on_sigbus, .sa_flags = SA_NODEFER };

	return sigaction(SIGBUS, &sa, NULL) ? -errno : 0;
}

/*
 * Copy @n bytes from a mapping: false if that raised SIGBUS.  Only the
 * copy runs while a SIGBUS would jump, so nothing that takes a lock
 * (stdio's) is ever jumped out of, and no local is left clobbered.
 */
static inline bool ra_copy_mapped(void *dst, const void *src, size_t n)
{
	if (sigsetjmp(ra_bus_env, 0))
		return false;
	ra_bus_armed = 1;
	memcpy(dst, src, n);
	ra_bus_armed = 0;
	return true;
}

/*
 * Read [@off, @off + @len) of @f through @map (all of @f, mapped from 0),
 * a page at a time into a buffer, and check it.  A SIGBUS loses that page
 * (counted in ->sigbus), not the rest.
 */
static inline void ra_map_read(const struct ra_file *f, const char *what,
			       const unsigned char *map, uint64_t off, size_t len,
			       struct ra_tally *t)
{
	unsigned char page[RA_PAGE];
	uint64_t end = off + len;

	t->calls++;
	for (uint64_t pos = off; pos < end;) {
		size_t n = RA_PAGE - pos % RA_PAGE;

		if (n > end - pos)
			n = end - pos;
		if (ra_copy_mapped(page, map + pos, n))
			ra_check(f, what, page, n, pos, t);
		else
			t->sigbus++;
		pos += n;
	}
}

/* ---- files and caches ----------------------------------------------- */

/* Write all of @f's pattern to a new file @path and fsync it; 0 or -errno. */
static inline int ra_make_file(const char *path, const struct ra_file *f)
{
	void *buf = malloc(RA_MIB);
	int fd, err = 0;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		err = -errno;
	for (uint64_t off = 0; !err && off < f->size; off += RA_MIB) {
		ra_fill(f->id, off, buf, RA_MIB);
		err = write_full(fd, buf, RA_MIB);
	}
	if (!err && fsync(fd))
		err = -errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

/* Drop @path's pages from the page cache (the clean, unmapped ones); 0 or -errno. */
static inline int ra_evict(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return err;
}

/* ---- the features ----------------------------------------------------- */

/* One TAP line: every vm.readahead_* sysctl of features[] can be read. */
static inline bool ra_features_exist(const char *label)
{
	char missing[512];
	struct strbuf sb;

	sb_init(&sb, missing, sizeof(missing));
	for (int i = 0; i < nr_features; i++)
		if (feature_get(&features[i]) < 0)
			sb_add_word(&sb, features[i].name, strlen(features[i].name));
	return ok(!sb.used, "%s: the %d vm.readahead_* sysctls exist%s%s", label, nr_features,
		  sb.used ? "; missing: " : "", missing);
}

/* Set every feature to @on: 0, or the first error (all are tried). */
static inline int ra_features_set_all(bool on)
{
	int first = 0;

	for (int i = 0; i < nr_features; i++) {
		int err = feature_set(&features[i], on);

		if (err && !first)
			first = err;
	}
	return first;
}

/*
 * A task blocked for 20 s is reported in the kernel log (and fails the
 * log check) well before the 60 s a test waits for it.  Undone by
 * sysctl_restore_all().
 */
static inline void ra_hung_task_timeout(void)
{
	int err = sysctl_set_saved("kernel.hung_task_timeout_secs", "20");

	if (err)
		diag("kernel.hung_task_timeout_secs not set to 20: %s", strerror(-err));
}

/* ---- the kernel log --------------------------------------------------- */

/* What the kernel must not have said (lockdep, KASAN, a hung task, ...). */
static const char *const ra_reports[] = {
	"BUG:", "WARNING:", "KASAN", "possible circular locking",
	"possible recursive locking", "inconsistent lock state", "INFO: task",
	"blocked for more than", "Oops", "general protection", "list_add corruption",
	"list_del corruption", "page dumped because", "VM_BUG_ON", "hung_task",
};

#define RA_INJECTED "FAULT_INJECTION: forcing a failure"
#define RA_SHOW_REPORTS 40

struct ra_kmsg {
	int fd;			/* /dev/kmsg, from where the marker went in */
	char marker[128];	/* the record that starts what is searched */
	bool marked;		/* it has been read back */
	unsigned int reports;	/* records after it matching ra_reports[] */
	unsigned int lost;	/* records overwritten before they were read */
	uint64_t injected;	/* RA_INJECTED records after it */
	unsigned int copy;	/* records still to copy whole, as "#" lines */
};

/*
 * The next of a series of absolute deadlines @ns apart (CLOCK_MONOTONIC,
 * for clock_nanosleep(TIMER_ABSTIME)); one already past moves to now: a
 * late sleeper does not catch up in a burst.
 */
static inline void ra_next_deadline(struct timespec *next, long ns)
{
	struct timespec now;

	next->tv_nsec += ns;
	if (next->tv_nsec >= 1000000000L) {
		next->tv_nsec -= 1000000000L;
		next->tv_sec++;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec ||
	    (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
		*next = now;
}

static inline double ra_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void ra_kmsg_close(struct ra_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/*
 * Start reading the kernel log at its end, and write a marker into it
 * that names @who and @label: only what comes after the marker counts.
 * Never fails: if the log cannot be read, the marker never comes back
 * and ra_kmsg_clean() says so.
 */
static inline void ra_kmsg_open(struct ra_kmsg *k, const char *who, const char *label)
{
	char path[PATH_MAX], line[sizeof(k->marker) + 8];
	int fd;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	snprintf(k->marker, sizeof(k->marker), "rafleet %s %s: start, pid %d at %.6f", who,
		 label, (int)getpid(), ra_now());
	if (host_path("/dev/kmsg", path, sizeof(path))) {
		diag("/dev/kmsg: %s", strerror(ENAMETOOLONG));
		return;
	}
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0 || lseek(k->fd, 0, SEEK_END) < 0) {
		diag("%s: %s", path, strerror(errno));
		ra_kmsg_close(k);
		return;
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	snprintf(line, sizeof(line), "<5>%s\n", k->marker);
	if (fd < 0 || write_full(fd, line, strlen(line)))
		diag("%s: cannot write the start marker: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* One line of the log: "PRI,SEQ,USEC,FLAGS;TEXT" (continuations start with ' '). */
static inline void ra_kmsg_record(struct ra_kmsg *k, const char *rec)
{
	const char *text = strchr(rec, ';');

	if (rec[0] == ' ')
		return;
	text = text ? text + 1 : rec;
	if (k->copy) {
		k->copy--;
		diag("kmsg: %s", text);
		return;
	}
	if (!k->marked) {
		k->marked = strstr(text, k->marker) != NULL;
		return;
	}
	if (strstr(text, RA_INJECTED))
		k->injected++;
	for (size_t i = 0; i < sizeof(ra_reports) / sizeof(ra_reports[0]); i++) {
		if (!strstr(text, ra_reports[i]))
			continue;
		if (++k->reports <= RA_SHOW_REPORTS)
			diag("kernel: %s", text);
		break;
	}
}

/*
 * Read what the log holds so far.  Called often while a test runs: the
 * ring is not large, and a flood (fault injection says each failure)
 * would overwrite what has not been read; that is counted as ->lost.
 */
static inline void ra_kmsg_drain(struct ra_kmsg *k)
{
	char buf[8192];

	if (k->fd < 0)
		return;
	for (;;) {
		/* /dev/kmsg gives one record a read; a plain file, many lines */
		ssize_t n = read(k->fd, buf, sizeof(buf) - 1);
		char *save = NULL;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			k->lost++;	/* the reader moved on to the oldest record */
			continue;
		}
		if (n <= 0)
			return;		/* EAGAIN: nothing more for now */
		buf[n] = '\0';
		for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			ra_kmsg_record(k, l);
	}
}

/* One TAP line: the log came back with the marker, whole, and with no report. */
static inline bool ra_kmsg_clean(struct ra_kmsg *k, const char *label)
{
	ra_kmsg_drain(k);
	if (!k->marked)
		diag("the start marker never came back from the kernel log: nothing was searched");
	if (k->lost)
		diag("records were overwritten before they were read, %u times", k->lost);
	return ok(k->marked && !k->lost && !k->reports,
		  "%s: no kernel report since the start marker (%u found)", label, k->reports);
}

/* ---- children ----------------------------------------------------------- */

/* Fork a child that runs @fn(@arg) and exits with what it returns: its pid or -errno. */
static inline pid_t ra_spawn(int (*fn)(void *), void *arg)
{
	pid_t pid;

	fflush(stdout);		/* nothing buffered is printed twice */
	pid = fork();
	if (pid == 0)
		_exit(fn(arg));
	return pid < 0 ? -errno : pid;
}

/*
 * Reap the children in @pids (0: reaped already) until none is left or
 * @timeout_s has passed, reading the log meanwhile.  A reaped child's
 * pid becomes 0 and its wait status goes to @status[i].  Returns how many
 * are left.
 */
static inline int ra_reap(pid_t *pids, int *status, int n, double timeout_s, struct ra_kmsg *k)
{
	double end = ra_now() + timeout_s;

	for (;;) {
		int left = 0;

		for (int i = 0; i < n; i++) {
			if (!pids[i])
				continue;
			if (waitpid(pids[i], &status[i], WNOHANG) == pids[i])
				pids[i] = 0;
			else
				left++;
		}
		ra_kmsg_drain(k);
		if (!left || ra_now() >= end)
			return left;
		usleep(20000);
	}
}

/* Did @who end well (exit status 0)?  If not, a "#" line says how it ended. */
static inline bool ra_exited_ok(const char *who, int status)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return true;
	if (WIFSIGNALED(status))
		diag("%s was killed by signal %d (%s)", who, WTERMSIG(status),
		     strsignal(WTERMSIG(status)));
	else
		diag("%s exited with status %d", who, WEXITSTATUS(status));
	return false;
}

static inline void ra_sysrq(char c)
{
	char path[PATH_MAX];
	int fd = -1;

	if (!host_path("/proc/sysrq-trigger", path, sizeof(path)))
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, &c, 1) != 1)
		diag("sysrq-%c: %s", c, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* "#" lines: /proc/PID/@file of a child, line by line, or why not. */
static inline void ra_show_proc(pid_t pid, const char *file)
{
	char name[64], path[PATH_MAX], buf[8192], *save = NULL;
	int err;

	snprintf(name, sizeof(name), "/proc/%d/%s", (int)pid, file);
	err = host_path(name, path, sizeof(path));
	if (!err)
		err = read_small_file(path, buf, sizeof(buf));
	if (err) {
		diag("%s: %s", name, strerror(-err));
		return;
	}
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		diag("pid %d %s: %s", (int)pid, file, l);
}

/* "#" lines: each disk's requests in flight (reads, writes), from sysfs. */
static inline void ra_show_inflight(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], buf[64];
	DIR *d;
	struct dirent *e;

	if (host_path("/sys/block", dir, sizeof(dir)) || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/inflight", dir, e->d_name);
		if (!read_small_file(path, buf, sizeof(buf))) {
			buf[strcspn(buf, "\n")] = '\0';
			diag("%s inflight (reads writes): %s", e->d_name, buf);
		}
	}
	closedir(d);
}

/* "#" lines: the kernel stack of every task in D state but @pids' (kernel threads too). */
static inline void ra_show_d_tasks(const pid_t *pids, int n)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], buf[512];
	DIR *d;
	struct dirent *e;

	if (host_path("/proc", dir, sizeof(dir)) || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		char *paren, state;
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);
		bool ours = false;

		for (int i = 0; i < n; i++)
			ours |= pids[i] == pid;
		snprintf(path, sizeof(path), "%s/%s/stat", dir, e->d_name);
		if (pid <= 0 || ours || read_small_file(path, buf, sizeof(buf)))
			continue;
		paren = strrchr(buf, ')');
		if (!paren || sscanf(paren + 1, " %c", &state) != 1 || state != 'D')
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		diag("D-state task: %s", buf);
		ra_show_proc(pid, "stack");
	}
	closedir(d);
}

/*
 * @what did not stop in time: a "not ok" line names the pids left in
 * @pids, with each one's kernel stack and wait channel; then what else
 * sleeps in D state, the disks' requests in flight (none, while a task
 * waits for a folio to be read, means a lock that nobody will release;
 * some, twice alike 2 s apart, an I/O that is not completing) and the
 * blocked tasks as the kernel lists them (sysrq-w, copied from the log).
 * Then they are killed, and given 10 s to go (a task stuck in the
 * kernel may never go).
 */
static inline void ra_overrun(const char *what, pid_t *pids, int *status, int n,
			      struct ra_kmsg *k)
{
	char list[512];
	struct strbuf sb;

	sb_init(&sb, list, sizeof(list));
	for (int i = 0; i < n; i++)
		if (pids[i])
			sb_addf(&sb, "%s%d", sb.used ? " " : "", (int)pids[i]);
	ok(false, "%s overran: PIDs %s still in the kernel", what, list);
	for (int i = 0; i < n; i++) {
		if (!pids[i])
			continue;
		ra_show_proc(pids[i], "wchan");
		ra_show_proc(pids[i], "stack");
	}
	ra_show_d_tasks(pids, n);
	ra_show_inflight();
	sleep(2);
	ra_show_inflight();
	ra_kmsg_drain(k);
	k->copy = 400;
	ra_sysrq('w');
	sleep(1);
	ra_kmsg_drain(k);
	k->copy = 0;
	for (int i = 0; i < n; i++)
		if (pids[i])
			kill(pids[i], SIGKILL);
	if (ra_reap(pids, status, n, 10, k))
		diag("still there 10 s after SIGKILL: %s", list);
}

#endif /* RAFLEET_RA_CHECK_H */
