// SPDX-License-Identifier: GPL-2.0
#include "canary/seqrule.h"

#include <errno.h>
#include <math.h>

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

bool seqrule_is_look(const struct seqrule_plan *p, unsigned int n)
{
	if (n == p->pairs_max)
		return true;
	return n >= p->pairs_min && n < p->pairs_max &&
	       (n - p->pairs_min) % p->pairs_step == 0;
}

/* Looks at which an exact interval of level 1 - a exists. */
static unsigned int deciding_looks(const struct seqrule_plan *p, double a,
				   unsigned int *first)
{
	unsigned int cnt = 0;

	*first = 0;
	for (unsigned int n = p->pairs_min; n <= p->pairs_max; n++) {
		if (!seqrule_is_look(p, n) || signrank_critical(n, a) < 0)
			continue;
		if (!cnt)
			*first = n;
		cnt++;
	}
	return cnt;
}

int seqrule_plan(struct seqrule_plan *p, const char **why)
{
	unsigned int total = 0, first;
	const char *dummy;

	if (!why)
		why = &dummy;
	*why = NULL;
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
	for (unsigned int n = p->pairs_min; n <= p->pairs_max; n++)
		total += seqrule_is_look(p, n);
	/*
	 * The smallest L whose level alpha / (metrics L) leaves at most L
	 * deciding looks: Bonferroni over what is really tested.
	 */
	for (unsigned int l = 1; l <= total; l++) {
		double a = p->alpha / ((double)p->metrics * l);
		unsigned int cnt = deciding_looks(p, a, &first);

		if (cnt <= l) {
			p->alpha_look = a;
			p->looks = cnt;
			p->first_deciding = first;
			if (!cnt) {
				*why = "no look has enough pairs for an interval at this level: raise the cap";
				return -EINVAL;
			}
			return 0;
		}
	}
	*why = "no consistent level";	/* cannot happen: l = total fits */
	return -EINVAL;
}

int seqrule_judge(const struct seqrule_plan *p, const double *d, size_t n,
		  double delta, struct metric_verdict *out)
{
	double bound;
	int err;

	if (!(delta > 0) || !isfinite(delta))
		return -EINVAL;
	err = hodges_lehmann(d, n, p->alpha_look, &out->hl);
	if (err)
		return err;
	bound = log1p(delta);
	out->verdict = VERDICT_CONTINUE;
	out->effect = EFFECT_NONE;
	if (out->hl.ci_valid && out->hl.lo > bound) {
		out->verdict = VERDICT_REGRESS;
	} else if (out->hl.ci_valid && out->hl.hi < bound) {
		out->verdict = VERDICT_PASS;
		out->effect = out->hl.hi < -bound ? EFFECT_BETTER :
			      out->hl.lo > -bound ? EFFECT_WITHIN : EFFECT_NOT_WORSE;
	}
	if (out->verdict == VERDICT_CONTINUE && n >= p->pairs_max)
		out->verdict = VERDICT_UNKNOWN;
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
	return v->hl.ci_valid && v->hl.lo > 0;
}
