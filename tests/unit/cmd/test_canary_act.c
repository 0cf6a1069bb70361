// SPDX-License-Identifier: GPL-2.0
/*
 * canary --act writes the drop-in: how `rafleet canary` ends
 * (canary_decide(), canary_act()), on a fake host (its root, /proc/sys
 * and state directory), with verdicts held up to it instead of measured.
 *
 * A corroborated REGRESS decides "turn-off"; acted on, the feature is
 * off now (its sysctl 0) and at boot (its own drop-in says
 * vm.FEATURE = 0, who wrote it and why), the decision is recorded with
 * the report as its evidence, and the history has the feature-off.
 * A REGRESS that is not corroborated, an A/A trial's REGRESS, a PASS and
 * an UNKNOWN decide otherwise; acted on, they leave the sysctl as it
 * was and write no drop-in: a history entry only.
 *
 * The end to end runs that also see the drop-in (a measured canary, a
 * guest, a booted host, the fleet) are tests/host/test_canary_cli,
 * tests/vm/guest/test_canary.c, tests/host/rollout/rafleet-rollout-step
 * and tests/host/test_fleet.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/scenario.h"
#include "cmd/canary.h"
#include "fakehost.h"
#include "host/feature.h"
#include "tap.h"

#define FEATURE "readahead_async_keep_half"
#define EVIDENCE "/var/lib/rafleet/canary/" FEATURE "-20261201T090000Z.json"

static char tmp[] = "/tmp/rafleet-canary-act-XXXXXX";
static char root[PATH_MAX], procsys[PATH_MAX], statedir[PATH_MAX];
static char dropin[PATH_MAX + 80];

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[f ? fread(buf, 1, len - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
}

/* A host with the feature on, no state, no drop-in. */
static void reset(void)
{
	fakefs_rm_tree(root);
	fakefs_rm_tree(procsys);
	fakefs_rm_tree(statedir);
	fakefs_mkdir_p(root);
	fakefs_mkdir_p(statedir);
	if (fakefs_put(procsys, "vm/" FEATURE, "1\n") ||
	    fakefs_put(procsys, "kernel/random/boot_id", "boot-1\n"))
		diag("cannot make the fake /proc/sys");
}

static const char *live(void)
{
	static char buf[16];
	char path[sizeof(procsys) + 64];

	snprintf(path, sizeof(path), "%s/vm/" FEATURE, procsys);
	slurp(path, buf, sizeof(buf));
	return buf;
}

/* A canary of FEATURE that ended in @v after 12 pairs, on seq-read. */
static void verdict(struct canary_opts *o, struct canary_result *r, enum verdict v,
		    bool corroborated, bool aa)
{
	memset(o, 0, sizeof(*o));
	memset(r, 0, sizeof(*r));
	o->feature = feature_find(FEATURE);
	o->workload[0] = scenario_find("seq-read");
	o->nr_workloads = 1;
	o->aa = aa;
	r->verdict = v;
	r->pairs = 12;
	r->was = 1;
	r->corroborated = corroborated;
	snprintf(r->corroboration, sizeof(r->corroboration), "%s",
		 corroborated ? "read-4k-then-512k's wall time" : "nothing agreed");
	r->s[0][CM_WALL].available = true;
	r->s[0][CM_WALL].v.verdict = v;
}

/* canary_decide() then canary_act() on a fresh host; the decision in @d */
static int decide_and_act(enum verdict v, bool corroborated, bool aa,
			  struct canary_decision *d, const struct state **st,
			  struct rollout **ro)
{
	struct canary_opts o;
	struct canary_result *r = calloc(1, sizeof(*r));
	int err;

	reset();
	memset(d, 0, sizeof(*d));
	if (!r)
		return -ENOMEM;
	verdict(&o, r, v, corroborated, aa);
	canary_decide(&o, r, d);
	err = rollout_open(ro, "canary");
	if (!err) {
		err = canary_act(*ro, &o, r, d, EVIDENCE);
		*st = rollout_state(*ro);
	}
	free(r);
	return err;
}

static void test_regress_turns_off(void)
{
	struct canary_decision d;
	const struct state *s = NULL;
	struct rollout *ro = NULL;
	char text[4096];
	int err = decide_and_act(VERDICT_REGRESS, true, false, &d, &s, &ro);

	is_str(d.action, "turn-off", "canary --act, a corroborated REGRESS: the decision is turn-off");
	is_i64(err, 0, "  acted on without an error");
	ok(d.acted, "  the decision says it was done (acted)");
	is_str(live(), "0\n", "  vm." FEATURE " is 0 now");
	slurp(dropin, text, sizeof(text));
	ok(strstr(text, "\nvm." FEATURE " = 0\n") != NULL,
	   "  its own drop-in (60-rafleet-" FEATURE ".conf) sets it to 0 at boot");
	ok(strstr(text, "# Written by rafleet canary (pid ") &&
	   strstr(text, "# Why: canary REGRESS after 12 pairs: costs more than delta"),
	   "  the drop-in says who wrote it and why");
	ok(s && s->nr_decisions == 1 && !strcmp(s->decisions[0].feature, FEATURE) &&
	   s->decisions[0].value == 0 && s->decisions[0].evidence &&
	   !strcmp(s->decisions[0].evidence, EVIDENCE),
	   "  the decision is recorded, the report as its evidence");
	ok(s && s->nr_history == 1 && !strcmp(s->history[0].action, "feature-off") &&
	   !s->pending.action, "  a feature-off history entry, nothing left pending");
	if (ro)
		rollout_close(ro);
}

static void test_no_turn_off(const char *what, enum verdict v, bool corroborated, bool aa,
			     const char *action)
{
	struct canary_decision d;
	const struct state *s = NULL;
	struct rollout *ro = NULL;
	int err = decide_and_act(v, corroborated, aa, &d, &s, &ro);

	ok(!strcmp(d.action, action) && !err && !d.acted,
	   "canary --act, %s: '%s', nothing done (decision '%s', %d)", what, action, d.action, err);
	ok(!strcmp(live(), "1\n") && access(dropin, F_OK) != 0,
	   "  vm." FEATURE " still 1, no drop-in");
	ok(s && s->nr_decisions == 0 && s->nr_history == 1 &&
	   !strcmp(s->history[0].action, "canary") && strstr(s->history[0].detail, EVIDENCE),
	   "  a canary history entry only, naming the report");
	if (ro)
		rollout_close(ro);
}

int main(void)
{
	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	if (fakehost_init(tmp, root, procsys, statedir))
		diag("cannot make the fake host in %s", tmp);
	snprintf(dropin, sizeof(dropin), "%s/etc/sysctl.d/60-rafleet-" FEATURE ".conf", root);
	/* the journal's lines on stderr are not TAP */
	if (!freopen("/dev/null", "w", stderr))
		diag("stderr stays");

	test_regress_turns_off();
	test_no_turn_off("a REGRESS not corroborated", VERDICT_REGRESS, false, false, "none");
	test_no_turn_off("an A/A trial's REGRESS", VERDICT_REGRESS, true, true, "none");
	test_no_turn_off("a PASS", VERDICT_PASS, false, false, "keep");
	test_no_turn_off("an UNKNOWN", VERDICT_UNKNOWN, false, false, "none");
	fakefs_rm_tree(tmp);
	return tap_done();
}
