/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of one installed kernel, for kexec: its image and initramfs.
 * Looked for in the Boot Loader Specification entry of that version (its
 * linux and first initrd lines), then /boot/vmlinuz-RELEASE and
 * /usr/lib/modules/RELEASE/vmlinuz, and /boot/initrd.img-RELEASE
 * (Debian) or /boot/initramfs-RELEASE.img (Fedora).
 */
#ifndef RAFLEET_KERNELFIND_H
#define RAFLEET_KERNELFIND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct kernel_files {
	char release[256];
	char image[PATH_MAX];	/* as the host sees it: /boot/vmlinuz-... */
	char initrd[PATH_MAX];	/* "" if there is none */
	char entry[256];	/* the BLS entry's id, "" if none */
	char options[4096];	/* its options lines, "" if none */
	/* the initrd the entry names, when that file is not there; else "" */
	char missing_initrd[PATH_MAX];
};

/*
 * Find @spec under $RAFLEET_ROOT, in the menu of the boot loader that
 * boots it (host/bootloader.h): a release ("7.3.4-2.rafleet+virt") or the path
 * of a kernel image (its release is read from its name, /boot/vmlinuz-REL
 * or /usr/lib/modules/REL/vmlinuz, or from the entry that boots it).
 * The entry's id and options come with it; an initrd the entry names but
 * that is not there is reported in missing_initrd, not looked for
 * elsewhere.
 * 0, or -ENOENT with @why saying what was not found.
 */
int kernel_find(const char *spec, struct kernel_files *k, char *why, size_t len);

#endif
