// SPDX-License-Identifier: GPL-2.0
/*
 * health: the gate's runner on checks in a fake root, real programs (sh)
 * run for real, each kind of end: a pass, a failure with its last line, a
 * check that hangs (killed at its limit, its children too), one killed
 * by a signal, a file that is not executable, output that is not text or
 * is too much; /etc replacing /usr/lib by name and masking with /dev/null
 * or an empty file; a wanted check's failure recorded only; leftovers of
 * package managers skipped; the environment a check gets; what another
 * user could have written (the file, a directory above it, a symlink on
 * the way) not run, nor believed as a mask.  And the text rule itself
 * (UTF-8, controls).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakefs.h"
#include "rollout/health_run.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-health-XXXXXX";

/* a check program at @rel (under the fake root), mode @mode */
static void check(const char *rel, const char *body, mode_t mode)
{
	char path[4096], text[4096];

	snprintf(text, sizeof(text), "#!/bin/sh\n%s\n", body);
	if (fakefs_put(root, rel, text))
		diag("cannot write %s", rel);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	chmod(path, mode);
}

static const struct health_check *find(const struct health_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nr; i++)
		if (!strcmp(rep->checks[i].name, name))
			return &rep->checks[i];
	return NULL;
}

static void reset(void)
{
	fakefs_rm_tree(root);
	fakefs_mkdir_p(root);
}

static void test_text(void)
{
	char why[128];

	static const char plain[] = "ok\n\tfine\r\n", utf8[] = "gr\xc3\xbc\xc3\x9f \xe2\x9c\x93 \xf0\x9f\x98\x80";

	ok(health_is_text(plain, strlen(plain), why, sizeof(why)), "text: tabs, newlines, CR");
	ok(health_is_text(utf8, strlen(utf8), why, sizeof(why)),
	   "text: UTF-8 of 2, 3 and 4 bytes");
	ok(!health_is_text("a\0b", 3, why, sizeof(why)) && strstr(why, "byte 1") &&
	   strstr(why, "0x00"), "not text: a NUL (%s)", why);
	ok(!health_is_text("\x1b[31mred", 8, why, sizeof(why)) && strstr(why, "control"),
	   "not text: an escape sequence (%s)", why);
	ok(!health_is_text("\xff\xfe", 2, why, sizeof(why)) && strstr(why, "not UTF-8"),
	   "not text: 0xff (%s)", why);
	ok(!health_is_text("\xc0\xaf", 2, why, sizeof(why)), "not text: an overlong /");
	ok(!health_is_text("\xed\xa0\x80", 3, why, sizeof(why)), "not text: a surrogate");
	ok(!health_is_text("ab\xe2\x9c", 4, why, sizeof(why)) && strstr(why, "byte 2"),
	   "not text: a sequence cut at the end (%s)", why);
}

