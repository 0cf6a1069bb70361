// SPDX-License-Identifier: GPL-2.0
/*
 * bootloader, the systemd-boot backend, on a fake root and a fake
 * efivarfs: which boot loader is found (boot.conf, LoaderInfo, an ESP
 * with an XBOOTLDR partition, /boot alone, GRUB's grub.cfg); the
 * effective default (LoaderEntryDefault over loader.conf, loader.conf's
 * pattern, the first of the menu) and the one-shot; promote's write
 * (the variable when it is set, else loader.conf, kept at one sector and
 * rewritten in place: the same inode, the same size), boot counting on an
 * EFI boot only; restoring a recorded default; what is refused.  And the
 * GRUB backends on their files, written with the real grub-editenv:
 * Debian's grub.cfg menu with GRUB_DEFAULT=saved (saved_entry names an
 * id path that survives a regenerated grub.cfg), GRUB_DEFAULT=0 refused
 * for a promotion, the one-shot next_entry; Fedora's BLS entries with
 * saved_entry naming an entry's id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/bootloader.h"
#include "host/grubenv.h"
#include "host/efivar.h"
#include "host/grubcfg.h"
#include "lib/runcmd.h"
#include "fakefs.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-bootloader-XXXXXX";
static char sysfs[] = "/tmp/rafleet-bootloader-sys-XXXXXX";

static int run_to(char *const argv[], const char *out);

static void put(const char *rel, const char *content)
{
	if (fakefs_put(root, rel, content))
		diag("cannot write %s/%s", root, rel);
}

static const char *file(const char *rel)
{
	static char buf[4096];
	char path[sizeof(root) + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	buf[f ? fread(buf, 1, sizeof(buf) - 1, f) : 0] = '\0';
	if (f)
		fclose(f);
	return buf;
}

static struct stat st_of(const char *rel)
{
	char path[sizeof(root) + 128];
	struct stat st = { 0 };

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	stat(path, &st);
	return st;
}

static bool exists(const char *rel)
{
	char path[sizeof(root) + 128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return !stat(path, &st);
}

static void reset(bool efi)
{
	char dir[sizeof(sysfs) + 64];

	fakefs_rm_tree(root);
	fakefs_mkdir_p(root);
	fakefs_rm_tree(sysfs);
	fakefs_mkdir_p(sysfs);
	if (efi) {
		snprintf(dir, sizeof(dir), "%s/firmware/efi/efivars", sysfs);
		fakefs_mkdir_p(dir);
	}
}

/* two kernels with entries on @part, the old one (Debian's) the default */
static void two_kernels(const char *part)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/abc/6.1.0-13-amd64/linux", part);
	put(p, "k");
	snprintf(p, sizeof(p), "%s/abc/7.3.4-1.rafleet+virt/linux", part);
	put(p, "k");
	snprintf(p, sizeof(p), "%s/loader/entries/abc-6.1.0-13-amd64.conf", part);
	put(p, "title Debian\nversion 6.1.0-13-amd64\nlinux /abc/6.1.0-13-amd64/linux\n");
	snprintf(p, sizeof(p), "%s/loader/entries/abc-7.3.4-1.rafleet+virt.conf", part);
	put(p, "title rafleet\nversion 7.3.4-1.rafleet+virt\n"
	    "linux /abc/7.3.4-1.rafleet+virt/linux\n");
}

static int detect(struct bootloader *bl)
{
	char why[512] = "";
	int err = bootloader_detect(bl, why, sizeof(why));

	if (err)
		diag("detect: %s", why);
	return err;
}

static void test_detect(void)
{
	struct bootloader bl;
	char why[512];

	reset(false);
	is_i64(bootloader_detect(&bl, why, sizeof(why)), -ENOENT, "nothing to find: -ENOENT");
	ok(strstr(why, "no boot loader found") != NULL, "  says what was looked for");

	two_kernels("boot");
	is_i64(detect(&bl), 0, "/boot/loader alone: found");
	ok(bl.kind == BOOTLOADER_SDBOOT && !strcmp(bl.esp, "/boot") && !bl.xbootldr[0] && !bl.efi,
	   "  systemd-boot's files in /boot, no ESP apart, no EFI (%s: %s)", bl.name, bl.chosen_by);

	reset(false);
	two_kernels("efi");
	put("boot/loader/entries/abc-7.4.0.conf", "version 7.4.0\nlinux /abc/7.4.0/linux\n");
	put("boot/abc/7.4.0/linux", "k");
	detect(&bl);
	ok(!strcmp(bl.esp, "/efi") && !strcmp(bl.xbootldr, "/boot"),
	   "an ESP at /efi and /boot with entries: the XBOOTLDR partition (%s, %s)", bl.esp,
	   bl.xbootldr);
	{
		struct boot_loader m;
		struct warnings w = { 0 };

		bootloader_menu(&bl, &m, &w);
		is_u64(m.nr_entries, 3, "  the menu merges both partitions' entries");
		ok(m.nr_entries && !strcmp(m.entries[0].id, "abc-7.4.0") &&
		   !strcmp(m.entries[0].base, "/boot"), "  newest first, with its partition");
		is_u64(w.nr, 0, "  every kernel found on its own partition");
		boot_loader_free(&m);
		warn_free(&w);
	}

	put("etc/rafleet/boot.conf", "# the operator's choice\nRAFLEET_BOOT_LOADER=grub\n");
	detect(&bl);
	ok(bl.kind == BOOTLOADER_GRUB && strstr(bl.chosen_by, "boot.conf"),
	   "boot.conf names the boot loader: it wins (%s)", bl.chosen_by);
	put("etc/rafleet/boot.conf", "RAFLEET_BOOT_LOADER=lilo\n");
	is_i64(bootloader_detect(&bl, why, sizeof(why)), -EINVAL, "boot.conf naming no backend: -EINVAL");
	ok(strstr(why, "boot.conf:1") && strstr(why, "lilo"), "  says file, line and value: %s", why);
	put("etc/rafleet/boot.conf", "RAFLEET_BOOT_TRIES=99\n");
	is_i64(bootloader_detect(&bl, why, sizeof(why)), -EINVAL, "tries out of range: -EINVAL");
	put("etc/rafleet/boot.conf", "RAFLEET_BOOT_ESP=/boot/efi\nRAFLEET_BOOT_TRIES=0\n");
	put("boot/efi/loader/loader.conf", "timeout 0\n");
	detect(&bl);
	ok(!strcmp(bl.esp, "/boot/efi") && bl.tries == 0, "boot.conf names the ESP and the tries");

	reset(false);
	put("boot/grub/grub.cfg", "menuentry 'x' {\n}\n");
	detect(&bl);
	ok(bl.kind == BOOTLOADER_GRUB && !strcmp(bl.grub_dir, "/boot/grub"),
	   "Debian's /boot/grub/grub.cfg: grub (%s)", bl.chosen_by);
	reset(false);
	put("boot/grub2/grub.cfg", "insmod blscfg\nblscfg\n");
	detect(&bl);
	ok(bl.kind == BOOTLOADER_GRUB_BLS && !strcmp(bl.grub_dir, "/boot/grub2"),
	   "/boot/grub2/grub.cfg running blscfg: grub-bls (%s)", bl.chosen_by);

	reset(true);
	two_kernels("boot");
	put("boot/grub/grub.cfg", "menuentry 'x' {\n}\n");
	efivar_set_loader("LoaderInfo", "systemd-boot 252.39-1~deb12u2", why, sizeof(why));
	detect(&bl);
	ok(bl.kind == BOOTLOADER_SDBOOT && bl.efi && strstr(bl.chosen_by, "LoaderInfo"),
	   "LoaderInfo says systemd-boot booted: it, whatever else is on disk (%s)", bl.chosen_by);
}

