// SPDX-License-Identifier: GPL-2.0
/*
 * aptkeep: the APT::NeverAutoRemove file that keeps a rollout's previous
 * kernel.  Its pattern, compiled as apt compiles it (an extended regular
 * expression), matches every package of that release and no other; the
 * release is refused when the file could not name it safely; the file is
 * written, replaced and removed under $RAFLEET_ROOT, and only where the
 * root has apt.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakefs.h"
#include "host/aptkeep.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-aptkeep-XXXXXX";

/* The pattern between the quotes of the file's one list entry. */
static const char *pattern_of(const char *text)
{
	static char re[256];
	const char *a = strstr(text, "{\n   \""), *b;

	re[0] = '\0';
	if (!a)
		return re;
	a += 6;
	b = strstr(a, "\";");
	if (b && (size_t)(b - a) < sizeof(re)) {
		memcpy(re, a, (size_t)(b - a));
		re[b - a] = '\0';
	}
	/* apt's config parser keeps a backslash before '.' and '+' as it is */
	return re;
}

static bool matches(const char *re, const char *name)
{
	regex_t r;
	bool m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return false;
	m = regexec(&r, name, 0, NULL, 0) == 0;
	regfree(&r);
	return m;
}

static void test_release_ok(void)
{
	ok(aptkeep_release_ok("7.3.4-0.vanilla+virt"), "a Fedora-style release is named");
	ok(aptkeep_release_ok("7.3.4-1.rafleet+virt-debug"), "  and one with a +variant");
	ok(aptkeep_release_ok("6.1.0-13-amd64"), "  and Debian's own");
	ok(!aptkeep_release_ok(NULL) && !aptkeep_release_ok(""), "no release, or an empty one, is refused");
	ok(!aptkeep_release_ok("-rc1"), "a leading '-' is refused");
	ok(!aptkeep_release_ok("7.3.4\"; \"^.*"), "a quote is refused: it would end apt's string");
	ok(!aptkeep_release_ok("7.3.4 x") && !aptkeep_release_ok("7.3.4\nAPT"),
	   "  and blanks and newlines");
	ok(!aptkeep_release_ok("7.3.4-(a|b)") && !aptkeep_release_ok("7.3.4*"),
	   "  and regular expression operators other than . and +");
	ok(!aptkeep_release_ok("12345678901234567890123456789012345678901234567890123456789012345"),
	   "  and 65 characters (uname's limit is 64)");
}

static void test_format(void)
{
	char text[1024], small[64];
	const char *re;
	int n;

	n = aptkeep_format(text, sizeof(text), "7.3.4-0.vanilla", "trial");
	ok(n > 0 && (size_t)n == strlen(text), "the text and its length");
	ok(strstr(text, "\n// release 7.3.4-0.vanilla\n// phase trial\n") != NULL,
	   "  its release and phase lines (the prerm.d hook reads the first)");
	ok(strstr(text, "\nAPT::NeverAutoRemove\n{\n") && strstr(text, "\";\n};\n"),
	   "  one APT::NeverAutoRemove list");
	re = pattern_of(text);
	is_str(re, "^linux-.*-7\\.3\\.4-0\\.vanilla$", "  the pattern, dots escaped");
	ok(matches(re, "linux-image-7.3.4-0.vanilla") &&
	   matches(re, "linux-headers-7.3.4-0.vanilla"),
	   "  it matches the release's image and headers");
	ok(!matches(re, "linux-image-7.3.4-0Xvanilla") &&
	   !matches(re, "linux-image-7.3.4-0.vanilla+virt") &&
	   !matches(re, "linux-image-7.3.4-1.rafleet") &&
	   !matches(re, "linux-image-rafleet"),
	   "  and no other release, flavour nor the meta package");

	n = aptkeep_format(text, sizeof(text), "7.3.4-1.rafleet+virt", "promoted");
	re = pattern_of(text);
	is_str(re, "^linux-.*-7\\.3\\.4-1\\.rafleet\\+virt$", "a '+' is escaped");
	ok(n > 0 && matches(re, "linux-image-7.3.4-1.rafleet+virt") &&
	   !matches(re, "linux-image-7.3.4-1.rafleetvirt") &&
	   !matches(re, "linux-image-7.3.4-1.rafleettvirt"),
	   "  and matches itself literally");

	is_i64(aptkeep_format(text, sizeof(text), "7.3.4\"", "trial"), -EINVAL,
	       "a release it cannot name: -EINVAL");
	is_i64(aptkeep_format(text, sizeof(text), "7.3.4", "tri\nal"), -EINVAL,
	       "  a phase with a newline too");
	is_i64(aptkeep_format(small, sizeof(small), "7.3.4", "trial"), -ENOSPC,
	       "a buffer too small: -ENOSPC");
}

