/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot loader: which one boots this host, what it will boot next
 * (its effective default, and a one-shot if one is set), making an entry
 * the default or the next boot only, and its menu.  One backend a boot
 * loader, chosen by /etc/rafleet/boot.conf or found as follows:
 *
 *   systemd-boot  its EFI variable LoaderInfo says so, or an ESP (/efi,
 *                 /boot, /boot/efi: a vfat mount, as bootctl looks) or
 *                 /boot holds loader/entries.  Entries from the ESP and
 *                 the XBOOTLDR partition (/boot, mounted apart from the
 *                 ESP); the default from LoaderEntryDefault, else the
 *                 ESP's loader/loader.conf, else the first entry of the
 *                 menu; the one-shot from LoaderEntryOneShot.
 *   grub          Debian's: /boot/grub/grub.cfg's menu, the default by
 *                 its "set default" (GRUB_DEFAULT=saved: grubenv's
 *                 saved_entry), the one-shot grubenv's next_entry.
 *   grub-bls      Fedora/RHEL's GRUB 2 with BLS entries (/boot/loader/
 *                 entries, grub.cfg runs blscfg): grubenv's saved_entry
 *                 and next_entry name an entry's id.
 *
 * A host booted without EFI (the test roots, a BIOS host with
 * /boot/loader/entries) has systemd-boot's files but no variables: what
 * the files say is what boots.
 */
#ifndef RAFLEET_BOOTLOADER_H
#define RAFLEET_BOOTLOADER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "host/bootentry.h"
#include "lib/warnings.h"

#define BOOT_CONF "/etc/rafleet/boot.conf"
/* tries a promoted entry gets (systemd-boot's boot counting) by default */
#define BOOT_TRIES_DEFAULT 3
/* loader.conf is kept at one sector, rewritten in place (bootloader.c) */
#define LOADER_CONF_SECTOR 512

enum bootloader_kind {
	BOOTLOADER_NONE,
	BOOTLOADER_SDBOOT,
	BOOTLOADER_GRUB,
	BOOTLOADER_GRUB_BLS,
};

struct bootloader {
	enum bootloader_kind kind;
	const char *name;	/* "systemd-boot", "grub", "grub-bls", "none" */
	char chosen_by[PATH_MAX + 128];	/* what chose it, for people */
	bool efi;		/* EFI variables can be read (efivarfs) */
	char esp[PATH_MAX];	/* systemd-boot: the ESP, or /boot with none */
	char xbootldr[PATH_MAX];	/* "" if none */
	char grub_dir[64];	/* grub, grub-bls: /boot/grub or /boot/grub2 */
	unsigned int tries;	/* boot counting on promote; 0: none */
};

/* What boots: an entry as the boot loader names it, and whose word it is. */
struct boot_target {
	char entry[1024];	/* BLS id, or GRUB's id path ("a>b") */
	char release[256];	/* the kernel it boots; "" if unknown */
	char source[PATH_MAX + 1100];	/* what says so, for people */
	/*
	 * A default nothing names: the boot loader's fallback (systemd-boot's
	 * first entry, GRUB's entry 0), which a newly installed kernel can
	 * become.  bootloader_pin() names it.
	 */
	bool implicit;
};

/* @t's entry and release from menu entry @e (its source is the caller's) */
static inline void boot_target_of(struct boot_target *t, const struct boot_entry *e)
{
	snprintf(t->entry, sizeof(t->entry), "%s", e->id);
	boot_entry_release(e, t->release, sizeof(t->release));
}

/*
 * Which boot loader this host (under $RAFLEET_ROOT) has.  0; -ENOENT
 * when none is found, -EINVAL for a boot.conf that is wrong; @why says.
 */
int bootloader_detect(struct bootloader *bl, char *why, size_t len);

/*
 * The menu, as the boot loader reads it, with default_entry set to the
 * effective default (NULL if none).  0 or -errno; problems with single
 * entries are warnings.
 */
int bootloader_menu(const struct bootloader *bl, struct boot_loader *menu,
		    struct warnings *w);

