// SPDX-License-Identifier: GPL-2.0
/*
 * rollout: the engine on a fake root, /proc/sys and state directory.
 * rollout_open() under the lock (a second opener in another process gets
 * -EBUSY); rollout_feature_off() turns the feature off live and at boot
 * (its drop-in) and records the decision; rollout_record(); an
 * interrupted action found in the state is finished (feature-off) or
 * dropped with the features put back (smoke); an unknown one is refused
 * and the file left alone; a corrupt file is refused; the boot is read
 * (staged -> trial, and a trial that did not happen); rollout_next() says
 * so beforehand; a crashed save's temporary file is removed at open, and
 * each save tells apt which kernel to keep.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fakehost.h"
#include "host/feature.h"
#include "rollout/core.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-rollout-XXXXXX";
static char root[PATH_MAX], procsys[PATH_MAX], statedir[PATH_MAX];
static char statefile[PATH_MAX + 16], errfile[sizeof(tmp) + 8];

static void put(const char *dir, const char *rel, const char *content)
{
	if (fakefs_put(dir, rel, content))
		diag("cannot write %s/%s", dir, rel);
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[f ? fread(buf, 1, len - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
}

static const char *live(const char *name)
{
	static char buf[16];
	char rel[PATH_MAX + 128];

	snprintf(rel, sizeof(rel), "%s/vm/%s", procsys, name);
	slurp(rel, buf, sizeof(buf));
	return buf;
}

/* A fresh host: six features on, no state. */
static void reset(void)
{
	static const char *const names[] = { "unbounded_large_folios", "async_two_windows",
		"async_keep_half", "populate_io_pages", "exec_mmap_miss_bypass", "exec_large_folio" };
	char rel[128];

	fakefs_rm_tree(root);
	fakefs_rm_tree(statedir);
	fakefs_mkdir_p(statedir);
	fakefs_mkdir_p(root);
	for (int i = 0; i < 6; i++) {
		snprintf(rel, sizeof(rel), "vm/readahead_%s", names[i]);
		put(procsys, rel, "1\n");
	}
	put(procsys, "kernel/random/boot_id", "boot-1\n");
}

/* rollout_open() with stderr kept in @msg. */
static int open_quiet(struct rollout **r, const char *who, char *msg, size_t len)
{
	int err, saved = dup(STDERR_FILENO);

	fflush(stderr);
	if (!freopen(errfile, "w", stderr))
		return -EIO;
	err = rollout_open(r, who);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	slurp(errfile, msg, len);
	return err;
}

static void test_open_and_lock(void)
{
	struct rollout *r, *r2;
	char msg[1024];
	int status, p[2];
	pid_t pid;

	reset();
	is_i64(open_quiet(&r, "test", msg, sizeof(msg)), 0, "rollout_open on a fresh host");
	ok(rollout_state(r)->phase == PHASE_IDLE, "  idle");
	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		char m[1024];
		int err = open_quiet(&r2, "canary", m, sizeof(m));

		_exit(err == -EBUSY && strstr(m, "'test') holds") ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "  another process opening it meanwhile: -EBUSY, the holder named");
	rollout_close(r);
	is_i64(open_quiet(&r, "test", msg, sizeof(msg)), 0, "  free again after rollout_close");
	rollout_close(r);
	close(p[0]);
	close(p[1]);
}

static void test_feature_off(void)
{
	const struct feature *f = feature_find("readahead_async_keep_half");
	const struct state *s;
	struct rollout *r;
	char msg[1024], drop[4096], path[PATH_MAX + 64];

	reset();
	setenv("RAFLEET_JOURNAL", "stderr", 1);
	open_quiet(&r, "canary", msg, sizeof(msg));
	is_i64(rollout_feature_off(r, f, "canary: 12 % slower", "/var/lib/rafleet/c.json"), 0,
	       "rollout_feature_off");
	is_str(live("readahead_async_keep_half"), "0\n", "  live value 0");
	snprintf(path, sizeof(path), "%s/etc/sysctl.d/60-rafleet-readahead_async_keep_half.conf", root);
	slurp(path, drop, sizeof(drop));
	ok(strstr(drop, "# Written by rafleet canary (pid ") && strstr(drop, "# Why: canary: 12 % slower\n") &&
	   strstr(drop, "\nvm.readahead_async_keep_half = 0\n"),
	   "  the drop-in: who, why, vm.readahead_async_keep_half = 0");
	s = rollout_state(r);
	ok(s->nr_decisions == 1 && !strcmp(s->decisions[0].feature, f->name) &&
	   s->decisions[0].value == 0 && !strcmp(s->decisions[0].evidence, "/var/lib/rafleet/c.json"),
	   "  the decision with its evidence");
	ok(!s->pending.action && s->nr_history == 1 && !strcmp(s->history[0].action, "feature-off"),
	   "  a history entry, nothing pending");
	is_i64(rollout_record(r, "canary", "kept readahead_async_two_windows"), 0, "rollout_record");
	ok(s->nr_history == 2 && !strcmp(s->history[1].detail, "kept readahead_async_two_windows"),
	   "  appends to the history");
	rollout_close(r);
	slurp(statefile, drop, sizeof(drop));
	ok(strstr(drop, "\"kept readahead_async_two_windows\"") != NULL, "  and it is in the file");
}

