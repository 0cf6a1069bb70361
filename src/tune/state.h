/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tune/state.h - what `rafleet tune` changed, so that --restore can put it
 * back: STATEDIR/tune.json, written whole (atomic_write_stream) before a
 * device's first change.
 *
 * read_ahead_kb does not survive a reboot, and a device name may be
 * another disk in the next boot (sda and sdb swap) or after a hot-unplug:
 * so each entry holds the boot id and the disk's diskseq (a number the
 * kernel gives each disk it brings up, 5.15+).  An entry of another boot,
 * or of a name that is now another disk, has nothing left to restore: the
 * kernel made that queue afresh with its default.  It is dropped, and the
 * next change records the value of this disk anew.
 */
#ifndef RAFLEET_TUNE_STATE_H
#define RAFLEET_TUNE_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "lib/lockfile.h"
#include "tune/tune.h"

struct tune_saved {
	char name[64];		/* the disk, vda */
	bool have_diskseq;
	uint64_t diskseq;
	uint64_t old_kb;	/* read_ahead_kb before rafleet first changed it */
	uint64_t set_kb;	/* what rafleet set last */
	char rule[PATH_MAX + 16];	/* FILE:LINE of the rule that set it */
	int64_t time;		/* of the first change, seconds since the epoch */
};

struct tune_state {
	char boot_id[40];	/* the boot the entries are of ("" unknown) */
	struct tune_saved *dev;
	size_t nr;
	size_t dropped;		/* entries of another boot, dropped on load */
};

/*
 * Read @path.  A missing file is an empty state; entries of a boot other
 * than @boot_id (when both are known) are dropped and counted.  The state
 * takes @boot_id.  -EBADMSG (and a message in @err) if the file is not a
 * tune state, -ENOMEM.
 */
int tune_state_load(const char *path, const char *boot_id,
		    struct tune_state *s, char *err, size_t errlen);

/* Write @s to @path, whole or not at all.  0 or -errno. */
int tune_state_save(const char *path, const struct tune_state *s);

/* The entry of disk @name, or NULL. */
struct tune_saved *tune_state_find(struct tune_state *s, const char *name);

/* Is @e about the disk @d is now (same diskseq, where both have one)? */
bool tune_saved_is(const struct tune_saved *e, const struct tune_dev *d);

/*
 * Record @d's current read_ahead_kb as its old value, replacing an entry
 * of the same name that is about another disk.  0 or -ENOMEM.
 */
int tune_state_record(struct tune_state *s, const struct tune_dev *d,
		      uint64_t set_kb, const char *rule, int64_t now);

/* Forget @e. */
void tune_state_remove(struct tune_state *s, struct tune_saved *e);

void tune_state_free(struct tune_state *s);

/*
 * The lock on @path.lock (lib/lockfile.h), waited for: tune runs are
 * short, and udev starts one per disk at once.  0 or -errno.
 */
int tune_state_lock(struct lockfile *l, const char *path);

#endif