static void test_gate(void)
{
	struct health_report *rep = calloc(1, sizeof(*rep));
	const struct health_check *c;
	char why[512] = "";
	int err;

	reset();
	err = health_run(5, "7.3.4-x", rep, why, sizeof(why));
	ok(!err && rep->pass && rep->nr == 0 && rep->required == 0,
	   "no checks anywhere: a pass of nothing (%d, %s)", err, rep->detail);

	check("usr/lib/rafleet/health/required.d/10-pass", "echo looking; echo all is well", 0755);
	check("usr/lib/rafleet/health/required.d/20-env",
	      "[ \"$RAFLEET_CHECK_KIND\" = required ] && [ \"$RAFLEET_CHECK_TIMEOUT\" = 2 ] && "
	      "[ \"$RAFLEET_TRIAL_KERNEL\" = 7.3.4-x ] && read -r x; [ -z \"$x\" ] && echo env ok", 0755);
	check("usr/lib/rafleet/health/wanted.d/50-wanted-fails", "echo not quite >&2; exit 3", 0755);
	err = health_run(2, "7.3.4-x", rep, why, sizeof(why));
	ok(!err && rep->pass && rep->nr == 3 && rep->required == 2 && rep->wanted_failed == 1,
	   "two required pass, a wanted one fails: pass (%s)", rep->detail);
	c = find(rep, "10-pass");
	ok(c && c->verdict == HV_PASS && c->status == 0 && !strcmp(c->summary, "all is well") &&
	   !strcmp(c->output, "looking\nall is well\n") && c->kind == HEALTH_REQUIRED &&
	   !strcmp(c->path, "/usr/lib/rafleet/health/required.d/10-pass"),
	   "  10-pass: pass, its last line the summary, its output kept, its path as the host sees it");
	c = find(rep, "20-env");
	ok(c && c->verdict == HV_PASS, "  20-env: RAFLEET_CHECK_KIND, _TIMEOUT, RAFLEET_TRIAL_KERNEL set, stdin empty (%s)",
	   c ? c->summary : "-");
	c = find(rep, "50-wanted-fails");
	ok(c && c->verdict == HV_FAIL && c->status == 3 && !strcmp(c->summary, "not quite") &&
	   c->kind == HEALTH_WANTED, "  50-wanted-fails: fail, exit 3, its standard error read too");
	ok(strstr(rep->detail, "2 required checks passed") && strstr(rep->detail, "1 wanted check failed"),
	   "  the sentence says both: %s", rep->detail);
	ok(rep->checks[0].kind == HEALTH_REQUIRED && !strcmp(rep->checks[0].name, "10-pass") &&
	   !strcmp(rep->checks[1].name, "20-env") && rep->checks[2].kind == HEALTH_WANTED,
	   "  required first, each kind by name");

	/* every way a required check can fail */
	check("usr/lib/rafleet/health/required.d/30-fails", "echo 'eth0: no carrier'; exit 1", 0755);
	check("usr/lib/rafleet/health/required.d/31-hangs", "sleep 60 & echo started; wait", 0755);
	check("usr/lib/rafleet/health/required.d/32-noexec", "exit 0", 0644);
	check("usr/lib/rafleet/health/required.d/33-garbage", "printf 'ok\\000\\377\\n'; exit 0", 0755);
	check("usr/lib/rafleet/health/required.d/34-killed", "kill -9 $$", 0755);
	check("usr/lib/rafleet/health/required.d/35-flood",
	      "head -c 70000 /dev/zero | tr '\\0' x; exit 0", 0755);
	check("usr/lib/rafleet/health/required.d/36-silent-fail", "exit 4", 0755);
	if (fakefs_put(root, "usr/lib/rafleet/health/required.d/37-bad-interp", "#!/nonexistent/sh\n"))
		diag("cannot write 37");
	{
		char p[4096];

		snprintf(p, sizeof(p), "%s/usr/lib/rafleet/health/required.d/37-bad-interp", root);
		chmod(p, 0755);
		snprintf(p, sizeof(p), "%s/usr/lib/rafleet/health/required.d/38-dir", root);
		mkdir(p, 0755);
	}
	err = health_run(2, NULL, rep, why, sizeof(why));
	ok(!err && !rep->pass && rep->required == 11 && rep->required_failed == 9,
	   "nine kinds of failure among eleven required: fail (%zu of %zu)", rep->required_failed,
	   rep->required);
	c = find(rep, "30-fails");
	ok(c && c->verdict == HV_FAIL && c->status == 1 && !strcmp(c->summary, "eth0: no carrier"),
	   "  30-fails: fail, exit 1, what it said");
	c = find(rep, "31-hangs");
	ok(c && c->verdict == HV_TIMEOUT && c->seconds >= 1.9 && c->seconds < 10 &&
	   strstr(c->summary, "within 2 s"), "  31-hangs: timeout, killed at its 2 s limit with its child (%.1f s: %s)",
	   c ? c->seconds : -1, c ? c->summary : "-");
	c = find(rep, "32-noexec");
	ok(c && c->verdict == HV_NOT_EXECUTABLE && strstr(c->summary, "no x bit"),
	   "  32-noexec: not-executable (%s)", c ? c->summary : "-");
	c = find(rep, "33-garbage");
	ok(c && c->verdict == HV_BAD_OUTPUT && strstr(c->summary, "not text") &&
	   strstr(c->summary, "exited 0"), "  33-garbage: bad-output although it exited 0 (%s)",
	   c ? c->summary : "-");
	c = find(rep, "34-killed");
	ok(c && c->verdict == HV_KILLED && c->status == 9, "  34-killed: killed, signal 9 (%s)",
	   c ? c->summary : "-");
	c = find(rep, "35-flood");
	ok(c && c->verdict == HV_BAD_OUTPUT && strstr(c->summary, "70000 bytes"),
	   "  35-flood: bad-output, 70000 bytes (%s)", c ? c->summary : "-");
	c = find(rep, "36-silent-fail");
	ok(c && c->verdict == HV_FAIL && !strcmp(c->summary, "exit 4, saying nothing"),
	   "  36-silent-fail: fail, and the summary says how (%s)", c ? c->summary : "-");
	c = find(rep, "37-bad-interp");
	ok(c && c->verdict == HV_FAIL && c->status == 127 && strstr(c->summary, "cannot run"),
	   "  37-bad-interp: fail, exit 127, cannot run (%s)", c ? c->summary : "-");
	c = find(rep, "38-dir");
	ok(c && c->verdict == HV_NOT_EXECUTABLE && strstr(c->summary, "not a regular file"),
	   "  38-dir: not-executable (%s)", c ? c->summary : "-");
	ok(strstr(rep->detail, "9 of 11 required checks failed") && strstr(rep->detail, "30-fails fail") &&
	   strstr(rep->detail, "31-hangs timeout"), "  the sentence names them: %.200s", rep->detail);

	/* /etc replaces and masks by name; leftovers are no checks */
	reset();
	check("usr/lib/rafleet/health/required.d/10-network", "echo shipped; exit 1", 0755);
	check("etc/rafleet/health/required.d/10-network", "echo the site check", 0755);
	check("usr/lib/rafleet/health/required.d/20-units", "exit 1", 0755);
	fakefs_symlink(root, "etc/rafleet/health/required.d/20-units", "/dev/null");
	check("usr/lib/rafleet/health/required.d/30-other", "exit 1", 0755);
	fakefs_put(root, "etc/rafleet/health/required.d/30-other", "");
	check("etc/rafleet/health/required.d/40-site", "echo site check", 0755);
	check("etc/rafleet/health/required.d/40-site.rpmnew", "exit 1", 0755);
	check("etc/rafleet/health/required.d/40-site.dpkg-old", "exit 1", 0755);
	check("etc/rafleet/health/required.d/40-site~", "exit 1", 0755);
	check("etc/rafleet/health/required.d/.hidden", "exit 1", 0755);
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err && rep->pass && rep->nr == 4 && rep->required == 2,
	   "overrides, masks, leftovers: 4 checks, 2 run, pass (%zu, %zu: %s)", rep->nr,
	   rep->required, rep->detail);
	c = find(rep, "10-network");
	ok(c && c->verdict == HV_PASS && !strcmp(c->summary, "the site check") &&
	   !strncmp(c->path, "/etc/", 5), "  /etc's 10-network replaced the shipped one");
	c = find(rep, "20-units");
	ok(c && c->verdict == HV_MASKED, "  20-units masked by a symlink to /dev/null");
	c = find(rep, "30-other");
	ok(c && c->verdict == HV_MASKED, "  30-other masked by an empty file");
	ok(!find(rep, "40-site.rpmnew") && !find(rep, "40-site.dpkg-old") && !find(rep, "40-site~") &&
	   !find(rep, ".hidden"), "  .rpmnew, .dpkg-old, ~ and hidden names are no checks");

	/* a directory of checks that cannot be read: an error, said */
	reset();
	check("etc/rafleet/health/required.d/x", "exit 0", 0755);
	if (fakefs_put(root, "etc/rafleet/health/wanted.d", "a file, not a directory"))
		diag("cannot write wanted.d");
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err, "wanted.d a file: no directory there, nothing to run (%d %s)", err, why);
	if (geteuid() != 0) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/etc/rafleet/health/required.d", root);
		chmod(p, 0);
		err = health_run(5, NULL, rep, why, sizeof(why));
		ok(err == -EIO && strstr(why, "required.d"), "an unreadable required.d: -EIO (%s)", why);
		chmod(p, 0755);
	}
	free(rep);
}

