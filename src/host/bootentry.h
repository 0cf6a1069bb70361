/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boot Loader Specification type #1 entries, the *.conf files of
 * /boot/loader/entries, and the default entry that /boot/loader/loader.conf
 * names, read the way systemd-boot reads them.
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
	char *file;		/* /boot/loader/entries/ID.conf */
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
	/*
	 * The first bootable entry in menu order that default_pattern
	 * matches, or with no default line the first bootable entry (what
	 * systemd-boot boots); NULL if none.
	 */
	struct boot_entry *default_entry;
};

/*
 * Read the entries and loader.conf under @root.  A file that cannot be
 * read, an entry with nothing to boot or a missing kernel is a warning;
 * the result is 0, or -ENOMEM.
 */
int boot_loader_load(struct boot_loader *b, const char *root,
		     struct warnings *w);

void boot_loader_free(struct boot_loader *b);

/*
 * Does the loader.conf @pattern (a glob, as systemd-boot matches it:
 * ignoring case) select the entry called @id, written with or without
 * its .conf?
 */
bool boot_pattern_matches(const char *pattern, const char *id);

#endif