static void test_default(void)
{
	struct bootloader bl;
	struct boot_target t, back;
	char how[8192], why[512];

	reset(false);
	two_kernels("boot");
	put("boot/loader/loader.conf", "timeout 3\ndefault abc-6.1*\n");
	detect(&bl);
	is_i64(bootloader_default(&bl, &t, why, sizeof(why)), 0, "the effective default, by a pattern");
	ok(!strcmp(t.entry, "abc-6.1.0-13-amd64") && !strcmp(t.release, "6.1.0-13-amd64") &&
	   strstr(t.source, "loader.conf: default abc-6.1*"), "  its entry, release and source: %s %s (%s)",
	   t.entry, t.release, t.source);
	put("boot/loader/loader.conf", "timeout 3\n");
	bootloader_default(&bl, &t, why, sizeof(why));
	ok(!strcmp(t.entry, "abc-7.3.4-1.rafleet+virt") && strstr(t.source, "no default line"),
	   "no default line: the first of the menu, the newest (%s)", t.entry);
	put("boot/loader/loader.conf", "default @saved\n");
	is_i64(bootloader_default(&bl, &t, why, sizeof(why)), -EOPNOTSUPP, "default @saved without EFI: -EOPNOTSUPP");
	put("boot/loader/loader.conf", "default nothing-*\n");
	is_i64(bootloader_default(&bl, &t, why, sizeof(why)), -ENOENT, "a pattern matching nothing: -ENOENT");
	ok(strstr(why, "matches no bootable entry") != NULL, "  says so: %s", why);
	is_i64(bootloader_oneshot(&bl, &t, why, sizeof(why)), -ENOENT, "no EFI: no one-shot");
	is_i64(bootloader_set_oneshot(&bl, &t, how, sizeof(how), why, sizeof(why)), -EOPNOTSUPP,
	       "  and none can be set: -EOPNOTSUPP");

	/* promote: the new kernel's entry the default, loader.conf one sector */
	put("boot/loader/loader.conf", "timeout 3\ndefault abc-6.1*\n# a comment\neditor no\n");
	is_i64(bootloader_find(&bl, "7.3.4-1.rafleet+virt", NULL, &t, why, sizeof(why)), 0,
	       "the entry of a release");
	is_str(t.entry, "abc-7.3.4-1.rafleet+virt", "  its id");
	is_i64(bootloader_set_default(&bl, &t, true, how, sizeof(how), why, sizeof(why)), 0,
	       "make it the default");
	ok(strstr(how, "replaced by rename: now one sector") != NULL, "  the first write: %s", how);
	is_u64(st_of("boot/loader/loader.conf").st_size, LOADER_CONF_SECTOR, "  loader.conf is one sector now");
	ok(!strncmp(file("boot/loader/loader.conf"),
		    "timeout 3\n# a comment\neditor no\ndefault abc-7.3.4-1.rafleet+virt.conf\n#rafleet-pad", 80),
	   "  the default line replaced, the rest kept, then the padding comment");
	ok(!exists("boot/loader/entries/abc-7.3.4-1.rafleet+virt+3.conf"),
	   "  no boot counting without EFI (no systemd-boot to count)");
	bootloader_default(&bl, &back, why, sizeof(why));
	is_str(back.entry, "abc-7.3.4-1.rafleet+virt", "  the effective default follows, padding and all");
	{
		struct stat before = st_of("boot/loader/loader.conf"), after;

		/* what a crash inside a replacement left (loader-conf.after-temp) */
		put("boot/loader/loader.conf.tmp.AbC123", "timeout 3\n");
		put("boot/loader/loader.conf.tmp.keep", "not mkstemp's\n");
		bootloader_find(&bl, "6.1.0-13-amd64", NULL, &t, why, sizeof(why));
		is_i64(bootloader_set_default(&bl, &t, false, how, sizeof(how), why, sizeof(why)), 0,
		       "the next write (a demotion)");
		ok(!exists("boot/loader/loader.conf.tmp.AbC123") && exists("boot/loader/loader.conf.tmp.keep"),
		   "  it removes the temporary file a crashed replacement left (not other names)");
		after = st_of("boot/loader/loader.conf");
		ok(strstr(how, "one sector rewritten in place") && before.st_ino == after.st_ino &&
		   after.st_size == LOADER_CONF_SECTOR,
		   "  in place: the same inode (no rename, no FAT change), the same size (%s)", how);
		bootloader_default(&bl, &back, why, sizeof(why));
		is_str(back.release, "6.1.0-13-amd64", "  the old kernel is the default again");
		ok(strstr(strstr(file("boot/loader/loader.conf"), "#rafleet-pad") + 1, "#rafleet-pad") == NULL,
		   "  one padding comment, not two");
	}
	is_i64(bootloader_find(&bl, "9.9.9", NULL, &t, why, sizeof(why)), -ENOENT, "no entry for a kernel: -ENOENT");
	ok(strstr(why, "no bootable menu entry boots 9.9.9") != NULL, "  says so: %s", why);

	{
		char big[1200];

		memset(big, 0, sizeof(big));
		strcpy(big, "timeout 3\n");
		for (int i = 0; i < 20; i++)	/* 670 bytes: more than a sector */
			strcat(big, "# a long comment line..........\n");
		put("boot/loader/loader.conf", big);
		bootloader_find(&bl, "7.3.4-1.rafleet+virt", NULL, &t, why, sizeof(why));
		is_i64(bootloader_set_default(&bl, &t, false, how, sizeof(how), why, sizeof(why)), 0,
		       "a loader.conf longer than a sector");
		ok(strstr(how, "replaced by rename: longer than one sector") != NULL,
		   "  is replaced by rename, and says so: %s", how);
		bootloader_default(&bl, &back, why, sizeof(why));
		is_str(back.entry, "abc-7.3.4-1.rafleet+virt", "  and names the entry");
	}
}

