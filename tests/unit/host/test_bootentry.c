// SPDX-License-Identifier: GPL-2.0
/*
 * bootentry: Boot Loader Specification entries and loader.conf's default in
 * a fake root, read as systemd-boot reads them: the keys of an entry, the
 * menu order (newest first, no tries left last), a glob default selecting
 * the first bootable entry it matches (with no default line, the first
 * bootable entry of the menu), and warnings, not failures, for an
 * entry with nothing to boot or a kernel that is not there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bootentry.h"
#include "fakefs.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-bootentry-XXXXXX";

static void put(const char *rel, const char *content)
{
	if (fakefs_put(root, rel, content))
		diag("cannot write %s/%s", root, rel);
}

static void reset(void)
{
	fakefs_rm_tree(root);
	fakefs_mkdir_p(root);
}

static bool warned(const struct warnings *w, const char *what)
{
	for (size_t i = 0; i < w->nr; i++)
		if (strstr(w->msg[i], what))
			return true;
	return false;
}

static void show_warnings(const struct warnings *w)
{
	for (size_t i = 0; i < w->nr; i++)
		diag("warning: %s", w->msg[i]);
}

static const struct boot_entry *find(const struct boot_loader *b, const char *id)
{
	for (size_t i = 0; i < b->nr_entries; i++)
		if (!strcmp(b->entries[i].id, id))
			return &b->entries[i];
	return NULL;
}

/* The ids in menu order, space-separated. */
static const char *order(const struct boot_loader *b)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < b->nr_entries && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "",
			      b->entries[i].id);
	return buf;
}

static const char *default_id(const struct boot_loader *b)
{
	return b->default_entry ? b->default_entry->id : "none";
}

static void load(struct boot_loader *b, struct warnings *w)
{
	memset(w, 0, sizeof(*w));
	is_i64(boot_loader_load(b, root, w), 0, "  boot_loader_load() returns 0");
}

static void done(struct boot_loader *b, struct warnings *w)
{
	boot_loader_free(b);
	warn_free(w);
}

static void test_patterns(void)
{
	ok(boot_pattern_matches("rafleet-*", "rafleet-7.3.4"), "rafleet-* matches rafleet-7.3.4");
	ok(boot_pattern_matches("rafleet-7.3.4", "rafleet-7.3.4"), "an exact name matches");
	ok(boot_pattern_matches("rafleet-7.3.4.conf", "rafleet-7.3.4"),
	   "the file name with .conf matches (as bootctl set-default writes it)");
	ok(boot_pattern_matches("RAFLEET-7.3.?", "rafleet-7.3.4"), "case is ignored, ? is one character");
	ok(boot_pattern_matches("rafleet-7.[0-9].4", "rafleet-7.3.4"), "[0-9] is a range");
	ok(!boot_pattern_matches("debian-*", "rafleet-7.3.4"), "debian-* does not match rafleet-7.3.4");
	ok(!boot_pattern_matches("rafleet-7.3", "rafleet-7.3.4"), "a prefix without * does not match");
}

static void test_nothing(void)
{
	struct boot_loader b;
	struct warnings w;

	reset();
	load(&b, &w);
	ok(b.nr_entries == 0 && !b.default_pattern && !b.default_entry,
	   "no /boot/loader: no entries, no default");
	is_u64(w.nr, 0, "  and no warning");
	done(&b, &w);
}

