/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Making a kernel the default boot entry (`rafleet promote`): with
 * `grubby --set-default=IMAGE` where grubby exists, else by the "default"
 * line of the Boot Loader Specification's /boot/loader/loader.conf,
 * rewritten atomically to name the kernel's entry.
 * $RAFLEET_GRUBBY names grubby for tests; under a $RAFLEET_ROOT other
 * than / only that one is run.
 */
#ifndef RAFLEET_BOOTDEFAULT_H
#define RAFLEET_BOOTDEFAULT_H

#include <stddef.h>

/*
 * Make the entry of @release (image @image, as the host sees it) the
 * default.  @how says what did it ("grubby", "/boot/loader/loader.conf").
 * 0; -ENOENT when no boot loader configuration was found for it; another
 * -errno; @why says what went wrong.
 */
int boot_default_set(const char *release, const char *image, char *how,
		     size_t hlen, char *why, size_t len);

#endif
