// SPDX-License-Identifier: GPL-2.0
#include "bench/scenario.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/fio.h"
#include "bench/testfile.h"
#include "lib/trust.h"
#include "lib/fileio.h"

#define KiB (1024UL)
#define MiB (1024UL * KiB)
#define GiB (1024UL * MiB)
/* random pread() offsets: 4 KiB-aligned, whatever the page size */
#define PREAD_ALIGN (4 * KiB)

/* Fields left out are 0: no advice, one reader, no first read. */
#define ROW(n, sd, d, k, ...) \
	{ .name = n, .seed = sd, .desc = d, .kind = k, __VA_ARGS__ }

const struct scenario scenarios[] = {
	/* seed 000: forced readahead, page_cache_ra_unbounded() */
	ROW("readahead-2m", "000", "readahead(2) in 2 MiB steps",
	    SC_READAHEAD, .step = 2 * MiB),
	ROW("fadv-random-pread-1m", "000",
	    "POSIX_FADV_RANDOM, then 1 MiB pread() over the file",
	    SC_PREAD_SEQ, .advice = POSIX_FADV_RANDOM, .step = 1 * MiB),
	ROW("random-pread-256k", "000", "2000 random 256 KiB pread() per GiB",
	    SC_PREAD_RANDOM, .step = 256 * KiB, .per_gib = 2000),
	ROW("willneed-8m", "000", "MADV_WILLNEED in 8 MiB steps",
	    SC_WILLNEED, .step = 8 * MiB),
	ROW("seq-read", "000", "sequential 128 KiB read()",
	    SC_READ_SEQ, .step = 128 * KiB),
	ROW("fadv-random-4proc-64k", "000",
	    "4 processes read the file after POSIX_FADV_RANDOM, 64 KiB at a time",
	    SC_PREAD_SEQ, .advice = POSIX_FADV_RANDOM, .step = 64 * KiB,
	    .nproc = 4),
	ROW("random-pread-4k", "000", "20000 random 4 KiB pread() per GiB",
	    SC_PREAD_RANDOM, .step = 4 * KiB, .per_gib = 20000),
	/* seed 001: async readahead overtaken by mmap read-around */
	ROW("pcopy-1t-skip", "001",
	    "memcpy() out of a private mapping in 8 MiB pieces, end first, 1 thread from 1/8 in",
	    SC_PCOPY, .step = 8 * MiB, .skip_eighths = 1),
	ROW("pcopy-4t", "001",
	    "memcpy() out of a private mapping in 8 MiB pieces, end first, 4 threads one range each",
	    SC_PCOPY, .step = 8 * MiB, .nproc = 4),
	/* seed 002: async window alignment */
	ROW("read-4k-then-512k", "002", "a 4 KiB read at 0, then 512 KiB read()s",
	    SC_PREAD_SEQ, .first = 4 * KiB, .step = 512 * KiB),
	ROW("read-4k-then-1m", "002", "a 4 KiB read at 0, then 1 MiB read()s",
	    SC_PREAD_SEQ, .first = 4 * KiB, .step = 1 * MiB),
	ROW("read-4k-then-3m", "002", "a 4 KiB read at 0, then 3 MiB read()s",
	    SC_PREAD_SEQ, .first = 4 * KiB, .step = 3 * MiB),
	/* seed 003: MADV_POPULATE_READ */
	ROW("populate-read", "003", "MADV_POPULATE_READ over the whole mapping",
	    SC_POPULATE, .step = 0),
	/* seed 004: exec memory */
	ROW("exec-cold", "004",
	    "call RET stubs at every page of a PROT_EXEC, MADV_HUGEPAGE mapping, cold",
	    SC_EXEC, .file = FILE_EXEC),
	ROW("exec-random", "004",
	    "the same, warmed by an unmeasured sweep, then 1 call per page at random pages",
	    SC_EXEC, .file = FILE_EXEC, .warm_first = true,
	    .random = true),
	ROW("exec-random-cold", "004",
	    "1 call per page at random pages of a cold PROT_EXEC mapping, no MADV_HUGEPAGE",
	    SC_EXEC, .file = FILE_EXEC, .random = true,
	    .no_hugepage = true),
	/* fio jobs, folded into the same result */
	ROW("fio-seqread", "fio", "fio: psync sequential 128 KiB reads (fio/seqread.fio)",
	    SC_FIO, .fio_job = "seqread.fio"),
	ROW("fio-randread-256k", "fio",
	    "fio: psync random 256 KiB reads, fadvise_hint=random (fio/randread-256k.fio)",
	    SC_FIO, .fio_job = "randread-256k.fio"),
};
const int nr_scenarios = sizeof(scenarios) / sizeof(scenarios[0]);

