/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads of the seed posts, as data: each scenario is a row of a
 * table naming the access pattern and its parameters.
 */
#ifndef RAFLEET_SCENARIO_H
#define RAFLEET_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sha256.h"

enum scenario_kind {
	SC_READAHEAD,		/* readahead(2) in steps over the file */
	SC_PREAD_SEQ,		/* pread() in steps from offset 0 */
	SC_PREAD_RANDOM,	/* pread() at random page-aligned offsets */
	SC_WILLNEED,		/* MADV_WILLNEED over a mapping in steps */
	SC_READ_SEQ,		/* read() in steps */
};

struct scenario {
	const char *name;
	const char *seed;	/* which seed post measures it */
	const char *desc;
	enum scenario_kind kind;
	int advice;		/* posix_fadvise() before reading, or -1 */
	size_t step;		/* bytes per call */
	unsigned long per_gib;	/* random calls per GiB of file */
	int nproc;		/* processes reading the file at once */
};

extern const struct scenario scenarios[];
extern const int nr_scenarios;

const struct scenario *scenario_find(const char *name);

/* Does the scenario read the whole file in order (one process)? */
bool scenario_reads_in_order(const struct scenario *s);

struct scenario_io {
	uint64_t bytes;		/* bytes returned by read()/pread() */
	uint64_t calls;
};

/*
 * Run @s on the file at @path (opened afresh, so with a fresh readahead
 * state) of @size bytes.  If @hash is not NULL and the scenario reads in
 * order, every byte read is fed to it.  Returns 0 or a negative errno.
 */
int scenario_run(const struct scenario *s, const char *path, off_t size,
		 uint64_t seed, struct sha256 *hash, struct scenario_io *io);

#endif
