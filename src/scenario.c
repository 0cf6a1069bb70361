// SPDX-License-Identifier: GPL-2.0
#include "scenario.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define KiB (1024UL)
#define MiB (1024UL * KiB)
#define GiB (1024UL * MiB)

const struct scenario scenarios[] = {
	{ "readahead-2m", "000", "readahead(2) in 2 MiB steps",
	  SC_READAHEAD, -1, 2 * MiB, 0, 1 },
	{ "fadv-random-pread-1m", "000",
	  "POSIX_FADV_RANDOM, then 1 MiB pread() over the file",
	  SC_PREAD_SEQ, POSIX_FADV_RANDOM, 1 * MiB, 0, 1 },
	{ "random-pread-256k", "000", "2000 random 256 KiB pread() per GiB",
	  SC_PREAD_RANDOM, -1, 256 * KiB, 2000, 1 },
	{ "willneed-8m", "000", "MADV_WILLNEED in 8 MiB steps",
	  SC_WILLNEED, -1, 8 * MiB, 0, 1 },
	{ "seq-read", "000", "sequential 128 KiB read()",
	  SC_READ_SEQ, -1, 128 * KiB, 0, 1 },
	{ "fadv-random-4proc-64k", "000",
	  "4 processes read the file after POSIX_FADV_RANDOM, 64 KiB at a time",
	  SC_PREAD_SEQ, POSIX_FADV_RANDOM, 64 * KiB, 0, 4 },
	{ "random-pread-4k", "000", "20000 random 4 KiB pread() per GiB",
	  SC_PREAD_RANDOM, -1, 4 * KiB, 20000, 1 },
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
	return s->nproc == 1 &&
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

static int feed(struct sha256 *hash, const void *buf, size_t len)
{
	return hash ? sha256_update(hash, buf, len) : 0;
}

static int do_readahead(int fd, const struct scenario *s, off_t size)
{
	for (off_t off = 0; off < size; off += s->step)
		if (readahead(fd, off, s->step))
			return -errno;
	return 0;
}

static int do_willneed(int fd, const struct scenario *s, off_t size)
{
	char *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	int err = 0;

	if (map == MAP_FAILED)
		return -errno;
	for (off_t off = 0; off < size; off += s->step) {
		size_t len = (size_t)(size - off) < s->step ? (size_t)(size - off) : s->step;

		if (madvise(map + off, len, MADV_WILLNEED)) {
			err = -errno;
			break;
		}
	}
	munmap(map, size);
	return err;
}

static int do_sequential(int fd, const struct scenario *s, off_t size,
			 char *buf, struct sha256 *hash, struct scenario_io *io)
{
	for (off_t off = 0; off < size;) {
		ssize_t n = s->kind == SC_READ_SEQ ? read(fd, buf, s->step) :
			    pread(fd, buf, s->step, off);

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		if (feed(hash, buf, n))
			return -EIO;
		off += n;
		io->bytes += n;
		io->calls++;
	}
	return 0;
}

static int do_random(int fd, const struct scenario *s, off_t size,
		     char *buf, uint64_t seed, struct scenario_io *io)
{
	unsigned long calls = (unsigned long)((double)s->per_gib * size / GiB);
	uint64_t state = seed ? seed : 1;
	off_t pages = size / 4096;

	if (calls < 1)
		calls = 1;
	for (unsigned long i = 0; i < calls; i++) {
		off_t off = (off_t)(next_random(&state) % pages) * 4096;
		ssize_t n = pread(fd, buf, s->step, off);

		if (n < 0)
			return -errno;
		io->bytes += n;
		io->calls++;
	}
	return 0;
}

/* One reader: open the file afresh, advise, run the access pattern. */
static int run_one(const struct scenario *s, const char *path, off_t size,
		   uint64_t seed, struct sha256 *hash, struct scenario_io *io)
{
	char *buf = NULL;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (s->advice >= 0) {
		err = -posix_fadvise(fd, 0, 0, s->advice);
		if (err)
			goto out;
	}
	if (s->kind == SC_PREAD_SEQ || s->kind == SC_READ_SEQ ||
	    s->kind == SC_PREAD_RANDOM) {
		buf = malloc(s->step);
		if (!buf) {
			err = -ENOMEM;
			goto out;
		}
	}
	switch (s->kind) {
	case SC_READAHEAD:
		err = do_readahead(fd, s, size);
		break;
	case SC_WILLNEED:
		err = do_willneed(fd, s, size);
		break;
	case SC_PREAD_SEQ:
	case SC_READ_SEQ:
		err = do_sequential(fd, s, size, buf, hash, io);
		break;
	case SC_PREAD_RANDOM:
		err = do_random(fd, s, size, buf, seed, io);
		break;
	default:
		err = -EINVAL;
	}
out:
	free(buf);
	close(fd);
	return err;
}

int scenario_run(const struct scenario *s, const char *path, off_t size,
		 uint64_t seed, struct sha256 *hash, struct scenario_io *io)
{
	pid_t pids[16];
	int n = 0, err = 0;

	memset(io, 0, sizeof(*io));
	if (s->nproc <= 1)
		return run_one(s, path, size, seed,
			       scenario_reads_in_order(s) ? hash : NULL, io);
	if (s->nproc > 16)
		return -EINVAL;
	/* Several readers at once: children read, this process waits. */
	for (; n < s->nproc; n++) {
		pids[n] = fork();
		if (pids[n] < 0) {
			err = -errno;
			break;
		}
		if (pids[n] == 0) {
			struct scenario_io mine;

			memset(&mine, 0, sizeof(mine));
			_exit(run_one(s, path, size, seed + n, NULL, &mine) ? 1 : 0);
		}
	}
	for (int i = 0; i < n; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			err = err ? err : -EIO;
	}
	io->bytes = (uint64_t)size * n;	/* each reads the whole file */
	io->calls = 0;
	return err;
}
