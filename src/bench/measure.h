/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One measured run of a scenario: cold cache, clock-free counts first.
 * A measurement the kernel or the permissions cannot give is marked
 * unavailable with a reason, never reported as zero.
 */
#ifndef RAFLEET_MEASURE_H
#define RAFLEET_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "host/feature.h"
#include "bench/scenario.h"
#include "lib/sha256.h"

#define FOLIO_ORDERS 12		/* orders 0..11 */
#define NR_RA_EVENTS 4
#define REASON_LEN 160

extern const char *const ra_event_names[NR_RA_EVENTS];

struct measured {
	bool ok;
	char reason[REASON_LEN];	/* why not, when !ok */
};

struct run_result {
	const struct scenario *scenario;
	int feature_state[8];		/* per features[]: 0, 1 or -errno */
	char evict[48];			/* how the cache was emptied */
	uint64_t resident_after_evict;	/* pages still cached (mincore) */

	int status;			/* 0, or the workload's -errno */
	uint64_t wall_ns, user_ns, sys_ns, minflt, majflt;
	uint64_t bytes_read, calls;
	struct fio_result fio;		/* fio scenarios */

	struct measured folios;
	uint64_t folios_total, folios_by_order[FOLIO_ORDERS];

	struct measured ra;
	uint64_t ra_count[NR_RA_EVENTS];

	struct measured block;
	char blockdev[64];
	uint64_t block_reads, block_sectors;

	struct measured touch;
	uint64_t touch_minflt, touch_majflt;

	struct measured verify;
	bool verified;			/* every hash taken equals O_DIRECT's */
	char sha_read[SHA256_HEX_LEN];	/* "" when the scenario has none */
	char sha_mmap[SHA256_HEX_LEN];
	char sha_direct[SHA256_HEX_LEN];
};

struct measure_opts {
	bool verify;
	uint64_t seed;
	/*
	 * The folio sampler's ring per CPU, in bytes (a power of two; at
	 * least a page is taken): a size, not a count of pages, which are
	 * 4K or 64K.  0: MEASURE_RING_BYTES.
	 */
	size_t ring_bytes;
	/*
	 * Do not touch the mapping after the workload (r->touch unavailable):
	 * for a caller that counts what the workload alone costs, since the
	 * faults of the touch read again whatever reclaim took meanwhile.
	 * verify touches it anyway.
	 */
	bool no_touch;
};

struct measure_file {
	const char *path;
	int64_t size;
	uint64_t ino;
	unsigned int dev_major, dev_minor;	/* of the block device under it */
	unsigned int sb_major, sb_minor;	/* its superblock's (s_dev) */
	char sha_direct[SHA256_HEX_LEN];	/* computed once, lazily */
};

int measure_file_open(struct measure_file *mf, const char *path);

/* The folio sampler's perf ring a CPU when measure_opts asks no size. */
#define MEASURE_RING_BYTES (4UL << 20)

/* Run @s once on @mf.  Returns 0 when the run happened (see r->status). */
int measure_run(struct measure_file *mf, const struct scenario *s,
		const struct measure_opts *o, struct run_result *r);

/*
 * Empty the page cache of @path (POSIX_FADV_DONTNEED, then drop_caches as
 * root; both clear its shadow entries too); say how in @how.  Every
 * measure_run() starts with it.
 */
void measure_evict(const char *path, char *how, size_t len);

/* sync, then drop the clean page cache of every file (root); 0 or -errno. */
int measure_drop_caches(void);

/* Pages of the first @size bytes of @path in the page cache (mincore). */
uint64_t measure_resident_pages(const char *path, int64_t size);

/* SHA-256 of the file read with O_DIRECT, bypassing the page cache. */
int measure_sha_direct(const char *path, char hex[SHA256_HEX_LEN]);

#endif