const struct scenario *scenario_find(const char *name)
{
	for (int i = 0; i < nr_scenarios; i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return NULL;
}

bool scenario_reads_in_order(const struct scenario *s)
{
	return s->nproc <= 1 &&
	       (s->kind == SC_PREAD_SEQ || s->kind == SC_READ_SEQ);
}

/* xorshift64*: the same offsets for the same seed, on any libc. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

static int do_readahead(struct scenario_run *r)
{
	for (off_t off = 0; off < r->size; off += r->s->step)
		if (readahead(r->fd, off, r->s->step))
			return -errno;
	return 0;
}

static int do_willneed(struct scenario_run *r)
{
	char *map = r->map;

	for (off_t off = 0; off < r->size; off += r->s->step)
		if (madvise(map + off, min_sz(r->size - off, r->s->step),
			    MADV_WILLNEED))
			return -errno;
	return 0;
}

static int do_populate(struct scenario_run *r)
{
	return madvise(r->map, r->size, MADV_POPULATE_READ) ? -errno : 0;
}

/* One read of up to @len at @off (pread) or the file position (read). */
static int read_some(struct scenario_run *r, char *buf, size_t len, off_t off,
		     bool positional)
{
	ssize_t n = positional ? pread(r->fd, buf, len, off) :
				 read(r->fd, buf, len);

	if (n < 0)
		return -errno;
	if (r->hash && sha256_update(r->hash, buf, n))
		return -EIO;
	r->io.bytes += n;
	r->io.calls++;
	return (int)min_sz(n, INT32_MAX);
}

static int do_sequential(struct scenario_run *r, char *buf)
{
	const struct scenario *s = r->s;
	bool positional = s->kind == SC_PREAD_SEQ;
	off_t off = 0;
	int n;

	if (s->first) {
		n = read_some(r, buf, s->first, 0, positional);
		if (n < 0)
			return n;
		off = n;
	}
	while (off < r->size) {
		n = read_some(r, buf, s->step, off, positional);
		if (n <= 0)
			return n;
		off += n;
	}
	return 0;
}

static int do_random(struct scenario_run *r, char *buf)
{
	unsigned long calls = (unsigned long)((double)r->s->per_gib * r->size / GiB);
	uint64_t state = r->seed ? r->seed : 1;
	off_t pages = r->size / PREAD_ALIGN;

	if (calls < 1)
		calls = 1;
	for (unsigned long i = 0; i < calls; i++) {
		off_t off = (off_t)(next_random(&state) % pages) * PREAD_ALIGN;
		ssize_t n = pread(r->fd, buf, r->s->step, off);

		if (n < 0)
			return -errno;
		r->io.bytes += n;
		r->io.calls++;
	}
	return 0;
}

struct pcopy_range {
	const char *src;
	size_t start, end, piece;
	uint64_t bytes;
	int err;
};

/*
 * Copy [start, end) out in pieces, loading the end of each piece first, as
 * glibc's memcpy() does below its non-temporal threshold: the fault on the
 * end of the piece comes first, whatever the libc and the CPU's caches.
 */
static void *pcopy_thread(void *arg)
{
	struct pcopy_range *c = arg;
	char *buf = malloc(c->piece);

	if (!buf) {
		c->err = -ENOMEM;
		return NULL;
	}
	for (size_t off = c->start; off < c->end; off += c->piece) {
		size_t len = min_sz(c->end - off, c->piece);
		volatile const char *last = c->src + off + len - 1;

		(void)*last;
		memcpy(buf, c->src + off, len);
		__asm__ volatile("" : : "r"(buf) : "memory");
		c->bytes += len;
	}
	free(buf);
	return NULL;
}

static int do_pcopy(struct scenario_run *r)
{
	const struct scenario *s = r->s;
	struct pcopy_range c[16];
	pthread_t th[16];
	size_t skip = (size_t)r->size / 8 * s->skip_eighths;
	size_t per;
	int n = s->nproc ? s->nproc : 1, err = 0;

	if (n > 16)
		return -EINVAL;
	skip -= skip % s->step;
	per = ((size_t)r->size - skip) / n / s->step * s->step;
	if (!per)
		return -EFBIG;	/* not one piece per thread */
	for (int i = 0; i < n; i++) {
		c[i] = (struct pcopy_range){ r->map, skip + i * per,
					     skip + (i + 1) * per, s->step, 0, 0 };
		if (pthread_create(&th[i], NULL, pcopy_thread, &c[i])) {
			n = i;
			err = -EAGAIN;
			break;
		}
	}
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		r->io.bytes += c[i].bytes;
		err = err ? err : c[i].err;
	}
	return err;
}

typedef void (*stub_fn)(void);

/*
 * Call the RET stub at every page, in order or at random pages: at each
 * PAGE_SIZE offset, as seed 004's cover letter does (64 KiB apart on a
 * 64K-page arm64 kernel).
 */
static void call_stubs(struct scenario_run *r, bool random)
{
	size_t page = page_size();
	uint64_t pages = r->size / page, state = r->seed ? r->seed : 1;

	for (uint64_t i = 0; i < pages; i++) {
		uint64_t p = random ? next_random(&state) % pages : i;
		stub_fn fn;

		/* a data pointer to a function pointer: POSIX allows it */
		memcpy(&fn, &(void *){ (char *)r->map + p * page }, sizeof(fn));
		fn();
		r->io.calls++;
	}
}

