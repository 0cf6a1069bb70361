/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The default boot entry: what the next boot without a one-shot boots
 * (`rafleet stage` checks it is the running kernel and records it), and
 * making a kernel the default (`rafleet promote`) or an entry the default
 * again (a demotion).  With grubby where it exists (`--default-kernel`,
 * `--set-default=IMAGE`), else by the "default" line of the Boot Loader
 * Specification's /boot/loader/loader.conf, rewritten atomically.
 * $RAFLEET_GRUBBY names grubby for tests; under a $RAFLEET_ROOT other
 * than / only that one is run.
 */
#ifndef RAFLEET_BOOTDEFAULT_H
#define RAFLEET_BOOTDEFAULT_H

#include <stddef.h>

struct boot_default {
	/*
	 * The default as the boot loader names it: an entry id of
	 * /boot/loader/entries (loader.conf) or a kernel image (grubby).
	 */
	char entry[4096];
	char release[256];	/* the kernel it boots; "" if unknown */
	char how[64];		/* "grubby" or "/boot/loader/loader.conf" */
};

/*
 * The effective default: loader.conf's "default" pattern, or with none the
 * first entry of the menu (systemd-boot boots the newest); grubby's
 * --default-kernel.  0; -ENOENT when nothing says (no grubby, no bootable
 * entry), -EOPNOTSUPP when only an EFI variable knows (default @...),
 * another -errno; @why says what is wrong.
 */
int boot_default_get(struct boot_default *d, char *why, size_t len);

/*
 * Make @d->entry (as boot_default_get() returned it, by the same @d->how)
 * the default again.  0 or -errno with @why.
 */
int boot_default_restore(const struct boot_default *d, char *why, size_t len);

/*
 * Make the entry of @release (image @image, as the host sees it) the
 * default.  @how says what did it ("grubby", "/boot/loader/loader.conf").
 * 0; -ENOENT when no boot loader configuration was found for it; another
 * -errno; @why says what went wrong.
 */
int boot_default_set(const char *release, const char *image, char *how,
		     size_t hlen, char *why, size_t len);

#endif