static void test_resume_feature_off(void)
{
	struct rollout *r;
	char msg[1024], path[PATH_MAX + 64];

	reset();
	put(statedir, "state.json",
	    "{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"pending\": "
	    "{\"action\": \"feature-off\", \"step\": \"sysctl\", "
	    "\"args\": [\"readahead_exec_large_folio\", \"guard: window 7\", \"\"]}}");
	is_i64(open_quiet(&r, "recover", msg, sizeof(msg)), 0, "open with an interrupted feature-off pending");
	ok(strstr(msg, "rafleet: an interrupted 'rollback --feature readahead_exec_large_folio' at step sysctl was found; finishing it") != NULL,
	   "  says what it found and does");
	is_str(live("readahead_exec_large_folio"), "0\n", "  the feature is off");
	snprintf(path, sizeof(path), "%s/etc/sysctl.d/60-rafleet-readahead_exec_large_folio.conf", root);
	ok(access(path, F_OK) == 0, "  its drop-in written");
	ok(rollout_state(r)->nr_decisions == 1 &&
	   !strcmp(rollout_state(r)->decisions[0].reason, "guard: window 7") &&
	   !rollout_state(r)->decisions[0].evidence && !rollout_state(r)->pending.action,
	   "  the decision with the recorded reason, nothing pending");
	rollout_close(r);
}

static void test_resume_smoke(void)
{
	struct rollout *r;
	char msg[1024];

	reset();
	put(procsys, "vm/readahead_async_keep_half", "0\n");
	put(procsys, "vm/readahead_exec_large_folio", "0\n");
	put(statedir, "state.json",
	    "{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"pending\": "
	    "{\"action\": \"smoke\", \"step\": \"features-off-1\", "
	    "\"args\": [\"readahead_async_keep_half=1\", \"readahead_exec_large_folio=0\"]}}");
	is_i64(open_quiet(&r, "recover", msg, sizeof(msg)), 0, "open with an interrupted smoke pending");
	ok(strstr(msg, "dropping it (no verdict) and restoring the features") != NULL, "  says it drops it");
	is_str(live("readahead_async_keep_half"), "1\n", "  a feature it had turned off is back on");
	is_str(live("readahead_exec_large_folio"), "0\n", "  one that was off before stays off");
	ok(!rollout_state(r)->pending.action && !rollout_state(r)->smoke.verdict,
	   "  no verdict, nothing pending");
	rollout_close(r);
}

static void test_refused(void)
{
	struct rollout *r;
	char msg[1024], before[1024], after[1024];
	const char *unknown = "{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\", \"pending\": "
			      "{\"action\": \"teleport\", \"step\": \"intent\", \"args\": []}}";

	reset();
	put(statedir, "state.json", unknown);
	is_i64(open_quiet(&r, "recover", msg, sizeof(msg)), -EBADMSG,
	       "an unknown pending action: -EBADMSG");
	ok(strstr(msg, "pending action 'teleport'") != NULL, "  the action named");
	slurp(statefile, after, sizeof(after));
	is_str(after, unknown, "  the file left as it was");
	put(statedir, "state.json", "{\"schema\": ");
	slurp(statefile, before, sizeof(before));
	is_i64(open_quiet(&r, "rollback", msg, sizeof(msg)), -EBADMSG, "a state file cut short: -EBADMSG");
	ok(strstr(msg, statefile) && strstr(msg, "not JSON"), "  names the file and what is wrong");
	slurp(statefile, after, sizeof(after));
	is_str(after, before, "  never overwritten");
}