static void test_efi(void)
{
	struct bootloader bl;
	struct boot_target t, d;
	char how[8192], why[512], var[256];

	reset(true);
	two_kernels("efi");
	put("efi/loader/loader.conf", "timeout 3\ndefault abc-7.3*\n");
	efivar_set_loader("LoaderInfo", "systemd-boot 252", why, sizeof(why));
	detect(&bl);
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.entry, "abc-7.3.4-1.rafleet+virt", "EFI, no LoaderEntryDefault: loader.conf's default");
	efivar_set_loader("LoaderEntryDefault", "abc-6.1.0-13-amd64.conf", why, sizeof(why));
	bootloader_default(&bl, &d, why, sizeof(why));
	ok(!strcmp(d.entry, "abc-6.1.0-13-amd64") && strstr(d.source, "LoaderEntryDefault"),
	   "LoaderEntryDefault overrides loader.conf, as systemd-boot does (%s)", d.source);

	bootloader_find(&bl, "7.3.4-1.rafleet+virt", NULL, &t, why, sizeof(why));
	is_i64(bootloader_set_default(&bl, &t, true, how, sizeof(how), why, sizeof(why)), 0,
	       "promote with the variable set");
	efivar_get_loader("LoaderEntryDefault", var, sizeof(var), why, sizeof(why));
	is_str(var, "abc-7.3.4-1.rafleet+virt[.+]*", "  the variable is what is written: a pattern for the counted entry");
	ok(strstr(file("efi/loader/loader.conf"), "default abc-7.3*") != NULL, "  loader.conf untouched");
	ok(exists("efi/loader/entries/abc-7.3.4-1.rafleet+virt+3.conf") &&
	   !exists("efi/loader/entries/abc-7.3.4-1.rafleet+virt.conf"),
	   "  boot counting: the entry is ID+3.conf, for systemd-boot and systemd-bless-boot");
	ok(strstr(how, "boot counting") != NULL, "  how says both: %s", how);
	bootloader_default(&bl, &d, why, sizeof(why));
	ok(!strcmp(d.entry, "abc-7.3.4-1.rafleet+virt") && !strcmp(d.release, "7.3.4-1.rafleet+virt"),
	   "  the effective default is the counted entry (%s)", d.entry);

	/* a blessed entry (renamed back by systemd-bless-boot) still matches */
	{
		char from[512], to[512];

		snprintf(from, sizeof(from), "%s/efi/loader/entries/abc-7.3.4-1.rafleet+virt+3.conf", root);
		snprintf(to, sizeof(to), "%s/efi/loader/entries/abc-7.3.4-1.rafleet+virt.conf", root);
		rename(from, to);
		bootloader_default(&bl, &d, why, sizeof(why));
		is_str(d.entry, "abc-7.3.4-1.rafleet+virt", "  blessed (renamed back), still the default");
	}

	is_i64(bootloader_oneshot(&bl, &d, why, sizeof(why)), -ENOENT, "no one-shot set: -ENOENT");
	bootloader_find(&bl, "6.1.0-13-amd64", NULL, &t, why, sizeof(why));
	is_i64(bootloader_set_oneshot(&bl, &t, how, sizeof(how), why, sizeof(why)), 0, "set a one-shot");
	efivar_get_loader("LoaderEntryOneShot", var, sizeof(var), why, sizeof(why));
	is_str(var, "abc-6.1.0-13-amd64.conf", "  LoaderEntryOneShot names the entry");
	bootloader_oneshot(&bl, &d, why, sizeof(why));
	ok(!strcmp(d.release, "6.1.0-13-amd64") && strstr(d.source, "LoaderEntryOneShot"),
	   "  read back with its kernel (%s)", d.source);
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "7.3.4-1.rafleet+virt", "  the default is still the default");
	is_i64(bootloader_clear_oneshot(&bl, why, sizeof(why)), 0, "clear it");
	is_i64(bootloader_oneshot(&bl, &d, why, sizeof(why)), -ENOENT, "  gone");
	is_i64(bootloader_clear_oneshot(&bl, why, sizeof(why)), 0, "  clearing again: 0");

	efivar_del_loader("LoaderEntryDefault", why, sizeof(why));
	bootloader_find(&bl, "6.1.0-13-amd64", NULL, &t, why, sizeof(why));
	bootloader_set_default(&bl, &t, false, how, sizeof(how), why, sizeof(why));
	ok(strstr(how, "loader.conf") && strstr(file("efi/loader/loader.conf"), "default abc-6.1.0-13-amd64.conf\n"),
	   "no variable: loader.conf on the ESP is written (%s)", how);
	ok(!exists("efi/loader/entries/abc-6.1.0-13-amd64+3.conf"), "  a demotion is not counted");
}

