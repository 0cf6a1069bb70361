// SPDX-License-Identifier: GPL-2.0
/*
 * state: a missing file is a fresh idle state; a full state survives a
 * save and a load field by field; a file that is not rafleet-state/1 is
 * refused with the reason (and loading never writes); the history keeps
 * the newest STATE_HISTORY_MAX entries; decisions are replaced, not
 * doubled; a pending intent can be rebuilt from its own arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fakefs.h"
#include "rollout/state.h"
#include "tap.h"

static char dir[] = "/tmp/rafleet-state-XXXXXX";
static char path[sizeof(dir) + 16];

static void test_missing(void)
{
	struct state s;
	char why[256];

	is_i64(state_load(&s, path, why, sizeof(why)), 0, "a missing file loads (0)");
	ok(s.phase == PHASE_IDLE && !s.previous.release && !s.trial.release &&
	   !s.nr_history && !s.nr_decisions && !s.pending.action && !s.smoke.verdict,
	   "  as a fresh idle state");
	state_free(&s);
}

static void fill(struct state *s)
{
	const char *args[] = { "readahead_async_keep_half", "operator", "" };

	state_init(s);
	s->phase = PHASE_TRIAL;
	state_set(&s->previous.release, "6.1.0");
	state_set(&s->previous.image, "/boot/vmlinuz-6.1.0");
	state_set(&s->previous.cmdline, "root=/dev/vda1 ro");
	state_set(&s->trial.release, "7.3.4-1.rafleet+virt");
	state_set(&s->trial.image, "/boot/vmlinuz-7.3.4-1.rafleet+virt");
	state_set(&s->trial.initrd, "/boot/initrd.img-7.3.4-1.rafleet+virt");
	state_set(&s->trial.cmdline, "root=/dev/vda1 ro rafleet.trial=abc");
	state_set(&s->trial.token, "abc");
	state_set(&s->trial.staged_boot_id, "b1");
	state_set(&s->baseline, "/var/lib/rafleet/baseline-6.1.0.json");
	state_verdict_set(&s->smoke, "pass", "fine \"quoted\"\n and a newline");
	state_verdict_set(&s->health, "fail", "10-network: no default route");
	state_decide(s, "readahead_async_keep_half", 0, "canary: 12 % slower", "/x.json");
	state_decide(s, "readahead_exec_large_folio", 0, "operator", NULL);
	state_pending_set(s, "feature-off", "drop-in", args, 3);
	state_history_add(s, "stage", "loaded", "6.1.0");
	state_history_add(s, "trial", "started", "7.3.4-1.rafleet+virt");
}

static void test_round_trip(void)
{
	struct state a, b;
	char why[256];
	struct stat st;

	fill(&a);
	is_i64(state_save(&a, path), 0, "save a full state");
	ok(!stat(path, &st) && (st.st_mode & 0777) == 0644, "  the file is there, mode 0644");
	is_i64(state_load(&b, path, why, sizeof(why)), 0, "load it back");
	ok(b.phase == PHASE_TRIAL, "  phase trial");
	is_str(b.previous.release, "6.1.0", "  previous release");
	ok(b.previous.initrd == NULL, "  previous initrd: null stays NULL");
	is_str(b.previous.cmdline, "root=/dev/vda1 ro", "  previous cmdline");
	is_str(b.trial.initrd, "/boot/initrd.img-7.3.4-1.rafleet+virt", "  trial initrd");
	is_str(b.trial.token, "abc", "  trial token");
	is_str(b.trial.staged_boot_id, "b1", "  staged boot id");
	ok(b.trial.trial_boot_id == NULL, "  trial boot id: null");
	is_str(b.baseline, "/var/lib/rafleet/baseline-6.1.0.json", "  baseline");
	is_str(b.smoke.detail, "fine \"quoted\"\n and a newline", "  smoke detail, quotes and newline intact");
	is_str(b.health.verdict, "fail", "  health verdict");
	is_str(b.health.detail, "10-network: no default route", "  health detail");
	ok(b.nr_decisions == 2 && b.decisions[0].value == 0 &&
	   !strcmp(b.decisions[0].reason, "canary: 12 % slower") &&
	   !strcmp(b.decisions[0].evidence, "/x.json") && b.decisions[1].evidence == NULL,
	   "  two decisions with reasons and evidence");
	ok(b.pending.action && !strcmp(b.pending.step, "drop-in") && b.pending.nr_args == 3 &&
	   !strcmp(b.pending.args[1], "operator") && !strcmp(b.pending.args[2], ""),
	   "  the pending intent with its arguments");
	ok(b.nr_history == 2 && !strcmp(b.history[1].action, "trial") &&
	   !strcmp(b.history[1].kernel, "7.3.4-1.rafleet+virt") &&
	   strlen(b.history[0].time) == 20 && b.history[0].time[10] == 'T' &&
	   b.history[0].time[19] == 'Z', "  the history, times in RFC 3339 UTC");
	state_free(&a);
	state_free(&b);
}

static void corrupt(const char *content, const char *want, const char *name)
{
	char why[256], after[512];
	struct state s;
	FILE *f;
	int err;

	fakefs_put(dir, "state.json", content);
	err = state_load(&s, path, why, sizeof(why));
	ok(err == -EBADMSG && strstr(why, want), "%s: -EBADMSG, '%s' (%d, '%s')", name, want, err, why);
	ok(s.phase == PHASE_IDLE && !s.nr_history, "  and the state is a fresh one, nothing half-read");
	f = fopen(path, "r");
	after[f ? fread(after, 1, sizeof(after) - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
	is_str(after, content, "  the file is left as it was");
	state_free(&s);
}

static void test_corrupt(void)
{
	corrupt("{\"schema\": \"rafleet-state/1\", \"phase\": ", "not JSON", "cut short");
	corrupt("", "empty", "an empty file");
	corrupt("[1, 2]", "not a JSON object", "an array");
	corrupt("{\"schema\": \"rafleet-state/2\", \"phase\": \"idle\"}", "schema is 'rafleet-state/2'",
		"another schema");
	corrupt("{\"phase\": \"idle\"}", "state.schema is missing", "no schema");
	corrupt("{\"schema\": \"rafleet-state/1\", \"phase\": \"sideways\"}", "phase 'sideways'",
		"an unknown phase");
	corrupt("{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"decisions\": "
		"[{\"feature\": \"x\", \"value\": 2, \"reason\": \"r\", \"time\": \"t\"}]}",
		"decisions[0].value is not 0 or 1", "a decision of 2");
	corrupt("{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"history\": {}}",
		"history is not an array", "history not an array");
	corrupt("{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"pending\": "
		"{\"action\": \"stage\", \"step\": \"intent\", \"args\": [1]}}",
		"pending.args[0] is not a string", "a pending argument that is a number");
	corrupt("{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"trial_kernel\": {\"image\": \"x\"}}",
		"trial_kernel.release is missing", "a trial kernel without release");
	{	/* status prints it after "cannot be used: " (test_rollout_cli) */
		struct state s;
		char why[256];

		fakefs_put(dir, "state.json", "{\"schema\": \"rafleet-state/1\", \"phase\": \"sideways\"}");
		state_load(&s, path, why, sizeof(why));
		ok(!strncmp(why, "phase 'sideways' is none of", 27),
		   "an unknown phase: the message begins with the phase ('%s')", why);
		fakefs_put(dir, "state.json", "{\"schema\": \"x\"}");
		state_load(&s, path, why, sizeof(why));
		ok(!strncmp(why, "schema is 'x', not 'rafleet-state/1'", 36),
		   "another schema: the message begins with the schema ('%s')", why);
	}
}

