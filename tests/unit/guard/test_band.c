// SPDX-License-Identifier: GPL-2.0
/*
 * guard_band: bands from learned values (floor, k(n) scaled MADs, the
 * Student t behind k), learning (idle windows add nothing), judging
 * crafted windows (in band, out low and high with the features that can
 * explain it and are on, idle, unavailable, too few learned values), the
 * two-windows-in-a-row rule, and then the false alarms and the power of
 * the real code (guard_baseline_add, guard_judge, band_compute,
 * guard_streak_update) on simulated windows, fixed seed (tests/unit/sim.h):
 *
 *   A/A: 5,000 baselines of 30 windows, each judging 10 windows of the
 *   same noise (50,000 windows a cell), every metric at 2 % noise around
 *   128 KiB/request, 16 pages/folio, 16 readahead hits/MiB and 4 major
 *   faults/MiB in 10,000 MiB windows (the floor and the counting noise do
 *   not bind: the band is k(n) scaled MADs wide), normal and Student t(3)
 *   noise; single-window out-of-band rate per metric and per window, and
 *   alarms (what the guard acts on) per window: at most 0.1 %.
 *
 *   Power: 20,000 baselines, then one metric (each in turn) shifted by
 *   +25 % or -25 %: the window of the alarm.
 *
 *   Calibration of k(n) itself: nominal 4.6 %, 1 % and 0.27 % (mads 2,
 *   2.5758, 3) at n = 30 and 100, normal noise: the measured single-window
 *   rate per metric.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/feature.h"
#include "guard/band.h"
#include "sim.h"
#include "tap.h"

static const struct band_opts opts = {
	.learn_windows = GUARD_DEFAULT_LEARN, .floor = GUARD_DEFAULT_FLOOR,
	.mads = GUARD_DEFAULT_MADS,
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
#define K GUARD_DEFAULT_LEARN

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

static void test_t_tail(void)
{
	/* textbook quantiles of Student's t */
	ok(fabs(band_t_tail(12.706205, 1) - 0.025) < 1e-7 &&
	   fabs(band_t_tail(3.182446, 3) - 0.025) < 1e-7 &&
	   fabs(band_t_tail(2.228139, 10) - 0.025) < 1e-7 &&
	   fabs(band_t_tail(5.840909, 3) - 0.005) < 1e-7 &&
	   fabs(band_t_tail(4.586894, 10) - 0.0005) < 1e-8,
	   "Student t upper tails: t1 12.706, t3 3.182 and t10 2.228 at 2.5 %%, t3 5.841 at 0.5 %%, t10 4.587 at 0.05 %%");
	ok(fabs(band_t_tail(0, 7.3)) - 0.5 < 1e-12 &&
	   fabs(band_t_tail(-2, 5) + band_t_tail(2, 5) - 1) < 1e-12,
	   "  symmetric about 0");
	ok(fabs(band_t_tail(3.290527, 1e7) - 0.0005) < 1e-7,
	   "  and normal for many degrees of freedom (z 3.2905 at 0.05 %%)");
}

static void test_multiplier(void)
{
	double k30 = band_multiplier(30, 4), k100 = band_multiplier(100, 4);
	double k1000 = band_multiplier(1000, 4), prev = INFINITY;
	bool falls = true;

	diag("k(n) at mads 4: n 30 %.3f, 40 %.3f, 100 %.3f, 1000 %.3f",
	     k30, band_multiplier(40, 4), k100, k1000);
	for (size_t n = 2; n <= GUARD_MAX_LEARN; n++) {
		double k = band_multiplier(n, 4);

		falls = falls && k < prev;
		prev = k;
	}
	ok(falls, "k(n) falls as n grows: the more windows, the narrower");
	ok(k1000 > 4 && k1000 < 4.06, "k(1000) %.4f: close above mads 4", k1000);
	/* by hand: alpha = erfc(4 / sqrt 2) = 6.334e-5, nu = 0.3675 * 29 */
	ok(fabs(band_t_tail(k30 / sqrt(1 + M_PI / 60), 0.3675 * 29) -
		erfc(4 / sqrt(2)) / 2) < 1e-12,
	   "k(30) / sqrt(1 + pi/60) is the t quantile at alpha/2 = 3.17e-5, nu 10.66: %.3f", k30);
	ok(isnan(band_multiplier(1, 4)) && isnan(band_multiplier(30, 0)),
	   "no k for one value or mads 0");
}

