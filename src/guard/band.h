/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard/band.h - the baseline of rafleet guard and the judgement of a
 * window against it.  Pure functions; guard/baseline.h keeps it on disk.
 *
 * The baseline belongs to one kernel release and one feature mask (bit i:
 * features[i] is on).  It is the first K windows that were not idle, each
 * metric's values kept as they were measured.  A metric's band is
 *
 *	median +- max(floor * |median|, k(n) * 1.4826 * MAD)
 *
 * 1.4826 * MAD (median absolute deviation) estimates the standard
 * deviation of normal data and, unlike it, is not pulled wide by the one
 * odd window (a backup, a cold start) that learning will meet.
 *
 * k(n) is a prediction-interval multiplier: the band is meant to leave a
 * new window of the learned distribution outside with the chance
 * alpha = erfc(mads / sqrt 2) that mads (GUARD_DEFAULT_MADS 4: 6.3e-5)
 * standard deviations would if median and spread were known.  They are
 * estimated from n values, so
 *
 *	k(n) = t_{nu, 1 - alpha/2} * sqrt(1 + pi / (2 n)),
 *	nu   = GUARD_MAD_EFFICIENCY * (n - 1)
 *
 * (x - median) has variance sigma^2 (1 + pi / (2n)): the median's own
 * variance is pi sigma^2 / (2n).  The scaled MAD has the variance of a
 * standard deviation from 0.3675 times as many values (its asymptotic
 * efficiency at the normal), so it is taken as a standard deviation with
 * nu = 0.3675 (n - 1) degrees of freedom and the quantile is Student's t
 * with those (not whole) degrees of freedom.  At n = 30, mads 4: nu 10.7,
 * k = 6.4; n = 100: k = 5.0; n -> infinity: k -> 4.  A metric needs at
 * least GUARD_MIN_SAMPLES (30) learned values to have a band; below that
 * nu is under 11 and the band would be wider than the changes it is for.
 * tests/unit/guard/test_band.c measures what this gives (README, "The
 * guard's false alarms"): at nominal 4.6 %, 1 % and 0.27 % (mads 2,
 * 2.58, 3) the single-window rate of normal data is 4.2 %, 0.90 % and
 * 0.25 % at n = 30 and 4.5 %, 1.0 % and 0.28 % at n = 100.
 *
 * The floor, 3 % of the median (GUARD_DEFAULT_FLOOR), keeps the band from
 * being zero wide where the learned windows agree exactly (request sizes
 * capped by max_sectors_kb, folio sizes fixed by the readahead window): a
 * change that small is noise, while what the features change moves these
 * metrics by factors (docs/measurements.md: 128 against 65,536 folios).
 *
 * Readahead hits and major faults per MiB are counts: a window of R MiB
 * where the median expects m * R of them sees that many give or take
 * sqrt(m * R) (Poisson), so their band is also at least
 * mads * sqrt(m * R + 1) / R wide each way (a known variance: mads, not
 * k(n)).  Without it a baseline of no major faults would call the first
 * stray fault of another program a regression.
 *
 * One window out of band is reported; the guard acts (runs a canary) only
 * on an alarm: the same metric out of band the same way (both low or both
 * high) in GUARD_CONFIRM (2) windows in a row of one run, every window
 * between judged (a window where that metric is in band, out the other
 * way, not judged, learned or idle starts the count again; so does the
 * guard acting, and a change of the features).  On the A/A noise of
 * test_band (5,000 baselines of 30 windows, 10 windows judged each, 2 %
 * noise) a metric is out of band in 2e-5 of windows with normal noise
 * and 0.7 % with Student t(3) noise, and an alarm comes in 0 and 1e-4 of
 * windows; a +-25 % shift of one metric alarms in its second window
 * 99.9 % of the time with normal noise, by its third 97-98.5 % with
 * t(3) noise, and a factor (x2, x0.5) always in its second.
 */
#ifndef RAFLEET_GUARD_BAND_H
#define RAFLEET_GUARD_BAND_H

#include <stdbool.h>
#include <stddef.h>

#include "guard/window.h"

