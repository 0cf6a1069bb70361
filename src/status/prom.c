// SPDX-License-Identifier: GPL-2.0
/* The status as Prometheus metrics (node_exporter's textfile collector). */
#include "status/prom.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/atomicfile.h"
#include "lib/version.h"
#include "lib/fmtdouble.h"
#include "lib/rfc3339.h"
#include "lib/utf8.h"

struct label {
	const char *name, *value;
};

/* The family being written: its header goes out with its first sample. */
struct prom {
	FILE *f;
	const char *name, *help;
	bool header;
};

static void family(struct prom *p, const char *name, const char *help)
{
	p->name = name;
	p->help = help;
	p->header = false;
}

/* A label value: \\, \" and \n escaped, a byte that is not UTF-8 as U+FFFD. */
static void label_value(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t left = strlen(v);

	while (*s) {
		size_t n = utf8_len(s, left);

		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (!n)
			fputs("\xef\xbf\xbd", f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
		left -= n ? n : 1;
	}
}

static void sample(struct prom *p, const struct label *l, int nr, const char *value)
{
	if (!p->header) {
		fprintf(p->f, "# HELP %s %s\n# TYPE %s gauge\n", p->name, p->help, p->name);
		p->header = true;
	}
	fputs(p->name, p->f);
	for (int i = 0; i < nr; i++) {
		fprintf(p->f, "%c%s=\"", i ? ',' : '{', l[i].name);
		label_value(p->f, l[i].value);
		fputc('"', p->f);
	}
	fprintf(p->f, "%s %s\n", nr ? "}" : "", value);
}

static void sample_int(struct prom *p, const struct label *l, int nr, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	sample(p, l, nr, buf);
}

/* The fewest digits that read back as @v; no sample for NaN (a null). */
static void sample_double(struct prom *p, const struct label *l, int nr, double v)
{
	char buf[FMT_DOUBLE_LEN];

	if (!isfinite(v))
		return;
	fmt_double(buf, sizeof(buf), v);
	sample(p, l, nr, buf);
}

/* A boot value that is a number, as systemd-sysctl would write it. */
static bool boot_number(const char *v, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(v, &end, 10);
	return *v && !*end && !errno;
}

static void kernel_metrics(struct prom *p, const struct status *st)
{
	family(p, "rafleet_info", "rafleet's version and the running kernel (uname -r); always 1.");
	sample_int(p, (struct label[]){ { "version", RAFLEET_VERSION },
					{ "kernel", st->release } }, 2, 1);
	family(p, "rafleet_kernel_features_present",
	       "How many of the vm.readahead_* sysctls the running kernel has.");
	sample_int(p, NULL, 0, st->nr_present);
	family(p, "rafleet_kernel_features_known",
	       "How many features this rafleet knows: all of them make a rafleet kernel.");
	sample_int(p, NULL, 0, nr_features);
}

static void feature_metrics(struct prom *p, const struct status *st)
{
	long long v;

	family(p, "rafleet_feature_enabled",
	       "The live value of the feature's vm.readahead_* sysctl (no sample: the kernel has none, or it holds something else).");
	for (int i = 0; i < nr_features; i++)
		if (st->feat[i].live >= 0)
			sample_int(p, (struct label[]){ { "feature", st->feat[i].f->name } }, 1,
				   st->feat[i].live);
	family(p, "rafleet_feature_boot_value",
	       "The value systemd-sysctl sets at boot, and the sysctl.d file that sets it (no sample: no file does, the kernel's default applies).");
	for (int i = 0; i < nr_features; i++) {
		const struct sysctld_setting *b = st->feat[i].boot;

		if (b && boot_number(b->value, &v))
			sample_int(p, (struct label[]){ { "feature", st->feat[i].f->name },
							{ "source", b->file } }, 2, v);
	}
}

/*
 * Whether decision @i is the first for its feature: a second sample with
 * the same labels would make the collector drop the whole file (and the
 * rollout reads the first one).
 */
static bool first_decision(const struct state *s, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(s->decisions[k].feature, s->decisions[i].feature))
			return false;
	return true;
}

