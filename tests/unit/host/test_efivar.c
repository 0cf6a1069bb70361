// SPDX-License-Identifier: GPL-2.0
/*
 * efivar: the Boot Loader Interface's EFI variables in a fake efivarfs
 * ($RAFLEET_SYSFS/firmware/efi/efivars): the exact bytes written
 * (attributes 7, then UTF-16LE and its NUL), files written by hand read
 * with and without the NUL, unset and deleted variables, an immutable one
 * (chattr +i, as efivarfs makes them) replaced and deleted, and non-ASCII
 * or too long values refused with nothing written.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fakefs.h"
#include "host/efivar.h"
#include "tap.h"

#define GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

static char root[] = "/tmp/rafleet-efivar-XXXXXX";
static char vroot[] = "/var/tmp/rafleet-efivar-XXXXXX";
static bool vroot_made;
static const char *sysfs = root;	/* $RAFLEET_SYSFS now */
static char why[1024];

static void use_sysfs(const char *dir)
{
	sysfs = dir;
	setenv("RAFLEET_SYSFS", dir, 1);
}

/* The file of variable @name under the current $RAFLEET_SYSFS. */
static const char *var_file(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/firmware/efi/efivars/%s-" GUID, sysfs, name);
	return path;
}

static void mkvars(void)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/firmware/efi/efivars", sysfs);
	if (fakefs_mkdir_p(dir))
		diag("cannot make %s", dir);
}

/* Write variable @name's file by hand: @n bytes. */
static void put_raw(const char *name, const void *bytes, size_t n)
{
	FILE *f = fopen(var_file(name), "w");

	if (!f || fwrite(bytes, 1, n, f) != n || fclose(f))
		diag("cannot write %s", var_file(name));
}

/* The bytes of variable @name's file: their count, -1 if it cannot be read. */
static ssize_t get_raw(const char *name, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(var_file(name), "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return (ssize_t)n;
}

static bool exists(const char *name)
{
	return access(var_file(name), F_OK) == 0;
}

/* The value of @name, or "(error -N: why)". */
static const char *get(const char *name)
{
	static char buf[EFIVAR_VALUE_MAX + 1], err[sizeof(why) + 32];
	int ret = efivar_get_loader(name, buf, sizeof(buf), why, sizeof(why));

	if (!ret)
		return buf;
	snprintf(err, sizeof(err), "(error %d: %s)", ret, why);
	return err;
}

/* FS_IOC_GETFLAGS of @path: 0 or -errno. */
static int get_flags(const char *path, int *flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, flags) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Set or clear FS_IMMUTABLE_FL of @path: 0 or -errno. */
static int set_immutable(const char *path, bool on)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags, ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		ret = -errno;
	} else {
		flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
			ret = -errno;
	}
	close(fd);
	return ret;
}

static void test_available(void)
{
	char dir[PATH_MAX];
	int ret;

	ok(!efivar_available(), "no firmware/efi/efivars: not available");
	ret = efivar_get_loader("LoaderEntryDefault", dir, sizeof(dir), why, sizeof(why));
	is_i64(ret, -ENOENT, "  and a variable read there is -ENOENT");
	fakefs_put(sysfs, "firmware/efi/efivars", "not a directory\n");
	ok(!efivar_available(), "efivars a plain file: not available");
	snprintf(dir, sizeof(dir), "%s/firmware/efi/efivars", sysfs);
	unlink(dir);
	mkvars();
	ok(efivar_available(), "the directory exists: available");
}

