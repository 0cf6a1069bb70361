// SPDX-License-Identifier: GPL-2.0
/*
 * guard_band: bands from learned values (floor and MADs), learning (idle
 * windows add nothing), and judging crafted windows: in band, out of band
 * low and high with the features that can explain it and are on, idle,
 * unavailable, and a metric with too few learned values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/feature.h"
#include "guard/band.h"
#include "tap.h"

static const struct band_opts opts = {
	.learn_windows = 5, .floor = 0.03, .mads = 4.0,
};

static bool near(double got, double want)
{
	return fabs(got - want) < 1e-9 * fmax(1, fabs(want));
}

static unsigned int bit(const char *name)
{
	return 1u << (feature_find(name) - features);
}

#define RA_FEATURES (bit("readahead_unbounded_large_folios") | \
		     bit("readahead_async_two_windows") | \
		     bit("readahead_async_keep_half") | \
		     bit("readahead_populate_io_pages"))
#define ALL_ON 0x3fu

/* A window where every metric is measured and judged. */
static void window(struct guard_window *w, double req, double folio,
		   double ra, double majflt)
{
	double v[GM_NR] = { req, folio, ra, majflt };

	memset(w, 0, sizeof(*w));
	for (int m = 0; m < GM_NR; m++) {
		w->m[m].state = MV_OK;
		w->m[m].v = v[m];
	}
}

static void test_band(void)
{
	double same[] = { 10, 10, 10, 10, 10 };
	double spread[] = { 100, 102, 98, 101, 99, 100, 150 };
	struct band b;

	band_compute(same, 5, &opts, &b);
	ok(b.ok && near(b.median, 10) && near(b.mad, 0),
	   "five equal values: median 10, MAD 0");
	ok(near(b.low, 9.7) && near(b.high, 10.3),
	   "MAD 0: the 3 %% floor gives 9.7..10.3, got %g..%g", b.low, b.high);

	band_compute(spread, 7, &opts, &b);
	ok(near(b.median, 100) && near(b.mad, 1),
	   "one odd window (150) moves neither median (%g) nor MAD (%g)",
	   b.median, b.mad);
	ok(near(b.high - b.median, 4 * 1.4826),
	   "4 scaled MADs (5.93) beat the 3 %% floor (3): half-width %g",
	   b.high - b.median);
	ok(spread[6] == 150, "the learned values are left as they were");

	band_compute(spread, 2, &opts, &b);
	ok(!b.ok && strstr(b.why, "2 learned values, a band needs 3"),
	   "two values make no band: '%s'", b.why);

	struct band_opts wide = opts;

	wide.floor = 0.5;
	band_compute(spread, 7, &wide, &b);
	ok(near(b.low, 50) && near(b.high, 150), "--floor 50: 50..150");
}

static void test_learning(void)
{
	struct baseline *b = calloc(1, sizeof(*b));
	struct guard_window w;

	guard_baseline_init(b, "7.3.4-1.rafleet.virt", 0x3f, "vda", 5);
	is_str(b->release, "7.3.4-1.rafleet.virt", "the baseline's release");
	window(&w, 128, 16, 0.5, 0);
	w.idle = true;
	ok(!guard_baseline_add(b, &w) && b->windows == 0,
	   "an idle window is not learned");
	w.idle = false;
	w.m[GM_MAJFLT_PER_MIB].state = MV_QUIET;
	w.m[GM_RA_PER_MIB].state = MV_UNAVAILABLE;
	w.m[GM_RA_PER_MIB].v = NAN;
	for (int i = 0; i < 4; i++)
		guard_baseline_add(b, &w);
	ok(b->windows == 4 && !guard_baseline_complete(b),
	   "4 of 5 windows: still learning");
	is_u64(b->n[GM_REQ_KIB], 4, "request size learned 4 times");
	is_u64(b->n[GM_MAJFLT_PER_MIB], 0, "a quiet metric is not learned");
	is_u64(b->n[GM_RA_PER_MIB], 0, "an unavailable one neither");
	guard_baseline_add(b, &w);
	ok(guard_baseline_complete(b), "5 windows: complete");
	free(b);
}

static struct baseline *learned(void)
{
	struct baseline *b = calloc(1, sizeof(*b));
	double req[] = { 128, 126, 130, 128, 129 };
	struct guard_window w;

	guard_baseline_init(b, "7.3.4", ALL_ON, "vda", 5);
	for (int i = 0; i < 5; i++) {
		window(&w, req[i], 16, 0.5, 0.25);
		guard_baseline_add(b, &w);
	}
	return b;
}