/* NAME_pass and NAME_timestamp_seconds of a trial's verdict, if it has one */
static void verdict_samples(struct prom *p, const char *name, const struct state_verdict *v,
			    const char *help_pass, const char *help_time)
{
	char fam[96];
	long long t;

	if (!v->verdict)
		return;
	snprintf(fam, sizeof(fam), "%s_pass", name);
	family(p, fam, help_pass);
	sample_int(p, NULL, 0, !strcmp(v->verdict, "pass"));
	snprintf(fam, sizeof(fam), "%s_timestamp_seconds", name);
	family(p, fam, help_time);
	if (rfc3339_parse(v->time, &t))
		sample_int(p, NULL, 0, t);
}

static void rollout_metrics(struct prom *p, const struct status *st)
{
	const struct state *s = &st->rollout.st;
	long long t;

	family(p, "rafleet_rollout_state_ok",
	       "1 if the rollout state file can be used (or there is none yet); 0: it cannot, and no rollout, decision or smoke samples follow.");
	sample_int(p, NULL, 0, !st->rollout.err);
	if (st->rollout.err)
		return;
	family(p, "rafleet_rollout_phase",
	       "The kernel rollout's phase, a state set: 1 for the current phase, 0 for the others.");
	for (int ph = PHASE_IDLE; ph <= PHASE_ROLLED_BACK; ph++)
		sample_int(p, (struct label[]){ { "phase", state_phase_name(ph) } }, 1,
			   s->phase == (enum rollout_phase)ph);
	family(p, "rafleet_rollout_pending",
	       "1 if an action was interrupted (a crash): the next rafleet invocation finishes it.");
	sample_int(p, NULL, 0, s->pending.action != NULL);
	{
		const struct state_event *last = NULL;

		for (size_t i = 0; i < s->nr_history; i++)
			if (!strcmp(s->history[i].action, "trial-unjudged"))
				last = &s->history[i];
		family(p, "rafleet_rollout_trial_unjudged_timestamp_seconds",
		       "When a trial boot last ended without a verdict (it panicked, hung, was reset or reached its deadline), seconds since the epoch (no sample: none in the history).");
		if (last && rfc3339_parse(last->time, &t))
			sample_int(p, (struct label[]){ { "kernel", last->kernel ? last->kernel : "" } }, 1, t);
	}
	family(p, "rafleet_feature_decision",
	       "1 for each feature a persisted decision (a canary's, a rollback's) sets at boot, to the value of its label value.");
	for (size_t i = 0; i < s->nr_decisions; i++)
		if (first_decision(s, i))
			sample_int(p, (struct label[]){ { "feature", s->decisions[i].feature },
							{ "value", s->decisions[i].value ? "1" : "0" } },
				   2, 1);
	family(p, "rafleet_feature_decision_timestamp_seconds",
	       "When the feature's decision was made, seconds since the epoch.");
	for (size_t i = 0; i < s->nr_decisions; i++)
		if (first_decision(s, i) && rfc3339_parse(s->decisions[i].time, &t))
			sample_int(p, (struct label[]){ { "feature", s->decisions[i].feature } }, 1, t);
	verdict_samples(p, "rafleet_smoke", &s->smoke,
			"1 if the last smoke test of a trial kernel passed, 0 if it failed (no sample: none ran yet).",
			"When the last smoke test ran, seconds since the epoch.");
	verdict_samples(p, "rafleet_health", &s->health,
			"1 if the last health gate of a trial kernel passed (every required check), 0 if it failed (no sample: none ran yet).",
			"When the last health gate ran, seconds since the epoch.");
}

static const char *const verdicts[] = { "PASS", "REGRESS", "UNKNOWN" };

static double change_of(const struct status_canary_workload *w, size_t m)
{
	const double v[] = { w->estimate, w->lo, w->hi, w->delta };

	return v[m];
}