static void test_write_bytes(void)
{
	static const unsigned char want[] = {
		0x07, 0x00, 0x00, 0x00,
		'r', 0, 'a', 0, 'f', 0, 'l', 0, 'e', 0, 'e', 0, 't', 0, '-', 0,
		'7', 0, '.', 0, '3', 0, '.', 0, '4', 0, '.', 0, 'c', 0, 'o', 0,
		'n', 0, 'f', 0, 0, 0,
	};
	unsigned char got[256];
	ssize_t n;
	int ret;

	ret = efivar_set_loader("LoaderEntryDefault", "rafleet-7.3.4.conf", why, sizeof(why));
	if (!is_i64(ret, 0, "set LoaderEntryDefault to rafleet-7.3.4.conf"))
		diag("%s", why);
	n = get_raw("LoaderEntryDefault", got, sizeof(got));
	is_i64(n, sizeof(want), "  the file is 4 + 2 * 19 bytes");
	ok(n == (ssize_t)sizeof(want) && !memcmp(got, want, sizeof(want)),
	   "  07 00 00 00, then UTF-16LE and its NUL");
	is_str(get("LoaderEntryDefault"), "rafleet-7.3.4.conf", "  and reads back");

	ret = efivar_set_loader("LoaderEntryOneShot", "", why, sizeof(why));
	n = get_raw("LoaderEntryOneShot", got, sizeof(got));
	ok(!ret && n == 6 && !memcmp(got, "\x07\0\0\0\0\0", 6),
	   "an empty value is the attributes and a NUL");
	is_str(get("LoaderEntryOneShot"), "", "  and reads back empty");
}

static void test_read_by_hand(void)
{
	static const char with_nul[] = "\x07\0\0\0r\0a\0f\0l\0e\0e\0t\0\0\0";
	static const char volatile_attr[] = "\x06\0\0\0" "7\0.\0" "3\0";
	static const char inner_nul[] = "\x07\0\0\0a\0\0\0b\0\0\0";
	static const char odd[] = "\x07\0\0\0a\0b";
	char buf[64];
	int ret;

	put_raw("LoaderEntrySelected", with_nul, sizeof(with_nul) - 1);
	is_str(get("LoaderEntrySelected"), "rafleet", "a value written with its NUL");
	put_raw("LoaderEntrySelected", with_nul, sizeof(with_nul) - 3);
	is_str(get("LoaderEntrySelected"), "rafleet", "the same without the NUL");
	put_raw("LoaderInfo", volatile_attr, sizeof(volatile_attr) - 1);
	is_str(get("LoaderInfo"), "7.3", "attributes 6 (volatile), no NUL");
	put_raw("LoaderInfo", "\x06\0\0\0", 4);
	is_str(get("LoaderInfo"), "", "attributes and no data: empty");

	put_raw("LoaderInfo", "", 0);
	is_i64(efivar_get_loader("LoaderInfo", NULL, 0, why, sizeof(why)), -ENOENT,
	       "an empty file (an uncommitted variable) is -ENOENT");
	put_raw("LoaderInfo", "\x07\0", 2);
	ret = efivar_get_loader("LoaderInfo", NULL, 0, why, sizeof(why));
	ok(ret == -EBADMSG && strstr(why, "4 bytes of attributes"),
	   "2 bytes: -EBADMSG, fewer than the attributes (%s)", why);
	put_raw("LoaderInfo", odd, sizeof(odd) - 1);
	ret = efivar_get_loader("LoaderInfo", NULL, 0, why, sizeof(why));
	ok(ret == -EBADMSG && strstr(why, "odd"), "an odd count of data bytes: -EBADMSG (%s)",
	   why);
	put_raw("LoaderInfo", inner_nul, sizeof(inner_nul) - 1);
	ret = efivar_get_loader("LoaderInfo", buf, sizeof(buf), why, sizeof(why));
	ok(ret == -EBADMSG && strstr(why, "before the end"), "a NUL before the end: -EBADMSG (%s)",
	   why);
}

static void test_unset(void)
{
	char buf[64] = "stale";
	int ret;

	efivar_del_loader("LoaderEntryOneShot", why, sizeof(why));
	ret = efivar_get_loader("LoaderEntryOneShot", buf, sizeof(buf), why, sizeof(why));
	is_i64(ret, -ENOENT, "an unset variable is -ENOENT");
	ok(strstr(why, var_file("LoaderEntryOneShot")) && strstr(why, "not set"),
	   "  @why names the file (%s)", why);
	is_str(buf, "", "  and @out is empty");
}