static void test_boot(void)
{
	const char *staged = "{\"schema\": \"rafleet-state/1\", \"phase\": \"staged\", "
		"\"previous_kernel\": {\"release\": \"6.1.0\"}, "
		"\"trial_kernel\": {\"release\": \"7.3.4-1.rafleet+virt\", \"token\": \"t0k\", "
		"\"staged_boot_id\": \"boot-1\"}}";
	struct running now = { .release = "6.1.0", .boot_id = "boot-1" };
	struct state s;
	struct rollout *r;
	char msg[1024], what[1024];

	reset();
	put(statedir, "state.json", staged);
	state_load(&s, statefile, msg, sizeof(msg));
	ok(!rollout_next(&s, &now, what, sizeof(what)), "staged, same boot: nothing to do yet");
	snprintf(now.release, sizeof(now.release), "7.3.4-1.rafleet+virt");
	snprintf(now.boot_id, sizeof(now.boot_id), "boot-2");
	snprintf(now.token, sizeof(now.token), "t0k");
	ok(rollout_next(&s, &now, what, sizeof(what)) && strstr(what, "records it (staged -> trial)"),
	   "the trial boot: rollout_next says it will be recorded");
	snprintf(now.release, sizeof(now.release), "6.1.0");
	now.token[0] = '\0';
	ok(rollout_next(&s, &now, what, sizeof(what)) && strstr(what, "ended without a verdict"),
	   "another boot of the old kernel: the trial ended without a verdict");
	state_free(&s);

	setenv("RAFLEET_UNAME_R", "7.3.4-1.rafleet+virt", 1);
	put(procsys, "kernel/random/boot_id", "boot-2\n");
	put(tmp, "proc/cmdline", "root=/dev/vda1 rafleet.trial=t0k\n");
	open_quiet(&r, "recover", msg, sizeof(msg));
	ok(r && rollout_state(r)->phase == PHASE_TRIAL &&
	   !strcmp(rollout_state(r)->trial.trial_boot_id, "boot-2"),
	   "open on the trial boot: phase trial, its boot id kept");
	rollout_close(r);

	put(statedir, "state.json", staged);
	setenv("RAFLEET_UNAME_R", "6.1.0", 1);
	put(tmp, "proc/cmdline", "root=/dev/vda1\n");
	open_quiet(&r, "recover", msg, sizeof(msg));
	ok(r && rollout_state(r)->phase == PHASE_IDLE && !rollout_state(r)->trial.release &&
	   !strcmp(rollout_state(r)->history[0].action, "trial-unjudged"),
	   "open on another boot of the old kernel: idle, 'trial-unjudged' in the history");
	rollout_close(r);
	unsetenv("RAFLEET_UNAME_R");
}

/*
 * Opening removes what a crashed save left beside state.json; each save
 * makes apt keep the previous kernel while a rollout is in progress
 * (host/aptkeep.h), and the first save in phase idle lets it go.
 */
static void test_leftovers_and_apt(void)
{
	struct rollout *r;
	char msg[1024], keep[PATH_MAX + 64], left[PATH_MAX + 32], text[2048];

	reset();
	snprintf(left, sizeof(left), "%s/state.json.tmp.a1B2c3", statedir);
	put(statedir, "state.json.tmp.a1B2c3", "{\"half\": ");
	put(statedir, "state.json.tmp.other", "not mkstemp's");
	open_quiet(&r, "test", msg, sizeof(msg));
	ok(access(left, F_OK) != 0, "rollout_open removes a crashed save's state.json.tmp.XXXXXX");
	snprintf(left, sizeof(left), "%s/state.json.tmp.other", statedir);
	ok(access(left, F_OK) == 0, "  and nothing else");
	rollout_close(r);

	snprintf(keep, sizeof(keep), "%s/etc/apt/apt.conf.d", root);
	fakefs_mkdir_p(keep);
	snprintf(keep, sizeof(keep), "%s/etc/apt/apt.conf.d/50rafleet-previous-kernel", root);
	put(statedir, "state.json",
	    "{\"schema\": \"rafleet-state/1\", \"phase\": \"promoted\",\n"
	    " \"previous_kernel\": {\"release\": \"7.3.4-0.vanilla+virt\", \"image\": \"/boot/v\"}}\n");
	open_quiet(&r, "test", msg, sizeof(msg));
	slurp(keep, text, sizeof(text));
	ok(strstr(text, "// release 7.3.4-0.vanilla+virt\n// phase promoted\n") != NULL,
	   "rollout_open in phase promoted tells apt to keep the previous kernel (no save yet)");
	unlink(keep);
	is_i64(rollout_record(r, "calibrate", "x"), 0, "a save in phase promoted");
	slurp(keep, text, sizeof(text));
	ok(strstr(text, "// release 7.3.4-0.vanilla+virt\n// phase promoted\n") != NULL,
	   "  writes it too");
	rollout_close(r);
	put(statedir, "state.json", "{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\",\n"
	    " \"previous_kernel\": {\"release\": \"7.3.4-0.vanilla+virt\", \"image\": \"/boot/v\"}}\n");
	open_quiet(&r, "test", msg, sizeof(msg));
	is_i64(rollout_record(r, "calibrate", "y"), 0, "a save in phase idle");
	ok(access(keep, F_OK) != 0, "  lets it go");
	rollout_close(r);
}

int main(void)
{
	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	if (fakehost_init(tmp, root, procsys, statedir))
		diag("cannot make the fake host in %s", tmp);
	snprintf(statefile, sizeof(statefile), "%s/state.json", statedir);
	snprintf(errfile, sizeof(errfile), "%s/err", tmp);
	/* the journal's stderr lines are not TAP; each test catches what it checks */
	if (!freopen("/dev/null", "w", stderr))
		diag("stderr stays");

	test_open_and_lock();
	test_feature_off();
	test_resume_feature_off();
	test_resume_smoke();
	test_refused();
	test_boot();
	test_leftovers_and_apt();
	fakefs_rm_tree(tmp);
	return tap_done();
}
