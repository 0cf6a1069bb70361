// SPDX-License-Identifier: GPL-2.0
#include "canary/seqrule.h"
#include "bench/stats.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
		return "PASS";
	case VERDICT_REGRESS:
		return "REGRESS";
	case VERDICT_UNKNOWN:
		return "UNKNOWN";
	default:
		return "CONTINUE";
	}
}

const char *effect_name(enum effect e)
{
	switch (e) {
	case EFFECT_WITHIN:
		return "within";
	case EFFECT_NOT_WORSE:
		return "not worse";
	case EFFECT_BETTER:
		return "better";
	default:
		return "none";
	}
}

const struct seqrule_look *seqrule_look_at(const struct seqrule_plan *p, unsigned int n)
{
	for (unsigned int k = 0; k < p->nlooks; k++)
		if (p->look[k].n == n)
			return &p->look[k];
	return NULL;
}

bool seqrule_is_look(const struct seqrule_plan *p, unsigned int n)
{
	return seqrule_look_at(p, n) != NULL;
}

/* A candidate look: pairs_min, every pairs_step after it, the cap. */
static bool candidate(const struct seqrule_plan *p, unsigned int n)
{
	if (n == p->pairs_max)
		return true;
	return n >= p->pairs_min && n < p->pairs_max &&
	       (n - p->pairs_min) % p->pairs_step == 0;
}

int seqrule_plan(struct seqrule_plan *p, const char **why)
{
	double spent[SEQ_NR] = { 0, 0 };
	const char *dummy;

	if (!why)
		why = &dummy;
	*why = NULL;
	if (!p->rho)
		p->rho = SEQRULE_DEFAULT_RHO;
	if (p->pairs_step < 1 || p->pairs_min < 1) {
		*why = "pairs per block and the first look must be at least 1";
		return -EINVAL;
	}
	if (p->pairs_max < p->pairs_min || p->pairs_max > SIGNRANK_MAX_N) {
		*why = "the cap must lie between the first look and 60 pairs";
		return -EINVAL;
	}
	if (!p->metrics) {
		*why = "no metric to judge";
		return -EINVAL;
	}
	if (!(p->alpha > 0 && p->alpha < 0.5)) {
		*why = "alpha must lie in (0, 0.5)";
		return -EINVAL;
	}
	if (!(p->rho >= 0.5 && p->rho <= 10)) {
		*why = "the spending exponent must lie in [0.5, 10]";
		return -EINVAL;
	}
	p->nlooks = 0;
	p->first_deciding = 0;
	for (unsigned int n = p->pairs_min; n <= p->pairs_max; n++) {
		double budget = p->alpha * pow((double)n / p->pairs_max, p->rho);
		struct seqrule_look l = { .n = n };
		bool any = false;

		if (!candidate(p, n))
			continue;
		for (int dir = 0; dir < SEQ_NR; dir++) {
			/* REGRESS: any metric; PASS: every metric */
			double split = dir == SEQ_REGRESS ? p->metrics : 1;
			double left = (budget - spent[dir]) / split;

			l.crit[dir] = left > 0 ? signrank_lower(n, fmin(left, 0.5),
								&l.level[dir]) : -1;
			if (l.crit[dir] < -1)
				return l.crit[dir];
			if (l.crit[dir] >= 0) {
				spent[dir] += l.level[dir] * split;
				any = true;
			} else {
				l.level[dir] = 0;
			}
			l.spent[dir] = spent[dir];
		}
		if (!any)
			continue;	/* no test here: not a look */
		if (!p->nlooks)
			p->first_deciding = n;
		p->look[p->nlooks++] = l;
	}
	if (!p->nlooks || p->look[p->nlooks - 1].n != p->pairs_max) {
		*why = "the cap has too few pairs for a test at this alpha: raise it";
		return -EINVAL;
	}
	return 0;
}