static void test_band(void)
{
	double same[K], spread[K];
	struct band b;

	for (int i = 0; i < K; i++) {
		same[i] = 10;
		spread[i] = 100 + (i % 5) - 2;	/* 98..102 */
	}
	spread[K - 1] = 150;
	band_compute(same, K, &opts, &b);
	ok(b.ok && near(b.median, 10) && near(b.mad, 0),
	   "thirty equal values: median 10, MAD 0");
	ok(near(b.low, 9.7) && near(b.high, 10.3),
	   "MAD 0: the 3 %% floor gives 9.7..10.3, got %g..%g", b.low, b.high);

	band_compute(spread, K, &opts, &b);
	ok(near(b.median, 100) && near(b.mad, 1),
	   "one odd window (150) moves neither median (%g) nor MAD (%g)",
	   b.median, b.mad);
	ok(near(b.k, band_multiplier(K, 4)) &&
	   near(b.high - b.median, b.k * 1.4826),
	   "k(30) = %.3f scaled MADs (%.2f) beat the 3 %% floor (3): half-width %g",
	   b.k, b.k * 1.4826, b.high - b.median);
	ok(spread[K - 1] == 150, "the learned values are left as they were");

	band_compute(spread, K - 1, &opts, &b);
	ok(!b.ok && strstr(b.why, "29 learned values, a band needs 30"),
	   "29 values make no band: '%s'", b.why);

	struct band_opts wide = opts;

	wide.floor = 0.5;
	band_compute(spread, K, &wide, &b);
	ok(near(b.low, 50) && near(b.high, 150), "--floor 50: 50..150");
}

/*
 * The issue's example: {95, 97, 99, 99.5, 100, 100, 100.5, 101, 103, 105}
 * (sd 2.8) learned three times over, 30 windows: median 100, MAD 1.  The
 * old band (10 of them, 4 scaled MADs) was 94.07..105.93 and 106, +2.1 sd,
 * alarmed.
 */
static void test_issue_example(void)
{
	static const double ten[] = { 95, 97, 99, 99.5, 100, 100, 100.5, 101, 103, 105 };
	struct baseline *b = calloc(1, sizeof(*b));
	struct guard_streak s;
	struct guard_window w;
	struct judgement j;
	bool alarm = false;

	guard_baseline_init(b, "7.3.4", ALL_ON, "vda", K);
	for (int i = 0; i < K; i++) {
		window(&w, ten[i % 10], 16, 16, 4);
		guard_baseline_add(b, &w);
	}
	guard_streak_reset(&s);
	for (int i = 0; i < 3; i++) {
		window(&w, 106, 16, 16, 4);
		guard_judge(b, &opts, &w, ALL_ON, &j);
		guard_streak_update(&s, &j, ALL_ON);
		alarm |= j.alarm;
	}
	ok(j.pos[GM_REQ_KIB] == POS_IN && !alarm,
	   "the issue's ten values thrice: band %.2f..%.2f, 106 (+2.1 sd) in band, three times over no alarm",
	   j.band[GM_REQ_KIB].low, j.band[GM_REQ_KIB].high);
	window(&w, 111, 16, 16, 4);
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.pos[GM_REQ_KIB] == POS_HIGH, "  111 (+3.9 sd, +11 %%) is out of band, high");
	free(b);
}