/*
 * What the next boot without a one-shot boots.  0; -ENOENT when nothing
 * bootable is selected; another -errno; @why says.
 */
int bootloader_default(const struct bootloader *bl, struct boot_target *t,
		       char *why, size_t len);

/* The one-shot next boot.  0; -ENOENT when none is set. */
int bootloader_oneshot(const struct bootloader *bl, struct boot_target *t,
		       char *why, size_t len);

/*
 * The menu entry that boots @release (or the image @image, as the host
 * sees it; NULL to go by release).  0 or -ENOENT with @why.
 */
int bootloader_find(const struct bootloader *bl, const char *release,
		    const char *image, struct boot_target *t, char *why, size_t len);

/*
 * Make @t (from bootloader_find() or a default recorded before) the
 * default; with @count, the boot loader's boot counting assesses it
 * (systemd-boot: bl->tries; the others have none).  @how says what was
 * written.  0 or -errno with @why; on failure the old default stands.
 */
int bootloader_set_default(const struct bootloader *bl, const struct boot_target *t,
			   bool count, char *how, size_t hlen, char *why, size_t len);

/*
 * Name the effective default where it is implicit (*@pinned true), so that
 * installing a kernel cannot change what boots: loader.conf's default
 * line (made one sector), GRUB's saved_entry.  A default already named is
 * left as it is.  @t is the default; @how says what was done.  0 or -errno
 * with @why (Debian's GRUB without GRUB_DEFAULT=saved: -EINVAL).
 */
int bootloader_pin(const struct bootloader *bl, struct boot_target *t, bool *pinned,
		   char *how, size_t hlen, char *why, size_t len);

/* Make @t the next boot only.  0 or -errno with @why. */
int bootloader_set_oneshot(const struct bootloader *bl, const struct boot_target *t,
			   char *how, size_t hlen, char *why, size_t len);

/* Unset a one-shot.  0 also when none was set. */
int bootloader_clear_oneshot(const struct bootloader *bl, char *why, size_t len);

/*
 * A menu entry that boots @release with the command line @cmdline, for a
 * trial through the boot loader (made the one-shot by the caller): a copy
 * of the kernel's own BLS entry beside it (its kernel and initramfs paths
 * hold on that partition), called BOOT_TRIAL_PREFIX@token, its title
 * saying so and its options @cmdline, written under a temporary name,
 * fsynced and renamed (on vfat a crash leaves the old directory or the
 * new one: a *.tmp file no boot loader reads, at worst).  @t names it.
 * The effective default must not move: where it would (a default nothing
 * names, which the new entry becomes), the entry goes again and -EINVAL
 * says so.  systemd-boot and grub-bls; Debian's GRUB has no entry files:
 * -EOPNOTSUPP.  0 or -errno with @why.
 */
int bootloader_add_trial(const struct bootloader *bl, const char *release,
			 const char *cmdline, const char *token, struct boot_target *t,
			 char *why, size_t len);

/*
 * Remove every trial entry (BOOT_TRIAL_PREFIX*.conf), and the one-shot if
 * it names one.  @removed counts the files.  0 also when there are none.
 */
int bootloader_remove_trials(const struct bootloader *bl, unsigned int *removed,
			     char *why, size_t len);

/*
 * Rewrite the loader.conf @path (a host path) with its "default" lines
 * replaced by one of @pattern, crash-safe on vfat, which has no journal:
 * the file is kept at exactly LOADER_CONF_SECTOR bytes (a comment pads
 * it), so a rewrite is one write of one sector in place, old or new after
 * a crash, and the FAT and the directory entry's cluster and size never
 * change (only its modification time, written with the fsync).  A file of
 * another size is replaced once by a new one (temporary name, fsync,
 * rename); a text that does not fit one sector always is.  @how says
 * which.  Failpoints: loader-conf.after-write and .after-fsync in place,
 * loader-conf.after-temp and .after-rename replacing it.
 */
int loader_conf_set_default(const char *path, const char *pattern, char *how,
			    size_t hlen, char *why, size_t len);

#endif