/* Counts per MiB: a band no narrower than the window's counting noise. */
static void test_count_noise(void)
{
	struct baseline *b = calloc(1, sizeof(*b));
	struct guard_window w;
	struct judgement j;

	guard_baseline_init(b, "7.3.4", ALL_ON, "vda", 5);
	for (int i = 0; i < 5; i++) {
		window(&w, 128, 16, 16, 0);
		guard_baseline_add(b, &w);
	}
	window(&w, 128, 16, 16, 0.03);		/* 3 faults in 100 MiB */
	w.read_mib = 100;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.pos[GM_MAJFLT_PER_MIB] == POS_IN && j.verdict == BV_IN_BAND,
	   "learned 0 major faults; 3 in 100 MiB are within 4 * sqrt(0 + 1): in band (high %g)",
	   j.band[GM_MAJFLT_PER_MIB].high);
	ok(near(j.band[GM_MAJFLT_PER_MIB].high, 0.04),
	   "  the band reaches 4 faults in 100 MiB: %g per MiB",
	   j.band[GM_MAJFLT_PER_MIB].high);
	window(&w, 128, 16, 16, 0.05);		/* 5 faults */
	w.read_mib = 100;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.pos[GM_MAJFLT_PER_MIB] == POS_HIGH, "5 of them are out of band, high");
	window(&w, 128, 16, 16.2, 0);
	w.read_mib = 100;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.pos[GM_RA_PER_MIB] == POS_IN &&
	   near(j.band[GM_RA_PER_MIB].high, 16 + 4 * sqrt(1601) / 100),
	   "readahead hits: 16/MiB in 100 MiB allow 4 * sqrt(1601) hits: high %g",
	   j.band[GM_RA_PER_MIB].high);
	window(&w, 128, 16, 18, 0);
	w.read_mib = 100;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.pos[GM_RA_PER_MIB] == POS_HIGH, "18/MiB is out, high");
	free(b);
}

static void test_judge(void)
{
	struct baseline *b = learned();
	struct guard_window w;
	struct judgement j;

	window(&w, 127, 16.2, 0.5, 0.25);
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.verdict == BV_IN_BAND && !j.candidates,
	   "a window like the learned ones: in band, no candidates");
	ok(j.pos[GM_REQ_KIB] == POS_IN && j.band[GM_REQ_KIB].ok,
	   "request size in its band %g..%g", j.band[GM_REQ_KIB].low,
	   j.band[GM_REQ_KIB].high);

	window(&w, 4, 16, 0.5, 0.25);
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.verdict == BV_OUT_OF_BAND && j.pos[GM_REQ_KIB] == POS_LOW,
	   "4 KiB requests against 128: out of band, low");
	is_u64(j.candidates, RA_FEATURES,
	       "candidates: the four readahead-window features");
	guard_judge(b, &opts, &w, bit("readahead_async_keep_half") |
		    bit("readahead_exec_large_folio"), &j);
	is_u64(j.candidates, bit("readahead_async_keep_half"),
	       "only features that are on are candidates");
	guard_judge(b, &opts, &w, 0, &j);
	ok(j.verdict == BV_OUT_OF_BAND && !j.candidates,
	   "every feature off: out of band, no candidate");

	window(&w, 128, 16, 0.5, 3.0);
	w.read_mib = 100;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.pos[GM_MAJFLT_PER_MIB] == POS_HIGH, "12 times the major faults: high");
	is_u64(j.candidates, bit("readahead_exec_mmap_miss_bypass") |
	       bit("readahead_exec_large_folio") |
	       bit("readahead_populate_io_pages"),
	       "candidates: the exec features and populate");

	window(&w, 128, 1, 0.5, 0.25);
	w.read_mib = 100;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	is_u64(j.candidates, RA_FEATURES | bit("readahead_exec_large_folio"),
	       "small folios: the readahead features and exec_large_folio");

	window(&w, 4, 16, 0.5, 0.25);
	w.m[GM_REQ_KIB].state = MV_QUIET;
	w.m[GM_FOLIO_PAGES].state = MV_QUIET;
	w.m[GM_RA_PER_MIB].state = MV_QUIET;
	w.m[GM_MAJFLT_PER_MIB].state = MV_QUIET;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.verdict == BV_IDLE && j.pos[GM_REQ_KIB] == POS_NOT_JUDGED,
	   "quiet in every metric: idle, 4 KiB requests or not");

	window(&w, 4, 16, 0.5, 0.25);
	for (int m = 0; m < GM_NR; m++)
		w.m[m].state = MV_UNAVAILABLE;
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.verdict == BV_UNAVAILABLE, "nothing measurable: unavailable");

	b->n[GM_FOLIO_PAGES] = 2;
	window(&w, 128, 1, 0.5, 0.25);
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.verdict == BV_IN_BAND && j.pos[GM_FOLIO_PAGES] == POS_NOT_JUDGED &&
	   !j.band[GM_FOLIO_PAGES].ok,
	   "a metric with 2 learned values is not judged; the rest are in band");
	free(b);
}

int main(void)
{
	test_band();
	test_learning();
	test_judge();
	test_count_noise();
	is_str(band_verdict_names[BV_OUT_OF_BAND], "out of band", "verdict names");
	return tap_done();
}
