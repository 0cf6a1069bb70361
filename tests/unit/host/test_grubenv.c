// SPDX-License-Identifier: GPL-2.0
/*
 * grubenv: GRUB's environment block in a fake root, created, set and unset
 * by the real grub-editenv (grub-common) and read back as GRUB reads it:
 * saved_entry and next_entry, a value with a backslash and a newline
 * through GRUB's escaping, the block kept at 1024 bytes; a missing file,
 * a file that is no block, a block cut short; a grub-editenv that fails or
 * writes nothing ($RAFLEET_GRUB_EDITENV), each an error that says why.
 * Crash safety: the tool edits a copy that is renamed over the block, so
 * a tool that truncates and then dies leaves the block as it was; killed
 * at grubenv.after-temp the block is the old one (the copy the new one),
 * at grubenv.after-rename the new one; a symlink (Fedora's grubenv on the
 * ESP) stays a symlink, its target replaced, and one that leads nowhere
 * (the ESP not mounted) is an error, not a new block in its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/grubenv.h"
#include "lib/runcmd.h"
#include "fakefs.h"
#include "tap.h"

#define ADV_OLD "gnulinux-advanced-5f8d9c3e-2b1a-4c7d-9e6f-0a1b2c3d4e5f>" \
	"gnulinux-6.1.0-18-amd64-advanced-5f8d9c3e-2b1a-4c7d-9e6f-0a1b2c3d4e5f"

static char root[] = "/tmp/rafleet-grubenv-XXXXXX";
static int saved_stderr = -1;

/* A tool that is meant to fail says so on stderr: out of the TAP stream. */
static void quiet(bool on)
{
	int null;

	fflush(stderr);
	if (on && saved_stderr < 0) {
		saved_stderr = dup(STDERR_FILENO);
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDERR_FILENO);
			close(null);
		}
	} else if (!on && saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
}

/* The block as the host sees it, and as the test does. */
static const char *real(const char *file)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", root, file);
	return path;
}

static long file_size(const char *file)
{
	struct stat st;

	return stat(real(file), &st) ? -1 : (long)st.st_size;
}

