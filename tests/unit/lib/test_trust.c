// SPDX-License-Identifier: GPL-2.0
/*
 * trust: what root may read, map or run (a file root's own, writable by no
 * other, no symlink, no FIFO, in a directory root's own or sticky); a path
 * walked by hand (trust_path(): every directory above, every symlink on
 * the way, under a root); and utf8_term_safe(), which shows a string's
 * controls instead of obeying them.  The owner cases need root (chown to
 * nobody).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakefs.h"
#include "lib/trust.h"
#include "lib/utf8.h"
#include "tap.h"

static char dir[] = "/tmp/rafleet-trust-XXXXXX";

static int try_open(const char *name, char *why, size_t len)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = trust_open(path, O_RDONLY, why, len);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return fd;
}

/* trust_path() of @path (under @root, "/" if NULL), the real path it found in @out */
static int walk(const char *root, const char *path, unsigned int flags, char *out,
		char *why, size_t len)
{
	char full[300];

	if (!root)
		snprintf(full, sizeof(full), "%s%s", dir, path);
	return trust_path(root ? root : "/", root ? path : full, flags, out, 300, why, len);
}

static void test_path(void)
{
	char p[300], want[300], out[300], why[512];

	fakefs_put(dir, "t/etc/x/check", "x\n");
	snprintf(p, sizeof(p), "%s/t", dir);
	is_i64(walk(NULL, "/t/etc/x/check", 0, out, why, sizeof(why)), 0,
	       "trust_path: a file of ours, every directory above it ours: trusted");
	snprintf(want, sizeof(want), "%s/t/etc/x/check", dir);
	is_str(out, want, "  the real path it ends at");
	is_i64(walk(p, "/etc/x/check", 0, out, why, sizeof(why)), 0, "  under a root: trusted");
	is_str(out, want, "  the real path: the root's and the path");
	is_i64(walk(p, "/etc/x", TRUST_NO_STICKY, out, why, sizeof(why)), 0,
	       "  a directory of ours, TRUST_NO_STICKY: trusted");

	/* symlinks: followed by hand, an absolute target under the root */
	fakefs_symlink(p, "etc/abs", "/etc/x/check");
	is_i64(walk(p, "/etc/abs", 0, out, why, sizeof(why)), 0, "  an absolute symlink: followed");
	is_str(out, want, "  under the root, not on this host");
	fakefs_symlink(p, "etc/x/up", "../../../../../etc/x/check");
	is_i64(walk(p, "/etc/x/up", 0, out, why, sizeof(why)), 0, "  a relative one with ..: followed");
	is_str(out, want, "  .. stops at the root");
	fakefs_symlink(p, "etc/d", "x");
	is_i64(walk(p, "/etc/d/check", 0, out, why, sizeof(why)), 0,
	       "  a symlink to a directory on the way: followed");
	is_str(out, want, "  the real path has no symlink in it");
	fakefs_symlink(p, "etc/mask", "/dev/null");
	is_i64(walk(p, "/etc/mask", 0, out, why, sizeof(why)), 0, "  a symlink to /dev/null: a mask");
	is_str(out, "/dev/null", "  it ends at the host's /dev/null");
	fakefs_symlink(p, "etc/loop", "loop");
	is_i64(walk(p, "/etc/loop", 0, out, why, sizeof(why)), -ELOOP, "  a symlink loop: -ELOOP");
	is_i64(walk(p, "/etc/x/check/y", 0, out, why, sizeof(why)), -ENOTDIR,
	       "  a file as a directory: -ENOTDIR");
	is_i64(walk(p, "/etc/x/missing", 0, out, why, sizeof(why)), -ENOENT,
	       "  a missing name: -ENOENT");
	snprintf(want, sizeof(want), "%s/t/etc/x/missing", dir);
	is_str(out, want, "  out the missing path");
	is_i64(trust_path("/", "etc", 0, out, sizeof(out), why, sizeof(why)), -EINVAL,
	       "  a relative path: -EINVAL");

	/* the modes */
	snprintf(want, sizeof(want), "%s/t/etc/x/check", dir);
	chmod(want, 0646);
	is_i64(walk(p, "/etc/x/check", 0, out, why, sizeof(why)), -EPERM,
	       "  a world-writable file: refused");
	ok(strstr(why, "/t/etc/x/check: a file owned by uid 0") && strstr(why, "mode 0646"),
	   "  why names it and its mode: %s", why);
	is_i64(walk(p, "/etc/abs", 0, out, why, sizeof(why)), -EPERM,
	       "  and through a symlink: refused");
	chmod(want, 0644);
	snprintf(want, sizeof(want), "%s/t/etc", dir);
	chmod(want, 0777);
	is_i64(walk(p, "/etc/x/check", 0, out, why, sizeof(why)), -EPERM,
	       "  a world-writable directory above it: refused");
	ok(strstr(why, "/t/etc: a directory") && strstr(why, "mode 0777"), "  why names the directory: %s",
	   why);
	is_i64(walk(p, "/etc/x/missing", 0, out, why, sizeof(why)), -EPERM,
	       "  a missing name below it: refused, not -ENOENT (another user could add it)");
	chmod(want, 0755);
	snprintf(want, sizeof(want), "%s/t/etc/x", dir);
	chmod(want, 01777);
	is_i64(walk(p, "/etc/x/check", 0, out, why, sizeof(why)), 0,
	       "  a sticky world-writable directory above it: trusted (as /var/tmp)");
	is_i64(walk(p, "/etc/x", 0, out, why, sizeof(why)), 0, "  and as what it ends at");
	is_i64(walk(p, "/etc/x", TRUST_NO_STICKY, out, why, sizeof(why)), -EPERM,
	       "  but not with TRUST_NO_STICKY (a directory of programs)");
	ok(strstr(why, "mode 1777") != NULL, "  why: %s", why);
	chmod(want, 0755);
	snprintf(want, sizeof(want), "%s/t", dir);
	chmod(dir, 0777);
	is_i64(walk(want, "/etc/x/check", 0, out, why, sizeof(why)), -EPERM,
	       "  a world-writable directory above the root: refused too");
	chmod(dir, 0755);

	if (geteuid() != 0) {
		ok(1, "# SKIP another user's file, symlink: not root");
		return;
	}
	snprintf(want, sizeof(want), "%s/t/etc/x/check", dir);
	if (chown(want, 65534, 65534))
		diag("chown failed");
	is_i64(walk(p, "/etc/x/check", 0, out, why, sizeof(why)), -EPERM,
	       "  another user's file: refused");
	ok(strstr(why, "owned by uid 65534") != NULL, "  why names the owner: %s", why);
	is_i64(walk(p, "/etc/abs", 0, out, why, sizeof(why)), -EPERM,
	       "  a symlink of ours to another user's file: refused");
	if (chown(want, 0, 0))
		diag("chown back failed");
	snprintf(want, sizeof(want), "%s/t/etc/abs", dir);
	if (lchown(want, 65534, 65534))
		diag("lchown failed");
	is_i64(walk(p, "/etc/abs", 0, out, why, sizeof(why)), -EPERM,
	       "  another user's symlink to a file of ours: refused");
	ok(strstr(why, "a symlink owned by uid 65534") != NULL, "  why: %s", why);
	snprintf(want, sizeof(want), "%s/t/etc/x", dir);
	if (chown(want, 65534, 65534))
		diag("chown failed");
	is_i64(walk(p, "/etc/x/check", 0, out, why, sizeof(why)), -EPERM,
	       "  a directory of another user's above it: refused");
}

