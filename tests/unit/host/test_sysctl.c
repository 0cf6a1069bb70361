// SPDX-License-Identifier: GPL-2.0
/*
 * sysctl: names to paths, values set and restored (newest first), on a
 * fake procfs; a name that is not a plain dotted path is refused.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fakefs.h"
#include "host/sysctl.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-sysctl-XXXXXX";

static const char *get(const char *name)
{
	static char buf[64];

	return sysctl_get(name, buf, sizeof(buf)) ? "(error)" : buf;
}

/*
 * Whether a process's start time reads the same to itself and to another
 * process, as it does on Linux.  qemu-user (the arm64 unit tests on an
 * x86 host) answers a process's own /proc/PID/stat itself, with a start
 * time a few ticks off the kernel's: there a writer's record never
 * matches the writer as another process sees it.
 */
static bool start_time_agrees(void)
{
	unsigned long long mine = sysctl_writer_start_time(getpid());
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(mine && sysctl_writer_start_time(getppid()) == mine ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* A writer that changes keep_half to 0 and is killed with its record standing. */
static void killed_mid_change(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		sysctl_set_saved("vm.readahead_async_keep_half", "0");
		raise(SIGKILL);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	bool agrees = start_time_agrees();
	char path[256];

	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	char state[300];

	setenv("RAFLEET_PROCSYS", root, 1);
	/* the undo record goes to the state directory: the test's own */
	snprintf(state, sizeof(state), "%s/state", root);
	setenv("RAFLEET_STATE_DIR", state, 1);
	fakefs_put(root, "kernel/random/boot_id", "boot-1\n");
	fakefs_put(root, "vm/readahead_async_keep_half", "1\n");
	fakefs_put(root, "vm/page-cluster", "3\n");

	ok(!sysctl_path("vm.page-cluster", path, sizeof(path)) &&
	   !strcmp(path + strlen(root), "/vm/page-cluster"), "vm.page-cluster -> vm/page-cluster");
	ok(sysctl_path("vm/../etc", path, sizeof(path)) == -EINVAL, "a path with / or .. is refused");
	ok(sysctl_path(".vm", path, sizeof(path)) == -EINVAL, "a leading dot is refused");
	ok(sysctl_path("vm.", path, sizeof(path)) == -EINVAL, "a trailing dot is refused");
	ok(sysctl_path("vm.a b", path, sizeof(path)) == -EINVAL, "a space is refused");
	ok(sysctl_path("", path, sizeof(path)) == -EINVAL, "empty is refused");
	is_str(get("vm.page-cluster"), "3", "read without the newline");

	is_i64(sysctl_set_saved("vm.readahead_async_keep_half", "0"), 0, "set a feature to 0");
	is_i64(sysctl_set_saved("vm.page-cluster", "0"), 0, "set page-cluster to 0");
	is_str(get("vm.readahead_async_keep_half"), "0", "  it reads 0");
	is_i64(sysctl_set_saved("vm.page-cluster", "5"), 0, "set page-cluster again");
	ok(sysctl_set_saved("vm.nonexistent", "1") < 0, "a missing sysctl is an error");
	is_i64(sysctl_restore_all(), 0, "restore all");
	is_str(get("vm.readahead_async_keep_half"), "1", "  the feature is back to 1");
	is_str(get("vm.page-cluster"), "3", "  page-cluster is back to its first value");

	/* SIGTERM in the middle: the handler restores, then the process dies. */
	pid_t pid = fork();

	if (pid == 0) {
		sysctl_restore_on_signals();
		sysctl_set_saved("vm.page-cluster", "7");
		raise(SIGTERM);
		_exit(0);
	}
	int status = 0;

	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "SIGTERM still kills");
	is_str(get("vm.page-cluster"), "3", "  after restoring what was set");

	/* sysctl_set(): the same writer, nothing saved, so nothing restored */
	is_i64(sysctl_set("vm.readahead_async_keep_half", "0\n"), 0, "sysctl_set: a feature to 0");
	is_str(get("vm.readahead_async_keep_half"), "0", "  it reads 0");
	is_i64(sysctl_restore_all(), 0, "  restore all, with nothing saved");
	is_str(get("vm.readahead_async_keep_half"), "0", "  still 0: a change meant to stay");
	is_i64(sysctl_set("vm.nonexistent", "1\n"), -ENOENT, "sysctl_set: a missing sysctl is -ENOENT");
	is_i64(sysctl_set("vm/../x", "1\n"), -EINVAL, "sysctl_set: a bad name is -EINVAL");

	/* the write-ahead record: a SIGKILL is undone by sysctl_undo_recover() */
	{
		char msg[512], rec[400];

		snprintf(rec, sizeof(rec), "%s/%s", state, SYSCTL_UNDO_FILE);
		sysctl_set("vm.readahead_async_keep_half", "1\n");
		is_i64(sysctl_undo_recover(msg, sizeof(msg)), 0, "no record: nothing to recover");
		pid = fork();
		if (pid == 0) {
			sysctl_set_saved("vm.readahead_async_keep_half", "0");
			sysctl_set_saved("vm.page-cluster", "7");
			raise(SIGKILL);
			_exit(0);
		}
		waitpid(pid, &status, 0);
		ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "a writer killed with SIGKILL");
		ok(!strcmp(get("vm.readahead_async_keep_half"), "0") && !strcmp(get("vm.page-cluster"), "7"),
		   "  left both values changed");
		ok(!access(rec, F_OK), "  and its record, written before the change");
		is_i64(sysctl_undo_recover(msg, sizeof(msg)), 1, "recover: done");
		ok(!strcmp(get("vm.readahead_async_keep_half"), "1") && !strcmp(get("vm.page-cluster"), "3"),
		   "  both put back: %s", msg);
		ok(access(rec, F_OK) && errno == ENOENT, "  the record removed");
		/* the same kill, then a reboot: the record is only dropped */
		killed_mid_change();
		fakefs_put(root, "kernel/random/boot_id", "boot-2\n");
		sysctl_set("vm.readahead_async_keep_half", "1\n");
		is_i64(sysctl_undo_recover(msg, sizeof(msg)), 1, "after a reboot: the record dropped");
		ok(strstr(msg, "earlier boot") && access(rec, F_OK), "  says so, and it is gone: %s", msg);
		/* a writer that still runs keeps its record */
		is_i64(sysctl_set_saved("vm.readahead_async_keep_half", "0"), 0, "a record of our own");
		is_i64(sysctl_undo_recover(msg, sizeof(msg)), -EBUSY, "  left alone while its writer runs");
		is_i64(sysctl_restore_all(), 0, "  restored by the writer");
		ok(access(rec, F_OK) && !strcmp(get("vm.readahead_async_keep_half"), "1"),
		   "  which removes the record");
		/* one record, one writer: a second one changes nothing while ours stands */
		is_i64(sysctl_set_saved("vm.readahead_async_keep_half", "0"), 0, "our record again");
		pid = fork();
		if (pid == 0) {
			int err = sysctl_set_saved("vm.page-cluster", "7");
			char want[64];

			snprintf(want, sizeof(want), "another rafleet (pid %ld) has sysctls changed",
				 (long)getppid());
			/* where /proc disagrees, the writer seems gone: -EBUSY all the same */
			if (!agrees)
				snprintf(want, sizeof(want), "a rafleet (pid %ld) that no longer runs",
					 (long)getppid());
			_exit(err == -EBUSY && strstr(sysctl_saved_strerror(err), want) &&
			      !strcmp(get("vm.page-cluster"), "3") ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "  a second writer meanwhile: -EBUSY, nothing changed, %s",
		   agrees ? "ours named" : "ours taken for a killed one's (this /proc's start times disagree: qemu-user)");
		ok(!strcmp(get("vm.readahead_async_keep_half"), "0") && !access(rec, F_OK),
		   "  our change and record as they were");
		pid = fork();
		if (pid == 0)
			_exit(sysctl_restore_all() ? 1 : 0);
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && !WEXITSTATUS(status) &&
		   !strcmp(get("vm.readahead_async_keep_half"), "0") && !access(rec, F_OK),
		   "  a forked child's restore: ours are ours to put back, not its");
		is_i64(sysctl_set_saved("vm.page-cluster", "6"), 0, "  our own next change: the record ours to replace");
		is_i64(sysctl_restore_all(), 0, "  restored");
		ok(access(rec, F_OK) && !strcmp(get("vm.page-cluster"), "3"), "  record gone, values back");
		killed_mid_change();
		is_i64(sysctl_set_saved("vm.page-cluster", "7"), -EBUSY,
		       "a killed writer's record not yet put back: -EBUSY, not replaced");
		ok(strstr(sysctl_saved_strerror(-EBUSY), "no longer runs") &&
		   strstr(sysctl_saved_strerror(-EBUSY), "rafleet recover") && !strcmp(get("vm.page-cluster"), "3"),
		   "  nothing changed; it says recover first: %s", sysctl_saved_strerror(-EBUSY));
		is_i64(sysctl_undo_recover(msg, sizeof(msg)), 1, "  recover puts its value back");
		ok(!strcmp(get("vm.readahead_async_keep_half"), "1"), "  vm.readahead_async_keep_half 1 again");
		fakefs_put(state, SYSCTL_UNDO_FILE, "{ not json");
		is_i64(sysctl_set_saved("vm.page-cluster", "7"), -EBUSY, "a damaged record: -EBUSY too");
		is_i64(sysctl_undo_recover(msg, sizeof(msg)), -EBADMSG, "a damaged record: -EBADMSG, not touched");
	}
	fakefs_rm_tree(root);
	return tap_done();
}
