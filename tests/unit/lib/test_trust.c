// SPDX-License-Identifier: GPL-2.0
/*
 * trust: what root may read, map or run (a file root's own, writable by no
 * other, no symlink, no FIFO, in a directory root's own or sticky); and
 * utf8_term_safe(), which shows a string's controls instead of obeying
 * them.  The owner cases need root (chown to nobody).
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