static void test_entry_keys(void)
{
	struct boot_loader b;
	struct warnings w;
	const struct boot_entry *e;

	reset();
	put("boot/vmlinuz-7.3.4-rafleet", "kernel");
	put("boot/initrd-7.3.4-rafleet.img", "initrd");
	put("boot/intel-ucode.img", "ucode");
	put("boot/loader/entries/rafleet-7.3.4.conf",
	    "# written by kernel-install\n"
	    "\n"
	    "title      \"Rafleet 7.3.4\"\n"
	    "version\t7.3.4-rafleet\n"
	    "  machine-id 0123456789abcdef0123456789abcdef\n"
	    "sort-key   rafleet\n"
	    "linux      /vmlinuz-7.3.4-rafleet\n"
	    "initrd     /intel-ucode.img\n"
	    "initrd     /initrd-7.3.4-rafleet.img\n"
	    "options    root=/dev/vda1 ro\n"
	    "options    quiet  \n"
	    "devicetree /x.dtb\n"
	    "nonsense\n");
	load(&b, &w);
	e = find(&b, "rafleet-7.3.4");
	if (!ok(e != NULL, "the entry is found, its id the file name without .conf"))
		return done(&b, &w);
	is_str(e->file, "/boot/loader/entries/rafleet-7.3.4.conf", "  its file");
	is_str(e->title, "Rafleet 7.3.4", "  title, the quotes around it removed");
	is_str(e->version, "7.3.4-rafleet", "  version, after a tab");
	is_str(e->machine_id, "0123456789abcdef0123456789abcdef", "  machine-id, indented");
	is_str(e->kernel, "/vmlinuz-7.3.4-rafleet", "  linux");
	ok(e->nr_initrd == 2 && !strcmp(e->initrd[0], "/intel-ucode.img") &&
	   !strcmp(e->initrd[1], "/initrd-7.3.4-rafleet.img"), "  both initrd lines, in order");
	is_str(e->options, "root=/dev/vda1 ro quiet", "  options lines joined by a space");
	ok(e->bootable, "  bootable: /boot/vmlinuz-7.3.4-rafleet exists");
	is_i64(e->tries_left, -1, "  no boot counting");
	if (!is_u64(w.nr, 0, "  and no warning"))
		show_warnings(&w);
	done(&b, &w);
}

static void test_sort_key(void)
{
	struct boot_loader b;
	struct warnings w;

	reset();
	put("boot/vmlinuz", "k");
	put("boot/loader/entries/zzz.conf", "linux /vmlinuz\n");
	put("boot/loader/entries/a.conf", "sort-key rafleet\nversion 7.9\nlinux /vmlinuz\n");
	put("boot/loader/entries/b.conf", "sort-key rafleet\nversion 7.10\nlinux /vmlinuz\n");
	put("boot/loader/entries/c.conf", "sort-key debian\nversion 6.1\nlinux /vmlinuz\n");
	load(&b, &w);
	is_str(order(&b), "c b a zzz",
	       "entries with a sort-key first, by sort-key, then newest version; the rest after");
	done(&b, &w);
}

