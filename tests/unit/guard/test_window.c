// SPDX-License-Identifier: GPL-2.0
/*
 * guard_window: a window's metrics from crafted counter deltas: the ratios,
 * the rates, quiet and idle windows, and metrics whose counters are
 * unavailable (NaN and a reason, never 0).  Also sc_delta().
 */
#include <math.h>
#include <string.h>

#include "guard/window.h"
#include "tap.h"

static const struct guard_thresholds min = {
	.min_read_mib = 1.0, .min_folios = 256,
};

/* 2 s; 64 MiB in 100 requests; 100 order-0 and 200 order-4 folios; 30
 * readahead hits; 8 major faults. */
static void busy(struct sc_values *d)
{
	memset(d, 0, sizeof(*d));
	d->t_ns = 2000000000ULL;
	d->majflt_ok.ok = d->folio_ok.ok = d->orders_ok.ok = true;
	d->ra_ok.ok = d->disk_ok.ok = true;
	d->majflt = 8;
	d->by_order[0] = 100;
	d->by_order[4] = 200;
	d->folios = 300;
	d->nr_ra = 2;
	d->ra[0] = 10;
	d->ra[1] = 20;
	d->read_ios = 100;
	d->read_sectors = 64 * 2048;
}

static bool near(double got, double want)
{
	return fabs(got - want) < 1e-9 * fmax(1, fabs(want));
}

static void test_busy(void)
{
	struct guard_window w;
	struct sc_values d;

	busy(&d);
	guard_window_compute(&d, &min, &w);
	ok(!w.idle, "a busy window is not idle");
	ok(near(w.seconds, 2.0), "2 s long: %g", w.seconds);
	ok(near(w.m[GM_REQ_KIB].v, 64.0 * 1024 / 100) &&
	   w.m[GM_REQ_KIB].state == MV_OK,
	   "64 MiB in 100 requests: %g KiB per request", w.m[GM_REQ_KIB].v);
	is_u64(w.pages, 100 + 200 * 16, "pages added: 100 << 0 + 200 << 4");
	ok(near(w.m[GM_FOLIO_PAGES].v, 3300.0 / 300),
	   "pages per folio: %g, want 11", w.m[GM_FOLIO_PAGES].v);
	ok(near(w.m[GM_RA_PER_MIB].v, 30.0 / 64),
	   "readahead hits per MiB: %g, want 30/64", w.m[GM_RA_PER_MIB].v);
	ok(near(w.m[GM_MAJFLT_PER_MIB].v, 8.0 / 64),
	   "major faults per MiB: %g, want 8/64", w.m[GM_MAJFLT_PER_MIB].v);
	ok(near(w.read_mib_s, 32) && near(w.read_req_s, 50) &&
	   near(w.folios_s, 150) && near(w.pages_s, 1650) &&
	   near(w.majflt_s, 4) && near(w.ra_s, 15),
	   "rates per second: %g MiB, %g req, %g folios, %g pages, %g majflt, %g ra",
	   w.read_mib_s, w.read_req_s, w.folios_s, w.pages_s, w.majflt_s, w.ra_s);
}

static void test_quiet(void)
{
	struct guard_window w;
	struct sc_values d;

	busy(&d);
	d.read_sectors = 1024;		/* 0.5 MiB */
	d.read_ios = 4;
	d.folios = d.by_order[0] = 255;
	d.by_order[4] = 0;
	guard_window_compute(&d, &min, &w);
	ok(w.idle, "0.5 MiB read and 255 folios: idle");
	ok(w.m[GM_REQ_KIB].state == MV_QUIET && near(w.m[GM_REQ_KIB].v, 128),
	   "request size is measured (%g KiB) but quiet", w.m[GM_REQ_KIB].v);
	ok(strstr(w.m[GM_REQ_KIB].why, "0.500 MiB read, fewer than 1") != NULL,
	   "and says why: '%s'", w.m[GM_REQ_KIB].why);
	ok(w.m[GM_FOLIO_PAGES].state == MV_QUIET &&
	   strstr(w.m[GM_FOLIO_PAGES].why, "255 folios added, fewer than 256"),
	   "folio size quiet: '%s'", w.m[GM_FOLIO_PAGES].why);

	d.folios = d.by_order[0] = 256;
	guard_window_compute(&d, &min, &w);
	ok(!w.idle && w.m[GM_FOLIO_PAGES].state == MV_OK &&
	   w.m[GM_REQ_KIB].state == MV_QUIET,
	   "256 folios: not idle, folio size judged, request size still quiet");

	busy(&d);
	d.read_ios = 0;
	guard_window_compute(&d, &min, &w);
	ok(w.m[GM_REQ_KIB].state == MV_QUIET && isnan(w.m[GM_REQ_KIB].v),
	   "sectors without a completed request: quiet, NaN, no division by 0");
}