int main(void)
{
	char path[300], why[512], out[64];

	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return tap_done();
	chmod(dir, 0755);
	fakefs_put(dir, "mine", "x\n");
	is_i64(try_open("mine", why, sizeof(why)), 0, "a file of ours in a directory of ours: trusted");
	snprintf(path, sizeof(path), "%s/mine", dir);
	chmod(path, 0664);
	is_i64(try_open("mine", why, sizeof(why)), -EPERM, "group-writable: refused");
	ok(strstr(why, "mode 0664") != NULL, "  why names the mode: %s", why);
	chmod(path, 0644);
	snprintf(path, sizeof(path), "%s/link", dir);
	if (symlink("mine", path))
		diag("symlink failed");
	is_i64(try_open("link", why, sizeof(why)), -ELOOP, "a symlink: not followed");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0644);
	is_i64(try_open("fifo", why, sizeof(why)), -EINVAL, "a FIFO: refused, not waited on");
	is_i64(try_open("missing", why, sizeof(why)), -ENOENT, "a missing file: -ENOENT");
	if (geteuid() == 0) {
		snprintf(path, sizeof(path), "%s/mine", dir);
		if (chown(path, 65534, 65534))
			diag("chown failed");
		is_i64(try_open("mine", why, sizeof(why)), -EPERM, "another user's file: refused");
		if (chown(path, 0, 0))
			diag("chown back failed");
	} else {
		ok(1, "# SKIP another user's file: not root");
	}
	snprintf(path, sizeof(path), "%s/sticky", dir);
	mkdir(path, 0755);
	chmod(path, 01777);
	is_i64(trust_dir(path, why, sizeof(why)), 0, "a sticky world-writable directory of ours: trusted (/var/tmp)");
	chmod(path, 0777);
	is_i64(trust_dir(path, why, sizeof(why)), -EPERM, "world-writable without the sticky bit: refused");
	fakefs_put(path, "f", "x\n");
	is_i64(try_open("sticky/f", why, sizeof(why)), -EPERM, "  and a file of ours in it too");

	test_path();

	is_str(utf8_term_safe("a\nb\r\033[2Jc\t", out, sizeof(out)), "a\\nb\\r\\x1b[2Jc\\t",
	       "newline, CR, ESC, tab: shown escaped");
	is_str(utf8_term_safe("x\302\233y\177", out, sizeof(out)), "x\\xc2\\x9by\\x7f",
	       "C1's CSI (U+009B) and DEL: escaped");
	is_str(utf8_term_safe("caf\303\251 \377", out, sizeof(out)), "caf\303\251 \\xff",
	       "UTF-8 kept, a byte that is none escaped");
	is_str(utf8_term_safe("abcdef", out, 4), "abc", "cut to the buffer");
	is_str(term_safe(NULL), "", "NULL is empty");
	fakefs_rm_tree(dir);
	return tap_done();
}