static void test_default(void)
{
	struct boot_loader b;
	struct warnings w;

	reset();
	put("boot/vmlinuz-7.9", "k");
	put("boot/vmlinuz-7.10", "k");
	put("boot/vmlinuz-7.11", "k");
	put("boot/vmlinuz-6.1", "k");
	put("boot/loader/entries/rafleet-7.9.conf", "title R 7.9\nversion 7.9\nlinux /vmlinuz-7.9\n");
	put("boot/loader/entries/rafleet-7.10.conf", "title R 7.10\nversion 7.10\nlinux /vmlinuz-7.10\n");
	put("boot/loader/entries/rafleet-7.11+0-3.conf", "title R 7.11\nlinux /vmlinuz-7.11\n");
	put("boot/loader/entries/debian-6.1.conf", "title Debian\nlinux /vmlinuz-6.1\n");
	put("boot/loader/entries/broken-8.0.conf", "title no kernel here\noptions quiet\n");
	put("boot/loader/entries/auto-windows.conf", "linux /vmlinuz-6.1\n");
	put("boot/loader/entries/.hidden.conf", "linux /vmlinuz-6.1\n");
	put("boot/loader/entries/notes.txt", "linux /vmlinuz-6.1\n");
	put("boot/loader/loader.conf",
	    "# the fleet's choice\n"
	    "timeout 3\n"
	    "default debian-6.1\n"
	    "default   rafleet-*  \n"
	    "editor no\n");
	load(&b, &w);
	is_str(order(&b), "rafleet-7.10 rafleet-7.9 debian-6.1 broken-8.0 rafleet-7.11",
	       "menu order: by id, newest version first; no tries left last; auto-, hidden and non-.conf files skipped");
	is_str(b.default_pattern, "rafleet-*", "the last default line of loader.conf counts");
	is_str(default_id(&b), "rafleet-7.10",
	       "default rafleet-*: the first bootable match in menu order, 7.10 over 7.9");
	ok(find(&b, "rafleet-7.11") && find(&b, "rafleet-7.11")->tries_left == 0 &&
	   find(&b, "rafleet-7.11")->tries_done == 3,
	   "rafleet-7.11+0-3.conf: id without the counter, 0 tries left, 3 done");
	ok(find(&b, "broken-8.0") && !find(&b, "broken-8.0")->bootable,
	   "an entry without a linux line is listed, not bootable");
	ok(warned(&w, "/boot/loader/entries/broken-8.0.conf: no linux line"),
	   "  and is a warning that names the file");
	if (!is_u64(w.nr, 1, "  the only warning"))
		show_warnings(&w);
	done(&b, &w);

	put("boot/loader/loader.conf", "default debian-6.1.conf\n");
	load(&b, &w);
	is_str(default_id(&b), "debian-6.1", "default debian-6.1.conf (with .conf) selects debian-6.1");
	done(&b, &w);

	put("boot/loader/loader.conf", "default broken-*\n");
	load(&b, &w);
	is_str(default_id(&b), "none", "a default that only matches an unbootable entry selects none");
	ok(warned(&w, "default broken-* matches no bootable entry"), "  and says so");
	done(&b, &w);

	put("boot/loader/loader.conf", "timeout 5\n");
	load(&b, &w);
	ok(!b.default_pattern, "loader.conf without a default line: no pattern");
	is_str(default_id(&b), "rafleet-7.10",
	       "  and the default is the first bootable entry of the menu, as systemd-boot boots it");
	done(&b, &w);

	put("boot/loader/entries/rafleet-7.10.conf", "title R 7.10\nversion 7.10\n");
	put("boot/loader/entries/rafleet-7.9.conf", "title R 7.9\nversion 7.9\n");
	put("boot/loader/entries/debian-6.1.conf", "title Debian\n");
	load(&b, &w);
	is_str(default_id(&b), "rafleet-7.11",
	       "no default line, the first four of the menu unbootable: the first bootable one, the last");
	done(&b, &w);

	put("boot/loader/loader.conf", "default @saved\n");
	load(&b, &w);
	ok(!b.default_entry && warned(&w, "EFI variable"),
	   "default @saved: not known from the files, and a warning says why");
	done(&b, &w);
}

static void test_missing_files(void)
{
	struct boot_loader b;
	struct warnings w;
	const struct boot_entry *e;

	reset();
	put("boot/vmlinuz-a", "k");
	put("boot/loader/entries/gone.conf", "linux /vmlinuz-gone\n");
	put("boot/loader/entries/no-initrd.conf", "linux /vmlinuz-a\ninitrd /initrd-gone\n");
	put("boot/loader/entries/efi.conf", "title memtest\nefi /EFI/memtest.efi\n");
	put("boot/EFI/memtest.efi", "efi");
	put("boot/loader/entries/rootfs.conf", "linux /boot/vmlinuz-a\n");
	fakefs_symlink(root, "boot/loader/entries/dangling.conf", "/nowhere.conf");
	load(&b, &w);
	e = find(&b, "gone");
	ok(e && !e->bootable && warned(&w, "gone.conf: linux /vmlinuz-gone: no such file"),
	   "linux names a file that is not there: not bootable, a warning");
	e = find(&b, "no-initrd");
	ok(e && e->bootable && warned(&w, "no-initrd.conf: initrd /initrd-gone: no such file"),
	   "a missing initrd is a warning, the entry stays bootable");
	e = find(&b, "efi");
	ok(e && e->bootable && !e->kernel && e->efi,
	   "an efi entry (no linux line) is bootable when its program exists");
	e = find(&b, "rootfs");
	ok(e && e->bootable, "linux /boot/vmlinuz-a, relative to / when /boot is not its own partition");
	e = find(&b, "dangling");
	if (!ok(e && !e->bootable && warned(&w, "dangling.conf"),
		"an entry that cannot be read is listed, not bootable, with a warning"))
		show_warnings(&w);
	done(&b, &w);
}

