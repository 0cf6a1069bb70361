/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host/blockdev.h - the block device under a file, and its sysfs counters.
 *
 * Errors are negative errno values: -ENODEV when a device number has no
 * sysfs block entry, -EBADMSG when a sysfs file does not hold what it
 * should, -EINVAL for bad arguments, -ENAMETOOLONG for oversized paths or
 * names, or whatever opening/reading/writing the file failed with.
 */
#ifndef RAFLEET_BLOCKDEV_H
#define RAFLEET_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct blockdev {
	char name[64];		/* whole disk: "vda", also for vda1 */
	char sysdir[512];	/* its resolved sysfs dir, .../block/vda */
	unsigned int major, minor;	/* the device asked about (st_dev) */
	bool is_partition;	/* that device is a partition of name */
};

struct blockdev_stat {
	uint64_t read_ios, read_merges, read_sectors, read_ticks_ms;
	uint64_t write_ios, write_sectors, in_flight;
};

/* host_path("/sys"): $RAFLEET_SYSFS if set and not empty, else "/sys" */
const char *blockdev_sysfs_root(void);

/*
 * Resolve device number @dev (st_dev of a file) through
 * SYSFS/dev/block/MAJ:MIN; @sysfs NULL means blockdev_sysfs_root(). For a
 * partition (its directory has a "partition" file) report the parent disk,
 * where queue/ and the request counters live, and set is_partition.
 * major/minor stay those of @dev. -ENODEV if @dev has no sysfs block entry
 * (tmpfs, btrfs anonymous devices, ...). *bd is only written on success.
 */
int blockdev_from_dev(const char *sysfs, dev_t dev, struct blockdev *bd);

/*
 * Parse SYSDIR/stat (Documentation/block/stat.rst): 11, 15 or 17 fields,
 * or more should later kernels append some; anything else is -EBADMSG.
 */
int blockdev_read_stat(const struct blockdev *bd, struct blockdev_stat *st);

/* Read/write the unsigned integer SYSDIR/queue/@attr, e.g. read_ahead_kb. */
int blockdev_queue_get(const struct blockdev *bd, const char *attr,
		       uint64_t *val);
int blockdev_queue_set(const struct blockdev *bd, const char *attr,
		       uint64_t val);

#endif /* RAFLEET_BLOCKDEV_H */
