// SPDX-License-Identifier: GPL-2.0
/*
 * runcmd, the one process runner: a child's standard output goes to the
 * fd it is given, else to our standard error and never into our standard
 * output (rafleet's report: smoke.json is the smoke unit's stdout); its
 * exit status, the signal that killed it, 127 for a program that is not
 * there; past its time limit its whole process group is killed; @env is
 * added to its environment.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/runcmd.h"
#include "tap.h"

static char dir[] = "/tmp/rafleet-runcmd-XXXXXX";

/* The contents of @fd from its start, into @buf. */
static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
}

static int tmpfile_fd(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

/*
 * run_command(sh -c @script, @out_fd) with our stdout and stderr caught
 * in files: what landed in each.
 */
static int run_caught(const char *script, int out_fd, unsigned int timeout_s,
		      char *out, char *err, size_t len)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	int so = dup(STDOUT_FILENO), se = dup(STDERR_FILENO);
	int fo = tmpfile_fd("stdout"), fe = tmpfile_fd("stderr");
	int rc;

	fflush(NULL);
	dup2(fo, STDOUT_FILENO);
	dup2(fe, STDERR_FILENO);
	rc = run_command(argv, out_fd, timeout_s);
	fflush(NULL);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	slurp(fo, out, len);
	slurp(fe, err, len);
	close(fo);
	close(fe);
	return rc;
}

static void test_stdout_never_ours(void)
{
	char out[256], err[256];
	int rc = run_caught("echo report-line; echo bus-error >&2", -1, 10, out, err, sizeof(out));

	is_i64(rc, 0, "exit 0");
	is_str(out, "", "without an fd, nothing the child prints reaches our stdout");
	ok(strstr(err, "report-line\n") && strstr(err, "bus-error\n"),
	   "both its streams went to our stderr: '%s'", err);
}

static void test_stdout_to_fd(void)
{
	char out[256], err[256], got[256];
	int fd = tmpfile_fd("child");
	int rc = run_caught("echo to-the-fd; exit 3", fd, 10, out, err, sizeof(out));

	is_i64(rc, 3, "its exit status");
	slurp(fd, got, sizeof(got));
	is_str(got, "to-the-fd\n", "its stdout went to the fd given");
	is_str(out, "", "and not to ours");
	close(fd);
}

static void test_status(void)
{
	char out[256], err[256], res[64];
	char *missing[] = { "/nonexistent/rafleet-no-such-program", NULL };
	int rc;

	rc = run_caught("kill -TERM $$", -1, 10, out, err, sizeof(out));
	is_i64(rc, RUNCMD_SIGNALED + SIGTERM, "killed by a signal: RUNCMD_SIGNALED + its number");
	is_str(run_command_result(rc, res, sizeof(res)), "killed by signal 15", "said as such");
	rc = run_command(missing, -1, 0);
	is_i64(rc, 127, "a program that is not there: 127");
}

/* @pid exists and is not a zombie */
static bool running(pid_t pid)
{
	char path[64], st = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "%*d %*s %c", &st) != 1)
		st = 0;
	fclose(f);
	return st && st != 'Z';
}

static void test_timeout_kills_group(void)
{
	char out[256], err[256], res[64], script[256], pidfile[128];
	struct timespec t0, t1;
	FILE *f;
	int rc, gc = 0;

	/* a grandchild that would outlive its parent, were the group not killed */
	snprintf(pidfile, sizeof(pidfile), "%s/grandchild", dir);
	snprintf(script, sizeof(script), "sleep 30 & echo $! > %s; wait", pidfile);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = run_caught(script, -1, 1, out, err, sizeof(out));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	is_i64(rc, RUNCMD_TIMED_OUT, "past its limit: RUNCMD_TIMED_OUT");
	is_str(run_command_result(rc, res, sizeof(res)), "timed out", "said as such");
	ok(t1.tv_sec - t0.tv_sec < 10, "returned after about its 1 s limit, not the sleep's 30 s");
	f = fopen(pidfile, "r");
	ok(f && fscanf(f, "%d", &gc) == 1 && gc > 0, "the grandchild's pid was recorded");
	if (f)
		fclose(f);
	/* killed: gone, or a zombie until init reaps it; never still sleeping */
	for (int i = 0; gc > 0 && i < 100 && running(gc); i++)
		usleep(10000);
	ok(gc > 0 && !running(gc), "the whole group was killed, its grandchild too");
}

/*
 * The system's program by its real path.  What another user planted on
 * the way is trust_path()'s to refuse (test_trust.c plants it); here, what
 * a root-owned chain of symlinks (Debian's /usr/bin/sh -> dash, /bin ->
 * usr/bin) resolves to.
 */
static void test_find(void)
{
	char out[PATH_MAX], real[PATH_MAX];
	struct stat st;

	is_i64(runcmd_find("sh", out, sizeof(out)), 0, "runcmd_find: sh is found");
	ok(out[0] == '/' && !lstat(out, &st) && S_ISREG(st.st_mode),
	   "  as an absolute path to a regular file, no symlink at its end (%s)", out);
	ok(realpath("/bin/sh", real) && !strcmp(out, real),
	   "  the real path of /bin/sh (%s)", real);
	is_i64(runcmd_find("rafleet-no-such-program", out, sizeof(out)), -ENOENT,
	       "a program that is not there: -ENOENT");
	is_str(out, "rafleet-no-such-program", "  its name left for the message");
	is_i64(runcmd_find("../bin/sh", out, sizeof(out)), -ENOENT, "a name with a '/': -ENOENT");
	is_i64(runcmd_find("", out, sizeof(out)), -ENOENT, "an empty name: -ENOENT");
}

static void test_env(void)
{
	char *argv[] = { "/bin/sh", "-c", "test \"$RAFLEET_X\" = yes", NULL };
	char *env[] = { "RAFLEET_X=yes", NULL };
	struct run_io io = { .in_fd = -1, .out_fd = -1, .err_fd = -1, .env = env };

	is_i64(run_command_io(argv, &io, 5), 0, "@env reaches the child");
	io.env = NULL;
	is_i64(run_command_io(argv, &io, 5), 1, "and only when given");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	test_stdout_never_ours();
	test_stdout_to_fd();
	test_status();
	test_timeout_kills_group();
	test_env();
	test_find();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			diag("could not remove %s", dir);
	}
	return tap_done();
}