/* Debian's update-grub output, GRUB_DEFAULT=@def, two kernels (newest first) */
static void debian_cfg(const char *def)
{
	char cfg[8192];
	static const char entry[] =
		"\tmenuentry 'Debian GNU/Linux, with Linux %s' --class debian --class gnu-linux --class gnu --class os $menuentry_id_option 'gnulinux-%s-advanced-11111111-2222' {\n"
		"\t\tload_video\n\t\tinsmod gzio\n"
		"\t\techo\t'Loading Linux %s ...'\n"
		"\t\tlinux\t/boot/vmlinuz-%s root=UUID=11111111-2222 ro  quiet\n"
		"\t\techo\t'Loading initial ramdisk ...'\n"
		"\t\tinitrd\t/boot/initrd.img-%s\n\t}\n"
		"\tmenuentry 'Debian GNU/Linux, with Linux %s (recovery mode)' --class debian $menuentry_id_option 'gnulinux-%s-recovery-11111111-2222' {\n"
		"\t\tlinux\t/boot/vmlinuz-%s root=UUID=11111111-2222 ro single\n"
		"\t\tinitrd\t/boot/initrd.img-%s\n\t}\n";
	char e1[2048], e2[2048];
	const char *a = "7.3.4-1.rafleet+virt", *b = "6.1.0-13-amd64";

	snprintf(e1, sizeof(e1), entry, a, a, a, a, a, a, a, a, a);
	snprintf(e2, sizeof(e2), entry, b, b, b, b, b, b, b, b, b);
	snprintf(cfg, sizeof(cfg),
		 "#\n# DO NOT EDIT THIS FILE\n#\n"
		 "### BEGIN /etc/grub.d/00_header ###\n"
		 "if [ -s $prefix/grubenv ]; then\n  set have_grubenv=true\n  load_env\nfi\n"
		 "if [ \"${next_entry}\" ] ; then\n   set default=\"${next_entry}\"\n   set next_entry=\n"
		 "   save_env next_entry\n   set boot_once=true\nelse\n   set default=\"%s\"\nfi\n"
		 "### BEGIN /etc/grub.d/10_linux ###\n"
		 "menuentry 'Debian GNU/Linux' --class debian $menuentry_id_option 'gnulinux-simple-11111111-2222' {\n"
		 "\tlinux\t/boot/vmlinuz-%s root=UUID=11111111-2222 ro  quiet\n"
		 "\tinitrd\t/boot/initrd.img-%s\n}\n"
		 "submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'gnulinux-advanced-11111111-2222' {\n"
		 "%s%s}\n", def, a, a, e1, e2);
	put("boot/grub/grub.cfg", cfg);
	put("boot/vmlinuz-7.3.4-1.rafleet+virt", "k");
	put("boot/vmlinuz-6.1.0-13-amd64", "k");
	put("boot/initrd.img-7.3.4-1.rafleet+virt", "i");
	put("boot/initrd.img-6.1.0-13-amd64", "i");
}

#define OLD_PATH "gnulinux-advanced-11111111-2222>gnulinux-6.1.0-13-amd64-advanced-11111111-2222"
#define NEW_PATH "gnulinux-advanced-11111111-2222>gnulinux-7.3.4-1.rafleet+virt-advanced-11111111-2222"

