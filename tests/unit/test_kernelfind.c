// SPDX-License-Identifier: GPL-2.0
/*
 * kernelfind and bootdefault on a fake root: a kernel's image and
 * initramfs by its BLS entry, by Debian's and Fedora's names, by an image
 * path; a kernel that is not there says what was looked for.  The default
 * entry: loader.conf's default lines replaced by one naming the entry,
 * the rest kept, one added when there was none; no entry for the kernel
 * is -ENOENT and leaves loader.conf alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootdefault.h"
#include "fakefs.h"
#include "kernelfind.h"
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

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	setenv("RAFLEET_ROOT", root, 1);
	unsetenv("RAFLEET_GRUBBY");
	test_find();
	test_default();
	fakefs_rm_tree(root);
	return tap_done();
}