/*
 * The release an entry boots (its version, else its image's name) and
 * which entry boots a release or an image as the host sees it: on the
 * ESP mounted at /boot, /efi or /boot/efi, an entry's paths start at
 * the partition.
 */
static void test_entry_release_boots(void)
{
	struct boot_entry versioned = { .id = (char *)"a", .version = (char *)"7.3.4-1",
					.kernel = (char *)"/vmlinuz-other", .base = (char *)"/efi" };
	struct boot_entry by_name = { .id = (char *)"b", .kernel = (char *)"/vmlinuz-7.3.4-0",
				      .base = (char *)"/boot" };
	struct boot_entry by_dir = { .id = (char *)"c",
				     .kernel = (char *)"/usr/lib/modules/7.3.4-2/vmlinuz",
				     .base = (char *)"/" };
	struct boot_entry nothing = { .id = (char *)"d", .kernel = (char *)"/EFI/Linux/x.efi" };
	char rel[16], tiny[4];

	ok(boot_entry_release(&versioned, rel, sizeof(rel)) && !strcmp(rel, "7.3.4-1"),
	   "an entry's version is its release, whatever its image is called (%s)", rel);
	ok(boot_entry_release(&by_name, rel, sizeof(rel)) && !strcmp(rel, "7.3.4-0"),
	   "without a version, the release in vmlinuz-RELEASE (%s)", rel);
	ok(boot_entry_release(&by_dir, rel, sizeof(rel)) && !strcmp(rel, "7.3.4-2"),
	   "or in .../modules/RELEASE/vmlinuz (%s)", rel);
	ok(!boot_entry_release(&nothing, rel, sizeof(rel)) && !rel[0],
	   "an image name with no release: none, and an empty string");
	ok(!boot_entry_release(&versioned, tiny, sizeof(tiny)) && !tiny[0],
	   "a release that does not fit: none, not a truncated one");

	ok(boot_entry_boots(&versioned, "7.3.4-1", NULL), "found by its version");
	ok(!boot_entry_boots(&versioned, "7.3.4", NULL), "a prefix of the version is not it");
	ok(boot_entry_boots(&versioned, NULL, "/efi/vmlinuz-other"),
	   "found by its image on its partition's mount point");
	ok(boot_entry_boots(&versioned, NULL, "/vmlinuz-other"), "and by its path as written");
	ok(boot_entry_boots(&by_name, NULL, "/boot/vmlinuz-7.3.4-0"),
	   "an entry on /boot, by /boot/IMAGE");
	ok(!boot_entry_boots(&by_name, "7.3.4-0", NULL),
	   "without a version line, not by release (the caller reads the image's name)");
	ok(boot_entry_boots(&by_dir, NULL, "/usr/lib/modules/7.3.4-2/vmlinuz"),
	   "a partition at / adds nothing to the path");
	ok(!boot_entry_boots(&nothing, "7.3.4-1", "/efi/vmlinuz-other"),
	   "neither the release nor the image: not it");
	ok(!boot_entry_boots(&nothing, NULL, NULL), "nothing asked: not it");
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	test_patterns();
	test_nothing();
	test_entry_keys();
	test_sort_key();
	test_default();
	test_missing_files();
	test_entry_release_boots();
	fakefs_rm_tree(root);
	return tap_done();
}
