/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GRUB backends of host/bootloader.h (bootloader_grub.c): Debian's
 * grub.cfg menu ("grub") and Fedora's BLS entries ("grub-bls"), both with
 * the default and the one-shot in grubenv (saved_entry, next_entry),
 * written by grub-editenv.  Only bootloader.c calls these.
 */
#ifndef RAFLEET_BOOTLOADER_GRUB_H
#define RAFLEET_BOOTLOADER_GRUB_H

#include "host/bootloader.h"

int grub_menu(const struct bootloader *bl, struct boot_loader *menu, struct warnings *w);
/* Debian: the entry of @release by grub_cfg_find_release(); BLS: -ENOTSUP */
int grub_find(const struct bootloader *bl, const char *release, struct boot_target *t,
	      char *why, size_t len);
int grub_default(const struct bootloader *bl, struct boot_target *t, char *why, size_t len);
int grub_oneshot(const struct bootloader *bl, struct boot_target *t, char *why, size_t len);
int grub_set_default(const struct bootloader *bl, const struct boot_target *t,
		     char *how, size_t hlen, char *why, size_t len);
int grub_set_oneshot(const struct bootloader *bl, const struct boot_target *t,
		     char *how, size_t hlen, char *why, size_t len);
int grub_clear_oneshot(const struct bootloader *bl, char *why, size_t len);

/*
 * Debian's GRUB has no entry files, and grub.cfg is update-grub's: a
 * trial entry goes into GRUB_DIR/GRUB_TRIAL_CFG, which grub.cfg sources
 * at boot (rafleet's /etc/grub.d/42_rafleet puts that in, after every
 * other entry), a copy of the lines of @release's own entry with a
 * menuentry of its own, id BOOT_TRIAL_PREFIX@token, and the linux line
 * the kernel with @cmdline.  -EOPNOTSUPP when grub.cfg does not source
 * the file (update-grub has not run since rafleet was installed).  One
 * trial at a time: the file holds that one entry.
 */
#define GRUB_TRIAL_CFG "rafleet-trial.cfg"
int grub_add_trial(const struct bootloader *bl, const char *release, const char *cmdline,
		   const char *token, struct boot_target *t, char *why, size_t len);
/* GRUB_DIR/GRUB_TRIAL_CFG removed (@removed 1), if there is one */
int grub_remove_trials(const struct bootloader *bl, unsigned int *removed, char *why, size_t len);

#endif
