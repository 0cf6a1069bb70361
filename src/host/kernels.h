/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernels installed: a directory per release under /usr/lib/modules
 * (which is /lib/modules where /lib is a symlink) whose image is its
 * vmlinuz (kernel-install(8), RPM kernels) or /boot/vmlinuz-RELEASE
 * (Debian's linux-image packages).
 */
#ifndef RAFLEET_KERNELS_H
#define RAFLEET_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/warnings.h"

struct kernel_dir {
	char *release;		/* the directory's name */
	char *path;		/* /usr/lib/modules/RELEASE as the host sees it */
	char *image;		/* PATH/vmlinuz or /boot/vmlinuz-RELEASE */
	bool running;		/* uname -r; set by the caller */
};

struct kernels {
	struct kernel_dir *k;	/* newest first */
	size_t nr;
};

/*
 * Read /usr/lib/modules under @root, and /lib/modules too if /lib is a
 * directory of its own there.  An unreadable directory is a warning; the
 * result is 0, or -ENOMEM.
 */
int kernels_load(struct kernels *k, const char *root, struct warnings *w);

void kernels_free(struct kernels *k);

#endif
