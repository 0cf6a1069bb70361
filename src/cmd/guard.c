// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet guard: count what the host does, window by window, learn a
 * baseline for this kernel and feature set, and when a metric leaves its
 * band the same way in two windows in a row (an alarm), ask the canary of
 * each feature that could explain it.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "host/blockdev.h"
#include "commands.h"
#include "host/feature.h"
#include "guard/args.h"
#include "guard/band.h"
#include "guard/baseline.h"
#include "guard/run_canary.h"
#include "guard/report.h"
#include "rollout/core.h"
#include "lib/statedir.h"
#include "lib/strbuf.h"
#include "host/syscount.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	/* whole microseconds, as the kernel counts them */
	return ((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* The mask of features on now; @state gets each one's state. */
static unsigned int features_on(int *state)
{
	unsigned int mask = 0;

	for (int i = 0; i < nr_features; i++) {
		int s = feature_get(&features[i]);

		if (state)
			state[i] = s;
		if (s == 1)
			mask |= 1u << i;
	}
	return mask;
}

struct guard {
	struct guard_args a;
	struct utsname u;
	struct syscount *sc;
	struct baseline *b;
	char devices[GUARD_DEVICES_LEN];
	char path[PATH_MAX];
	const char *state;		/* of the baseline, for the header */
	unsigned int mask;		/* the baseline's */
	struct guard_streak streak;	/* out-of-band runs, this run */
	struct guard_summary sum;
	int errors;
};

/*
 * The baseline of the features on now (@mask): loaded, or empty when
 * there is none or --learn asks for a new one.  Exit status on error.
 */
static int baseline_open(struct guard *g, unsigned int mask, bool fresh)
{
	char name[160], why[160] = "";
	int err;

	g->mask = mask;
	guard_streak_reset(&g->streak);	/* another baseline: start again */
	err = guard_baseline_name(g->u.release, mask, name, sizeof(name));
	if (!err)
		err = statedir_path(name, g->path, sizeof(g->path));
	if (err) {
		fprintf(stderr, "rafleet guard: no baseline path for %s: %s\n",
			g->u.release, strerror(-err));
		return EXIT_FAILED;
	}
	guard_baseline_init(g->b, g->u.release, mask, g->devices,
		      g->a.band.learn_windows);
	if (fresh) {
		g->state = "new";
		return EXIT_OK;
	}
	err = guard_baseline_load(g->path, g->b, why, sizeof(why));
	if (err == -ENOENT) {
		guard_baseline_init(g->b, g->u.release, mask, g->devices,
			      g->a.band.learn_windows);
		g->state = "new";
		return EXIT_OK;
	}
	if (err) {
		fprintf(stderr, "rafleet guard: baseline %s: %s; remove it or learn a new one with --learn\n",
			g->path, err == -EBADMSG ? why : strerror(-err));
		return EXIT_FAILED;
	}
	if (strcmp(g->b->devices, g->devices)) {
		fprintf(stderr, "rafleet guard: baseline %s was learned on devices '%s', not '%s': name them with --device, or --learn\n",
			g->path, g->b->devices, g->devices);
		return EXIT_USAGE;
	}
	g->state = guard_baseline_complete(g->b) ? "loaded" : "learning";
	return EXIT_OK;
}

static int baseline_store(struct guard *g)
{
	int err = statedir_ensure();

	if (!err)
		err = guard_baseline_save(g->path, g->b);
	if (err)
		fprintf(stderr, "rafleet guard: cannot write %s: %s\n", g->path,
			strerror(-err));
	return err;
}

/*
 * An alarm goes into the rollout history and the journal, with what left
 * its band and what will be asked, before any canary runs
 * (each canary then records its own verdict and decision).  The guard
 * holds the lock only for that: the canaries take it themselves.
 */
static void record_out_of_band(const struct guard *g, const struct guard_result *r)
{
	char detail[1024];
	struct strbuf o;
	struct rollout *ro;

	sb_init(&o, detail, sizeof(detail));
	sb_addf(&o, "window %u alarm, out of band:", r->index);
	for (int m = 0; m < GM_NR; m++) {
		if (r->j.pos[m] != POS_LOW && r->j.pos[m] != POS_HIGH)
			continue;
		sb_addf(&o, " %s %s (%.3g, band %.3g..%.3g, %u windows in a row);",
			guard_metric_names[m], band_pos_names[r->j.pos[m]],
			r->w.m[m].v, r->j.band[m].low, r->j.band[m].high,
			r->j.run[m]);
	}
	for (int i = 0; i < nr_features; i++)
		if (r->j.alarm_candidates & (1u << i))
			sb_addf(&o, " candidate %s;", features[i].name);
	sb_addf(&o, " %s", !g->a.act ? "reported only (no --act)" :
		r->j.alarm_candidates ? "running their canaries" : "no feature that is on explains it");
	if (rollout_open(&ro, "guard"))
		return;		/* said why; the report still has it all */
	rollout_record(ro, "guard", detail);
	rollout_close(ro);
}

/*
 * On an alarm, ask the canary of every candidate of the metrics that
 * alarmed; count what failed.  A window out of band without an alarm is
 * reported only.
 */
static void act(struct guard *g, struct guard_result *r)
{
	if (r->j.verdict == BV_OUT_OF_BAND && !r->j.alarm) {
		r->not_acted = "out of band in this window only: the guard acts when a metric is out the same way "
			       GUARD_CONFIRM_STR " windows in a row";
		return;
	}
	if (!r->j.alarm)
		return;
	g->sum.alarms++;
	record_out_of_band(g, r);
	if (!g->a.act) {
		r->not_acted = "--act not given: reported only";
		return;
	}
	if (!r->j.alarm_candidates) {
		r->not_acted = "no feature that is on can explain it: a kernel-wide change, for rafleet rollback to weigh";
		return;
	}
	/* what is asked now needs GUARD_CONFIRM fresh windows to be asked again */
	guard_streak_reset(&g->streak);
	for (int i = 0; i < nr_features; i++) {
		struct guard_action *ga;

		if (!(r->j.alarm_candidates & (1u << i)))
			continue;
		ga = &r->act[r->nr_actions++];
		ga->f = &features[i];
		guard_canary_run(features[i].name, &ga->run);
		g->sum.actions++;
		if (ga->run.err || ga->run.status < 0 ||
		    ga->run.status == EXIT_FAILED ||
		    ga->run.status == EXIT_USAGE ||
		    ga->run.status > EXIT_UNKNOWN) {
			g->sum.action_errors++;
			g->errors++;
		}
	}
}

static bool all_unavailable(const struct guard_window *w)
{
	for (int m = 0; m < GM_NR; m++)
		if (w->m[m].state != MV_UNAVAILABLE)
			return false;
	return true;
}

/* Learn from or judge the window in @r. */
static void assess(struct guard *g, struct guard_result *r, unsigned int end_mask)
{
	r->learn_of = g->b->learn_windows;
	if (end_mask != r->mask) {
		guard_not_judged(&r->j, BV_UNAVAILABLE,
				 "the features changed during the window");
		r->not_acted = "the features changed during the window: not judged";
		return;
	}
	if (!guard_baseline_complete(g->b)) {
		bool added = guard_baseline_add(g->b, &r->w);

		guard_not_judged(&r->j, added ? BV_LEARNING :
				 all_unavailable(&r->w) ? BV_UNAVAILABLE : BV_IDLE,
				 "the baseline is still learning");
		if (added && baseline_store(g))
			g->errors++;
		r->learned = g->b->windows;
		return;
	}
	guard_judge(g->b, &g->a.band, &r->w, r->mask, &r->j);
}

/* Learn from or judge the window, then count it into the metrics' runs. */
static void assess_and_count(struct guard *g, struct guard_result *r,
			     unsigned int end_mask)
{
	assess(g, r, end_mask);
	guard_streak_update(&g->streak, &r->j, r->mask);
}

static bool sleep_until(uint64_t t_ns)
{
	struct timespec ts = {
		.tv_sec = t_ns / 1000000000ULL,
		.tv_nsec = t_ns % 1000000000ULL,
	};

	while (!stop) {
		int err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (!err)
			return true;
		if (err != EINTR)
			return false;
	}
	return false;
}

static int watch(struct guard *g, struct guard_report *rep)
{
	struct guard_result *r = calloc(1, sizeof(*r));
	struct sc_values t0, t1;
	double mark = cpu_ms();

	if (!r)
		return -ENOMEM;
	sc_read(g->sc, &t0);
	for (uint64_t i = 1; !g->a.windows || i <= g->a.windows; i++) {
		unsigned int mask = features_on(NULL);

		if (mask != g->mask) {	/* a canary or someone turned one off */
			int ret = baseline_open(g, mask, false);

			if (ret) {
				free(r);
				return -EINVAL;
			}
		}
		if (!sleep_until(t0.t_ns + g->a.window_s * 1000000000ULL)) {
			g->sum.interrupted = stop;
			break;
		}
		memset(r, 0, sizeof(*r));
		r->index = (unsigned int)i;
		r->mask = mask;
		sc_read(g->sc, &t1);
		sc_delta(&t0, &t1, &r->d);
		guard_window_compute(&r->d, &g->a.min, &r->w);
		assess_and_count(g, r, features_on(NULL));
		/* printing and asking the canary count in the next window */
		r->cpu_ms = cpu_ms() - mark;
		mark += r->cpu_ms;
		r->cpu_pct = 100.0 * r->cpu_ms / 1e3 / r->w.seconds;
		act(g, r);
		guard_report_window(rep, r);

		g->sum.windows++;
		g->sum.verdicts[r->j.verdict]++;
		g->sum.cpu_ms += r->cpu_ms;
		g->sum.seconds += r->w.seconds;
		if (r->cpu_pct > g->sum.max_cpu_pct)
			g->sum.max_cpu_pct = r->cpu_pct;
		t0 = t1;
		if (r->nr_actions)	/* the canary's own reads are not the host's */
			sc_read(g->sc, &t0);
		for (int k = 0; k < r->nr_actions; k++)
			guard_canary_free(&r->act[k].run);
	}
	free(r);
	return 0;
}

static void devices_string(const struct syscount *sc, char *out, size_t len)
{
	size_t at = 0;

	out[0] = '\0';
	for (int i = 0; i < sc->nr_dev && at < len; i++)
		at += snprintf(out + at, len - at, "%s%s", i ? "," : "",
			       sc->dev[i]);
}

static bool nothing_counts(const struct sc_values *a)
{
	return !a->majflt_ok.ok && !a->folio_ok.ok && !a->ra_ok.ok &&
	       !a->disk_ok.ok;
}

static int guard_exit(const struct guard *g)
{
	if (g->errors)
		return EXIT_FAILED;
	return g->sum.alarms ? EXIT_OUT_OF_BAND : EXIT_OK;
}

/* Counters open, baseline loaded: measure, report, say how it went. */
static int run(struct guard *g)
{
	struct guard_header h = { .args = &g->a, .sc = g->sc };
	const char *sysfs = blockdev_sysfs_root();
	struct guard_report rep;
	double t0 = cpu_ms();
	int ret;

	for (int i = 0; i < g->a.nr_dev; i++)
		if (!sc_device_exists(sysfs, g->a.dev[i])) {
			fprintf(stderr, "rafleet guard: no block device '%s' under %s/block\n",
				g->a.dev[i], sysfs);
			return EXIT_USAGE;
		}
	sc_open(g->sc, g->a.nr_dev ? g->a.dev : NULL, g->a.nr_dev);
	if (nothing_counts(&g->sc->avail)) {
		fprintf(stderr, "rafleet guard: nothing can be counted here: %s; %s\n",
			g->sc->avail.majflt_ok.why, g->sc->avail.folio_ok.why);
		return EXIT_FAILED;
	}
	devices_string(g->sc, g->devices, sizeof(g->devices));
	h.mask = features_on(h.feature_state);
	ret = baseline_open(g, h.mask, g->a.learn);
	if (ret)
		return ret;
	if (g->a.learn)
		g->state = "relearn";

	h.release = g->u.release;
	h.baseline_path = g->path;
	h.baseline_state = g->state;
	h.baseline_windows = g->b->windows;
	h.baseline_learn = g->b->learn_windows;
	h.setup_cpu_ms = cpu_ms() - t0;
	guard_streak_reset(&g->streak);
	catch_signals();
	guard_report_begin(&rep, stdout, g->a.json, &h);
	if (watch(g, &rep))
		g->errors++;
	g->sum.exit_status = guard_exit(g);
	guard_report_end(&rep, &g->sum);
	if (guard_report_error(&rep)) {
		fprintf(stderr, "rafleet guard: cannot write the report\n");
		return EXIT_FAILED;
	}
	return g->sum.exit_status;
}

int cmd_guard(int argc, char **argv)
{
	struct guard *g = calloc(1, sizeof(*g));
	int ret = EXIT_FAILED;

	if (!g)
		goto oom;
	if (guard_parse_args(argc, argv, &g->a)) {
		fprintf(stderr, "rafleet guard: %s\n", g->a.error);
		free(g);
		return EXIT_USAGE;
	}
	if (g->a.help) {
		guard_usage(stdout);
		free(g);
		return EXIT_OK;
	}
	g->sc = calloc(1, sizeof(*g->sc));
	g->b = calloc(1, sizeof(*g->b));
	if (!g->sc || !g->b)
		goto oom;
	uname(&g->u);
	ret = run(g);
	sc_close(g->sc);
	free(g->sc);
	free(g->b);
	free(g);
	return ret;
oom:
	fprintf(stderr, "rafleet guard: out of memory\n");
	if (g) {
		free(g->sc);
		free(g->b);
	}
	free(g);
	return EXIT_FAILED;
}
