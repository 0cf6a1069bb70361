// SPDX-License-Identifier: GPL-2.0
/* guard/band.c - the guard's baseline, bands and judgement, see guard/band.h. */
#include "guard/band.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/feature.h"
#include "bench/stats.h"

const char *const band_verdict_names[] = {
	[BV_LEARNING] = "learning",
	[BV_IDLE] = "idle",
	[BV_UNAVAILABLE] = "unavailable",
	[BV_IN_BAND] = "in band",
	[BV_OUT_OF_BAND] = "out of band",
};

const char *const band_pos_names[] = {
	[POS_IN] = "in",
	[POS_LOW] = "low",
	[POS_HIGH] = "high",
	[POS_NOT_JUDGED] = "not judged",
};

/*
 * Which features can move which metric.  Request size, readahead hits
 * and folio size follow the readahead window (seeds 000-003); major
 * faults follow the exec fault path (seed 004) and populate (003); exec
 * mappings' folio size follows seed 004/2.
 */
static const char *const explains[GM_NR][5] = {
	[GM_REQ_KIB] = { "readahead_unbounded_large_folios",
			 "readahead_async_two_windows",
			 "readahead_async_keep_half",
			 "readahead_populate_io_pages" },
	[GM_FOLIO_PAGES] = { "readahead_unbounded_large_folios",
			     "readahead_async_two_windows",
			     "readahead_async_keep_half",
			     "readahead_populate_io_pages",
			     "readahead_exec_large_folio" },
	[GM_RA_PER_MIB] = { "readahead_unbounded_large_folios",
			    "readahead_async_two_windows",
			    "readahead_async_keep_half",
			    "readahead_populate_io_pages" },
	[GM_MAJFLT_PER_MIB] = { "readahead_exec_mmap_miss_bypass",
				"readahead_exec_large_folio",
				"readahead_populate_io_pages" },
};

unsigned int guard_metric_features(enum guard_metric m)
{
	unsigned int bits = 0;

	for (size_t i = 0; i < 5 && explains[m][i]; i++) {
		const struct feature *f = feature_find(explains[m][i]);

		if (f)
			bits |= 1u << (f - features);
	}
	return bits;
}

void guard_baseline_init(struct baseline *b, const char *release, unsigned int mask,
		   const char *devices, unsigned int k)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->release, sizeof(b->release), "%s", release);
	snprintf(b->devices, sizeof(b->devices), "%s", devices);
	b->mask = mask;
	b->learn_windows = k;
}

bool guard_baseline_complete(const struct baseline *b)
{
	return b->windows >= b->learn_windows;
}

bool guard_baseline_add(struct baseline *b, const struct guard_window *w)
{
	if (w->idle || b->windows >= GUARD_MAX_LEARN)
		return false;
	for (int m = 0; m < GM_NR; m++)
		if (w->m[m].state == MV_OK && isfinite(w->m[m].v))
			b->v[m][b->n[m]++] = w->m[m].v;
	b->windows++;
	return true;
}

