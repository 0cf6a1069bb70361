// SPDX-License-Identifier: GPL-2.0
/* guard/window.c - a window's metrics from counter deltas, see guard/window.h. */
#include "guard/window.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const guard_metric_names[GM_NR] = {
	[GM_REQ_KIB] = "read_kib_per_request",
	[GM_FOLIO_PAGES] = "folio_pages",
	[GM_RA_PER_MIB] = "ra_per_mib",
	[GM_MAJFLT_PER_MIB] = "majflt_per_mib",
};

static void unavailable(struct metric_value *m, const struct sc_avail *a)
{
	m->state = MV_UNAVAILABLE;
	m->v = NAN;
	snprintf(m->why, sizeof(m->why), "%s", a->why);
}

/* @v, judged only if @active; else quiet, saying what was too little. */
static void measured(struct metric_value *m, double v, bool active,
		     const char *quiet_why)
{
	m->v = v;
	m->state = active ? MV_OK : MV_QUIET;
	if (!active)
		snprintf(m->why, sizeof(m->why), "%s", quiet_why);
}

static double per_s(uint64_t n, double s)
{
	return s > 0 ? (double)n / s : NAN;
}

void guard_window_compute(const struct sc_values *d,
			  const struct guard_thresholds *t,
			  struct guard_window *w)
{
	const double mib = 1024.0 * 1024.0;
	bool disk = d->disk_ok.ok, reads_active, folios_active;
	char quiet_read[SC_WHY_LEN], quiet_folio[SC_WHY_LEN];
	uint64_t ra = 0;

	memset(w, 0, sizeof(*w));
	w->seconds = d->t_ns / 1e9;
	w->read_mib = disk ? d->read_sectors * 512.0 / mib : NAN;
	reads_active = disk && w->read_mib >= t->min_read_mib && d->read_ios;
	folios_active = d->folio_ok.ok && d->folios >= t->min_folios;
	snprintf(quiet_read, sizeof(quiet_read),
		 "%.3f MiB read, fewer than %g", disk ? w->read_mib : 0.0,
		 t->min_read_mib);
	snprintf(quiet_folio, sizeof(quiet_folio),
		 "%llu folios added, fewer than %llu",
		 (unsigned long long)d->folios,
		 (unsigned long long)t->min_folios);

	w->read_mib_s = disk ? w->read_mib / w->seconds : NAN;
	w->read_req_s = disk ? per_s(d->read_ios, w->seconds) : NAN;
	w->folios_s = d->folio_ok.ok ? per_s(d->folios, w->seconds) : NAN;
	w->majflt_s = d->majflt_ok.ok ? per_s(d->majflt, w->seconds) : NAN;
	for (int i = 0; i < d->nr_ra; i++)
		ra += d->ra[i];
	w->ra_s = d->ra_ok.ok ? per_s(ra, w->seconds) : NAN;
	w->pages_s = NAN;
	if (d->orders_ok.ok) {
		for (int o = 0; o < SC_ORDERS; o++)
			w->pages += d->by_order[o] << o;
		w->pages_s = per_s(w->pages, w->seconds);
	}

	if (!disk)
		unavailable(&w->m[GM_REQ_KIB], &d->disk_ok);
	else
		measured(&w->m[GM_REQ_KIB], d->read_ios ?
			 d->read_sectors * 512.0 / 1024.0 / d->read_ios : NAN,
			 reads_active, quiet_read);

	if (!d->orders_ok.ok)
		unavailable(&w->m[GM_FOLIO_PAGES], &d->orders_ok);
	else
		measured(&w->m[GM_FOLIO_PAGES], d->folios ?
			 (double)w->pages / d->folios : NAN,
			 folios_active, quiet_folio);

	if (!d->ra_ok.ok || !disk)
		unavailable(&w->m[GM_RA_PER_MIB], disk ? &d->ra_ok : &d->disk_ok);
	else
		measured(&w->m[GM_RA_PER_MIB], w->read_mib > 0 ?
			 ra / w->read_mib : NAN, reads_active, quiet_read);

	if (!d->majflt_ok.ok || !disk)
		unavailable(&w->m[GM_MAJFLT_PER_MIB],
			    disk ? &d->majflt_ok : &d->disk_ok);
	else
		measured(&w->m[GM_MAJFLT_PER_MIB], w->read_mib > 0 ?
			 d->majflt / w->read_mib : NAN, reads_active, quiet_read);

	w->idle = !reads_active && !folios_active;
}