/* the path of @rel under the fake root */
static const char *at(const char *rel)
{
	static char p[4096];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return p;
}

/* Checks another user could have written: none is run (each would leave a mark). */
static void test_untrusted(void)
{
	struct health_report *rep = calloc(1, sizeof(*rep));
	const struct health_check *c;
	char why[512] = "";
	int err;

	reset();
	check("usr/lib/rafleet/health/required.d/10-ok", "echo fine", 0755);
	check("etc/rafleet/health/required.d/20-groupw", "touch \"$0.ran\"", 0775);
	check("usr/lib/rafleet/health/wanted.d/30-worldw", "touch \"$0.ran\"", 0757);
	err = health_run(5, NULL, rep, why, sizeof(why));
	c = find(rep, "20-groupw");
	ok(!err && !rep->pass && rep->required_failed == 1 && c && c->verdict == HV_UNTRUSTED &&
	   strstr(c->summary, "not run: ") && strstr(c->summary, "mode 0775") &&
	   access(at("etc/rafleet/health/required.d/20-groupw.ran"), F_OK),
	   "a group-writable required check: untrusted, not run, the gate fails (%s)", c ? c->summary : "-");
	c = find(rep, "30-worldw");
	ok(c && c->verdict == HV_UNTRUSTED && rep->wanted_failed == 1 &&
	   access(at("usr/lib/rafleet/health/wanted.d/30-worldw.ran"), F_OK),
	   "  a world-writable wanted one: untrusted, not run, recorded");
	ok(strstr(rep->detail, "20-groupw untrusted (not run: ") != NULL, "  the sentence: %.160s",
	   rep->detail);

	/* a directory of checks another user can write: not one is run */
	reset();
	check("usr/lib/rafleet/health/required.d/10-ok", "echo fine", 0755);
	check("etc/rafleet/health/required.d/20-site", "touch \"$0.ran\"", 0755);
	chmod(at("etc/rafleet/health/required.d"), 0777);
	err = health_run(5, NULL, rep, why, sizeof(why));
	c = find(rep, "/etc/rafleet/health/required.d");
	ok(!err && !rep->pass && c && c->verdict == HV_UNTRUSTED && c->kind == HEALTH_REQUIRED &&
	   strstr(c->summary, "no check of this directory is run") && strstr(c->summary, "mode 0777"),
	   "a world-writable required.d: an untrusted entry of its own (%s)", c ? c->summary : "-");
	c = find(rep, "20-site");
	ok(c && c->verdict == HV_UNTRUSTED && access(at("etc/rafleet/health/required.d/20-site.ran"), F_OK),
	   "  its check: untrusted, not run (%s)", c ? c->summary : "-");
	c = find(rep, "10-ok");
	ok(c && c->verdict == HV_PASS, "  the shipped check beside it runs");
	unlink(at("etc/rafleet/health/required.d/20-site"));
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err && !rep->pass && rep->required_failed == 1,
	   "  emptied: the gate still fails (a check may have been taken out): %.120s", rep->detail);
	chmod(at("etc/rafleet/health/required.d"), 01777);
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err && !rep->pass && find(rep, "/etc/rafleet/health/required.d"),
	   "  sticky: untrusted all the same (another user adds names there)");
	chmod(at("etc/rafleet/health/required.d"), 0755);
	chmod(at("etc/rafleet"), 0777);
	err = health_run(5, NULL, rep, why, sizeof(why));
	c = find(rep, "/etc/rafleet/health/required.d");
	ok(!err && !rep->pass && c && strstr(c->summary, "/etc/rafleet: a directory"),
	   "  a world-writable directory above it: the same (%s)", c ? c->summary : "-");
	rmdir(at("etc/rafleet/health/required.d"));
	rmdir(at("etc/rafleet/health"));
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err && !rep->pass && find(rep, "/etc/rafleet/health/required.d"),
	   "  and with no required.d left under it: fails (another user removed it, or can add it)");
	chmod(at("etc/rafleet"), 0755);
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err && rep->pass, "  /etc/rafleet root's again, no required.d: a pass (%s)", rep->detail);
	check("etc/rafleet/health/wanted.d/50-w", "touch \"$0.ran\"", 0755);
	chmod(at("etc/rafleet/health/wanted.d"), 0777);
	err = health_run(5, NULL, rep, why, sizeof(why));
	ok(!err && rep->pass && rep->wanted_failed == 2 &&
	   access(at("etc/rafleet/health/wanted.d/50-w.ran"), F_OK),
	   "a world-writable wanted.d: recorded, not run, the gate passes (%s)", rep->detail);

	if (geteuid() != 0) {
		ok(1, "# SKIP checks and masks of another user's: not root");
		free(rep);
		return;
	}
	reset();
	check("usr/lib/rafleet/health/required.d/10-nobody", "touch \"$0.ran\"", 0755);
	if (chown(at("usr/lib/rafleet/health/required.d/10-nobody"), 65534, 65534))
		diag("chown failed");
	check("var/nobody/20-target", "touch \"$0.ran\"", 0755);
	if (chown(at("var/nobody/20-target"), 65534, 65534))
		diag("chown failed");
	fakefs_symlink(root, "etc/rafleet/health/required.d/20-link", "/var/nobody/20-target");
	check("usr/lib/rafleet/health/required.d/30-units", "touch \"$0.ran\"; exit 1", 0755);
	fakefs_put(root, "etc/rafleet/health/required.d/30-units", "");
	if (chown(at("etc/rafleet/health/required.d/30-units"), 65534, 65534))
		diag("chown failed");
	err = health_run(5, NULL, rep, why, sizeof(why));
	c = find(rep, "10-nobody");
	ok(!err && !rep->pass && rep->required_failed == 3 && c && c->verdict == HV_UNTRUSTED &&
	   strstr(c->summary, "owned by uid 65534") &&
	   access(at("usr/lib/rafleet/health/required.d/10-nobody.ran"), F_OK),
	   "a check owned by nobody: untrusted, not run (%s)", c ? c->summary : "-");
	c = find(rep, "20-link");
	ok(c && c->verdict == HV_UNTRUSTED && strstr(c->summary, "20-target: a file owned by uid 65534") &&
	   access(at("var/nobody/20-target.ran"), F_OK),
	   "  a symlink of root's to nobody's file: untrusted, not run (%s)", c ? c->summary : "-");
	c = find(rep, "30-units");
	ok(c && c->verdict == HV_UNTRUSTED && access(at("usr/lib/rafleet/health/required.d/30-units.ran"), F_OK),
	   "  an empty file of nobody's in /etc: no mask (nobody could empty it), untrusted");
	free(rep);
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	setenv("RAFLEET_ROOT", root, 1);
	test_text();
	test_gate();
	test_untrusted();
	fakefs_rm_tree(root);
	return tap_done();
}
