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
	half = fmax(o->floor * fabs(s.median), o->mads * 1.4826 * out->mad);
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