static char *slurp(const char *file)
{
	static char buf[4096];
	FILE *f = fopen(real(file), "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* @key of @file by grubenv_get(), or "(unset)", or "error N: why". */
static const char *get(const char *file, const char *key)
{
	static char buf[1024];
	char why[512] = "", *v;
	int err = grubenv_get(file, key, &v, why, sizeof(why));

	if (err)
		snprintf(buf, sizeof(buf), "error %d: %s", err, why);
	else
		snprintf(buf, sizeof(buf), "%s", v ? v : "(unset)");
	free(v);
	return buf;
}

static void test_real_tool(void)
{
	const char *tool = grubenv_editenv();
	char path[PATH_MAX];
	char *argv[] = { (char *)tool, path, "create", NULL };
	char why[512] = "";
	struct grubenv env;
	int err;

	if (!ok(tool != NULL, "grub-editenv is there (grub-common, scripts/deps.list)"))
		return;
	diag("grub-editenv: %s", tool);
	fakefs_mkdir_p(real("/boot/grub"));
	snprintf(path, sizeof(path), "%s", real(GRUBENV_DEBIAN));
	is_i64(run_command(argv, -1, 30), 0, "grub-editenv FILE create: a new block");
	is_i64(file_size(GRUBENV_DEBIAN), 1024, "  1024 bytes");
	is_i64(grubenv_load(&env, GRUBENV_DEBIAN, why, sizeof(why)), 0, "  grubenv_load reads it");
	is_u64(env.nr, 0, "  no variables");
	grubenv_free(&env);

	is_i64(grubenv_set(GRUBENV_DEBIAN, "saved_entry", ADV_OLD, why, sizeof(why)), 0,
	       "grubenv_set saved_entry=ADV>OLD");
	is_str(get(GRUBENV_DEBIAN, "saved_entry"), ADV_OLD, "  reads back");
	ok(strstr(slurp(GRUBENV_DEBIAN), "\nsaved_entry=" ADV_OLD "\n") != NULL,
	   "  a line of the block, as grub-editenv wrote it");
	is_i64(file_size(GRUBENV_DEBIAN), 1024, "  still 1024 bytes");
	is_i64(grubenv_set(GRUBENV_DEBIAN, "next_entry", "1>2", why, sizeof(why)), 0,
	       "grubenv_set next_entry=1>2 (grub-reboot's)");
	is_str(get(GRUBENV_DEBIAN, "next_entry"), "1>2", "  reads back");
	is_i64(grubenv_set(GRUBENV_DEBIAN, "saved_entry", "0", why, sizeof(why)), 0,
	       "grubenv_set saved_entry=0 over the old value");
	is_str(get(GRUBENV_DEBIAN, "saved_entry"), "0", "  reads back the new one");
	is_i64(grubenv_unset(GRUBENV_DEBIAN, "next_entry", why, sizeof(why)), 0,
	       "grubenv_unset next_entry");
	is_str(get(GRUBENV_DEBIAN, "next_entry"), "(unset)", "  reads back unset");
	is_str(get(GRUBENV_DEBIAN, "saved_entry"), "0", "  saved_entry untouched");
	is_i64(grubenv_unset(GRUBENV_DEBIAN, "never_set", why, sizeof(why)), 0,
	       "grubenv_unset of a variable not there: 0");
	is_i64(file_size(GRUBENV_DEBIAN), 1024, "  the block still 1024 bytes");

	is_i64(grubenv_set(GRUBENV_DEBIAN, "odd", "C:\\boot\\x\nline two", why, sizeof(why)), 0,
	       "grubenv_set of a value with backslashes and a newline");
	ok(strstr(slurp(GRUBENV_DEBIAN), "\nodd=C:\\\\boot\\\\x\\\nline two\n") != NULL,
	   "  written with GRUB's escaping: \\\\ and \\ before the newline");
	is_str(get(GRUBENV_DEBIAN, "odd"), "C:\\boot\\x\nline two", "  and read back as it was");

	quiet(true);
	err = grubenv_set(GRUBENV_FEDORA, "saved_entry", "abc-7.3.4", why, sizeof(why));
	quiet(false);
	is_i64(err, -EIO, "grubenv_set in a directory that is not there: -EIO");
	ok(strstr(why, " set saved_entry=abc-7.3.4: exit ") != NULL, "  why names the command and its exit");
	fakefs_mkdir_p(real("/boot/grub2"));
	is_i64(grubenv_set(GRUBENV_FEDORA, "saved_entry", "abc-7.3.4", why, sizeof(why)), 0,
	       "grubenv_set on a missing block: grub-editenv creates it");
	is_str(get(GRUBENV_FEDORA, "saved_entry"), "abc-7.3.4", "  reads back");
	is_i64(file_size(GRUBENV_FEDORA), 1024, "  a 1024-byte block");

	is_i64(grubenv_set(GRUBENV_DEBIAN, "a=b", "x", why, sizeof(why)), -EINVAL,
	       "a key with '=': -EINVAL, nothing run");
	is_i64(grubenv_set(GRUBENV_DEBIAN, "", "x", why, sizeof(why)), -EINVAL, "an empty key: -EINVAL");
	is_i64(grubenv_unset(GRUBENV_DEBIAN, "a\nb", why, sizeof(why)), -EINVAL,
	       "a key with a newline: -EINVAL");
}

/* Files in @dir (under the root) whose names start with @prefix. */
static int copies(const char *dir, const char *prefix)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dh;
	int n = 0;

	snprintf(path, sizeof(path), "%s%s", root, dir);
	dh = opendir(path);
	while (dh && (d = readdir(dh)))
		n += !strncmp(d->d_name, prefix, strlen(prefix));
	if (dh)
		closedir(dh);
	return n;
}

/* grubenv_set(@file, saved_entry=@value) in a child, killed at @fp. */
static int set_killed(const char *file, const char *value, const char *fp)
{
	char why[512];
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("RAFLEET_FAILPOINT", fp, 1);
		_exit(grubenv_set(file, "saved_entry", value, why, sizeof(why)) ? 2 : 0);
	}
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

static void test_crash(void)
{
	char why[512] = "", script[PATH_MAX], target[PATH_MAX];
	struct stat st;
	int err;

	if (!grubenv_editenv()) {
		ok(0, "grub-editenv is there for the crash tests");
		return;
	}
	unlink(real(GRUBENV_DEBIAN));
	is_i64(grubenv_set(GRUBENV_DEBIAN, "saved_entry", "old", why, sizeof(why)), 0,
	       "crash: a block with saved_entry=old");
	is_i64(set_killed(GRUBENV_DEBIAN, "new", "grubenv.after-temp"), SIGKILL,
	       "set saved_entry=new killed at grubenv.after-temp");
	is_str(get(GRUBENV_DEBIAN, "saved_entry"), "old", "  the block is the old one");
	is_i64(file_size(GRUBENV_DEBIAN), 1024, "  whole");
	is_i64(copies("/boot/grub", "grubenv.rafleet-"), 1, "  the edited copy is left beside it");
	fakefs_put(root, "boot/grub/grubenv.rafleet-x", "not mkstemp's");
	is_i64(grubenv_set(GRUBENV_DEBIAN, "saved_entry", "old", why, sizeof(why)), 0,
	       "the next edit, saved_entry=old again");
	is_i64(copies("/boot/grub", "grubenv.rafleet-"), 1, "  removes the copy the crash left (not other names)");
	unlink(real("/boot/grub/grubenv.rafleet-x"));
	is_i64(set_killed(GRUBENV_DEBIAN, "new", "grubenv.after-rename"), SIGKILL,
	       "set saved_entry=new killed at grubenv.after-rename");
	is_str(get(GRUBENV_DEBIAN, "saved_entry"), "new", "  the block is the new one");
	is_i64(copies("/boot/grub", "grubenv.rafleet-"), 0, "  no copy left");

	/* a tool that truncates the file it is given, then dies */
	snprintf(script, sizeof(script), "%s/bin/truncating-editenv", root);
	fakefs_put(root, "bin/truncating-editenv", "#!/bin/sh\n: > \"$1\"\nkill -9 $$\n");
	chmod(script, 0755);
	setenv("RAFLEET_GRUB_EDITENV", script, 1);
	err = grubenv_set(GRUBENV_DEBIAN, "saved_entry", "newer", why, sizeof(why));
	unsetenv("RAFLEET_GRUB_EDITENV");
	is_i64(err, -EIO, "a grub-editenv that truncates, then is killed: -EIO");
	ok(strstr(why, "signal 9") || strstr(why, "killed"), "  why says so (%s)", why);
	is_str(get(GRUBENV_DEBIAN, "saved_entry"), "new", "  the block is untouched (saved_entry=new)");
	is_i64(file_size(GRUBENV_DEBIAN), 1024, "  and whole");
	is_i64(copies("/boot/grub", "grubenv.rafleet-"), 0, "  no copy left");

	/* Fedora's old layout: /boot/grub2/grubenv -> ../efi/EFI/fedora/grubenv */
	fakefs_rm_tree(real("/boot/grub2"));
	fakefs_rm_tree(real("/boot/efi"));
	fakefs_put(root, "boot/efi/EFI/fedora/x", "");
	fakefs_symlink(root, "boot/grub2/grubenv", "../efi/EFI/fedora/grubenv");
	snprintf(target, sizeof(target), "%s/boot/efi/EFI/fedora/grubenv", root);
	{
		char *argv[] = { (char *)grubenv_editenv(), target, "create", NULL };

		is_i64(run_command(argv, -1, 30), 0, "a block on the ESP, grubenv a symlink to it");
	}
	is_i64(grubenv_set(GRUBENV_FEDORA, "saved_entry", "abc", why, sizeof(why)), 0,
	       "grubenv_set through the symlink");
	ok(!lstat(real(GRUBENV_FEDORA), &st) && S_ISLNK(st.st_mode), "  the symlink is still one");
	is_str(get("/boot/efi/EFI/fedora/grubenv", "saved_entry"), "abc", "  its target holds the new block");
	is_i64(copies("/boot/efi/EFI/fedora", "grubenv.rafleet-"), 0, "  no copy left there");
	/* the ESP not mounted: the symlink leads nowhere */
	unlink(target);
	err = grubenv_set(GRUBENV_FEDORA, "saved_entry", "abc", why, sizeof(why));
	is_i64(err, -ENOENT, "a symlink to a block that is not there: -ENOENT");
	ok(strstr(why, "a symlink to a block that is not there") != NULL, "  why says so (%s)", why);
	ok(!lstat(real(GRUBENV_FEDORA), &st) && S_ISLNK(st.st_mode) && access(target, F_OK),
	   "  the symlink is left as it was, and no block is made anywhere");
}

static void test_read(void)
{
	char block[1024];
	char why[512] = "";
	struct grubenv env;
	int n;

	n = snprintf(block, sizeof(block),
		     "# GRUB Environment Block\n"
		     "saved_entry=first\n"
		     "# a comment line\n"
		     "path=a\\\\b\\\nc\n"
		     "saved_entry=1>2\n");
	memset(block + n, '#', sizeof(block) - (size_t)n);
	fakefs_put(root, "boot/grub/grubenv", "");
	{
		FILE *f = fopen(real(GRUBENV_DEBIAN), "w");

		if (f) {
			fwrite(block, 1, sizeof(block), f);
			fclose(f);
		}
	}
	is_i64(grubenv_load(&env, GRUBENV_DEBIAN, why, sizeof(why)), 0, "a block written by hand loads");
	is_u64(env.nr, 3, "  3 variables, the comment line skipped");
	is_str(grubenv_find(&env, "path"), "a\\b\nc", "  \\\\ and \\newline undone");
	is_str(grubenv_find(&env, "saved_entry"), "1>2", "  the last of a name, as GRUB's load_env");
	ok(grubenv_find(&env, "saved") == NULL, "  a prefix of a name is not the name");
	grubenv_free(&env);

	is_str(get("/boot/grub/nothere", "saved_entry"),
	       "error -2: /boot/grub/nothere: No such file or directory", "a missing file: -ENOENT, and why");
	fakefs_put(root, "boot/grub/notenv", "saved_entry=0\n");
	is_str(get("/boot/grub/notenv", "saved_entry"),
	       "error -22: /boot/grub/notenv: not a GRUB environment block: it does not start with the line \"# GRUB Environment Block\"",
	       "a file without the header: -EINVAL, and why");
	fakefs_put(root, "boot/grub/noeq", "# GRUB Environment Block\nsaved_entry=0\nbroken\n####");
	is_str(get("/boot/grub/noeq", "saved_entry"),
	       "error -22: /boot/grub/noeq:3: a line that is not KEY=VALUE in the environment block",
	       "a line without '=': -EINVAL, with its line");
	fakefs_put(root, "boot/grub/cut", "# GRUB Environment Block\nsaved_entry=0");
	ok(strstr(get("/boot/grub/cut", "saved_entry"), "error -22: /boot/grub/cut:2: the variable saved_entry runs to the end") != NULL,
	   "a block cut short in a value: -EINVAL");
	is_str(get("/boot/grub/noeq", "x"), get("/boot/grub/noeq", "saved_entry"),
	       "  whichever variable is asked for");
}

static void test_tool_fails(void)
{
	char why[512] = "", script[PATH_MAX];
	int err;

	snprintf(script, sizeof(script), "%s/bin/failing-editenv", root);
	fakefs_put(root, "bin/failing-editenv", "#!/bin/sh\necho 'failing-editenv: no' >&2\nexit 1\n");
	chmod(script, 0755);
	setenv("RAFLEET_GRUB_EDITENV", script, 1);
	is_str(grubenv_editenv(), script, "$RAFLEET_GRUB_EDITENV names the tool");
	quiet(true);
	err = grubenv_set(GRUBENV_DEBIAN, "saved_entry", "0", why, sizeof(why));
	quiet(false);
	is_i64(err, -EIO, "the tool exits 1: -EIO");
	ok(strstr(why, script) && strstr(why, " set saved_entry=0: exit 1"),
	   "  why names it, what it was asked and its exit (%s)", why);
	quiet(true);
	err = grubenv_unset(GRUBENV_DEBIAN, "next_entry", why, sizeof(why));
	quiet(false);
	is_i64(err, -EIO, "unset, the same: -EIO");
	ok(strstr(why, " unset next_entry: exit 1") != NULL, "  and why");

	fakefs_put(root, "bin/lazy-editenv", "#!/bin/sh\nexit 0\n");
	snprintf(script, sizeof(script), "%s/bin/lazy-editenv", root);
	chmod(script, 0755);
	setenv("RAFLEET_GRUB_EDITENV", script, 1);
	fakefs_put(root, "boot/grub/grubenv", "# GRUB Environment Block\nsaved_entry=old\n######\n");
	is_i64(grubenv_set(GRUBENV_DEBIAN, "saved_entry", "new", why, sizeof(why)), -EIO,
	       "a tool that exits 0 but writes nothing: -EIO from the read-back");
	is_str(why, "/boot/grub/grubenv: grub-editenv set saved_entry='new', but it reads back as 'old'",
	       "  why says what it reads");
	is_i64(grubenv_unset(GRUBENV_DEBIAN, "saved_entry", why, sizeof(why)), -EIO,
	       "  unset, the same");
	is_str(why, "/boot/grub/grubenv: grub-editenv unset saved_entry, but it reads back as 'old'",
	       "  and why");
	unsetenv("RAFLEET_GRUB_EDITENV");
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	setenv("RAFLEET_ROOT", root, 1);
	unsetenv("RAFLEET_GRUB_EDITENV");
	test_real_tool();
	test_read();
	test_tool_fails();
	test_crash();
	unsetenv("RAFLEET_ROOT");
	fakefs_rm_tree(root);
	return tap_done();
}
