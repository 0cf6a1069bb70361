/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tune/tune.h - the read_ahead_kb policy of `rafleet tune`: its config file,
 * the block devices it applies to (class, current values, from sysfs),
 * which rule matches a device and what that rule would set.
 *
 * The config, /etc/rafleet/tune.conf, is one rule per line:
 *
 *	device GLOB  VALUE	the disk's name matches GLOB (fnmatch(3))
 *	class  CLASS VALUE	the disk is of CLASS (see enum tune_class)
 *
 * VALUE is N (KiB, exactly), >N (N, but never below the current value),
 * max_sectors (at least the device's max_sectors_kb: never lowers) or keep
 * (leave it as it is).  '#' starts a comment.  The first rule that matches
 * a device wins; a device that no rule matches is left as it is.
 */
#ifndef RAFLEET_TUNE_H
#define RAFLEET_TUNE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host/blockdev.h"

#define TUNE_CONF "/etc/rafleet/tune.conf"
#define TUNE_STATE "tune.json"
#define TUNE_SCHEMA "rafleet-tune/1"
#define TUNE_STATE_SCHEMA "rafleet-tune-state/1"
/* the largest fixed value a rule may ask for: 1 GiB of readahead */
#define TUNE_MAX_KB (1024ULL * 1024)

/* In the order they are tried: the first that fits is the device's class. */
enum tune_class {
	TUNE_DM,		/* SYSDIR/dm/ exists: device-mapper */
	TUNE_MD,		/* SYSDIR/md/ exists: software RAID */
	TUNE_LOOP,		/* SYSDIR/loop/ exists, or the name is loopN */
	TUNE_NVME,		/* SYSDIR/device/subsystem is nvme or nvme-subsystem */
	TUNE_VIRTIO,		/* SYSDIR/device/subsystem is virtio (virtio-blk) */
	TUNE_ROTATIONAL,	/* SYSDIR/queue/rotational is 1 */
	TUNE_OTHER,		/* none of these */
	TUNE_NR_CLASSES,
};

const char *tune_class_name(enum tune_class c);
/* "rotational" -> TUNE_ROTATIONAL.  0 or -EINVAL. */
int tune_class_parse(const char *s, enum tune_class *c);

enum tune_kind {
	TUNE_FIXED,		/* N */
	TUNE_AT_LEAST,		/* >N */
	TUNE_MAX_SECTORS,	/* max_sectors */
	TUNE_KEEP,		/* keep */
};

struct tune_value {
	enum tune_kind kind;
	uint64_t kb;		/* N of TUNE_FIXED and TUNE_AT_LEAST */
};

/* "4096", ">4096", "max_sectors", "keep".  0 or -EINVAL (-ERANGE: N too large). */
int tune_value_parse(const char *s, struct tune_value *v);

struct tune_rule {
	bool by_class;		/* class CLASS, else device GLOB */
	enum tune_class cls;
	char glob[64];
	struct tune_value value;
	char text[32];		/* the value as written */
	unsigned int line;
};

struct tune_policy {
	char file[PATH_MAX];	/* as the host sees it: /etc/rafleet/tune.conf */
	struct tune_rule *rules;
	size_t nr;
};

/*
 * Read the rules of @f, named @file in messages and in each rule's origin.
 * On a bad line, -EINVAL and "FILE:LINE: what is wrong" in @err; @p is then
 * empty.  -ENOMEM, or -EIO on a read error.
 */
int tune_policy_parse(FILE *f, const char *file, struct tune_policy *p,
		      char *err, size_t errlen);

/*
 * The same from @path under @root.  -ENOENT (and a message) if it is
 * missing, any other -errno if it cannot be opened.
 */
int tune_policy_load(const char *root, const char *path,
		     struct tune_policy *p, char *err, size_t errlen);

void tune_policy_free(struct tune_policy *p);

/* A block device as `rafleet tune` sees it. */
struct tune_dev {
	char asked[64];		/* the name asked for: vda1, or the disk's */
	struct blockdev disk;	/* the whole disk, where queue/ lives */
	bool partition;		/* @asked is a partition of disk.name */
	enum tune_class cls;
	char class_why[96];	/* how the class was found */
	int ra_err;		/* 0, or why read_ahead_kb cannot be read */
	uint64_t ra_kb;
	int ms_err;		/* 0, or why max_sectors_kb cannot be read */
	uint64_t max_sectors_kb;
	bool have_diskseq;	/* SYSDIR/diskseq (5.15+): this disk in this boot */
	uint64_t diskseq;
};

/*
 * The device @name (vda, vda1, dm-0) under @sysfs (NULL: blockdev_sysfs_root()),
 * looked up as SYSFS/class/block/NAME, else SYSFS/block/NAME; a partition
 * is taken to its disk.  -ENODEV if there is no such block device,
 * -EINVAL for a name that is no plain file name.
 */
int tune_dev_open(const char *sysfs, const char *name, struct tune_dev *d);

/*
 * Every disk of SYSFS/block, sorted by name, in *@devs (free()).
 * 0 or -errno.
 */
int tune_dev_list(const char *sysfs, struct tune_dev **devs, size_t *nr);

/* The first rule of @p that matches @d, or NULL. */
const struct tune_rule *tune_match(const struct tune_policy *p,
				   const struct tune_dev *d);

/* What the policy does to one device. */
struct tune_decision {
	const struct tune_rule *rule;	/* NULL: no rule matched */
	bool change;		/* write @want */
	uint64_t want;		/* the value it should have */
	int err;		/* 0, or why nothing can be decided */
	char why[160];
};

/* Decide for @d under @p; always fills @out. */
void tune_decide(const struct tune_policy *p, const struct tune_dev *d,
		 struct tune_decision *out);

#endif /* RAFLEET_TUNE_H */
