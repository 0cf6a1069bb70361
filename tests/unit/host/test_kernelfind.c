// SPDX-License-Identifier: GPL-2.0
/*
 * kernelfind on a fake root: a kernel's image and initramfs by its BLS
 * entry, by Debian's and Fedora's names, by an image path; a kernel that
 * is not there says what was looked for.  An entry's options come with its
 * kernel; an initrd it names that is missing is reported, not replaced by
 * another one.  (The default entry: test_bootloader.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "host/kernelfind.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-kernelfind-XXXXXX";

static void put(const char *rel, const char *content)
{
	if (fakefs_put(root, rel, content))
		diag("cannot write %s/%s", root, rel);
}

static void test_find(void)
{
	struct kernel_files k;
	char why[512];

	put("boot/vmlinuz-6.1.0-13-amd64", "k");
	put("boot/initrd.img-6.1.0-13-amd64", "i");
	is_i64(kernel_find("6.1.0-13-amd64", &k, why, sizeof(why)), 0, "a Debian kernel by release");
	ok(!strcmp(k.image, "/boot/vmlinuz-6.1.0-13-amd64") && !strcmp(k.initrd, "/boot/initrd.img-6.1.0-13-amd64"),
	   "  /boot/vmlinuz-REL and /boot/initrd.img-REL");

	put("usr/lib/modules/6.8.5-301.fc40.x86_64/vmlinuz", "k");
	put("boot/initramfs-6.8.5-301.fc40.x86_64.img", "i");
	kernel_find("6.8.5-301.fc40.x86_64", &k, why, sizeof(why));
	ok(!strcmp(k.image, "/usr/lib/modules/6.8.5-301.fc40.x86_64/vmlinuz") &&
	   !strcmp(k.initrd, "/boot/initramfs-6.8.5-301.fc40.x86_64.img"),
	   "a Fedora kernel: modules/REL/vmlinuz and /boot/initramfs-REL.img");

	put("boot/abc/7.3.4-1.rafleet+virt/linux", "k");
	put("boot/abc/7.3.4-1.rafleet+virt/initrd", "i");
	put("boot/loader/entries/abc-7.3.4-1.rafleet+virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet+virt\n"
	    "linux /abc/7.3.4-1.rafleet+virt/linux\ninitrd /abc/7.3.4-1.rafleet+virt/initrd\n");
	kernel_find("7.3.4-1.rafleet+virt", &k, why, sizeof(why));
	ok(!strcmp(k.image, "/boot/abc/7.3.4-1.rafleet+virt/linux") &&
	   !strcmp(k.initrd, "/boot/abc/7.3.4-1.rafleet+virt/initrd"),
	   "a kernel-install kernel: the BLS entry's linux and initrd, under /boot");
	is_i64(kernel_find("/boot/abc/7.3.4-1.rafleet+virt/linux", &k, why, sizeof(why)), 0,
	       "the same by its image path");
	is_str(k.release, "7.3.4-1.rafleet+virt", "  its release from the entry");
	kernel_find("/boot/vmlinuz-6.1.0-13-amd64", &k, why, sizeof(why));
	is_str(k.release, "6.1.0-13-amd64", "an image path without an entry: the release from vmlinuz-REL");

	is_i64(kernel_find("9.9.9", &k, why, sizeof(why)), -ENOENT, "a release not installed: -ENOENT");
	ok(strstr(why, "no /boot/vmlinuz-9.9.9") != NULL, "  says where it looked: %s", why);
	put("boot/mystery", "k");
	is_i64(kernel_find("/boot/mystery", &k, why, sizeof(why)), -ENOENT,
	       "an image whose release cannot be told: -ENOENT");
	is_i64(kernel_find("/boot/nothere", &k, why, sizeof(why)), -ENOENT, "an image that is not there");
}

static void test_entry_files(void)
{
	struct kernel_files k;
	char why[512];

	put("boot/loader/entries/abc-7.3.4-1.rafleet+virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet+virt\n"
	    "linux /abc/7.3.4-1.rafleet+virt/linux\ninitrd /abc/7.3.4-1.rafleet+virt/initrd\n"
	    "options root=/dev/vda1\noptions ro quiet\n");
	kernel_find("7.3.4-1.rafleet+virt", &k, why, sizeof(why));
	is_str(k.entry, "abc-7.3.4-1.rafleet+virt", "an entry's id comes with the kernel");
	is_str(k.options, "root=/dev/vda1 ro quiet", "  and its options lines, joined");
	is_str(k.missing_initrd, "", "  its initrd is there");
	put("boot/loader/entries/abc-7.3.4-1.rafleet+virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet+virt\n"
	    "linux /abc/7.3.4-1.rafleet+virt/linux\ninitrd /abc/gone/initrd\n");
	put("boot/initrd.img-7.3.4-1.rafleet+virt", "i");
	kernel_find("7.3.4-1.rafleet+virt", &k, why, sizeof(why));
	ok(!strcmp(k.missing_initrd, "/abc/gone/initrd") && !k.initrd[0],
	   "an initrd the entry names that is missing: reported, no other one taken (%s, '%s')",
	   k.missing_initrd, k.initrd);
	kernel_find("6.1.0-13-amd64", &k, why, sizeof(why));
	ok(!strcmp(k.initrd, "/boot/initrd.img-6.1.0-13-amd64") && !k.missing_initrd[0],
	   "an entry without initrd lines: Debian's name is looked for");
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	setenv("RAFLEET_ROOT", root, 1);
	setenv("RAFLEET_SYSFS", "/nonexistent-rafleet-sysfs", 1);	/* no EFI: not the host's */
	test_find();
	test_entry_files();
	fakefs_rm_tree(root);
	return tap_done();
}
