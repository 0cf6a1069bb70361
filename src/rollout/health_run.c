// SPDX-License-Identifier: GPL-2.0
#include "rollout/health_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/rootdir.h"
#include "lib/runcmd.h"
#include "lib/strbuf.h"
#include "lib/trust.h"
#include "lib/utf8.h"
#include "lib/warnings.h"

const char *health_kind_name(enum health_kind k)
{
	return k == HEALTH_REQUIRED ? "required" : "wanted";
}

const char *health_verdict_name(enum health_verdict v)
{
	static const char *const names[] = {
		[HV_PASS] = "pass", [HV_FAIL] = "fail", [HV_TIMEOUT] = "timeout",
		[HV_KILLED] = "killed", [HV_NOT_EXECUTABLE] = "not-executable",
		[HV_BAD_OUTPUT] = "bad-output", [HV_ERROR] = "error",
		[HV_MASKED] = "masked", [HV_UNTRUSTED] = "untrusted",
	};

	return (size_t)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

bool health_is_text(const char *buf, size_t n, char *why, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf;

	for (size_t i = 0; i < n; ) {
		size_t l = utf8_len(s + i, n - i);

		if (!l) {
			snprintf(why, len, "byte %zu (0x%02x) is not UTF-8", i, s[i]);
			return false;
		}
		if (l == 1 && (s[i] < 0x20 || s[i] == 0x7f) &&
		    s[i] != '\t' && s[i] != '\n' && s[i] != '\r') {
			snprintf(why, len, "byte %zu is the control character 0x%02x", i, s[i]);
			return false;
		}
		i += l;
	}
	return true;
}

/* ---- finding the checks ---- */

static bool not_a_check(const char *name)
{
	static const char *const leftovers[] = { ".rpmnew", ".rpmsave", ".rpmorig" };
	size_t n = strlen(name);

	if (name[0] == '.' || !n || name[n - 1] == '~' || strstr(name, ".dpkg-"))
		return true;
	for (size_t i = 0; i < sizeof(leftovers) / sizeof(leftovers[0]); i++) {
		size_t l = strlen(leftovers[i]);

		if (n > l && !strcmp(name + n - l, leftovers[i]))
			return true;
	}
	return false;
}

static struct health_check *find(struct health_report *rep, size_t from, const char *name)
{
	for (size_t i = from; i < rep->nr; i++)
		if (!strcmp(rep->checks[i].name, name))
			return &rep->checks[i];
	return NULL;
}

/* A new entry of @kind in @rep, or NULL (with @why) past HEALTH_CHECKS_MAX. */
static struct health_check *add(struct health_report *rep, size_t first, enum health_kind kind,
				const char *dir, const char *name, char *why, size_t len)
{
	struct health_check *c;

	if (rep->nr - first >= HEALTH_CHECKS_MAX) {
		snprintf(why, len, "%s: more than %d checks", dir, HEALTH_CHECKS_MAX);
		return NULL;
	}
	c = &rep->checks[rep->nr++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%.127s", name);	/* its length checked before */
	c->kind = kind;
	c->status = -1;
	return c;
}

/*
 * The files of @base/KIND.d into @rep (an /etc one replaces its name's).
 * A directory another user could write: an untrusted entry of its own,
 * and each name in it untrusted, none to be run.
 */
static int list_dir(struct health_report *rep, size_t first, enum health_kind kind,
		    const char *base, bool is_etc, char *why, size_t len)
{
	char dir[160], full[PATH_MAX], untrusted[400];
	struct warnings w = { 0 };
	struct health_check *c;
	struct dirent *e;
	DIR *d;
	int err = 0;

	snprintf(dir, sizeof(dir), "%s/%s.d", base, health_kind_name(kind));
	err = trust_path(rootdir_get(), dir, TRUST_NO_STICKY, full, sizeof(full), untrusted,
			 sizeof(untrusted));
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;	/* none: no checks there, and none another user can add */
	if (err && err != -EPERM) {
		snprintf(why, len, "%s", untrusted);
		return -EIO;
	}
	if (err) {
		c = add(rep, first, kind, dir, dir, why, len);
		if (!c)
			return -E2BIG;
		c->verdict = HV_UNTRUSTED;
		snprintf(c->path, sizeof(c->path), "%s", dir);
		snprintf(c->summary, sizeof(c->summary), "no check of this directory is run: %s",
			 untrusted);
		d = root_opendir(rootdir_get(), dir, full, sizeof(full), &w);	/* only its names */
	} else {
		untrusted[0] = '\0';
		d = opendir(full);
		if (!d && errno != ENOTDIR)
			warn_add(&w, "%s: %s", dir, strerror(errno));
	}
	err = 0;
	if (!d) {
		if (!w.nr)
			return 0;	/* not a directory: no checks there */
		snprintf(why, len, "%s", w.msg[0]);
		warn_free(&w);
		return -EIO;
	}
	while ((e = readdir(d))) {
		if (not_a_check(e->d_name))
			continue;
		if (strlen(e->d_name) >= sizeof(c->name)) {
			snprintf(why, len, "%s/%.64s...: a name longer than %zu bytes", dir,
				 e->d_name, sizeof(c->name) - 1);
			err = -ENAMETOOLONG;
			break;
		}
		c = find(rep, first, e->d_name);
		if (c && !is_etc)
			continue;	/* /etc's, read first, stands */
		if (!c)
			c = add(rep, first, kind, dir, e->d_name, why, len);
		if (!c) {
			err = -E2BIG;
			break;
		}
		snprintf(c->path, sizeof(c->path), "%s/%.127s", dir, e->d_name);
		if (untrusted[0]) {
			c->verdict = HV_UNTRUSTED;
			snprintf(c->summary, sizeof(c->summary), "not run: %s", untrusted);
		}
	}
	closedir(d);
	warn_free(&w);
	return err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct health_check *)a)->name,
		      ((const struct health_check *)b)->name);
}

