// SPDX-License-Identifier: GPL-2.0
/*
 * failpoint and journal: RAFLEET_FAILPOINT=NAME (or NAME:kill) kills the
 * process with SIGKILL at that failpoint and no other; NAME:reset writes
 * "b" to /proc/sysrq-trigger (here a file under $RAFLEET_PROC: the real
 * one would reset this machine), and is killed when that write returns;
 * =list names each one passed; unset, nothing happens.  journal_log() with RAFLEET_JOURNAL=stderr (or
 * no journald) writes one line with the fields that were given.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/failpoint.h"
#include "fakefs.h"
#include "host/journal.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-failpoint-XXXXXX";
static char errfile[sizeof(tmp) + 8];

/* In a child, stderr to errfile: pass "a.one" then "a.two"; its status. */
static int child(const char *env)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (!freopen(errfile, "w", stderr))
			_exit(99);
		if (env)
			setenv("RAFLEET_FAILPOINT", env, 1);
		else
			unsetenv("RAFLEET_FAILPOINT");
		failpoint("a.one");
		failpoint("a.two");
		_exit(7);
	}
	waitpid(pid, &status, 0);
	return status;
}

static const char *file_text(const char *path)
{
	static char buf[1024];
	FILE *f = fopen(path, "r");

	buf[f ? fread(buf, 1, sizeof(buf) - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
	return buf;
}

static const char *err_text(void)
{
	return file_text(errfile);
}

int main(void)
{
	struct journal_fields jf = { .feature = "readahead_async_keep_half", .verdict = "off" };
	char sysrq[sizeof(tmp) + 16];
	int status, saved;

	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	snprintf(errfile, sizeof(errfile), "%s/err", tmp);

	status = child(NULL);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 7, "unset: both failpoints passed");
	status = child("a.two");
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "RAFLEET_FAILPOINT=a.two: killed by SIGKILL");
	status = child("a.two:kill");
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "a.two:kill: killed by SIGKILL");
	status = child("a.tw:kill");
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 7, "a.tw:kill: a prefix of a name is no failpoint");
	status = child("a.twoo");
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 7, "a.twoo: nor is a longer name");
	setenv("RAFLEET_PROC", tmp, 1);
	snprintf(sysrq, sizeof(sysrq), "%s/sysrq-trigger", tmp);
	ok(!fakefs_put(tmp, "sysrq-trigger", ""), "a fake sysrq-trigger");
	status = child("a.one:reset");
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "a.one:reset: the write to sysrq-trigger returned (no reset), then SIGKILL");
	is_str(file_text(sysrq), "b", "  it wrote 'b' to $RAFLEET_PROC/sysrq-trigger");
	is_str(err_text(), "rafleet: failpoint: resetting the machine (sysrq b)\n", "  saying so first");
	unsetenv("RAFLEET_PROC");
	status = child("a.three");
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 7, "a name that is no failpoint: nothing happens");
	status = child("list");
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 7, "list: runs through");
	is_str(err_text(), "rafleet: failpoint a.one\nrafleet: failpoint a.two\n", "  naming each failpoint");

	setenv("RAFLEET_JOURNAL", "stderr", 1);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (freopen(errfile, "w", stderr)) {
		is_i64(journal_log(LOG_WARNING, "feature-off", &jf, "vm.%s off", jf.feature), 1,
		       "journal_log with RAFLEET_JOURNAL=stderr: 1, not the journal");
		journal_log(LOG_INFO, "record", NULL, "plain");
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
	}
	is_str(err_text(),
	       "rafleet: feature-off: vm.readahead_async_keep_half off [feature=readahead_async_keep_half] [verdict=off]\n"
	       "rafleet: record: plain\n",
	       "  one line each: action, message, the fields given");
	unsetenv("RAFLEET_JOURNAL");
	if (access("/run/systemd/journal/socket", F_OK)) {
		/* sd_journal_sendv() alone would report success here */
		if (freopen(errfile, "w", stderr)) {
			is_i64(journal_log(LOG_INFO, "record", NULL, "no journald"), 1,
			       "no journald socket: the entry goes to stderr (1)");
			fflush(stderr);
			dup2(saved, STDERR_FILENO);
		}
		is_str(err_text(), "rafleet: record: no journald\n", "  the line");
	} else {
		diag("journald runs here: the fallback without it is not tried");
	}
	fakefs_rm_tree(tmp);
	return tap_done();
}