static void test_learning(void)
{
	struct baseline *b = calloc(1, sizeof(*b));
	struct guard_window w;

	guard_baseline_init(b, "7.3.4-1.rafleet+virt", 0x3f, "vda", K);
	is_str(b->release, "7.3.4-1.rafleet+virt", "the baseline's release");
	window(&w, 128, 16, 0.5, 0);
	w.idle = true;
	ok(!guard_baseline_add(b, &w) && b->windows == 0,
	   "an idle window is not learned");
	w.idle = false;
	w.m[GM_MAJFLT_PER_MIB].state = MV_QUIET;
	w.m[GM_RA_PER_MIB].state = MV_UNAVAILABLE;
	w.m[GM_RA_PER_MIB].v = NAN;
	for (int i = 0; i < K - 1; i++)
		guard_baseline_add(b, &w);
	ok(b->windows == K - 1 && !guard_baseline_complete(b),
	   "29 of 30 windows: still learning");
	is_u64(b->n[GM_REQ_KIB], K - 1, "request size learned 29 times");
	is_u64(b->n[GM_MAJFLT_PER_MIB], 0, "a quiet metric is not learned");
	is_u64(b->n[GM_RA_PER_MIB], 0, "an unavailable one neither");
	guard_baseline_add(b, &w);
	ok(guard_baseline_complete(b), "30 windows: complete");
	free(b);
}

static struct baseline *learned(void)
{
	struct baseline *b = calloc(1, sizeof(*b));
	double req[] = { 128, 126, 130, 128, 129 };
	struct guard_window w;

