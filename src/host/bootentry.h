/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boot Loader Specification type #1 entries, the *.conf files of
 * PARTITION/loader/entries, and the default entry that the ESP's
 * loader/loader.conf names, read the way systemd-boot reads them.  The
 * partitions are the ESP and the XBOOTLDR partition (host/bootloader.h
 * finds them); a host without either has them in /boot on its root
 * filesystem.  The same structures carry the menu entries of GRUB's
 * grub.cfg (host/bootloader.c), so that one list serves every boot loader.
 */
#ifndef RAFLEET_BOOTENTRY_H
#define RAFLEET_BOOTENTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/warnings.h"

#define BOOT_ENTRIES_DIR "/boot/loader/entries"
#define BOOT_LOADER_CONF "/boot/loader/loader.conf"

struct boot_entry {
	char *id;		/* the file name without .conf or "+LEFT-DONE" */
	char *file;		/* PARTITION/loader/entries/ID.conf as read */
	char *base;		/* PARTITION: where its kernel paths start */
	char *title, *version, *machine_id, *sort_key;
	char *kernel;		/* the "linux" line; NULL if none */
	char *efi;		/* the "efi" line; NULL if none */
	char *options;		/* every "options" line, joined by spaces */
	char **initrd;
	size_t nr_initrd;
	int tries_left, tries_done;	/* boot counting, -1 if not counted */
	bool bootable;		/* has linux or efi, and that file exists */
};

struct boot_loader {
	struct boot_entry *entries;	/* in systemd-boot's menu order */
	size_t nr_entries;
	char *default_pattern;	/* loader.conf's "default", NULL if none */
	char *conf;		/* the loader.conf read, "" if none */
	/*
	 * The first bootable entry in menu order that default_pattern
	 * matches, or with no default line the first bootable entry (what
	 * systemd-boot boots); NULL if none.
	 */
	struct boot_entry *default_entry;
};

/*
 * Read the entries and loader.conf under @root, from /boot.  A file that
 * cannot be read, an entry with nothing to boot or a missing kernel is a
 * warning; the result is 0, or -ENOMEM.
 */
int boot_loader_load(struct boot_loader *b, const char *root,
		     struct warnings *w);

/*
 * The same from the partitions @parts (host paths: the ESP first, whose
 * loader/loader.conf counts, then the XBOOTLDR partition; NULL-terminated),
 * the menu merged as systemd-boot merges it.
 */
int boot_loader_load_parts(struct boot_loader *b, const char *root,
			   const char *const *parts, struct warnings *w);

/* The first bootable entry of the menu that @pattern selects, or NULL. */
struct boot_entry *boot_loader_find(const struct boot_loader *b, const char *pattern);

/*
 * The host path of @file as entry @e names it (relative to its partition;
 * on a root filesystem that holds /boot as a folder, also from /), if that
 * file is there.  false if it is not, or the path does not fit.
 */
bool boot_entry_file(const char *root, const struct boot_entry *e,
		     const char *file, char *out, size_t len);

void boot_loader_free(struct boot_loader *b);

/*
 * Does the loader.conf @pattern (a glob, as systemd-boot matches it:
 * ignoring case) select the entry called @id, written with or without
 * its .conf?
 */
bool boot_pattern_matches(const char *pattern, const char *id);

/*
 * The release in an image's name: /boot/vmlinuz-RELEASE or
 * .../modules/RELEASE/vmlinuz.  false if it has neither form.
 */
bool kernel_image_release(const char *image, char *out, size_t len);

/*
 * The release entry @e boots: its version, else the release in its
 * kernel image's name.  false, with @out "", when it says neither.
 */
bool boot_entry_release(const struct boot_entry *e, char *out, size_t len);

/*
 * The entries of one-shot trial boots (bootloader_add_trial()): the
 * next boot only, so they boot no kernel by name (boot_entry_boots()).
 */
#define BOOT_TRIAL_PREFIX "rafleet-trial-"

/*
 * Does entry @e boot @release (by its version) or the image @image as
 * the host sees it (its kernel path, on its partition's mount point, or
 * under /boot)?  Either may be NULL.  A trial entry (BOOT_TRIAL_PREFIX)
 * boots neither.
 */
bool boot_entry_boots(const struct boot_entry *e, const char *release, const char *image);

#endif
