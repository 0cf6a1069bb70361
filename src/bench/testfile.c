// SPDX-License-Identifier: GPL-2.0
#include "lib/atomicfile.h"
#include "lib/fileio.h"
#include "lib/trust.h"
#include "bench/testfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
const unsigned char testfile_ret[] = { 0xc3 };		/* ret */
#elif defined(__aarch64__)
const unsigned char testfile_ret[] = { 0xc0, 0x03, 0x5f, 0xd6 };	/* ret (x30) */
#else
/* no stub for this architecture: the exec scenarios refuse to run */
const unsigned char testfile_ret[] = { 0 };
#define RET_LEN 0
#endif
#ifndef RET_LEN
#define RET_LEN sizeof(testfile_ret)
#endif
const size_t testfile_ret_len = RET_LEN;

/* splitmix64: a stream per block, independent of any other block. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

void testfile_block(uint64_t seed, uint64_t index, void *buf)
{
	uint64_t state = seed ^ (index * 0xD6E8FEB86659FD93ULL);
	uint64_t *w = buf;

	if (seed == TESTFILE_RET) {
		memset(buf, 0, TESTFILE_BLOCK);
		/* at every offset the instruction can start at */
		for (size_t i = 0; testfile_ret_len && i < TESTFILE_BLOCK; i += testfile_ret_len)
			memcpy((char *)buf + i, testfile_ret, testfile_ret_len);
		return;
	}
	for (size_t i = 0; i < TESTFILE_BLOCK / sizeof(*w); i++)
		w[i] = splitmix(&state);
}


static int block_matches(int fd, uint64_t seed, uint64_t index)
{
	/* the blocks of a file of code are all alike: made once */
	static unsigned char ret_block[TESTFILE_BLOCK];
	static int have_ret;
	unsigned char want[TESTFILE_BLOCK], got[TESTFILE_BLOCK];
	const unsigned char *w = want;
	ssize_t n = pread(fd, got, sizeof(got), (off_t)index * TESTFILE_BLOCK);

	if (n < 0)
		return -errno;
	if (n != TESTFILE_BLOCK)
		return 0;
	if (seed == TESTFILE_RET) {
		if (!have_ret)
			testfile_block(seed, 0, ret_block);
		have_ret = 1;
		w = ret_block;
	} else {
		testfile_block(seed, index, want);
	}
	return !memcmp(w, got, sizeof(got));
}

int testfile_matches(const char *path, off_t size, uint64_t seed, char *why, size_t len)
{
	uint64_t blocks = size / TESTFILE_BLOCK;
	/* code is never run from a file checked in part: every block */
	uint64_t looks = seed == TESTFILE_RET ? blocks : 16;
	struct stat st;
	int fd, ret = 1;

	fd = trust_open(path, O_RDONLY, why, len);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (st.st_size != size || !blocks) {
		ret = 0;
	} else if (looks >= blocks) {
		for (uint64_t i = 0; i < blocks && ret == 1; i++)
			ret = block_matches(fd, seed, i);
	} else {
		for (uint64_t i = 0; i < 16 && ret == 1; i++) {
			uint64_t index = i == 15 ? blocks - 1 : i * (blocks / 15);

			ret = block_matches(fd, seed, index);
		}
	}
	close(fd);
	return ret;
}

static int write_all(int fd, off_t size, uint64_t seed)
{
	const size_t chunk = 256;	/* blocks per write */
	unsigned char *buf = malloc(chunk * TESTFILE_BLOCK);
	uint64_t blocks = size / TESTFILE_BLOCK;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t b = 0; b < blocks && !err;) {
		size_t n = blocks - b < chunk ? blocks - b : chunk;
		size_t len = n * TESTFILE_BLOCK;

		for (size_t i = 0; i < n; i++)
			testfile_block(seed, b + i, buf + i * TESTFILE_BLOCK);
		err = write_full(fd, buf, len);
		b += n;
	}
	free(buf);
	return err;
}

struct pattern {
	off_t size;
	uint64_t seed;
};

static int fill(int fd, const void *arg)
{
	const struct pattern *p = arg;

	return write_all(fd, p->size, p->seed);
}

int testfile_ensure(const char *path, off_t size, uint64_t seed, int *made,
		    char *why, size_t len)
{
	int err;

	*made = 0;
	if (size <= 0 || size % TESTFILE_BLOCK)
		return -EINVAL;
	err = testfile_matches(path, size, seed, why, len);
	if (err == 1)
		return 0;
	if (err == 0)
		return -EEXIST;
	if (err != -ENOENT)
		return err;
	/* missing: made in its directory, which must be ours as well */
	err = trust_dir_of(path, why, len);
	if (err)
		return err;
	err = atomic_write_fd(path, 0644, fill, &(struct pattern){ size, seed });
	if (err)
		return err;
	*made = 1;
	return 0;
}