static void test_grub(void)
{
	struct bootloader bl;
	struct boot_target t, d;
	char how[8192], why[1024];

	reset(false);
	debian_cfg("${saved_entry}");
	detect(&bl);
	is_i64(bootloader_default(&bl, &d, why, sizeof(why)), 0, "Debian GRUB, saved, no grubenv yet");
	ok(!strcmp(d.entry, "gnulinux-simple-11111111-2222") && !strcmp(d.release, "7.3.4-1.rafleet+virt"),
	   "  entry 0 boots: the newest kernel (what installing a kernel does to a host: %s)", d.entry);
	is_i64(bootloader_find(&bl, "6.1.0-13-amd64", NULL, &t, why, sizeof(why)), 0, "the entry of the old kernel");
	is_str(t.entry, OLD_PATH, "  by its stable id path in the Advanced submenu, never the recovery entry");
	is_i64(bootloader_set_default(&bl, &t, true, how, sizeof(how), why, sizeof(why)), 0,
	       "pin it: the default (grub-editenv)");
	if (!ok(strstr(how, "saved_entry=" OLD_PATH) != NULL, "  says how: %s", how))
		diag("why: %s", why);
	ok(!strncmp(file("boot/grub/grubenv"), "# GRUB Environment Block\n", 25) &&
	   strstr(file("boot/grub/grubenv"), "\nsaved_entry=" OLD_PATH "\n") &&
	   st_of("boot/grub/grubenv").st_size == 1024,
	   "  grubenv as GRUB reads it: one 1024-byte block with saved_entry");
	bootloader_default(&bl, &d, why, sizeof(why));
	ok(!strcmp(d.release, "6.1.0-13-amd64") && strstr(d.source, "saved_entry"),
	   "  the effective default is the old kernel (%s)", d.source);
	/* a kernel installed: update-grub regenerates grub.cfg, indexes move */
	debian_cfg("${saved_entry}");
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "6.1.0-13-amd64", "  grub.cfg regenerated: the id path still names the old kernel");
	{
		struct boot_loader m;
		struct warnings w = { 0 };

		bootloader_menu(&bl, &m, &w);
		ok(m.nr_entries == 5 && m.default_entry && !strcmp(m.default_entry->id, OLD_PATH),
		   "  the menu: 5 Linux entries, the default marked (%zu)", m.nr_entries);
		is_u64(w.nr, 0, "  every kernel there");
		boot_loader_free(&m);
		warn_free(&w);
	}

	is_i64(bootloader_oneshot(&bl, &d, why, sizeof(why)), -ENOENT, "no next_entry: no one-shot");
	bootloader_find(&bl, "7.3.4-1.rafleet+virt", NULL, &t, why, sizeof(why));
	is_i64(bootloader_set_oneshot(&bl, &t, how, sizeof(how), why, sizeof(why)), 0,
	       "a one-shot (grub-reboot's next_entry)");
	bootloader_oneshot(&bl, &d, why, sizeof(why));
	ok(!strcmp(d.entry, NEW_PATH) && !strcmp(d.release, "7.3.4-1.rafleet+virt"),
	   "  read back: %s", d.entry);
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "6.1.0-13-amd64", "  the default unchanged");
	is_i64(bootloader_clear_oneshot(&bl, why, sizeof(why)), 0, "clear it");
	is_i64(bootloader_oneshot(&bl, &d, why, sizeof(why)), -ENOENT, "  gone");
	/* GRUB's 00_header, booting it: "set next_entry=; save_env next_entry" */
	{
		char env[sizeof(root) + 64];
		char *argv[] = { (char *)grubenv_editenv(), env, "set", "next_entry=", NULL };

		snprintf(env, sizeof(env), "%s/boot/grub/grubenv", root);
		is_i64(run_to(argv, NULL), 0, "next_entry= (empty), as GRUB leaves it once it has booted one");
	}
	ok(strstr(file("boot/grub/grubenv"), "\nnext_entry=\n") != NULL, "  (grubenv holds next_entry=)");
	is_i64(bootloader_oneshot(&bl, &d, why, sizeof(why)), -ENOENT, "  no one-shot: empty is unset");
	is_i64(bootloader_clear_oneshot(&bl, why, sizeof(why)), 0, "  nothing to clear");

	is_i64(bootloader_set_default(&bl, &t, true, how, sizeof(how), why, sizeof(why)), 0, "promote");
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "7.3.4-1.rafleet+virt", "  the new kernel is the default");

	debian_cfg("0");
	bootloader_default(&bl, &d, why, sizeof(why));
	ok(strstr(d.source, "set default=\"0\"") && !strcmp(d.release, "7.3.4-1.rafleet+virt"),
	   "GRUB_DEFAULT=0: grub.cfg's default, entry 0 (%s)", d.source);
	is_i64(bootloader_set_default(&bl, &t, true, how, sizeof(how), why, sizeof(why)), -EINVAL,
	       "  a promotion refused: saved_entry would not be read");
	ok(strstr(why, "GRUB_DEFAULT") && strstr(why, "grub.d/rafleet.cfg"), "  says why and what fixes it: %s", why);

	/* Fedora: grub2 with blscfg, BLS entries in /boot/loader/entries */
	reset(false);
	put("boot/grub2/grub.cfg", "set default=\"${saved_entry}\"\ninsmod blscfg\nblscfg\n");
	put("boot/vmlinuz-6.8.5-301.fc40.x86_64", "k");
	put("boot/vmlinuz-7.3.4-1.rafleet+virt", "k");
	put("boot/loader/entries/abc-6.8.5-301.fc40.x86_64.conf",
	    "title Fedora (6.8.5-301.fc40.x86_64)\nversion 6.8.5-301.fc40.x86_64\nlinux /vmlinuz-6.8.5-301.fc40.x86_64\n");
	put("boot/loader/entries/abc-7.3.4-1.rafleet+virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet+virt\nlinux /vmlinuz-7.3.4-1.rafleet+virt\n");
	detect(&bl);
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "7.3.4-1.rafleet+virt", "GRUB BLS, saved_entry unset: the first entry, the newest");
	bootloader_find(&bl, "6.8.5-301.fc40.x86_64", NULL, &t, why, sizeof(why));
	is_i64(bootloader_set_default(&bl, &t, true, how, sizeof(how), why, sizeof(why)), 0,
	       "saved_entry set to the Fedora kernel's entry");
	ok(strstr(file("boot/grub2/grubenv"), "saved_entry=abc-6.8.5-301.fc40.x86_64\n") != NULL,
	   "  grubenv names the entry's id, as grub2-set-default does");
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "6.8.5-301.fc40.x86_64", "  the effective default follows");
	{
		struct boot_loader m;
		struct warnings w = { 0 };

		bootloader_menu(&bl, &m, &w);
		ok(m.default_entry && !strcmp(m.default_entry->id, "abc-6.8.5-301.fc40.x86_64"),
		   "  the menu marks it");
		boot_loader_free(&m);
		warn_free(&w);
	}
}

