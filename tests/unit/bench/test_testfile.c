// SPDX-License-Identifier: GPL-2.0
/*
 * testfile: the fixed-seed pattern, recognised and reused; a file that is
 * not ours is left alone; a failed write leaves nothing behind (sizes:
 * tests/unit/lib/test_parsenum.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakefs.h"
#include "tap.h"
#include "bench/testfile.h"

static int count_entries(const char *dir)
{
	char cmd[300];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

int main(void)
{
	char dir[] = "/tmp/rafleet-testfile-XXXXXX", path[300], why[512];
	unsigned char a[TESTFILE_BLOCK], b[TESTFILE_BLOCK];
	struct stat st1, st2;
	int made, fd;

	testfile_block(1, 5, a);
	testfile_block(1, 5, b);
	ok(!memcmp(a, b, sizeof(a)), "the same block of the same seed is the same");
	testfile_block(1, 6, b);
	ok(memcmp(a, b, sizeof(a)), "another block differs");
	testfile_block(2, 5, b);
	ok(memcmp(a, b, sizeof(a)), "another seed differs");
	testfile_block(TESTFILE_RET, 9, b);
	{
		size_t bad = 0;

		for (size_t i = 0; i < TESTFILE_BLOCK; i++)
			bad += b[i] != testfile_ret[i % testfile_ret_len];
#if defined(__x86_64__)
		ok(testfile_ret_len == 1 && testfile_ret[0] == 0xc3, "x86's RET is 0xc3");
#elif defined(__aarch64__)
		ok(testfile_ret_len == 4 && testfile_ret[0] == 0xc0 && testfile_ret[3] == 0xd6,
		   "arm64's RET is the word 0xd65f03c0, little-endian");
#endif
		is_i64(bad, 0, "the RET seed is the RET at every instruction offset of a block");
	}

	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return tap_done();
	snprintf(path, sizeof(path), "%s/data", dir);
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), -ENOENT, "a missing file does not match");
	is_i64(testfile_ensure(path, 1 << 20, 1, &made, why, sizeof(why)), 0, "ensure makes the file");
	is_i64(made, 1, "  and says it made it");
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), 1, "  and it matches the pattern");
	is_i64(count_entries(dir), 1, "  with no temporary file left");
	stat(path, &st1);
	is_i64(testfile_ensure(path, 1 << 20, 1, &made, why, sizeof(why)), 0, "ensure again reuses it");
	stat(path, &st2);
	ok(made == 0 && st1.st_ino == st2.st_ino, "  without writing it again");
	is_i64(testfile_matches(path, 2 << 20, 1, why, sizeof(why)), 0, "another size does not match");
	is_i64(testfile_matches(path, 1 << 20, 2, why, sizeof(why)), 0, "another seed does not match");
	is_i64(testfile_ensure(path, 2 << 20, 1, &made, why, sizeof(why)), -EEXIST,
	       "a file that is not this pattern is left alone");

	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (pwrite(fd, "x", 1, 512 << 10) != 1)
			diag("pwrite failed");
		close(fd);
	}
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), 1,
	       "one changed byte between the checked blocks is not seen (a sample)");
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (pwrite(fd, "x", 1, 0) != 1)
			diag("pwrite failed");
		close(fd);
	}
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), 0, "a changed first block is");
	is_i64(testfile_ensure(path, 1000, 1, &made, why, sizeof(why)), -EINVAL, "a size not a multiple of 4K is refused");

	/* A full disk: a 1 MiB tmpfs asked for 4 MiB (root only). */
	snprintf(path, sizeof(path), "%s/small", dir);
	mkdir(path, 0755);
	if (mount("tmpfs", path, "tmpfs", 0, "size=1m") == 0) {
		snprintf(path, sizeof(path), "%s/small/data", dir);
		is_i64(testfile_ensure(path, 4 << 20, 1, &made, why, sizeof(why)), -ENOSPC,
		       "a full disk: -ENOSPC");
		snprintf(path, sizeof(path), "%s/small", dir);
		is_i64(count_entries(path), 0, "  and nothing is left behind");
		umount(path);
	} else {
		ok(1, "# SKIP a full disk: cannot mount a tmpfs here (%s)", strerror(errno));
	}

	/* code is never run from a file checked in part: every block */
	snprintf(path, sizeof(path), "%s/code", dir);
	is_i64(testfile_ensure(path, 1 << 20, TESTFILE_RET, &made, why, sizeof(why)), 0,
	       "a file of RET stubs is made");
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (pwrite(fd, "\xcc", 1, 512 << 10) != 1)
			diag("pwrite failed");
		close(fd);
	}
	is_i64(testfile_matches(path, 1 << 20, TESTFILE_RET, why, sizeof(why)), 0,
	       "one changed byte of a file of code, between the sampled blocks, is seen");

	/* only root's own files, in root's own directories (lib/trust.h) */
	snprintf(path, sizeof(path), "%s/data2", dir);
	testfile_ensure(path, 1 << 20, 1, &made, why, sizeof(why));
	if (geteuid() == 0 && !chown(path, 65534, 65534)) {
		is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), -EPERM,
		       "a file another user owns is refused");
		ok(strstr(why, "owned by uid 65534") != NULL, "  and why says whose: %s", why);
		if (chown(path, 0, 0))
			diag("chown back failed");
	} else {
		ok(1, "# SKIP a file another user owns: not root");
		ok(1, "# SKIP   and why says whose: not root");
	}
	chmod(path, 0666);
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), -EPERM,
	       "a file others can write is refused");
	chmod(path, 0644);
	snprintf(path, sizeof(path), "%s/link", dir);
	if (symlink("data2", path))
		diag("symlink failed");
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), -ELOOP,
	       "a symlink in the file's place is not followed");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0644);
	is_i64(testfile_matches(path, 1 << 20, 1, why, sizeof(why)), -EINVAL,
	       "a FIFO in the file's place is refused, not waited on");
	snprintf(path, sizeof(path), "%s/open", dir);
	mkdir(path, 0777);
	chmod(path, 0777);
	snprintf(path, sizeof(path), "%s/open/data", dir);
	is_i64(testfile_ensure(path, 1 << 20, 1, &made, why, sizeof(why)), -EPERM,
	       "a directory others can write (not sticky) is refused");
	ok(!made && access(path, F_OK), "  and nothing is made in it");

	snprintf(path, sizeof(path), "/proc/rafleet-cannot-write");
	ok(testfile_ensure(path, 1 << 20, 1, &made, why, sizeof(why)) < 0 && !made,
	   "a directory that cannot be written: an error, nothing made");
	fakefs_rm_tree(dir);
	return tap_done();
}
