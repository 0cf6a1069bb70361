/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host/syscount.h - what the whole host does, counted, for rafleet guard.
 *
 * Counting perf events, never sampling: one event per online CPU
 * (pid -1, cpu N), summed, so the cost is a counter increment in the
 * kernel per hit and a read(2) per CPU per window here:
 *  - major page faults (PERF_COUNT_SW_PAGE_FAULTS_MAJ);
 *  - folios added to the page cache, one counter per order 0..11
 *    (filemap:mm_filemap_add_to_page_cache with the filter "order == N"),
 *    so that pages added are sum(count << order) without reading a record;
 *    a kernel whose tracepoint has no order field gets one counter of all
 *    folios and the orders are unavailable;
 *  - every readahead:* tracepoint this kernel has, as tracefs lists them.
 * Reads from block devices come from SYSFS/block/NAME/stat (requests and
 * sectors completed): a counting event cannot sum a record's field, and
 * the same file gives requests and bytes of the same devices.
 *
 * A counter that cannot be opened is unavailable with the reason, never 0.
 */
#ifndef RAFLEET_SYSCOUNT_H
#define RAFLEET_SYSCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "host/perf.h"

#define SC_ORDERS 12		/* folio orders 0..11 */
#define SC_MAX_RA 8		/* readahead:* tracepoints kept */
#define SC_MAX_DEVS 16
#define SC_NAME_LEN 64
#define SC_WHY_LEN 160

/* One kind of count and whether it is there. */
struct sc_avail {
	bool ok;
	char why[SC_WHY_LEN];	/* when !ok */
};

/* Counts since the counters were opened (or deltas, see sc_delta()). */
struct sc_values {
	uint64_t t_ns;			/* CLOCK_MONOTONIC when read */
	struct sc_avail majflt_ok, folio_ok, orders_ok, ra_ok, disk_ok;
	uint64_t majflt;
	uint64_t folios;		/* all orders */
	uint64_t by_order[SC_ORDERS];	/* when orders_ok */
	int nr_ra;
	char ra_name[SC_MAX_RA][SC_NAME_LEN];
	uint64_t ra[SC_MAX_RA];
	uint64_t read_ios, read_sectors;	/* 512-byte sectors */
};

struct syscount {
	struct perf_event_set majflt;
	struct perf_event_set folio_all;	/* when there are no orders */
	struct perf_event_set folio[SC_ORDERS];
	struct perf_event_set ra[SC_MAX_RA];
	int nr_dev;
	char dev[SC_MAX_DEVS][SC_NAME_LEN];
	char sysfs[256];
	struct sc_values avail;		/* the sc_avail fields and names */
};

/*
 * The devices watched when none are named: every whole disk under
 * SYSFS/block that nothing is stacked on (holders/ is empty, so a
 * device-mapper or md device counts and the disks under it do not),
 * with a size (unattached loop devices have none), and that is not a RAM
 * disk (ram*, zram*: swap, not file reads).  Returns how many, up to @max.
 */
int sc_default_devices(const char *sysfs, char names[][SC_NAME_LEN], int max);

/* Whether SYSFS/block/@name/stat exists: a whole disk we can watch. */
bool sc_device_exists(const char *sysfs, const char *name);

/*
 * Open and enable every counter; @devs (NULL: the default devices) are
 * the block devices whose reads are counted.  What cannot be opened is
 * marked unavailable in sc->avail.  0, or -ENOMEM; never fails for
 * unavailable counters.
 */
int sc_open(struct syscount *sc, const char *const *devs, int nr_devs);

/* Read every counter now into @v. */
void sc_read(struct syscount *sc, struct sc_values *v);

/* @d = @b - @a, counter by counter; availability is @b's. */
void sc_delta(const struct sc_values *a, const struct sc_values *b,
	      struct sc_values *d);

void sc_close(struct syscount *sc);

#endif /* RAFLEET_SYSCOUNT_H */