static char *slurp(const char *rel)
{
	static char buf[2048];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static bool exists(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return access(path, F_OK) == 0;
}

static ino_t inode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

static void test_sync(void)
{
	char dir[512];
	ino_t ino;
	const char *t;

	setenv("RAFLEET_ROOT", root, 1);
	is_i64(aptkeep_sync("7.3.4-0.vanilla+virt", "trial"), 0, "no apt in the root: done");
	ok(!exists(AUTOREMOVE_FILE) && !exists("/etc/apt"), "  and nothing made there");

	snprintf(dir, sizeof(dir), "%s%s", root, AUTOREMOVE_DIR);
	fakefs_mkdir_p(dir);
	is_i64(aptkeep_sync(NULL, "idle"), 0, "apt, nothing to keep, no file: done");
	snprintf(dir, sizeof(dir), "%s%s.tmp.Zz9yX8", root, AUTOREMOVE_FILE);
	fakefs_put("/", dir, "// half");
	is_i64(aptkeep_sync("7.3.4-0.vanilla+virt", "staged"), 0, "kept in phase staged");
	ok(!exists(AUTOREMOVE_FILE ".tmp.Zz9yX8"),
	   "  a crashed write's temporary file is gone (apt would warn about its name)");
	t = slurp(AUTOREMOVE_FILE);
	ok(t && strstr(t, "// release 7.3.4-0.vanilla+virt\n// phase staged\n"), "  the file says so");
	is_i64(aptkeep_sync("7.3.4-1.rafleet+virt", "promoted"), 0, "another kernel, promoted");
	t = slurp(AUTOREMOVE_FILE);
	ok(t && strstr(t, "// release 7.3.4-1.rafleet+virt\n// phase promoted\n") &&
	   !strstr(t, "vanilla"), "  replaces it whole");
	snprintf(dir, sizeof(dir), "%s%s", root, AUTOREMOVE_FILE);
	ino = inode(dir);
	is_i64(aptkeep_sync("7.3.4-1.rafleet+virt", "promoted"), 0, "the same again");
	ok(ino && inode(dir) == ino, "  leaves the file alone (no rewrite, no fsync)");
	is_i64(aptkeep_sync("7.3.4-1.rafleet+virt", "rolled-back"), 0, "another phase");
	ok(inode(dir) != ino, "  is written");
	is_i64(aptkeep_sync("bad\"release", "trial"), -EINVAL, "a release it cannot name: -EINVAL");
	ok(!exists(AUTOREMOVE_FILE), "  and the old file is gone: it named a kernel no longer the previous one");
	aptkeep_sync("7.3.4-1.rafleet+virt", "promoted");
	is_i64(aptkeep_sync(NULL, "idle"), 0, "idle: removed");
	ok(!exists(AUTOREMOVE_FILE), "  gone");
	unsetenv("RAFLEET_ROOT");
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	test_release_ok();
	test_format();
	test_sync();
	fakefs_rm_tree(root);
	return tap_done();
}
