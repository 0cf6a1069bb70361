/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads of the seed posts, as data: each scenario is a row of a
 * table naming the access pattern and its parameters (the fio style: the
 * engine is code, the workloads are rows).
 */
#ifndef RAFLEET_SCENARIO_H
#define RAFLEET_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench/fio.h"
#include "lib/sha256.h"

enum scenario_kind {
	SC_READAHEAD,		/* readahead(2) in steps over the file */
	SC_PREAD_SEQ,		/* pread() in steps from @start */
	SC_PREAD_RANDOM,	/* pread() at random page-aligned offsets */
	SC_WILLNEED,		/* MADV_WILLNEED over a mapping in steps */
	SC_READ_SEQ,		/* read() in steps */
	SC_PCOPY,		/* memcpy() out of a private mapping in pieces */
	SC_POPULATE,		/* MADV_POPULATE_READ over the whole mapping */
	SC_EXEC,		/* call RET stubs of an executable mapping */
	SC_FIO,			/* a fio job file of fio/ */
};

/* What the file must hold. */
enum scenario_file {
	FILE_DATA,		/* the fixed-seed pattern (bench/testfile.h) */
	FILE_EXEC,		/* RET instructions only: safe to call anywhere */
};

struct scenario {
	const char *name;
	const char *seed;	/* which seed post measures it */
	const char *desc;
	enum scenario_kind kind;
	enum scenario_file file;
	int advice;		/* posix_fadvise() before reading; 0: none */
	/* bytes per call (piece, request); SC_EXEC: none, a call a page */
	size_t step;
	size_t first;		/* SC_PREAD_SEQ: a read of this size at 0 first */
	unsigned long per_gib;	/* random calls per GiB of file */
	int nproc;		/* processes (SC_PREAD_*) or threads (SC_PCOPY);
				 * 0 or 1: one */
	int skip_eighths;	/* SC_PCOPY: start this many eighths in */
	bool warm_first;	/* SC_EXEC: sweep once, unmeasured, first */
	bool random;		/* SC_EXEC: call at random pages */
	bool no_hugepage;	/* SC_EXEC: no MADV_HUGEPAGE */
	const char *fio_job;	/* SC_FIO: the job file, under fio/ */
};

extern const struct scenario scenarios[];
extern const int nr_scenarios;

const struct scenario *scenario_find(const char *name);

/* Does the scenario read the whole file in order, with read()/pread()? */
bool scenario_reads_in_order(const struct scenario *s);

struct scenario_io {
	uint64_t bytes;		/* bytes returned by read()/pread()/memcpy() */
	uint64_t calls;
};

/* A scenario's run, split so that an unmeasured part can go first. */
struct scenario_run {
	const struct scenario *s;
	const char *path;
	off_t size;
	uint64_t seed;
	struct sha256 *hash;	/* fed what is read, in order, if not NULL */
	int fd;
	void *map;
	struct scenario_io io;
	struct fio_result fio;	/* SC_FIO */
};

/*
 * Open the file afresh (a fresh readahead state) and do what must not be
 * measured (the warm sweep of SC_EXEC).  0 or a negative errno.
 */
int scenario_prepare(struct scenario_run *r);

/* The measured part.  0 or a negative errno. */
int scenario_execute(struct scenario_run *r);

void scenario_finish(struct scenario_run *r);

/* prepare + execute + finish, for callers that measure all of it. */
int scenario_run(const struct scenario *s, const char *path, off_t size,
		 uint64_t seed, struct sha256 *hash, struct scenario_io *io);

#endif
