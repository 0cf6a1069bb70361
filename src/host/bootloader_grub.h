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

#endif