static void test_overwrite(void)
{
	unsigned char got[256];

	efivar_set_loader("LoaderEntryDefault", "rafleet-7.3.4-a-rather-long-entry-id.conf", why,
			  sizeof(why));
	is_i64(efivar_set_loader("LoaderEntryDefault", "short.conf", why, sizeof(why)), 0,
	       "replace a long value with a short one");
	is_i64(get_raw("LoaderEntryDefault", got, sizeof(got)), 4 + 2 * 11,
	       "  nothing of the old value is left");
	is_str(get("LoaderEntryDefault"), "short.conf", "  it reads the new value");
}

static void test_delete(void)
{
	efivar_set_loader("LoaderBootCountPath", "\\loader\\entries\\a+3.conf", why, sizeof(why));
	ok(exists("LoaderBootCountPath"), "LoaderBootCountPath set");
	is_i64(efivar_del_loader("LoaderBootCountPath", why, sizeof(why)), 0, "delete it");
	ok(!exists("LoaderBootCountPath"), "  its file is gone");
	is_i64(efivar_get_loader("LoaderBootCountPath", NULL, 0, why, sizeof(why)), -ENOENT,
	       "  it reads -ENOENT");
	is_i64(efivar_del_loader("LoaderBootCountPath", why, sizeof(why)), 0,
	       "deleting it again is 0");
	is_i64(efivar_del_loader("LoaderDevicePartUUID", why, sizeof(why)), 0,
	       "deleting a variable never set is 0");
}

static void test_non_ascii(void)
{
	static const char latin1[] = "\x07\0\0\0" "c\0a\0f\0\xe9\0\0\0";
	static const char emoji[] = "\x07\0\0\0" "a\0\x3d\xd8\x00\xde\0\0";
	char buf[64] = "stale";
	int ret;

	put_raw("LoaderEntrySelected", latin1, sizeof(latin1) - 1);
	ret = efivar_get_loader("LoaderEntrySelected", buf, sizeof(buf), why, sizeof(why));
	ok(ret == -EINVAL && strstr(why, "character 4 is U+00E9, not ASCII") &&
	   strstr(why, var_file("LoaderEntrySelected")),
	   "U+00E9 on read: -EINVAL, @why names the file and the character (%s)", why);
	is_str(buf, "", "  @out is left empty");
	put_raw("LoaderEntrySelected", emoji, sizeof(emoji) - 1);
	ret = efivar_get_loader("LoaderEntrySelected", buf, sizeof(buf), why, sizeof(why));
	ok(ret == -EINVAL && strstr(why, "surrogate"),
	   "U+1F600 (a surrogate pair) on read: -EINVAL (%s)", why);

	ret = efivar_set_loader("LoaderEntryOneShot", "caf\xc3\xa9", why, sizeof(why));
	is_i64(ret, -EINVAL, "a non-ASCII value to write: -EINVAL");
	ok(!exists("LoaderEntryOneShot"), "  nothing written");
	ret = efivar_set_loader("LoaderEntryDefault", "caf\xc3\xa9", why, sizeof(why));
	is_str(get("LoaderEntryDefault"), "short.conf", "  nor an existing value changed");
}

