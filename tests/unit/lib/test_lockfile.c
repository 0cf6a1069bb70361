// SPDX-License-Identifier: GPL-2.0
/*
 * lockfile: the holder's pid and command are in the file; a second taker
 * (another process) gets -EBUSY and the message naming the holder; a
 * wait outlasts a short hold; a holder killed with SIGKILL leaves the
 * lock free; two processes racing for it never both get it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fakefs.h"
#include "lib/lockfile.h"
#include "tap.h"

static char dir[] = "/tmp/rafleet-lock-XXXXXX";
static char errfile[sizeof(dir) + 8];

/* A child that takes the lock as @who, says so on @ready, holds it @ms. */
static pid_t holder(const char *who, int ms, int ready)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct lockfile l;
		int err = lockfile_take(&l, who, 0);

		if (write(ready, &err, sizeof(err)) != sizeof(err))
			_exit(2);
		usleep(ms * 1000);
		lockfile_release(&l);
		_exit(err ? 1 : 0);
	}
	return pid;
}

/* lockfile_take() with stderr caught into @msg. */
static int take_quiet(struct lockfile *l, const char *who, unsigned int wait_ms,
		      char *msg, size_t len)
{
	FILE *f;
	int err, saved = dup(STDERR_FILENO);

	fflush(stderr);
	if (!freopen(errfile, "w", stderr))
		return -EIO;
	err = lockfile_take(l, who, wait_ms);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	f = fopen(errfile, "r");
	msg[f ? fread(msg, 1, len - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
	return err;
}

static void test_holder_named(void)
{
	struct lockfile l;
	char msg[512], want[512], who[64], got_msg[400];
	int p[2], err = -1, status;
	pid_t pid, got;

	if (pipe(p))
		return;
	pid = holder("canary", 1000, p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err) || err) {
		ok(0, "the child took the lock (%d)", err);
		return;
	}
	snprintf(l.path, sizeof(l.path), "%s/lock", dir);
	lockfile_holder(l.path, &got, who, sizeof(who));
	ok(got == pid && !strcmp(who, "canary"), "the lock file names the holder: pid %d, '%s'",
	   (int)got, who);
	err = take_quiet(&l, "rollback", 0, msg, sizeof(msg));
	is_i64(err, -EBUSY, "a second taker: -EBUSY");
	snprintf(want, sizeof(want), "rafleet: another rafleet (pid %d, 'canary') holds %s/lock\n",
		 (int)pid, dir);
	is_str(msg, "", "  lockfile_take() prints nothing: the caller reports");
	lockfile_busy(&l, got_msg, sizeof(got_msg));
	snprintf(msg, sizeof(msg), "rafleet: %s\n", got_msg);
	is_str(msg, want, "  and the message names the holder and the file");
	ok(l.fd == -1, "  holding nothing");
	waitpid(pid, &status, 0);
	is_i64(take_quiet(&l, "rollback", 0, msg, sizeof(msg)), 0, "free once the holder let go");
	lockfile_holder(l.path, &got, who, sizeof(who));
	ok(got == getpid() && !strcmp(who, "rollback"), "  and now it names us");
	lockfile_release(&l);
	lockfile_holder(l.path, &got, who, sizeof(who));
	ok(got == 0, "released: the file names no one");
	close(p[0]);
	close(p[1]);
}

static void test_wait(void)
{
	struct lockfile l;
	char msg[512];
	int p[2], err = -1, status;
	pid_t pid;

	if (pipe(p))
		return;
	pid = holder("guard", 300, p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err) || err)
		return;
	is_i64(take_quiet(&l, "smoke", 5000, msg, sizeof(msg)), 0,
	       "waiting up to 5 s for a 0.3 s hold: taken");
	lockfile_release(&l);
	waitpid(pid, &status, 0);
	close(p[0]);
	close(p[1]);
}

static void test_killed_holder(void)
{
	struct lockfile l;
	char msg[512];
	int p[2], err = -1, status;
	pid_t pid;

	if (pipe(p))
		return;
	pid = holder("stage", 60000, p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err) || err)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status), "the holder was killed with SIGKILL");
	is_i64(take_quiet(&l, "recover", 0, msg, sizeof(msg)), 0, "  the lock is free: no stale lock");
	lockfile_release(&l);
	close(p[0]);
	close(p[1]);
}

/* Children race to take the lock and count how many hold it at once. */
static void test_race(void)
{
	int *shared = mmap(NULL, 2 * sizeof(int), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status, got = 0;

	if (shared == MAP_FAILED)
		return;
	shared[0] = shared[1] = 0;
	for (int i = 0; i < 8; i++) {
		if (fork() == 0) {
			struct lockfile l;

			fclose(stderr);	/* the refusals are expected */
			if (lockfile_take(&l, "racer", 2000))
				_exit(1);
			if (__atomic_add_fetch(&shared[0], 1, __ATOMIC_SEQ_CST) > 1)
				shared[1] = 1;	/* two at once */
			usleep(20000);
			__atomic_sub_fetch(&shared[0], 1, __ATOMIC_SEQ_CST);
			lockfile_release(&l);
			_exit(0);
		}
	}
	for (int i = 0; i < 8; i++)
		if (wait(&status) > 0 && WIFEXITED(status) && !WEXITSTATUS(status))
			got++;
	is_i64(got, 8, "eight racers waiting up to 2 s: each gets the lock in turn");
	is_i64(shared[1], 0, "  never two at once");
	munmap(shared, 2 * sizeof(int));
}

int main(void)
{
	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return tap_done();
	snprintf(errfile, sizeof(errfile), "%s/err", dir);
	setenv("RAFLEET_STATE_DIR", dir, 1);
	test_holder_named();
	test_wait();
	test_killed_holder();
	test_race();
	fakefs_rm_tree(dir);
	return tap_done();
}