/*
 * The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), for x below (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;

		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double incbeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double band_t_tail(double t, double nu)
{
	double p = 0.5 * incbeta(nu / 2, 0.5, nu / (nu + t * t));

	return t >= 0 ? p : 1 - p;
}

/* The t with P(T > t) = @p (0 < p < 1/2), by bisection. */
static double t_upper(double p, double nu)
{
	double lo = 0, hi = 1;

	while (band_t_tail(hi, nu) > p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (band_t_tail(mid, nu) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double band_multiplier(size_t n, double mads)
{
	/* the last one asked: every window asks the same four times */
	static size_t last_n;
	static double last_mads, last_k;
	double alpha, nu;

	if (n < 2 || !(mads > 0))
		return NAN;
	if (n == last_n && mads == last_mads)
		return last_k;
	alpha = erfc(mads / sqrt(2));
	nu = GUARD_MAD_EFFICIENCY * (double)(n - 1);
	last_k = t_upper(alpha / 2, nu) * sqrt(1 + M_PI / (2.0 * (double)n));
	last_n = n;
	last_mads = mads;
	return last_k;
}

void band_compute(const double *v, size_t n, const struct band_opts *o,
		  struct band *out)
{
	double sorted[GUARD_MAX_LEARN], dev[GUARD_MAX_LEARN], half;
	struct summary s;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n < GUARD_MIN_SAMPLES) {
		snprintf(out->why, sizeof(out->why),
			 "%zu learned values, a band needs %d", n,
			 GUARD_MIN_SAMPLES);
		return;
	}
	if (n > GUARD_MAX_LEARN)
		n = out->n = GUARD_MAX_LEARN;
	memcpy(sorted, v, n * sizeof(*v));
	s = summarize(sorted, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - s.median);
	out->median = s.median;
	out->mad = summarize(dev, n).median;
	out->k = band_multiplier(n, o->mads);
	half = fmax(o->floor * fabs(s.median), out->k * 1.4826 * out->mad);
	out->low = s.median - half;
	out->high = s.median + half;
	out->ok = true;
}

void guard_not_judged(struct judgement *j, enum band_verdict v, const char *why)
{
	memset(j, 0, sizeof(*j));
	j->verdict = v;
	for (int m = 0; m < GM_NR; m++) {
		j->pos[m] = POS_NOT_JUDGED;
		snprintf(j->band[m].why, sizeof(j->band[m].why), "%s", why);
	}
}

/* Widen the band of a count per MiB to its counting noise in @mib MiB. */
static void count_noise(struct band *b, const struct band_opts *o, double mib)
{
	double half;

	if (!b->ok || !(mib > 0))
		return;
	half = o->mads * sqrt(fmax(b->median, 0) * mib + 1) / mib;
	b->low = fmin(b->low, b->median - half);
	b->high = fmax(b->high, b->median + half);
}

void guard_judge(const struct baseline *b, const struct band_opts *o,
		 const struct guard_window *w, unsigned int on,
		 struct judgement *j)
{
	bool judged = false, measurable = false;

	memset(j, 0, sizeof(*j));
	for (int m = 0; m < GM_NR; m++) {
		const struct metric_value *mv = &w->m[m];

		band_compute(b->v[m], b->n[m], o, &j->band[m]);
		if (m == GM_RA_PER_MIB || m == GM_MAJFLT_PER_MIB)
			count_noise(&j->band[m], o, w->read_mib);
		j->pos[m] = POS_NOT_JUDGED;
		if (mv->state != MV_UNAVAILABLE && j->band[m].ok)
			measurable = true;
		if (mv->state != MV_OK || !j->band[m].ok || !isfinite(mv->v))
			continue;
		judged = true;
		if (mv->v < j->band[m].low)
			j->pos[m] = POS_LOW;
		else if (mv->v > j->band[m].high)
			j->pos[m] = POS_HIGH;
		else
			j->pos[m] = POS_IN;
		if (j->pos[m] != POS_IN)
			j->candidates |= guard_metric_features(m) & on;
	}
	if (!measurable)
		j->verdict = BV_UNAVAILABLE;
	else if (!judged)
		j->verdict = BV_IDLE;
	else
		j->verdict = BV_IN_BAND;
	for (int m = 0; m < GM_NR; m++)
		if (j->pos[m] == POS_LOW || j->pos[m] == POS_HIGH)
			j->verdict = BV_OUT_OF_BAND;
}

void guard_streak_reset(struct guard_streak *s)
{
	for (int m = 0; m < GM_NR; m++) {
		s->pos[m] = POS_NOT_JUDGED;
		s->run[m] = 0;
	}
}

void guard_streak_update(struct guard_streak *s, struct judgement *j,
			 unsigned int on)
{
	j->alarm = false;
	j->alarm_candidates = 0;
	for (int m = 0; m < GM_NR; m++) {
		enum band_pos p = j->pos[m];

		if (p != POS_LOW && p != POS_HIGH)
			s->run[m] = 0;
		else if (p == s->pos[m])
			s->run[m]++;
		else
			s->run[m] = 1;
		s->pos[m] = p;
		j->run[m] = s->run[m];
		if (s->run[m] >= GUARD_CONFIRM) {
			j->alarm = true;
			j->alarm_candidates |= guard_metric_features(m) & on;
		}
	}
}