	guard_baseline_init(b, "7.3.4", ALL_ON, "vda", K);
	for (int i = 0; i < K; i++) {
		window(&w, req[i % 5], 16, 0.5, 0.25);
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

	guard_baseline_init(b, "7.3.4", ALL_ON, "vda", K);
	for (int i = 0; i < K; i++) {
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

	b->n[GM_FOLIO_PAGES] = K - 1;
	window(&w, 128, 1, 0.5, 0.25);
	guard_judge(b, &opts, &w, ALL_ON, &j);
	ok(j.verdict == BV_IN_BAND && j.pos[GM_FOLIO_PAGES] == POS_NOT_JUDGED &&
	   !j.band[GM_FOLIO_PAGES].ok,
	   "a metric with 29 learned values is not judged; the rest are in band");
	free(b);
}

/* Judge windows whose positions are @pos (one letter a metric a window). */
static const char *streak_of(const char *const *pos, int nr, unsigned int *cands)
{
	static char out[64];
	struct guard_streak s;
	struct judgement j;

	guard_streak_reset(&s);
	out[0] = '\0';
	for (int i = 0; i < nr; i++) {
		memset(&j, 0, sizeof(j));
		for (int m = 0; m < GM_NR; m++)
			j.pos[m] = pos[i][m] == 'l' ? POS_LOW : pos[i][m] == 'h' ?
				   POS_HIGH : pos[i][m] == '-' ? POS_NOT_JUDGED : POS_IN;
		guard_streak_update(&s, &j, ALL_ON);
		strcat(out, j.alarm ? "A" : ".");
		*cands = j.alarm_candidates;
	}
	return out;
}

static void test_streak(void)
{
	unsigned int c;

	is_str(streak_of((const char *[]){ "liii", "liii", "liii" }, 3, &c), ".AA",
	       "request size low twice in a row: an alarm in the second window, and the third");
	is_u64(c, RA_FEATURES, "  its candidates: what explains request size");
	is_str(streak_of((const char *[]){ "liii", "hiii", "liii" }, 3, &c), "...",
	       "low, high, low: no alarm (not the same way)");
	is_str(streak_of((const char *[]){ "liii", "iiii", "liii" }, 3, &c), "...",
	       "low, in band, low: no alarm (not in a row)");
	is_str(streak_of((const char *[]){ "liii", "-iii", "liii" }, 3, &c), "...",
	       "low, not judged, low: no alarm (every window between judged)");
	is_str(streak_of((const char *[]){ "liii", "ilii", "iili", "iiil" }, 4, &c), "....",
	       "four metrics out once each: no alarm");
	is_str(streak_of((const char *[]){ "hiih", "iiih" }, 2, &c), ".A",
	       "major faults high twice, request size once: an alarm");
	is_u64(c, bit("readahead_exec_mmap_miss_bypass") |
	       bit("readahead_exec_large_folio") | bit("readahead_populate_io_pages"),
	       "  candidates only of the metric that alarmed");
}

/* ---- simulations of the real code ---- */

static const double base[GM_NR] = { 128, 16, 16, 4 };
#define SIGMA 0.02
#define WINDOW_MIB 10000.0

enum noise { NORMAL, T3 };
static const char *const noise_names[] = { "normal", "t(3)" };

static void noisy_window(struct sim_rng *r, enum noise nz, int shifted,
			 double shift, struct guard_window *w)
{
	double v[GM_NR];

	for (int m = 0; m < GM_NR; m++) {
		double e = nz == NORMAL ? sim_normal(r) : sim_student_t(r, 3);

		v[m] = base[m] * (1 + SIGMA * e) * (m == shifted ? 1 + shift : 1);
	}
	window(w, v[0], v[1], v[2], v[3]);
	w->read_mib = WINDOW_MIB;
}

static void learn(struct sim_rng *r, enum noise nz, unsigned int k,
		  struct baseline *b)
{
	struct guard_window w;

	guard_baseline_init(b, "7.3.4", ALL_ON, "vda", k);
	while (!guard_baseline_complete(b)) {
		noisy_window(r, nz, -1, 0, &w);
		guard_baseline_add(b, &w);
	}
}

struct aa {
	unsigned long windows, metric_out, window_out, alarms;
};

static struct aa aa_cell(enum noise nz, unsigned int k, double mads,
			 int baselines, int judged, uint64_t seed)
{
	struct baseline *b = calloc(1, sizeof(*b));
	struct band_opts o = opts;
	struct aa a = { 0 };
	struct sim_rng r;

	o.mads = mads;
	sim_seed(&r, seed);
	for (int i = 0; i < baselines; i++) {
		struct guard_streak s;

		learn(&r, nz, k, b);
		guard_streak_reset(&s);
		for (int t = 0; t < judged; t++) {
			struct guard_window w;
			struct judgement j;

			noisy_window(&r, nz, -1, 0, &w);
			guard_judge(b, &o, &w, ALL_ON, &j);
			guard_streak_update(&s, &j, ALL_ON);
			a.windows++;
			for (int m = 0; m < GM_NR; m++)
				a.metric_out += j.pos[m] == POS_LOW || j.pos[m] == POS_HIGH;
			a.window_out += j.verdict == BV_OUT_OF_BAND;
			a.alarms += j.alarm;
		}
	}
	free(b);
	return a;
}

static void test_false_alarms(void)
{
	diag("A/A, 2 %% noise, K %d, mads %g: 5,000 baselines x 10 judged windows",
	     K, GUARD_DEFAULT_MADS);
	diag("%-7s %9s %14s %14s %14s", "noise", "windows", "out/metric", "out/window",
	     "alarms/window");
	for (enum noise nz = NORMAL; nz <= T3; nz++) {
		struct aa a = aa_cell(nz, K, GUARD_DEFAULT_MADS, 5000, 10, 17 + nz);
		double alarm = (double)a.alarms / a.windows;

		diag("%-7s %9lu %9lu %.2e %9lu %.2e %9lu %.2e", noise_names[nz], a.windows,
		     a.metric_out, (double)a.metric_out / (4.0 * a.windows),
		     a.window_out, (double)a.window_out / a.windows,
		     a.alarms, alarm);
		ok(a.windows >= 20000 && alarm <= 0.001,
		   "%s noise: alarms (two windows in a row) in %.4f %% of windows, at most 0.1 %%",
		   noise_names[nz], 100 * alarm);
		if (nz == NORMAL)
			ok((double)a.metric_out / (4.0 * a.windows) < 5 * erfc(4 / sqrt(2)),
			   "  normal: out of band in %.1e of metric-windows, near the nominal %.1e",
			   (double)a.metric_out / (4.0 * a.windows), erfc(4 / sqrt(2)));
	}
}

/* Does k(n) give the single-window rate it is meant to, at larger alphas? */
static void test_calibration(void)
{
	static const double mads[] = { 2, 2.5758, 3 };
	static const unsigned int ns[] = { 30, 100 };

	diag("calibration, normal noise, 2,500 baselines x 10 windows x 4 metrics:");
	for (int ni = 0; ni < 2; ni++)
		for (int mi = 0; mi < 3; mi++) {
			struct aa a = aa_cell(NORMAL, ns[ni], mads[mi], 2500, 10,
					      100 + ni * 10 + mi);
			double want = erfc(mads[mi] / sqrt(2));
			double got = (double)a.metric_out / (4.0 * a.windows);

			ok(got > 0.7 * want && got < 1.3 * want,
			   "n %u, mads %g (k %.3f): out of band in %.3f %% of metric-windows, nominal %.3f %%",
			   ns[ni], mads[mi], band_multiplier(ns[ni], mads[mi]),
			   100 * got, 100 * want);
		}
}

/*
 * The window (1, 2, ...) of the first alarm after a shift of one metric:
 * +-25 %, and the factors the features move things by (x2, x0.5).
 */
static void test_power(void)
{
	static const double shifts[] = { 0.25, -0.25, 1.0, -0.5 };
	struct baseline *b = calloc(1, sizeof(*b));

	diag("power: 20,000 baselines a cell, one metric shifted (each in turn), 2 %% noise;");
	diag("an alarm by window 2, 3, 5 (the service's run) of the shift:");
	for (enum noise nz = NORMAL; nz <= T3; nz++)
		for (int si = 0; si < 4; si++) {
			unsigned long by[6] = { 0 }, trials = 20000;
			double p2, p3, p5, want;
			struct sim_rng r;

			sim_seed(&r, 1000 + nz * 10 + si);
			for (unsigned long i = 0; i < trials; i++) {
				struct guard_streak s;
				int m = (int)(i % GM_NR);

				learn(&r, nz, K, b);
				guard_streak_reset(&s);
				for (int t = 1; t <= 5; t++) {
					struct guard_window w;
					struct judgement j;

					noisy_window(&r, nz, m, shifts[si], &w);
					guard_judge(b, &opts, &w, ALL_ON, &j);
					guard_streak_update(&s, &j, ALL_ON);
					if (j.alarm && (j.alarm_candidates &
							guard_metric_features(m))) {
						by[t]++;
						break;
					}
				}
			}
			p2 = (double)by[2] / trials;
			p3 = p2 + (double)by[3] / trials;
			p5 = p3 + (double)(by[4] + by[5]) / trials;
			/* a factor: always; 25 %: nearly, less in heavy tails */
			want = fabs(shifts[si]) >= 0.5 ? 0.999 : nz == NORMAL ? 0.99 : 0.95;
			ok(!by[1] && p3 >= want,
			   "%-6s %+4.0f %%: alarm by window 2 %6.2f %%, 3 %6.2f %%, 5 %6.2f %% (by 3 at least %g %%)",
			   noise_names[nz], 100 * shifts[si], 100 * p2, 100 * p3,
			   100 * p5, 100 * want);
		}
	free(b);
}

int main(void)
{
	test_t_tail();
	test_multiplier();
	test_band();
	test_issue_example();
	test_learning();
	test_judge();
	test_count_noise();
	test_streak();
	is_str(band_verdict_names[BV_OUT_OF_BAND], "out of band", "verdict names");
	test_false_alarms();
	test_calibration();
	test_power();
	return tap_done();
}
