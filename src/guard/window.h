/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard/window.h - one window of rafleet guard: counter deltas in, the
 * metrics the guard judges out.  Pure functions, no I/O.
 *
 * The judged metrics are ratios, so that a busier or quieter window of the
 * same work gives the same value (mostly: a different mix of work moves
 * them too, which is what the band's width is for):
 *   read_kib_per_request  KiB read per block read request (readahead
 *                         window and request size);
 *   folio_pages           pages per folio added to the page cache
 *                         (large folios);
 *   ra_per_mib            readahead:* tracepoint hits per MiB read;
 *   majflt_per_mib        major faults per MiB read (faults that had to
 *                         wait for I/O, for the same I/O).
 * Raw rates (per second) are reported beside them and judged on nothing.
 */
#ifndef RAFLEET_GUARD_WINDOW_H
#define RAFLEET_GUARD_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "host/syscount.h"

enum guard_metric {
	GM_REQ_KIB,
	GM_FOLIO_PAGES,
	GM_RA_PER_MIB,
	GM_MAJFLT_PER_MIB,
	GM_NR
};

extern const char *const guard_metric_names[GM_NR];

enum mv_state {
	MV_OK,		/* measured, enough activity to judge */
	MV_QUIET,	/* measured, too little activity to mean anything */
	MV_UNAVAILABLE,	/* a counter it needs is unavailable */
};

struct metric_value {
	enum mv_state state;
	double v;		/* when MV_OK or MV_QUIET (may be NaN) */
	char why[SC_WHY_LEN];	/* when not MV_OK */
};

/* Below these a window says nothing about a metric. */
struct guard_thresholds {
	double min_read_mib;	/* read_kib_per_request, ra/majflt per MiB */
	uint64_t min_folios;	/* folio_pages */
};

struct guard_window {
	double seconds;
	struct metric_value m[GM_NR];
	bool idle;		/* too little activity in every metric */
	/* raw rates, per second; NaN when unavailable */
	double read_mib, read_mib_s, read_req_s, folios_s, pages_s, majflt_s,
	       ra_s;
	uint64_t pages;		/* pages added: sum(count << order) */
};

/* The metrics of the window whose deltas are @d (d->t_ns its length). */
void guard_window_compute(const struct sc_values *d,
			  const struct guard_thresholds *t,
			  struct guard_window *w);

#endif /* RAFLEET_GUARD_WINDOW_H */