static void canaries_metrics(struct prom *p, const struct status *st)
{
	/* in the order of change_of() */
	static const char *const changes[][2] = {
		{ "rafleet_canary_change_ratio",
		  "The change of the workload's wall time with the feature on, in the latest canary (Hodges-Lehmann estimate): 0.05 is 5 % slower." },
		{ "rafleet_canary_change_lo", "The lower end of its interval." },
		{ "rafleet_canary_change_hi", "The upper end of its interval." },
		{ "rafleet_canary_delta", "The loss of wall time the latest canary allowed." },
	};
	const struct status_canary *c;

	family(p, "rafleet_canary_verdict",
	       "The latest canary's verdict on the feature, a state set: 1 for its verdict, 0 for the others.");
	for (c = st->canary; c < st->canary + st->nr_canary; c++)
		for (size_t v = 0; v < sizeof(verdicts) / sizeof(verdicts[0]); v++)
			sample_int(p, (struct label[]){ { "feature", c->f->name },
							{ "verdict", verdicts[v] } }, 2,
				   !strcmp(c->verdict, verdicts[v]));
	family(p, "rafleet_canary_aa", "1 if the latest canary was an A/A trial (its verdict is not about the feature).");
	for (c = st->canary; c < st->canary + st->nr_canary; c++)
		sample_int(p, (struct label[]){ { "feature", c->f->name } }, 1, c->aa);
	family(p, "rafleet_canary_decision",
	       "What the latest canary decided: 1, the action (keep, turn-off, none) a label.");
	for (c = st->canary; c < st->canary + st->nr_canary; c++)
		sample_int(p, (struct label[]){ { "feature", c->f->name },
						{ "action", c->action } }, 2, 1);
	family(p, "rafleet_canary_acted", "1 if the latest canary's decision was carried out (--act).");
	for (c = st->canary; c < st->canary + st->nr_canary; c++)
		sample_int(p, (struct label[]){ { "feature", c->f->name } }, 1, c->acted);
	family(p, "rafleet_canary_pairs", "The pairs of runs the latest canary measured.");
	for (c = st->canary; c < st->canary + st->nr_canary; c++)
		sample_int(p, (struct label[]){ { "feature", c->f->name } }, 1, c->pairs);
	family(p, "rafleet_canary_timestamp_seconds",
	       "When the latest canary's report was written, seconds since the epoch.");
	for (c = st->canary; c < st->canary + st->nr_canary; c++)
		sample_int(p, (struct label[]){ { "feature", c->f->name } }, 1, (long long)c->when);
	for (size_t m = 0; m < sizeof(changes) / sizeof(changes[0]); m++) {
		family(p, changes[m][0], changes[m][1]);
		for (c = st->canary; c < st->canary + st->nr_canary; c++)
			for (int w = 0; w < c->nr_workloads; w++)
				sample_double(p, (struct label[]){ { "feature", c->f->name },
								   { "scenario", c->w[w].scenario } },
					      2, change_of(&c->w[w], m));
	}
}

int status_prometheus(FILE *f, const struct status *st)
{
	struct prom p = { .f = f };

	kernel_metrics(&p, st);
	feature_metrics(&p, st);
	rollout_metrics(&p, st);
	canaries_metrics(&p, st);
	family(&p, "rafleet_status_warnings",
	       "Problems rafleet status went on past: 'rafleet status' lists them.");
	sample_int(&p, NULL, 0, (long long)(st->warn.nr + st->warn.lost));
	return fflush(f) || ferror(f) ? -EIO : 0;
}

bool status_prom_path_ok(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	return n > strlen(STATUS_PROM_SUFFIX) &&
	       !strcmp(base + n - strlen(STATUS_PROM_SUFFIX), STATUS_PROM_SUFFIX);
}

static int prom_fill(FILE *f, const void *arg)
{
	return status_prometheus(f, arg);
}

int status_prometheus_file(const char *path, const struct status *st)
{
	return atomic_write_stream(path, 0644, prom_fill, st);
}