/* pin: the implicit default named, an explicit one left alone */
static void test_pin(void)
{
	struct bootloader bl;
	struct boot_target t;
	char how[8192], why[1024];
	bool pinned;

	reset(false);
	two_kernels("boot");
	put("boot/loader/loader.conf", "timeout 0\n");
	detect(&bl);
	is_i64(bootloader_pin(&bl, &t, &pinned, how, sizeof(how), why, sizeof(why)), 0,
	       "pin: systemd-boot without a default line");
	ok(pinned && !strcmp(t.entry, "abc-7.3.4-1.rafleet+virt") &&
	   strstr(file("boot/loader/loader.conf"), "\ndefault abc-7.3.4-1.rafleet+virt.conf\n") &&
	   st_of("boot/loader/loader.conf").st_size == LOADER_CONF_SECTOR,
	   "  the first of the menu named in loader.conf, which is one sector now (%s)", how);
	/* a newer kernel installed: the default does not move */
	put("boot/abc/7.4.0/linux", "k");
	put("boot/loader/entries/abc-7.4.0.conf", "version 7.4.0\nlinux /abc/7.4.0/linux\n");
	bootloader_default(&bl, &t, why, sizeof(why));
	is_str(t.release, "7.3.4-1.rafleet+virt", "  a newer kernel installed after it: the default stays");
	is_i64(bootloader_pin(&bl, &t, &pinned, how, sizeof(how), why, sizeof(why)), 0, "  pin again");
	ok(!pinned && strstr(how, "named already"), "  named already: nothing written (%s)", how);

	reset(false);
	debian_cfg("${saved_entry}");
	detect(&bl);
	is_i64(bootloader_pin(&bl, &t, &pinned, how, sizeof(how), why, sizeof(why)), 0,
	       "pin: Debian GRUB, saved, saved_entry unset");
	ok(pinned && strstr(file("boot/grub/grubenv"), "\nsaved_entry=" NEW_PATH "\n"),
	   "  saved_entry names entry 0's kernel by its stable path, not the \"simple\" entry (%s)", how);
	debian_cfg("0");
	is_i64(bootloader_pin(&bl, &t, &pinned, how, sizeof(how), why, sizeof(why)), -EINVAL,
	       "pin: GRUB_DEFAULT=0 cannot be pinned by grubenv: -EINVAL");
	ok(!pinned && strstr(why, "GRUB_DEFAULT"), "  says why: %s", why);
}

/* what rafleet's /etc/grub.d/42_rafleet puts into grub.cfg */
static const char grub_hook[] =
	"if [ -f ${config_directory}/rafleet-trial.cfg ]; then\n"
	"  source ${config_directory}/rafleet-trial.cfg\n"
	"elif [ -z \"${config_directory}\" -a -f $prefix/rafleet-trial.cfg ]; then\n"
	"  source $prefix/rafleet-trial.cfg\n"
	"fi\n";

/*
 * @argv's exit status, its standard output into @out (a path) if not NULL,
 * its complaints out of the TAP stream.
 */
static int run_to(char *const argv[], const char *out)
{
	struct run_io io = { .in_fd = -1, .out_fd = -1, .err_fd = -1 };
	int rc;

	io.err_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	io.out_fd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : io.err_fd;
	rc = run_command_io(argv, &io, 30);
	if (out && io.out_fd >= 0)
		close(io.out_fd);
	if (io.err_fd >= 0)
		close(io.err_fd);
	return rc;
}

/* the hook above is what the shipped script writes (the tests run at the top) */
static void test_grub_hook(void)
{
	char out[sizeof(root) + 64];
	char *sh[] = { "sh", "etc/grub.d/42_rafleet", NULL };
	char *check[] = { "grub-script-check", out, NULL };

	snprintf(out, sizeof(out), "%s/hook.cfg", root);
	is_i64(run_to(sh, out), 0, "etc/grub.d/42_rafleet runs");
	is_str(file("hook.cfg"), grub_hook,
	       "  and writes the hook these tests put into grub.cfg");
	is_i64(run_to(check, NULL), 0, "  GRUB's parser accepts it (grub-script-check)");
}

/*
 * Debian's GRUB: the trial entry in /boot/grub/rafleet-trial.cfg, which
 * grub.cfg sources (42_rafleet), a copy of the kernel's own block with
 * the trial's command line; next_entry names its id; removed with it.
 */
