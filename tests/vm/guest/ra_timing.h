/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_timing.h - what the guest programs that compare the switches' times
 * share (test_slowdev, test_populate_lock, test_ra_quadratic,
 * test_ra_fragment): the ROUNDS argument and the order of the runs, a
 * feature switch put back as found, the queue of the disk under a file,
 * counters of /proc, and a cold page cache outside measure_run().
 *
 * Under TCG a time means something only next to another time of the same
 * boot: each program runs a switch off and on, alternating, and compares
 * medians.  Header-only (static inline), like tap.h: each program is one
 * translation unit and uses what it needs.
 */
#ifndef RAFLEET_RA_TIMING_H
#define RAFLEET_RA_TIMING_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/feature.h"
#include "bench/measure.h"
#include "bench/stats.h"
#include "lib/fileio.h"
#include "lib/parsenum.h"
#include "tap.h"

#define RA_KIB 1024UL
#define RA_MIB (1024UL * RA_KIB)
#define RA_PAGE 4096UL
#define RA_MAX_ROUNDS 50

/* ROUNDS of a command line: 1..RA_MAX_ROUNDS. */
static inline bool ra_parse_rounds(const char *arg, unsigned *rounds)
{
	uint64_t n;

	if (parse_u64(arg, RA_MAX_ROUNDS, &n) || n < 1)
		return false;
	*rounds = (unsigned)n;
	return true;
}

/*
 * Which state runs first in round @round: off-on, on-off, off-on...  A
 * host that slows down or speeds up over the runs then weighs on both
 * states alike, and neither always runs right after the other.
 */
static inline bool ra_on_first(unsigned round)
{
	return round % 2;
}

/* The median of @n values (n <= RA_MAX_ROUNDS), @v left as it was. */
static inline double ra_median(const double *v, unsigned n)
{
	double tmp[RA_MAX_ROUNDS];

	if (n > RA_MAX_ROUNDS)
		n = RA_MAX_ROUNDS;
	memcpy(tmp, v, n * sizeof(*v));
	return summarize(tmp, n).median;
}

/* A feature switch of this kernel, and its state when the program began. */
struct ra_switch {
	const struct feature *f;
	int was;
};

static inline bool ra_switch_open(struct ra_switch *sw, const char *name)
{
	sw->f = feature_find(name);
	sw->was = sw->f ? feature_get(sw->f) : -ENOENT;
	return ok(sw->was >= 0, "vm.%s exists (%s)", name,
		  sw->was >= 0 ? (sw->was ? "on" : "off") : strerror(-sw->was));
}

/* 0 or the kernel's -errno, said with a "not ok" line. */
static inline int ra_switch_set(const struct ra_switch *sw, bool on)
{
	int err = feature_set(sw->f, on);

	if (err)
		ok(false, "set vm.%s=%d: %s", sw->f->name, on, strerror(-err));
	return err;
}

static inline void ra_switch_restore(const struct ra_switch *sw)
{
	if (sw->was >= 0)
		feature_set(sw->f, sw->was);
}

/* The queue of the disk under a file, and its settings as found. */
struct ra_queue {
	struct blockdev bd;
	uint64_t max_hw_sectors_kb, max_sectors_kb, read_ahead_kb;
};

static inline bool ra_queue_open(struct ra_queue *q, const struct measure_file *mf)
{
	memset(q, 0, sizeof(*q));
	if (!ok(!blockdev_from_dev(NULL, makedev(mf->dev_major, mf->dev_minor), &q->bd) &&
		!blockdev_queue_get(&q->bd, "max_sectors_kb", &q->max_sectors_kb) &&
		!blockdev_queue_get(&q->bd, "read_ahead_kb", &q->read_ahead_kb),
		"the disk under %s and its queue", mf->path))
		return false;
	blockdev_queue_get(&q->bd, "max_hw_sectors_kb", &q->max_hw_sectors_kb);
	diag("%s as found: max_sectors_kb %llu (max_hw_sectors_kb %llu) read_ahead_kb %llu",
	     q->bd.name, (unsigned long long)q->max_sectors_kb,
	     (unsigned long long)q->max_hw_sectors_kb,
	     (unsigned long long)q->read_ahead_kb);
	return true;
}

/*
 * Set max_sectors_kb (0: as found; no more than max_hw_sectors_kb), then
 * read_ahead_kb, in that order: writing max_sectors_kb resets
 * read_ahead_kb in 7.3.
 */
static inline bool ra_queue_set(const struct ra_queue *q, uint64_t max_sectors_kb,
				uint64_t read_ahead_kb)
{
	uint64_t ms = max_sectors_kb ? max_sectors_kb : q->max_sectors_kb;

	if (q->max_hw_sectors_kb && ms > q->max_hw_sectors_kb)
		ms = q->max_hw_sectors_kb;
	return ok(!blockdev_queue_set(&q->bd, "max_sectors_kb", ms) &&
		  !blockdev_queue_set(&q->bd, "read_ahead_kb", read_ahead_kb),
		  "%s: max_sectors_kb %llu (asked %llu, 0: as found), read_ahead_kb %llu",
		  q->bd.name, (unsigned long long)ms,
		  (unsigned long long)max_sectors_kb,
		  (unsigned long long)read_ahead_kb);
}

static inline void ra_queue_restore(const struct ra_queue *q)
{
	blockdev_queue_set(&q->bd, "max_sectors_kb", q->max_sectors_kb);
	blockdev_queue_set(&q->bd, "read_ahead_kb", q->read_ahead_kb);
}

/*
 * The number after @key in a /proc file of "key value" lines
 * (/proc/vmstat) or "Key:   value kB" lines (/proc/meminfo, in kB).
 * 0, -ENOENT if there is no such line, or the error reading the file.
 */
static inline int ra_proc_u64(const char *path, const char *key, uint64_t *val)
{
	size_t klen = strlen(key);
	char *text, *line, *next;
	int err = read_whole_file(path, 1 << 20, &text, NULL);

	if (err)
		return err;
	err = -ENOENT;
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, key, klen) || (line[klen] != ' ' && line[klen] != ':'))
			continue;
		*val = strtoull(line + klen + 1, NULL, 10);	/* skips blanks */
		err = 0;
		break;
	}
	free(text);
	return err;
}

static inline uint64_t ra_vmstat(const char *key)
{
	uint64_t v = 0;

	ra_proc_u64("/proc/vmstat", key, &v);
	return v;
}

#endif /* RAFLEET_RA_TIMING_H */