static bool needs_map(const struct scenario *s)
{
	return s->kind == SC_WILLNEED || s->kind == SC_POPULATE ||
	       s->kind == SC_PCOPY || s->kind == SC_EXEC;
}

int scenario_prepare(struct scenario_run *r)
{
	const struct scenario *s = r->s;
	int prot = PROT_READ, flags = MAP_SHARED;

	memset(&r->io, 0, sizeof(r->io));
	r->map = NULL;
	r->fd = -1;
	if (s->kind == SC_FIO || (s->nproc > 1 && s->kind != SC_PCOPY))
		return 0;	/* its processes open the file */
	r->fd = open(r->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	if (s->advice && posix_fadvise(r->fd, 0, 0, s->advice))
		return -EINVAL;
	if (!needs_map(s))
		return 0;
	if (s->kind == SC_EXEC) {
		struct stat st;

		if (!testfile_ret_len)
			return -EOPNOTSUPP;	/* no RET stub for this architecture */
		/* mapped to be run: root's own file only (it was verified whole) */
		if (fstat(r->fd, &st))
			return -errno;
		if (!S_ISREG(st.st_mode) || trust_stat(&st))
			return -EPERM;
		prot |= PROT_EXEC;
	}
	if (s->kind == SC_PCOPY)
		flags = MAP_PRIVATE;
	r->map = mmap(NULL, r->size, prot, flags, r->fd, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return -errno;
	}
	if (s->kind == SC_EXEC) {
		if (!s->no_hugepage &&
		    madvise(r->map, r->size, MADV_HUGEPAGE) && errno != EINVAL)
			return -errno;	/* EINVAL: no THP in this kernel */
		if (s->warm_first)
			call_stubs(r, false);
		r->io.calls = 0;
	}
	return 0;
}

/* Several readers at once, each a process with its own struct file. */
static int run_processes(struct scenario_run *r)
{
	pid_t pids[16];
	int n = 0, err = 0;

	if (r->s->nproc > 16)
		return -EINVAL;
	fflush(NULL);	/* as run_workload(): nothing buffered is inherited */
	for (; n < r->s->nproc; n++) {
		pids[n] = fork();
		if (pids[n] < 0) {
			err = -errno;
			break;
		}
		if (pids[n] == 0) {
			struct scenario_run one = *r;
			struct scenario one_s = *r->s;
			int e;

			one_s.nproc = 1;
			one.s = &one_s;
			one.hash = NULL;
			one.seed = r->seed + n;
			e = scenario_prepare(&one);
			if (!e)
				e = scenario_execute(&one);
			scenario_finish(&one);
			_exit(e ? 1 : 0);
		}
	}
	for (int i = 0; i < n; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			err = err ? err : -EIO;
	}
	r->io.bytes = (uint64_t)r->size * n;	/* each reads the whole file */
	return err;
}

int scenario_execute(struct scenario_run *r)
{
	const struct scenario *s = r->s;
	char *buf = NULL;
	int err;

	if (s->nproc > 1 && s->kind != SC_PCOPY)
		return run_processes(r);
	if (s->kind == SC_PREAD_SEQ || s->kind == SC_READ_SEQ ||
	    s->kind == SC_PREAD_RANDOM) {
		buf = malloc(s->step);
		if (!buf)
			return -ENOMEM;
	}
	switch (s->kind) {
	case SC_READAHEAD:
		err = do_readahead(r);
		break;
	case SC_WILLNEED:
		err = do_willneed(r);
		break;
	case SC_POPULATE:
		err = do_populate(r);
		break;
	case SC_PREAD_SEQ:
	case SC_READ_SEQ:
		err = do_sequential(r, buf);
		break;
	case SC_PREAD_RANDOM:
		err = do_random(r, buf);
		break;
	case SC_PCOPY:
		err = do_pcopy(r);
		break;
	case SC_EXEC:
		call_stubs(r, s->random);
		err = 0;
		break;
	case SC_FIO:
		err = fio_run(s->fio_job, r->path, r->size, &r->fio);
		break;
	default:
		err = -EINVAL;
	}
	free(buf);
	return err;
}

void scenario_finish(struct scenario_run *r)
{
	if (r->map)
		munmap(r->map, r->size);
	if (r->fd >= 0)
		close(r->fd);
	r->map = NULL;
	r->fd = -1;
}

int scenario_run(const struct scenario *s, const char *path, off_t size,
		 uint64_t seed, struct sha256 *hash, struct scenario_io *io)
{
	struct scenario_run r = {
		.s = s, .path = path, .size = size, .seed = seed,
		.hash = scenario_reads_in_order(s) ? hash : NULL,
	};
	int err = scenario_prepare(&r);

	if (!err)
		err = scenario_execute(&r);
	scenario_finish(&r);
	*io = r.io;
	return err;
}