static int list_checks(struct health_report *rep, char *why, size_t len)
{
	static const enum health_kind kinds[] = { HEALTH_REQUIRED, HEALTH_WANTED };
	int err;

	rep->nr = 0;
	for (size_t k = 0; k < 2; k++) {
		size_t first = rep->nr;

		err = list_dir(rep, first, kinds[k], HEALTH_ETC_DIR, true, why, len);
		if (!err)
			err = list_dir(rep, first, kinds[k], HEALTH_LIB_DIR, false, why, len);
		if (err)
			return err;
		qsort(rep->checks + first, rep->nr - first, sizeof(rep->checks[0]), by_name);
	}
	return 0;
}

/* ---- running one ---- */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The last non-empty line of @text into @out. */
static void last_line(const char *text, char *out, size_t len)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' ||
			      end[-1] == '\t'))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* What @c printed, judged; @rc is its run_command() result. */
static void judge_output(struct health_check *c, int fd, int rc)
{
	static char buf[HEALTH_OUTPUT_MAX + 1];
	char why[128];
	struct stat st;
	ssize_t n;
	size_t keep;

	if (fstat(fd, &st) || lseek(fd, 0, SEEK_SET) < 0 ||
	    (n = read(fd, buf, sizeof(buf) - 1)) < 0) {
		c->verdict = HV_ERROR;
		snprintf(c->summary, sizeof(c->summary), "its output cannot be read: %s",
			 strerror(errno));
		return;
	}
	if (st.st_size > HEALTH_OUTPUT_MAX) {
		c->verdict = HV_BAD_OUTPUT;
		snprintf(c->summary, sizeof(c->summary),
			 "it printed %lld bytes, more than %d: not a check's report",
			 (long long)st.st_size, HEALTH_OUTPUT_MAX);
		return;
	}
	if (!health_is_text(buf, (size_t)n, why, sizeof(why))) {
		c->verdict = HV_BAD_OUTPUT;
		snprintf(c->summary, sizeof(c->summary), "its output is not text: %s%s", why,
			 rc ? "" : " (it exited 0)");
		return;
	}
	buf[n] = '\0';
	keep = (size_t)n < sizeof(c->output) ? (size_t)n : sizeof(c->output) - 1;
	memcpy(c->output, buf + n - keep, keep);
	c->output[keep] = '\0';
	/* a cut in a UTF-8 sequence: from the next whole character */
	while (keep && ((unsigned char)c->output[0] & 0xc0) == 0x80)
		memmove(c->output, c->output + 1, keep--);
	last_line(buf, c->summary, sizeof(c->summary));
}