static void test_too_long(void)
{
	static char value[EFIVAR_VALUE_MAX + 2];
	char small[8], name[EFIVAR_NAME_MAX + 2];
	unsigned char *big;
	int ret;

	memset(value, 'a', EFIVAR_VALUE_MAX + 1);
	ret = efivar_set_loader("LoaderEntryDefault", value, why, sizeof(why));
	is_i64(ret, -E2BIG, "a value of EFIVAR_VALUE_MAX + 1 characters: -E2BIG");
	is_str(get("LoaderEntryDefault"), "short.conf", "  the old value stays");
	value[EFIVAR_VALUE_MAX] = '\0';
	ret = efivar_set_loader("LoaderEntryDefault", value, why, sizeof(why));
	is_i64(ret, 0, "EFIVAR_VALUE_MAX characters are written");
	ok(!strcmp(get("LoaderEntryDefault"), value), "  and read back");

	ret = efivar_get_loader("LoaderEntryDefault", small, sizeof(small), why, sizeof(why));
	ok(ret == -E2BIG && strstr(why, "does not fit in 8 bytes"),
	   "read into too small a buffer: -E2BIG (%s)", why);
	efivar_set_loader("LoaderEntryDefault", "1234567", why, sizeof(why));
	ret = efivar_get_loader("LoaderEntryDefault", small, sizeof(small), why, sizeof(why));
	ok(!ret && !strcmp(small, "1234567"), "7 characters fit in 8 bytes");

	big = calloc(1, 8192);
	if (big) {
		big[0] = 7;
		for (size_t i = 4; i < 8192; i += 2)
			big[i] = 'x';
		put_raw("LoaderInfo", big, 8192);
		free(big);
	}
	is_i64(efivar_get_loader("LoaderInfo", value, sizeof(value), why, sizeof(why)), -E2BIG,
	       "a file of 8192 bytes: -E2BIG");

	memset(name, 'L', EFIVAR_NAME_MAX + 1);
	name[EFIVAR_NAME_MAX + 1] = '\0';
	is_i64(efivar_set_loader(name, "x", why, sizeof(why)), -ENAMETOOLONG,
	       "a name of EFIVAR_NAME_MAX + 1 characters: -ENAMETOOLONG");
	is_i64(efivar_get_loader("../LoaderInfo", small, sizeof(small), why, sizeof(why)),
	       -EINVAL, "a name with a / or a dot: -EINVAL");
	is_i64(efivar_del_loader("", why, sizeof(why)), -EINVAL, "an empty name: -EINVAL");
}

/* A directory where chattr +i works on the test's files: root's, or one in /var/tmp. */
static bool immutable_here(const char *name, int *err)
{
	put_raw(name, "\x07\0\0\0o\0l\0d\0\0\0", 12);
	*err = set_immutable(var_file(name), true);
	return !*err;
}

static void test_immutable(void)
{
	const char *name = "LoaderEntryOneShot";
	int err, flags = 0, fd;

	if (!immutable_here(name, &err)) {
		diag("chattr +i refused in %s: %s", root, strerror(-err));
		unlink(var_file(name));
		if (mkdtemp(vroot)) {
			vroot_made = true;
			use_sysfs(vroot);
			mkvars();
			if (!immutable_here(name, &err))
				diag("chattr +i refused in %s: %s", vroot, strerror(-err));
		}
	}
	if (err) {
		diag("no filesystem here takes FS_IMMUTABLE_FL (root cannot set it, or "
		     "tmpfs before Linux 6.0): the immutable cases are not run");
		ok(1, "# SKIP FS_IOC_SETFLAGS of FS_IMMUTABLE_FL: %s", strerror(-err));
		use_sysfs(root);
		return;
	}
	fd = open(var_file(name), O_WRONLY | O_CLOEXEC);
	ok(fd < 0 && errno == EPERM, "%s: an immutable file cannot be opened to write", sysfs);
	if (fd >= 0)
		close(fd);

	err = efivar_set_loader(name, "rafleet-7.3.4.conf", why, sizeof(why));
	if (!is_i64(err, 0, "an immutable variable is replaced"))
		diag("%s", why);
	is_str(get(name), "rafleet-7.3.4.conf", "  it reads the new value");
	ok(!get_flags(var_file(name), &flags) && (flags & FS_IMMUTABLE_FL),
	   "  and is immutable again, as bootctl leaves it");

	err = efivar_del_loader(name, why, sizeof(why));
	if (!is_i64(err, 0, "an immutable variable is deleted"))
		diag("%s", why);
	ok(!exists(name), "  its file is gone");

	set_immutable(var_file(name), false);	/* whatever failed: rm -r can go on */
	use_sysfs(root);
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	use_sysfs(root);
	test_available();
	test_write_bytes();
	test_read_by_hand();
	test_unset();
	test_overwrite();
	test_delete();
	test_non_ascii();
	test_too_long();
	test_immutable();
	fakefs_rm_tree(root);
	if (vroot_made)
		fakefs_rm_tree(vroot);
	return tap_done();
}
