/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A feature decision that lasts across boots: its own sysctl.d drop-in,
 * /etc/sysctl.d/60-rafleet-FEATURE.conf (under $RAFLEET_ROOT), a comment
 * saying who wrote it, when and why, then "vm.readahead_FEATURE = 0".
 * 60- sorts after the shipped 50-rafleet.conf, so systemd-sysctl applies
 * it last; the shipped file is never edited.
 */
#ifndef RAFLEET_DROPIN_H
#define RAFLEET_DROPIN_H

#include <stddef.h>

#include "host/feature.h"

#define DROPIN_DIR "/etc/sysctl.d"
#define DROPIN_PREFIX "60-rafleet-"

/* The drop-in of @f as the host sees it. */
int dropin_path(const struct feature *f, char *out, size_t len);

/*
 * Write it, atomically, setting @f to @value at boot; @who ("rafleet
 * rollback") and @reason go into its comment.  0 or -errno.
 */
int dropin_write(const struct feature *f, int value, const char *who,
		 const char *reason);

/* Remove it; 0 if it is gone (or was never there), else -errno. */
int dropin_remove(const struct feature *f);

#endif
