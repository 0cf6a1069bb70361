/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file the workloads read: a fixed-seed pattern, so that a file made
 * once can be recognised and reused, and any block of it checked alone.
 */
#ifndef RAFLEET_TESTFILE_H
#define RAFLEET_TESTFILE_H

#include <stdint.h>
#include <sys/types.h>

#define TESTFILE_BLOCK 4096
#define TESTFILE_SEED 0x7261666c656574ULL	/* "rafleet" */
/* the seed of a file of RET instructions, this machine's (testfile_ret) */
#define TESTFILE_RET 0

/*
 * This architecture's RET instruction, @testfile_ret_len bytes (x86-64,
 * arm64; 0 elsewhere: the exec scenarios cannot run there).
 */
extern const unsigned char testfile_ret[];
extern const size_t testfile_ret_len;

/* Fill @buf with block @index of the pattern of @seed. */
void testfile_block(uint64_t seed, uint64_t index, void *buf);

/*
 * Does the file at @path hold the pattern of @seed for @size bytes?
 * Checks the first, the last and 14 blocks in between; every block of a
 * file of code (TESTFILE_RET: it is mapped PROT_EXEC and run).  1 yes, 0
 * no (another size, or other bytes), negative errno if it cannot be read
 * or may not be trusted (lib/trust.h: -EPERM another user owns or can
 * write it or its directory, -ELOOP a symlink, -EINVAL not a regular
 * file), with @why saying so.
 */
int testfile_matches(const char *path, off_t size, uint64_t seed, char *why, size_t len);

/*
 * Make sure @path is the pattern of @seed, @size bytes long (a multiple of
 * the block): reuse it if it matches; if it is missing, write it to a
 * temporary name in the same directory, fsync it and rename it into place,
 * so that it is never seen half-written.  A file that exists and does not
 * match is left alone: -EEXIST.  -ENOSPC if the disk is full (nothing is
 * left behind).  A file or directory that may not be trusted: as
 * testfile_matches(), @why says why.  Sets *@made to 1 if it wrote the file.
 */
int testfile_ensure(const char *path, off_t size, uint64_t seed, int *made,
		    char *why, size_t len);


#endif
