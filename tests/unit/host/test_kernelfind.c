// SPDX-License-Identifier: GPL-2.0
/*
 * kernelfind and bootdefault on a fake root: a kernel's image and
 * initramfs by its BLS entry, by Debian's and Fedora's names, by an image
 * path; a kernel that is not there says what was looked for.  The default
 * entry: loader.conf's default lines replaced by one naming the entry,
 * the rest kept, one added when there was none; no entry for the kernel
 * is -ENOENT and leaves loader.conf alone.  The effective default: the
 * pattern's entry, with no pattern the first of the menu (the newest), an
 * EFI variable's or a pattern matching nothing said; restoring a recorded
 * default.  An entry's options come with its kernel; an initrd it names
 * that is missing is reported, not replaced by another one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bootdefault.h"
#include "fakefs.h"
#include "host/kernelfind.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-kernelfind-XXXXXX";

static void put(const char *rel, const char *content)
{
	if (fakefs_put(root, rel, content))
		diag("cannot write %s/%s", root, rel);
}

static const char *file(const char *rel)
{
	static char buf[1024];
	char path[sizeof(root) + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	buf[f ? fread(buf, 1, sizeof(buf) - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
	return buf;
}

static void test_find(void)
{
	struct kernel_files k;
	char why[512];

	put("boot/vmlinuz-6.1.0-13-amd64", "k");
	put("boot/initrd.img-6.1.0-13-amd64", "i");
	is_i64(kernel_find(root, "6.1.0-13-amd64", &k, why, sizeof(why)), 0, "a Debian kernel by release");
	ok(!strcmp(k.image, "/boot/vmlinuz-6.1.0-13-amd64") && !strcmp(k.initrd, "/boot/initrd.img-6.1.0-13-amd64"),
	   "  /boot/vmlinuz-REL and /boot/initrd.img-REL");

	put("usr/lib/modules/6.8.5-301.fc40.x86_64/vmlinuz", "k");
	put("boot/initramfs-6.8.5-301.fc40.x86_64.img", "i");
	kernel_find(root, "6.8.5-301.fc40.x86_64", &k, why, sizeof(why));
	ok(!strcmp(k.image, "/usr/lib/modules/6.8.5-301.fc40.x86_64/vmlinuz") &&
	   !strcmp(k.initrd, "/boot/initramfs-6.8.5-301.fc40.x86_64.img"),
	   "a Fedora kernel: modules/REL/vmlinuz and /boot/initramfs-REL.img");

	put("boot/abc/7.3.4-1.rafleet.virt/linux", "k");
	put("boot/abc/7.3.4-1.rafleet.virt/initrd", "i");
	put("boot/loader/entries/abc-7.3.4-1.rafleet.virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet.virt\n"
	    "linux /abc/7.3.4-1.rafleet.virt/linux\ninitrd /abc/7.3.4-1.rafleet.virt/initrd\n");
	kernel_find(root, "7.3.4-1.rafleet.virt", &k, why, sizeof(why));
	ok(!strcmp(k.image, "/boot/abc/7.3.4-1.rafleet.virt/linux") &&
	   !strcmp(k.initrd, "/boot/abc/7.3.4-1.rafleet.virt/initrd"),
	   "a kernel-install kernel: the BLS entry's linux and initrd, under /boot");
	is_i64(kernel_find(root, "/boot/abc/7.3.4-1.rafleet.virt/linux", &k, why, sizeof(why)), 0,
	       "the same by its image path");
	is_str(k.release, "7.3.4-1.rafleet.virt", "  its release from the entry");
	kernel_find(root, "/boot/vmlinuz-6.1.0-13-amd64", &k, why, sizeof(why));
	is_str(k.release, "6.1.0-13-amd64", "an image path without an entry: the release from vmlinuz-REL");

	is_i64(kernel_find(root, "9.9.9", &k, why, sizeof(why)), -ENOENT, "a release not installed: -ENOENT");
	ok(strstr(why, "no /boot/vmlinuz-9.9.9") != NULL, "  says where it looked: %s", why);
	put("boot/mystery", "k");
	is_i64(kernel_find(root, "/boot/mystery", &k, why, sizeof(why)), -ENOENT,
	       "an image whose release cannot be told: -ENOENT");
	is_i64(kernel_find(root, "/boot/nothere", &k, why, sizeof(why)), -ENOENT, "an image that is not there");
}

static void test_default(void)
{
	char how[256], why[256];

	put("boot/loader/loader.conf", "timeout 3\ndefault debian-*\n# a comment\ndefault other\neditor no\n");
	is_i64(boot_default_set("7.3.4-1.rafleet.virt", "/boot/abc/7.3.4-1.rafleet.virt/linux",
				how, sizeof(how), why, sizeof(why)), 0, "make the rafleet entry the default");
	is_str(how, "/boot/loader/loader.conf", "  by loader.conf (no grubby under a test root)");
	is_str(file("boot/loader/loader.conf"),
	       "timeout 3\ndefault abc-7.3.4-1.rafleet.virt.conf\n# a comment\neditor no\n",
	       "  the default lines replaced by one naming the entry, the rest kept");
	put("boot/loader/loader.conf", "timeout 3\n");
	boot_default_set("7.3.4-1.rafleet.virt", "/x", how, sizeof(how), why, sizeof(why));
	is_str(file("boot/loader/loader.conf"), "timeout 3\ndefault abc-7.3.4-1.rafleet.virt.conf\n",
	       "  without a default line: one added");
	is_i64(boot_default_set("9.9.9", "/boot/vmlinuz-9.9.9", how, sizeof(how), why, sizeof(why)),
	       -ENOENT, "no entry for the kernel: -ENOENT");
	ok(strstr(why, "no boot loader configuration was found for 9.9.9") != NULL, "  says so");
	is_str(file("boot/loader/loader.conf"), "timeout 3\ndefault abc-7.3.4-1.rafleet.virt.conf\n",
	       "  loader.conf untouched");
}

static void test_effective(void)
{
	struct boot_default d, back;
	char how[256], why[256];

	put("boot/vmlinuz-6.1.0-13-amd64", "k");
	put("boot/loader/entries/debian-6.1.0-13-amd64.conf",
	    "title Debian\nversion 6.1.0-13-amd64\nlinux /vmlinuz-6.1.0-13-amd64\n");
	put("boot/loader/loader.conf", "timeout 3\ndefault debian-*\n");
	is_i64(boot_default_get(&d, why, sizeof(why)), 0, "the effective default, by a pattern");
	ok(!strcmp(d.entry, "debian-6.1.0-13-amd64") && !strcmp(d.release, "6.1.0-13-amd64") &&
	   !strcmp(d.how, "/boot/loader/loader.conf"), "  its entry, release and source: %s %s %s",
	   d.entry, d.release, d.how);
	put("boot/loader/loader.conf", "timeout 3\n");
	boot_default_get(&d, why, sizeof(why));
	is_str(d.entry, "debian-6.1.0-13-amd64", "no default line: the first of the menu (no sort-key: ids, newest first)");
	put("boot/loader/entries/abc-7.3.4-1.rafleet.virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet.virt\nsort-key rafleet\n"
	    "linux /abc/7.3.4-1.rafleet.virt/linux\ninitrd /abc/7.3.4-1.rafleet.virt/initrd\n");
	boot_default_get(&d, why, sizeof(why));
	is_str(d.entry, "abc-7.3.4-1.rafleet.virt", "  an entry with a sort-key comes before those without");
	is_str(d.release, "7.3.4-1.rafleet.virt", "  its release");
	put("boot/loader/loader.conf", "default @saved\n");
	is_i64(boot_default_get(&d, why, sizeof(why)), -EOPNOTSUPP, "default @saved: -EOPNOTSUPP");
	ok(strstr(why, "an EFI variable chooses") != NULL, "  says so: %s", why);
	put("boot/loader/loader.conf", "default nothing-*\n");
	is_i64(boot_default_get(&d, why, sizeof(why)), -ENOENT, "a pattern matching nothing: -ENOENT");
	ok(strstr(why, "matches no bootable entry") != NULL, "  says so: %s", why);

	put("boot/loader/loader.conf", "timeout 3\ndefault debian-*\n");
	boot_default_get(&back, why, sizeof(why));
	boot_default_set("7.3.4-1.rafleet.virt", "/x", how, sizeof(how), why, sizeof(why));
	is_i64(boot_default_restore(&back, why, sizeof(why)), 0, "restore the recorded default");
	is_str(file("boot/loader/loader.conf"), "timeout 3\ndefault debian-6.1.0-13-amd64.conf\n",
	       "  loader.conf names it again");
	snprintf(back.how, sizeof(back.how), "grubby");
	is_i64(boot_default_restore(&back, why, sizeof(why)), -ENOENT, "a grubby default without grubby: -ENOENT");
	back.entry[0] = '\0';
	is_i64(boot_default_restore(&back, why, sizeof(why)), -ENOENT, "nothing recorded: -ENOENT");
}

static void test_entry_files(void)
{
	struct kernel_files k;
	char why[512];

	put("boot/loader/entries/abc-7.3.4-1.rafleet.virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet.virt\n"
	    "linux /abc/7.3.4-1.rafleet.virt/linux\ninitrd /abc/7.3.4-1.rafleet.virt/initrd\n"
	    "options root=/dev/vda1\noptions ro quiet\n");
	kernel_find(root, "7.3.4-1.rafleet.virt", &k, why, sizeof(why));
	is_str(k.entry, "abc-7.3.4-1.rafleet.virt", "an entry's id comes with the kernel");
	is_str(k.options, "root=/dev/vda1 ro quiet", "  and its options lines, joined");
	is_str(k.missing_initrd, "", "  its initrd is there");
	put("boot/loader/entries/abc-7.3.4-1.rafleet.virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet.virt\n"
	    "linux /abc/7.3.4-1.rafleet.virt/linux\ninitrd /abc/gone/initrd\n");
	put("boot/initrd.img-7.3.4-1.rafleet.virt", "i");
	kernel_find(root, "7.3.4-1.rafleet.virt", &k, why, sizeof(why));
	ok(!strcmp(k.missing_initrd, "/abc/gone/initrd") && !k.initrd[0],
	   "an initrd the entry names that is missing: reported, no other one taken (%s, '%s')",
	   k.missing_initrd, k.initrd);
	kernel_find(root, "6.1.0-13-amd64", &k, why, sizeof(why));
	ok(!strcmp(k.initrd, "/boot/initrd.img-6.1.0-13-amd64") && !k.missing_initrd[0],
	   "an entry without initrd lines: Debian's name is looked for");
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	setenv("RAFLEET_ROOT", root, 1);
	unsetenv("RAFLEET_GRUBBY");
	test_find();
	test_default();
	test_effective();
	test_entry_files();
	fakefs_rm_tree(root);
	return tap_done();
}