/* Run @c, whose file is @real (trust_path() checked it). */
static void run_one(struct health_check *c, const char *real, unsigned int timeout_s,
		    const char *kernel)
{
	char full[PATH_MAX], env_kind[64], env_timeout[64], env_kernel[320], res[64];
	char *argv[] = { full, NULL };
	char *env[] = { env_kind, env_timeout, env_kernel, NULL };
	struct run_io io = { .in_fd = -1 };
	struct stat st;
	double t0;
	int fd, rc;

	if ((size_t)snprintf(full, sizeof(full), "%s", real) >= sizeof(full) || stat(full, &st)) {
		c->verdict = HV_NOT_EXECUTABLE;
		snprintf(c->summary, sizeof(c->summary), "cannot be read: %s", strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
		c->verdict = HV_NOT_EXECUTABLE;
		snprintf(c->summary, sizeof(c->summary), "%s",
			 S_ISREG(st.st_mode) ? "not executable (no x bit)" : "not a regular file");
		return;
	}
	snprintf(env_kind, sizeof(env_kind), "RAFLEET_CHECK_KIND=%s", health_kind_name(c->kind));
	snprintf(env_timeout, sizeof(env_timeout), "RAFLEET_CHECK_TIMEOUT=%u", timeout_s);
	snprintf(env_kernel, sizeof(env_kernel), "RAFLEET_TRIAL_KERNEL=%s", kernel ? kernel : "");
	fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	io.in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || io.in_fd < 0) {
		c->verdict = HV_ERROR;
		snprintf(c->summary, sizeof(c->summary), "cannot open %s: %s",
			 fd < 0 ? "a file in /tmp for its output" : "/dev/null", strerror(errno));
		goto out;
	}
	io.out_fd = io.err_fd = fd;
	io.env = env;
	t0 = now_s();
	rc = run_command_io(argv, &io, timeout_s);
	c->seconds = now_s() - t0;
	if (rc == RUNCMD_TIMED_OUT) {
		c->verdict = HV_TIMEOUT;
		snprintf(c->summary, sizeof(c->summary), "no verdict within %u s: killed", timeout_s);
	} else if (rc < 0) {
		c->verdict = HV_ERROR;
		snprintf(c->summary, sizeof(c->summary), "%s", run_command_result(rc, res, sizeof(res)));
	} else {
		c->status = rc >= RUNCMD_SIGNALED ? rc - RUNCMD_SIGNALED : rc;
		judge_output(c, fd, rc);
		if (c->verdict == HV_PASS && rc)
			c->verdict = rc >= RUNCMD_SIGNALED ? HV_KILLED : HV_FAIL;
		if (c->verdict != HV_PASS && c->verdict != HV_BAD_OUTPUT && !c->summary[0])
			snprintf(c->summary, sizeof(c->summary), "%s, saying nothing",
				 run_command_result(rc, res, sizeof(res)));
	}
out:
	if (fd >= 0)
		close(fd);
	if (io.in_fd >= 0)
		close(io.in_fd);
}

/* Masked: a symlink to /dev/null, or an empty file, in /etc (@real what it is). */
static bool masked(const struct health_check *c, const char *real)
{
	struct stat st;

	if (strncmp(c->path, HEALTH_ETC_DIR "/", sizeof(HEALTH_ETC_DIR)))
		return false;
	return !strcmp(real, "/dev/null") ||
	       (!stat(real, &st) && S_ISREG(st.st_mode) && st.st_size == 0);
}

/*
 * Is @c's file (its path, every directory above it, each symlink on the
 * way) one no other user could have written?  If so, what it is in @real;
 * if not, its verdict set.
 */
static bool trusted(struct health_check *c, char *real, size_t len)
{
	char why[400];
	int err;

	if (c->verdict == HV_UNTRUSTED)
		return false;	/* its directory is not: see list_dir() */
	err = trust_path(rootdir_get(), c->path, 0, real, len, why, sizeof(why));
	if (!err)
		return true;
	c->verdict = err == -EPERM ? HV_UNTRUSTED : HV_NOT_EXECUTABLE;
	snprintf(c->summary, sizeof(c->summary), "%s: %s",
		 err == -EPERM ? "not run" : "cannot be read", why);
	return false;
}

static void sentence(struct health_report *rep)
{
	const char *sep = "";
	struct strbuf o;

	sb_init(&o, rep->detail, sizeof(rep->detail));
	if (rep->pass)
		sb_addf(&o, "%zu required check%s passed", rep->required,
			rep->required == 1 ? "" : "s");
	else
		sb_addf(&o, "%zu of %zu required checks failed:", rep->required_failed,
			rep->required);
	for (size_t i = 0; i < rep->nr; i++) {
		const struct health_check *c = &rep->checks[i];

		if (c->kind != HEALTH_REQUIRED || c->verdict == HV_PASS || c->verdict == HV_MASKED)
			continue;
		sb_addf(&o, "%s %s %s (%s)", sep, c->name, health_verdict_name(c->verdict), c->summary);
		sep = ";";
	}
	if (rep->wanted_failed)
		sb_addf(&o, "; %zu wanted check%s failed (recorded only)", rep->wanted_failed,
			rep->wanted_failed == 1 ? "" : "s");
}

int health_run(unsigned int timeout_s, const char *kernel, struct health_report *rep,
	       char *why, size_t len)
{
	int err;

	memset(rep, 0, sizeof(*rep));
	rep->timeout_s = timeout_s;
	err = list_checks(rep, why, len);
	if (err)
		return err;
	for (size_t i = 0; i < rep->nr; i++) {
		struct health_check *c = &rep->checks[i];
		char real[PATH_MAX];

		if (trusted(c, real, sizeof(real))) {
			if (masked(c, real)) {
				c->verdict = HV_MASKED;
				snprintf(c->summary, sizeof(c->summary), "masked in " HEALTH_ETC_DIR);
				continue;
			}
			run_one(c, real, timeout_s, kernel);
		}
		if (c->kind == HEALTH_REQUIRED) {
			rep->required++;
			rep->required_failed += c->verdict != HV_PASS;
		} else {
			rep->wanted_failed += c->verdict != HV_PASS;
		}
	}
	rep->pass = !rep->required_failed;
	sentence(rep);
	return 0;
}
