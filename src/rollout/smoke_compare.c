// SPDX-License-Identifier: GPL-2.0
/* The smoke run's counters against the baseline's, and the baseline's key. */
#include "rollout/smoke_compare.h"
#include "rollout/smoke_conf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bench/stats.h"
#include "lib/parsenum.h"
#include "lib/sha256.h"

/* Median and range of counter @c over the runs of @s that measured it: n. */
static int counter_stats(const struct smoke_scenario *s, int c, double *median, double *range)
{
	double v[SMOKE_MAX_RUNS];
	struct summary sum;
	int n = 0;

	for (int i = 0; i < s->nr_runs; i++)
		if (s->count[i][c] >= 0)
			v[n++] = s->count[i][c];
	if (!n)
		return 0;
	sum = summarize(v, (size_t)n);
	*median = sum.median;
	*range = sum.max - sum.min;
	return n;
}

double smoke_tolerance(double median, double range)
{
	return fmax(SMOKE_SPREAD_K * range, fmax(SMOKE_FLOOR_REL * median, SMOKE_FLOOR_ABS));
}

/* The first error is kept. */
__attribute__((format(printf, 3, 4)))
static void cmp_error(struct smoke_cmp *out, int err, const char *fmt, ...)
{
	va_list ap;

	if (out->err)
		return;
	out->err = err;
	va_start(ap, fmt);
	vsnprintf(out->error, sizeof(out->error), fmt, ap);
	va_end(ap);
}

bool smoke_counter_judged(int counter)
{
	return counter != SMOKE_BLOCK_REQUESTS && counter != SMOKE_BLOCK_BYTES;
}

static void compare_scenario(const struct smoke_scenario *b, const struct smoke_scenario *t,
			     struct smoke_cmp *out)
{
	for (int c = 0; c < SMOKE_NR_COUNTERS; c++) {
		struct smoke_diff d = { .counter = c };
		double tr, ratio;
		int nb = counter_stats(b, c, &d.base, &d.range);
		int nt = counter_stats(t, c, &d.trial, &tr);
		char name[32];

		if (!nb && !nt)
			continue;
		if (!nb || !nt) {
			/* the device's are reported where both sides have them */
			if (smoke_counter_judged(c))
				cmp_error(out, -ENODATA, "%s of %s was measured in %s only",
					  smoke_counter_name(c, name, sizeof(name)), b->name,
					  nb ? "the baseline" : "this run");
			continue;
		}
		snprintf(d.scenario, sizeof(d.scenario), "%s", b->name);
		d.tol = smoke_tolerance(d.base, d.range);
		ratio = fabs(d.trial - d.base) / d.tol;
		if (!smoke_counter_judged(c)) {
			if (!out->dev_compared++ || ratio > out->dev_worst_ratio) {
				out->dev_worst = d;
				out->dev_worst_ratio = ratio;
			}
			out->dev_beyond += ratio > 1;
			continue;
		}
		if (!out->compared++ || ratio > out->worst_ratio) {
			out->worst = d;
			out->worst_ratio = ratio;
		}
		if (ratio > 1) {
			if (out->nr_beyond < SMOKE_MAX_BEYOND)
				out->beyond[out->nr_beyond] = d;
			out->nr_beyond++;
		}
	}
}

void smoke_compare(const struct smoke_run *base, const struct smoke_run *run,
		   struct smoke_cmp *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < base->nr; i++)
		if (!smoke_scenario_find(run, base->sc[i].name))
			cmp_error(out, -ENOENT, "scenario %s is in the baseline but was not measured in this run",
				  base->sc[i].name);
	for (int i = 0; i < run->nr; i++) {
		const struct smoke_scenario *b = smoke_scenario_find(base, run->sc[i].name);

		if (!b)
			cmp_error(out, -ENOENT, "scenario %s was measured but is not in the baseline",
				  run->sc[i].name);
		else
			compare_scenario(b, &run->sc[i], out);
	}
	if (!out->err && !out->compared)
		cmp_error(out, -ENODATA, "no counter was measured on both sides");
}

static bool same_diff(const struct smoke_diff *x, const struct smoke_diff *y)
{
	return x->counter == y->counter && !strcmp(x->scenario, y->scenario);
}

bool smoke_beyond_twice(const struct smoke_cmp *a, const struct smoke_cmp *b,
			struct smoke_diff *which)
{
	int na = a->nr_beyond < SMOKE_MAX_BEYOND ? a->nr_beyond : SMOKE_MAX_BEYOND;
	int nb = b->nr_beyond < SMOKE_MAX_BEYOND ? b->nr_beyond : SMOKE_MAX_BEYOND;

	for (int j = 0; j < nb; j++)
		for (int i = 0; i < na; i++)
			if (same_diff(&a->beyond[i], &b->beyond[j])) {
				*which = b->beyond[j];
				return true;
			}
	/* more beyond than kept: as many counters off twice is no fluke */
	if (a->nr_beyond > SMOKE_MAX_BEYOND && b->nr_beyond > SMOKE_MAX_BEYOND) {
		*which = b->worst;
		return true;
	}
	return false;
}

bool smoke_time_judged(void)
{
	return false;
}

