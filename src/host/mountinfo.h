/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mount a file lives on, from /proc/self/mountinfo: the superblock's
 * device number (what tracepoints record as s_dev, which is not a file's
 * st_dev on btrfs) and the mount source (the block device, if any).
 */
#ifndef RAFLEET_MOUNTINFO_H
#define RAFLEET_MOUNTINFO_H

#include <stddef.h>

struct mount_of {
	unsigned int major, minor;	/* the superblock's device */
	char source[512];		/* e.g. /dev/vdc, or "tmpfs" */
	char fstype[64];
};

/*
 * Find the mount whose mount point is the longest prefix of the absolute,
 * resolved @path, in $RAFLEET_MOUNTINFO or /proc/self/mountinfo.
 * 0, -ENOENT if none, another negative errno if it cannot be read.
 */
int mount_of_path(const char *path, struct mount_of *m);

#endif