static void test_trial_debian(void)
{
	struct bootloader bl;
	struct boot_target t, d;
	struct grub_cfg c;
	const struct grub_entry *e;
	char how[8192], why[1024], cfg[16384], path[sizeof(root) + 64];
	char *check[] = { "grub-script-check", path, NULL };
	unsigned int gone;
	const char *text;

	reset(false);
	test_grub_hook();
	debian_cfg("${saved_entry}");
	detect(&bl);
	bootloader_find(&bl, "6.1.0-13-amd64", NULL, &d, why, sizeof(why));
	bootloader_set_default(&bl, &d, false, how, sizeof(how), why, sizeof(why));
	is_i64(bootloader_add_trial(&bl, "7.3.4-1.rafleet+virt", "rafleet.trial=x", "x", &t, why,
				    sizeof(why)), -EOPNOTSUPP,
	       "Debian's GRUB, grub.cfg without 42_rafleet's hook: -EOPNOTSUPP");
	ok(strstr(why, "update-grub") && strstr(why, "kexec") && !exists("boot/grub/rafleet-trial.cfg"),
	   "  says why and what to do instead, writes nothing: %s", why);

	snprintf(cfg, sizeof(cfg), "%s### BEGIN /etc/grub.d/42_rafleet ###\n%s### END /etc/grub.d/42_rafleet ###\n",
		 file("boot/grub/grub.cfg"), grub_hook);
	put("boot/grub/grub.cfg", cfg);
	is_i64(bootloader_add_trial(&bl, "7.3.4-1.rafleet+virt",
				    "root=UUID=11111111-2222 ro panic=10 rafleet.trial=abcd x=$y it's",
				    "abcd", &t, why, sizeof(why)), 0,
	       "with the hook: a trial entry added");
	is_str(t.entry, "rafleet-trial-abcd", "  its id names the token");
	is_str(t.source, "/boot/grub/rafleet-trial.cfg", "  in /boot/grub/rafleet-trial.cfg");
	text = file("boot/grub/rafleet-trial.cfg");
	ok(strstr(text, "\nmenuentry 'rafleet trial of 7.3.4-1.rafleet+virt (the next boot only)' --id rafleet-trial-abcd {\n") &&
	   strstr(text, "\t\tload_video\n\t\tinsmod gzio\n") &&
	   strstr(text, "\t\tinitrd\t/boot/initrd.img-7.3.4-1.rafleet+virt\n}\n"),
	   "  the kernel's block, its own lines, under a menuentry of its own");
	ok(strstr(text, "\t\tlinux /boot/vmlinuz-7.3.4-1.rafleet+virt root=UUID=11111111-2222 ro panic=10 rafleet.trial=abcd 'x=$y' 'it'\\''s'\n") != NULL,
	   "  its linux line the kernel with the trial's command line, quoted for GRUB");
	snprintf(path, sizeof(path), "%s/boot/grub/rafleet-trial.cfg", root);
	is_i64(run_to(check, NULL), 0, "  GRUB's syntax (grub-script-check)");
	is_i64(grub_cfg_load(&c, "/boot/grub/rafleet-trial.cfg", why, sizeof(why)), 0, "  and ours");
	ok(c.nr_bootable == 1 && !strcmp(c.bootable[0]->options,
					 "root=UUID=11111111-2222 ro panic=10 rafleet.trial=abcd x=$y it's"),
	   "  read back, the command line is the trial's, word for word (%s)",
	   c.nr_bootable ? c.bootable[0]->options : "no entry");
	grub_cfg_free(&c);
	is_i64(grub_cfg_load_sourcing(&c, "/boot/grub/grub.cfg", "rafleet-trial.cfg",
				      "/boot/grub/rafleet-trial.cfg", why, sizeof(why)), 0,
	       "  grub.cfg with what it sources");
	ok(c.sources && !grub_cfg_resolve(&c, "rafleet-trial-abcd", &e, why, sizeof(why)) &&
	   !strcmp(e->version, "7.3.4-1.rafleet+virt") && c.entries[c.nr_entries - 1].id &&
	   !strcmp(c.entries[c.nr_entries - 1].id, "rafleet-trial-abcd"),
	   "  its menu ends with the trial entry, which GRUB finds by its id");
	grub_cfg_free(&c);
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "6.1.0-13-amd64", "  the default did not move");
	is_i64(bootloader_set_oneshot(&bl, &t, how, sizeof(how), why, sizeof(why)), 0, "  made the one-shot");
	ok(strstr(file("boot/grub/grubenv"), "\nnext_entry=rafleet-trial-abcd\n") != NULL,
	   "  grubenv's next_entry names its id, as grub-reboot writes it");
	bootloader_oneshot(&bl, &d, why, sizeof(why));
	is_str(d.release, "7.3.4-1.rafleet+virt", "  the one-shot boots the trial kernel");
	is_i64(bootloader_remove_trials(&bl, &gone, why, sizeof(why)), 0, "  removed");
	ok(gone == 1 && !exists("boot/grub/rafleet-trial.cfg") &&
	   !strstr(file("boot/grub/grubenv"), "next_entry=rafleet"),
	   "  the file and next_entry gone");
	is_i64(bootloader_remove_trials(&bl, &gone, why, sizeof(why)), 0, "  again: nothing to do");
	ok(gone == 0, "  nothing removed");
}

/*
 * A one-shot trial through the boot loader: a copy of the kernel's own
 * entry with the trial's command line, the one-shot naming it, the
 * default unmoved; refused where it would become the default or where
 * the boot loader reads no entry files; removed with its one-shot.
 */