static void test_unavailable(void)
{
	struct guard_window w;
	struct sc_values d;

	busy(&d);
	d.disk_ok.ok = false;
	strcpy(d.disk_ok.why, "no block device to watch");
	guard_window_compute(&d, &min, &w);
	ok(w.m[GM_REQ_KIB].state == MV_UNAVAILABLE && isnan(w.m[GM_REQ_KIB].v),
	   "no disk: request size unavailable, NaN");
	is_str(w.m[GM_RA_PER_MIB].why, "no block device to watch",
	       "per-MiB metrics carry the disk's reason");
	ok(w.m[GM_MAJFLT_PER_MIB].state == MV_UNAVAILABLE && isnan(w.read_mib_s),
	   "major faults per MiB unavailable, read rate NaN");
	ok(w.m[GM_FOLIO_PAGES].state == MV_OK && !w.idle,
	   "folio size still judged, the window not idle");

	busy(&d);
	d.orders_ok.ok = false;
	strcpy(d.orders_ok.why, "no order field");
	d.ra_ok.ok = false;
	strcpy(d.ra_ok.why, "readahead:* tracepoints: No such file or directory");
	d.majflt_ok.ok = false;
	strcpy(d.majflt_ok.why, "major-faults: Permission denied");
	guard_window_compute(&d, &min, &w);
	ok(w.m[GM_FOLIO_PAGES].state == MV_UNAVAILABLE &&
	   !strcmp(w.m[GM_FOLIO_PAGES].why, "no order field"),
	   "no orders: folio size unavailable: '%s'", w.m[GM_FOLIO_PAGES].why);
	ok(near(w.folios_s, 150) && isnan(w.pages_s),
	   "folios still counted (%g/s), pages not (NaN)", w.folios_s);
	is_str(w.m[GM_RA_PER_MIB].why, d.ra_ok.why, "readahead's reason");
	is_str(w.m[GM_MAJFLT_PER_MIB].why, d.majflt_ok.why, "major faults' reason");
	ok(isnan(w.majflt_s) && isnan(w.ra_s), "their rates are NaN, not 0");
	ok(w.m[GM_REQ_KIB].state == MV_OK, "request size judged all the same");
}

static void test_delta(void)
{
	struct sc_values a, b, d;

	busy(&a);
	busy(&b);
	a.t_ns = 5000000000ULL;
	b.t_ns = 7500000000ULL;
	b.majflt = 20;
	b.by_order[4] = 260;
	b.folios = 360;
	b.ra[1] = 25;
	b.read_ios = 150;
	b.read_sectors += 2048;
	sc_delta(&a, &b, &d);
	is_u64(d.t_ns, 2500000000ULL, "delta of the clock");
	is_u64(d.majflt, 12, "delta of major faults");
	is_u64(d.by_order[4], 60, "delta of order-4 folios");
	is_u64(d.by_order[0], 0, "order 0 unchanged");
	is_u64(d.folios, 60, "delta of all folios");
	is_u64(d.ra[1], 5, "delta of a readahead event");
	is_u64(d.read_ios, 50, "delta of read requests");
	is_u64(d.read_sectors, 2048, "delta of sectors");
	a.ra_ok.ok = false;
	strcpy(a.ra_ok.why, "reading the counter failed");
	sc_delta(&a, &b, &d);
	ok(!d.ra_ok.ok && !strcmp(d.ra_ok.why, "reading the counter failed"),
	   "unavailable at the start: unavailable in the window");
	b.read_ios = 10;
	sc_delta(&a, &b, &d);
	is_u64(d.read_ios, 0, "a counter that went back (device reset) gives 0, not a wrap");
}

int main(void)
{
	test_busy();
	test_quiet();
	test_unavailable();
	test_delta();
	ok(!strcmp(guard_metric_names[GM_REQ_KIB], "read_kib_per_request") &&
	   !strcmp(guard_metric_names[GM_MAJFLT_PER_MIB], "majflt_per_mib"),
	   "metric names as the JSON and baseline use them");
	return tap_done();
}