#define GUARD_DEFAULT_LEARN 30
#define GUARD_MAX_LEARN 1000
#define GUARD_DEFAULT_FLOOR 0.03
#define GUARD_DEFAULT_MADS 4.0
#define GUARD_MIN_SAMPLES 30
#define GUARD_MAD_EFFICIENCY 0.3675	/* of the MAD at the normal */
#define GUARD_CONFIRM 2			/* windows in a row to act on */
#define GUARD_CONFIRM_STR "2"
#define GUARD_RELEASE_LEN 65
#define GUARD_DEVICES_LEN 256

struct band_opts {
	unsigned int learn_windows;	/* K of a new baseline */
	double floor;			/* fraction of the median */
	double mads;			/* nominal half-width, in sds */
};

struct baseline {
	char release[GUARD_RELEASE_LEN];
	unsigned int mask;		/* features on while it was learned */
	char devices[GUARD_DEVICES_LEN];/* block devices watched, "vda,vdb" */
	unsigned int learn_windows;	/* K: fixed when it was begun */
	unsigned int windows;		/* not-idle windows learned */
	size_t n[GM_NR];
	double v[GM_NR][GUARD_MAX_LEARN];
};

struct band {
	bool ok;
	double median, mad, low, high;
	double k;			/* k(n): scaled MADs each way */
	size_t n;
	char why[96];			/* when !ok */
};

enum band_pos { POS_IN, POS_LOW, POS_HIGH, POS_NOT_JUDGED };

enum band_verdict {
	BV_LEARNING,		/* the window went into the baseline */
	BV_IDLE,		/* too little activity to judge */
	BV_UNAVAILABLE,		/* no metric could be measured or has a band */
	BV_IN_BAND,
	BV_OUT_OF_BAND,
};

extern const char *const band_verdict_names[];
extern const char *const band_pos_names[];

struct judgement {
	enum band_verdict verdict;
	struct band band[GM_NR];
	enum band_pos pos[GM_NR];
	unsigned int candidates;	/* feature bits that could explain it */
	/* set by guard_streak_update() */
	unsigned int run[GM_NR];	/* windows in a row out this way */
	bool alarm;			/* a metric's run reached GUARD_CONFIRM */
	unsigned int alarm_candidates;	/* of the metrics that alarmed */
};

/* The out-of-band runs of each metric, within one run of the guard. */
struct guard_streak {
	enum band_pos pos[GM_NR];
	unsigned int run[GM_NR];
};

/* A judgement of nothing: @v, every metric not judged, bands null for @why. */
void guard_not_judged(struct judgement *j, enum band_verdict v, const char *why);

/* An empty baseline for @release, @mask and @devices, to learn @k windows. */
void guard_baseline_init(struct baseline *b, const char *release, unsigned int mask,
		   const char *devices, unsigned int k);

/* Learned all it needs: K windows that were not idle. */
bool guard_baseline_complete(const struct baseline *b);

/*
 * Add a window to the baseline: each metric that was measured with
 * enough activity.  An idle window adds nothing; returns whether it was
 * added.
 */
bool guard_baseline_add(struct baseline *b, const struct guard_window *w);

/*
 * k(n): the half-width, in scaled MADs, of the band of @n learned values
 * at nominal @mads (see above).  NaN for n < 2 or mads not above 0.
 */
double band_multiplier(size_t n, double mads);

/* The upper tail P(T > t) of Student's t with @nu (> 0) degrees of freedom. */
double band_t_tail(double t, double nu);

/* The band of @n values (not changed). */
void band_compute(const double *v, size_t n, const struct band_opts *o,
		  struct band *out);

/* The features that can explain metric @m moving: bits of features[]. */
unsigned int guard_metric_features(enum guard_metric m);

/*
 * Judge @w against the complete baseline @b; @on is the mask of features
 * on now: only those are candidates.
 */
void guard_judge(const struct baseline *b, const struct band_opts *o,
		 const struct guard_window *w, unsigned int on,
		 struct judgement *j);

/* No metric out of band so far (a new run, after acting, new features). */
void guard_streak_reset(struct guard_streak *s);

/*
 * Count @j, the judgement of the next window (any verdict), into @s and
 * set j->run, j->alarm and j->alarm_candidates: the features that are on
 * (@on) and explain a metric whose run reached GUARD_CONFIRM.
 */
void guard_streak_update(struct guard_streak *s, struct judgement *j,
			 unsigned int on);

#endif /* RAFLEET_GUARD_BAND_H */