static void test_trial(void)
{
	struct bootloader bl;
	struct boot_target t, d, k;
	char how[8192], why[1024], var[256];
	unsigned int gone;
	const char *text;

	reset(true);
	two_kernels("efi");
	put("efi/loader/entries/abc-7.3.4-1.rafleet+virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet+virt\nlinux /abc/7.3.4-1.rafleet+virt/linux\n"
	    "initrd /abc/7.3.4-1.rafleet+virt/initrd\noptions root=/dev/vda2 quiet\n"
	    "options console=ttyS0\n");
	put("efi/abc/7.3.4-1.rafleet+virt/initrd", "i");
	put("efi/loader/loader.conf", "timeout 0\ndefault abc-6.1.0-13-amd64.conf\n");
	efivar_set_loader("LoaderInfo", "systemd-boot 252", why, sizeof(why));
	detect(&bl);
	is_i64(bootloader_add_trial(&bl, "7.3.4-1.rafleet+virt",
				    "root=/dev/vda2 quiet console=ttyS0 panic=10 rafleet.trial=abcd",
				    "abcd", &t, why, sizeof(why)), 0, "systemd-boot: a trial entry added");
	is_str(t.entry, "rafleet-trial-abcd", "  named for its token");
	text = file("efi/loader/entries/rafleet-trial-abcd.conf");
	ok(strstr(text, "\noptions root=/dev/vda2 quiet console=ttyS0 panic=10 rafleet.trial=abcd\n") &&
	   !strstr(text, "options root=/dev/vda2 quiet\n") && !strstr(text, "options console=ttyS0\n"),
	   "  beside the kernel's own entry, its options the trial's command line only");
	ok(strstr(text, "\nlinux /abc/7.3.4-1.rafleet+virt/linux\n") &&
	   strstr(text, "\ninitrd /abc/7.3.4-1.rafleet+virt/initrd\n") &&
	   strstr(text, "title rafleet trial of 7.3.4-1.rafleet+virt") && !strstr(text, "title rafleet\n"),
	   "  the kernel and initramfs of the kernel's entry, on its partition; a title that says so");
	ok(!exists("efi/loader/entries/rafleet-trial-abcd.conf.tmp"), "  no temporary file left");
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.entry, "abc-6.1.0-13-amd64", "  the default did not move");
	bootloader_find(&bl, "7.3.4-1.rafleet+virt", NULL, &k, why, sizeof(why));
	is_str(k.entry, "abc-7.3.4-1.rafleet+virt",
	       "  the kernel's entry is still the one that boots it by name (what promote makes the default)");
	is_i64(bootloader_set_oneshot(&bl, &t, how, sizeof(how), why, sizeof(why)), 0, "  made the one-shot");
	efivar_get_loader("LoaderEntryOneShot", var, sizeof(var), why, sizeof(why));
	is_str(var, "rafleet-trial-abcd.conf", "  LoaderEntryOneShot names it");
	bootloader_oneshot(&bl, &d, why, sizeof(why));
	is_str(d.release, "7.3.4-1.rafleet+virt", "  the one-shot boots the trial kernel");

	put("efi/loader/entries/rafleet-trial-old.conf", "title left over\nlinux /abc/7.3.4-1.rafleet+virt/linux\n");
	is_i64(bootloader_remove_trials(&bl, &gone, why, sizeof(why)), 0, "remove the trial entries");
	ok(gone == 2 && !exists("efi/loader/entries/rafleet-trial-abcd.conf") &&
	   !exists("efi/loader/entries/rafleet-trial-old.conf") &&
	   exists("efi/loader/entries/abc-7.3.4-1.rafleet+virt.conf"),
	   "  both trial entries gone (%u), the kernel's own kept", gone);
	is_i64(bootloader_oneshot(&bl, &d, why, sizeof(why)), -ENOENT, "  and the one-shot that named one");
	bootloader_find(&bl, "6.1.0-13-amd64", NULL, &k, why, sizeof(why));
	bootloader_set_oneshot(&bl, &k, how, sizeof(how), why, sizeof(why));
	bootloader_remove_trials(&bl, &gone, why, sizeof(why));
	ok(gone == 0 && !bootloader_oneshot(&bl, &d, why, sizeof(why)),
	   "  a one-shot of another entry is not theirs to clear");

	/* no default line: the trial entry would be first of the menu */
	reset(false);
	two_kernels("boot");
	put("boot/loader/loader.conf", "timeout 0\n");
	detect(&bl);
	is_i64(bootloader_add_trial(&bl, "7.3.4-1.rafleet+virt", "rafleet.trial=x", "x", &t, why,
				    sizeof(why)), -EINVAL,
	       "a default nothing names, which the trial entry would become: -EINVAL");
	ok(strstr(why, "pin-default") && !exists("boot/loader/entries/rafleet-trial-x.conf"),
	   "  the entry removed again; says what to do: %s", why);

	test_trial_debian();

	/* Fedora's layout: the entry beside the others, next_entry names it */
	reset(false);
	put("boot/grub2/grub.cfg", "set default=\"${saved_entry}\"\ninsmod blscfg\nblscfg\n");
	put("boot/vmlinuz-6.8.5-301.fc40.x86_64", "k");
	put("boot/vmlinuz-7.3.4-1.rafleet+virt", "k");
	put("boot/loader/entries/abc-6.8.5-301.fc40.x86_64.conf",
	    "title Fedora\nversion 6.8.5-301.fc40.x86_64\nlinux /vmlinuz-6.8.5-301.fc40.x86_64\n");
	put("boot/loader/entries/abc-7.3.4-1.rafleet+virt.conf",
	    "title rafleet\nversion 7.3.4-1.rafleet+virt\nlinux /vmlinuz-7.3.4-1.rafleet+virt\noptions ro\n");
	detect(&bl);
	bootloader_find(&bl, "6.8.5-301.fc40.x86_64", NULL, &k, why, sizeof(why));
	bootloader_set_default(&bl, &k, false, how, sizeof(how), why, sizeof(why));
	is_i64(bootloader_add_trial(&bl, "7.3.4-1.rafleet+virt", "ro rafleet.trial=y", "y", &t, why,
				    sizeof(why)), 0, "grub-bls: a trial entry added");
	ok(strstr(file("boot/loader/entries/rafleet-trial-y.conf"), "\noptions ro rafleet.trial=y\n") != NULL,
	   "  in /boot/loader/entries, with the trial's options");
	is_i64(bootloader_set_oneshot(&bl, &t, how, sizeof(how), why, sizeof(why)), 0, "  made the one-shot");
	ok(strstr(file("boot/grub2/grubenv"), "next_entry=rafleet-trial-y\n") != NULL,
	   "  grubenv's next_entry names its id");
	bootloader_default(&bl, &d, why, sizeof(why));
	is_str(d.release, "6.8.5-301.fc40.x86_64", "  saved_entry did not move");
	is_i64(bootloader_remove_trials(&bl, &gone, why, sizeof(why)), 0, "  removed");
	ok(gone == 1 && !strstr(file("boot/grub2/grubenv"), "next_entry=rafleet"),
	   "  the entry and next_entry gone");
}

int main(void)
{
	char esc[sizeof(sysfs)];

	if (!ok(mkdtemp(root) != NULL && mkdtemp(sysfs) != NULL, "temp dirs"))
		return tap_done();
	snprintf(esc, sizeof(esc), "%s", sysfs);
	setenv("RAFLEET_ROOT", root, 1);
	setenv("RAFLEET_SYSFS", esc, 1);
	test_detect();
	test_default();
	test_efi();
	test_grub();
	test_pin();
	test_trial();
	fakefs_rm_tree(root);
	fakefs_rm_tree(sysfs);
	return tap_done();
}