/* @s's words joined by one space */
static void words(const char *s, char *out, size_t len)
{
	size_t n = 0;

	*out = '\0';
	while (*s) {
		size_t w;

		s += strspn(s, " \t");
		w = strcspn(s, " \t");
		if (!w)
			break;
		if (n + !!n + w + 1 > len)
			break;
		n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? " " : "", (int)w, s);
		s += w;
	}
}

int smoke_key_of_config(const struct smoke_config *c, const char *release,
			struct smoke_key *k, char *why, size_t len)
{
	off_t size;
	uint64_t repeat;

	memset(k, 0, sizeof(*k));
	snprintf(k->release, sizeof(k->release), "%s", release ? release : "");
	words(c->scenarios, k->scenarios, sizeof(k->scenarios));
	if (smoke_file_path(c, k->file, sizeof(k->file))) {
		snprintf(why, len, "RAFLEET_SMOKE_FILE=%s is too long", c->file);
		return -ENAMETOOLONG;
	}
	if (parse_size(c->size, &size)) {
		snprintf(why, len, "RAFLEET_SMOKE_SIZE=%s is not a size", c->size);
		return -EINVAL;
	}
	if (parse_u64(c->repeat, SMOKE_MAX_RUNS, &repeat) || !repeat) {
		snprintf(why, len, "RAFLEET_SMOKE_REPEAT=%s is not a number of runs 1..%d",
			 c->repeat, SMOKE_MAX_RUNS);
		return -EINVAL;
	}
	k->size = size;
	k->repeat = (int)repeat;
	return 0;
}

void smoke_key_of_run(const struct smoke_run *run, struct smoke_key *k)
{
	size_t n = 0;

	memset(k, 0, sizeof(*k));
	snprintf(k->release, sizeof(k->release), "%s", run->kernel);
	k->size = -1;
	for (int i = 0; i < run->nr; i++) {
		const struct smoke_scenario *s = &run->sc[i];
		size_t fl = strlen(s->file);

		if (n < sizeof(k->scenarios))
			n += (size_t)snprintf(k->scenarios + n, sizeof(k->scenarios) - n, "%s%s",
					      i ? " " : "", s->name);
		/* the exec scenarios read FILE.exec, of the same size */
		if (!k->file[0] && fl && (fl < 5 || strcmp(s->file + fl - 5, ".exec")))
			snprintf(k->file, sizeof(k->file), "%s", s->file);
		k->features_on += s->features_on;
		if (!i) {
			k->size = s->size >= 0 ? (int64_t)s->size : -1;
			k->repeat = s->nr_runs;
		} else {
			if (k->size != (s->size >= 0 ? (int64_t)s->size : -1))
				k->size = -1;
			if (k->repeat != s->nr_runs)
				k->repeat = -1;
		}
	}
}

bool smoke_key_match(const struct smoke_key *want, const struct smoke_key *have,
		     char *why, size_t len)
{
	if (strcmp(want->release, have->release))
		snprintf(why, len, "it was measured on %s, not %s",
			 have->release[0] ? have->release : "an unnamed kernel", want->release);
	else if (strcmp(want->scenarios, have->scenarios))
		snprintf(why, len, "its scenarios are '%s', not '%s'", have->scenarios,
			 want->scenarios);
	else if (have->file[0] && strcmp(want->file, have->file))
		snprintf(why, len, "it read %s, not %s", have->file, want->file);
	else if (want->size != have->size)
		snprintf(why, len, "its file was %lld bytes, not %lld", (long long)have->size,
			 (long long)want->size);
	else if (want->repeat != have->repeat)
		snprintf(why, len, "it ran each scenario %d times, not %d", have->repeat,
			 want->repeat);
	else if (want->features_on != have->features_on)
		snprintf(why, len, "%d of its runs had a vm.readahead_* feature on", have->features_on);
	else
		return true;
	return false;
}

bool smoke_baseline_fresh(const char *path, const struct smoke_key *want, char *why,
			  size_t len)
{
	struct smoke_run *run = malloc(sizeof(*run));
	struct smoke_key have;
	bool fresh = false;
	int err;

	if (!run) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return false;
	}
	err = smoke_load(path, run);
	if (err == -ENOENT)
		snprintf(why, len, "there is none");
	else if (err)
		snprintf(why, len, "%s: %s", path, strerror(-err));
	if (!err) {
		smoke_key_of_run(run, &have);
		fresh = smoke_key_match(want, &have, why, len);
	}
	free(run);
	return fresh;
}

void smoke_key_hash(const struct smoke_key *k, char out[17])
{
	char text[sizeof(*k) + 64], hex[SHA256_HEX_LEN];
	struct sha256 h;
	int n = snprintf(text, sizeof(text), "%s\n%s\n%s\n%lld\n%d\n", k->release, k->scenarios,
			 k->file, (long long)k->size, k->repeat);

	if (n < 0 || sha256_init(&h) || sha256_update(&h, text, (size_t)n) ||
	    sha256_final_hex(&h, hex)) {
		snprintf(out, 17, "%s", "-");
		return;
	}
	snprintf(out, 17, "%.16s", hex);
}