/*
 * Of the n(n+1)/2 Walsh averages (e_i + e_j) / 2, i <= j, of the sorted
 * @e: how many are <= 0 (@strict false) or < 0 (true), in O(n) with two
 * pointers.  The Walsh average of rank c + 1 lies above 0 exactly when at
 * most c of them are <= 0 (Tukey): a bound tested without sorting them.
 */
static size_t walsh_below(const double *e, size_t n, bool strict)
{
	ptrdiff_t j = (ptrdiff_t)n - 1;
	size_t cnt = 0;

	for (size_t i = 0; i < n; i++) {
		while (j >= 0 && (strict ? e[i] + e[j] >= 0 : e[i] + e[j] > 0))
			j--;
		if (j < (ptrdiff_t)i)
			break;
		cnt += (size_t)j - i + 1;
	}
	return cnt;
}

int seqrule_decide(const struct seqrule_plan *p, const double *d, size_t n,
		   double delta, unsigned int *passed_at)
{
	const struct seqrule_look *l = seqrule_look_at(p, (unsigned int)n);
	double e[SIGNRANK_MAX_N], bound;
	size_t le, ge;

	if (!l || !(delta > 0) || !isfinite(delta))
		return -EINVAL;
	bound = log1p(delta);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			return -EINVAL;
		e[i] = d[i] - bound;
	}
	sort_doubles(e, n);
	le = walsh_below(e, n, false);
	ge = n * (n + 1) / 2 - walsh_below(e, n, true);
	/* REGRESS: the lower bound (rank c + 1) above b */
	if (l->crit[SEQ_REGRESS] >= 0 && le <= (size_t)l->crit[SEQ_REGRESS])
		return VERDICT_REGRESS;
	if (*passed_at)
		return VERDICT_PASS;
	/* PASS: the upper bound (rank M - c) below b */
	if (l->crit[SEQ_PASS] >= 0 && ge <= (size_t)l->crit[SEQ_PASS]) {
		*passed_at = (unsigned int)n;
		return VERDICT_PASS;
	}
	return n >= p->pairs_max ? VERDICT_UNKNOWN : VERDICT_CONTINUE;
}

int seqrule_judge(const struct seqrule_plan *p, const double *d, size_t n,
		  double delta, struct metric_verdict *out)
{
	const struct seqrule_look *l = seqrule_look_at(p, (unsigned int)n);
	unsigned int passed_at = out->passed_at;
	double bound;
	int v, err;

	v = seqrule_decide(p, d, n, delta, &passed_at);
	if (v < 0)
		return v;
	err = hl_bounds(d, n, l->crit[SEQ_REGRESS], l->crit[SEQ_PASS], &out->hl);
	if (err)
		return err;
	bound = log1p(delta);
	if (v == VERDICT_PASS && passed_at == n) /* passed now: say how */
		out->effect = out->hl.hi < -bound ? EFFECT_BETTER :
			      out->hl.lo_valid && out->hl.lo > -bound ? EFFECT_WITHIN :
			      EFFECT_NOT_WORSE;
	else if (v != VERDICT_PASS)
		out->effect = EFFECT_NONE;
	out->verdict = v;
	out->passed_at = v == VERDICT_PASS ? passed_at : 0;
	return 0;
}

enum verdict seqrule_combine(const struct seqrule_plan *p,
			     const struct metric_verdict *v, size_t nv,
			     unsigned int n)
{
	size_t pass = 0;

	for (size_t i = 0; i < nv; i++) {
		if (v[i].verdict == VERDICT_REGRESS)
			return VERDICT_REGRESS;
		pass += v[i].verdict == VERDICT_PASS;
	}
	if (nv && pass == nv)
		return VERDICT_PASS;
	return n >= p->pairs_max ? VERDICT_UNKNOWN : VERDICT_CONTINUE;
}

bool seqrule_same_direction(const struct metric_verdict *v)
{
	return v->hl.lo_valid && v->hl.lo > 0;
}