static void test_history_cap(void)
{
	struct state s, t;
	char detail[32], why[256];

	state_init(&s);
	for (int i = 0; i < STATE_HISTORY_MAX + 5; i++) {
		snprintf(detail, sizeof(detail), "entry %d", i);
		state_history_add(&s, "test", detail, "k");
	}
	is_u64(s.nr_history, STATE_HISTORY_MAX, "history capped at STATE_HISTORY_MAX");
	is_str(s.history[0].detail, "entry 5", "  the oldest five dropped");
	is_str(s.history[STATE_HISTORY_MAX - 1].detail, "entry 204", "  the newest kept last");
	state_save(&s, path);
	state_load(&t, path, why, sizeof(why));
	ok(t.nr_history == STATE_HISTORY_MAX && !strcmp(t.history[0].detail, "entry 5"),
	   "  and so it is saved and loaded");
	state_free(&s);
	state_free(&t);
}

static void test_decisions_pending(void)
{
	struct state s;
	const char *args[2];

	state_init(&s);
	state_decide(&s, "readahead_async_keep_half", 0, "first", NULL);
	state_decide(&s, "readahead_async_keep_half", 0, "second", "e");
	ok(s.nr_decisions == 1 && !strcmp(s.decisions[0].reason, "second"),
	   "a second decision on a feature replaces the first");
	state_undecide(&s, "readahead_async_keep_half");
	state_undecide(&s, "readahead_async_keep_half");
	is_u64(s.nr_decisions, 0, "undecide removes it, twice is harmless");

	args[0] = "a";
	args[1] = "b";
	state_pending_set(&s, "stage", "intent", args, 2);
	args[0] = s.pending.args[1];	/* its own arguments, as recovery passes them */
	args[1] = s.pending.args[0];
	is_i64(state_pending_set(&s, "stage", "intent", args, 2), 0,
	       "a pending intent made from the old one's arguments");
	ok(!strcmp(s.pending.args[0], "b") && !strcmp(s.pending.args[1], "a"), "  has them intact");
	state_pending_clear(&s);
	ok(!s.pending.action && !s.pending.nr_args, "cleared: no action, no arguments");
	is_i64(state_phase_parse("rolled-back"), PHASE_ROLLED_BACK, "phase names parse");
	is_str(state_phase_name(PHASE_STAGED), "staged", "  and print");
	state_free(&s);
}

int main(void)
{
	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return tap_done();
	snprintf(path, sizeof(path), "%s/state.json", dir);
	test_missing();
	test_round_trip();
	test_corrupt();
	test_history_cap();
	test_decisions_pending();
	fakefs_rm_tree(dir);
	return tap_done();
}
