/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard/band.h - the baseline of rafleet guard and the judgement of a
 * window against it.  Pure functions; guard/baseline.h keeps it on disk.
 *
 * The baseline belongs to one kernel release and one feature mask (bit i:
 * features[i] is on).  It is the first K windows that were not idle, each
 * metric's values kept as they were measured.  A metric's band is
 *
 *	median +- max(floor * |median|, mads * 1.4826 * MAD)
 *
 * 1.4826 * MAD (median absolute deviation) estimates the standard
 * deviation of normal data and, unlike it, is not pulled wide by the one
 * odd window (a backup, a cold start) that learning will meet.  4 of them
 * (GUARD_DEFAULT_MADS) puts a normal window outside with a chance of about
 * 6e-5 per metric, and leaves room for the MAD's own error from only ten
 * windows (it is uncertain by about a third).  The floor, 3 % of the
 * median (GUARD_DEFAULT_FLOOR), keeps the band from being zero wide where
 * the learned windows agree exactly (request sizes capped by
 * max_sectors_kb, folio sizes fixed by the readahead window): a change
 * that small is noise, while what the features change moves these metrics
 * by factors (docs/measurements.md: 128 against 65,536 folios).  A metric
 * needs at least GUARD_MIN_SAMPLES learned values to have a band.
 *
 * Readahead hits and major faults per MiB are counts: a window of R MiB
 * where the median expects m * R of them sees that many give or take
 * sqrt(m * R) (Poisson), so their band is also at least
 * mads * sqrt(m * R + 1) / R wide each way.  Without it a baseline of no
 * major faults would call the first stray fault of another program a
 * regression.
 */
#ifndef RAFLEET_GUARD_BAND_H
#define RAFLEET_GUARD_BAND_H

#include <stdbool.h>
#include <stddef.h>

#include "guard/window.h"

#define GUARD_DEFAULT_LEARN 10
#define GUARD_MAX_LEARN 1000
#define GUARD_DEFAULT_FLOOR 0.03
#define GUARD_DEFAULT_MADS 4.0
#define GUARD_MIN_SAMPLES 3
#define GUARD_RELEASE_LEN 65
#define GUARD_DEVICES_LEN 256

struct band_opts {
	unsigned int learn_windows;	/* K of a new baseline */
	double floor;			/* fraction of the median */
	double mads;			/* scaled MADs */
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

#endif /* RAFLEET_GUARD_BAND_H */
