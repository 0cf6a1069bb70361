/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard/baseline.h - the guard's baseline on disk:
 * STATEDIR/guard-baseline-RELEASE-MASK.json, MASK two hex digits of the
 * features on (bit i: features[i]).  JSON, schema GUARD_BASELINE_SCHEMA:
 * the learned values of each metric, not the bands, so that the band
 * options apply to a baseline already learned.  Written atomically.
 * A file whose learn_windows is below GUARD_MIN_SAMPLES (one of an older
 * rafleet) is loaded with learn_windows raised to it: it learns on.
 */
#ifndef RAFLEET_GUARD_BASELINE_H
#define RAFLEET_GUARD_BASELINE_H

#include <stddef.h>

#include "guard/band.h"

#define GUARD_BASELINE_SCHEMA "rafleet-guard-baseline/1"

/* The file name (no directory) of the baseline of @release and @mask. */
int guard_baseline_name(const char *release, unsigned int mask, char *out,
			size_t len);

/*
 * Read @path into @b.  -ENOENT if there is none, -EBADMSG (with @err
 * saying what) if it is not a baseline or is of another release or mask
 * than @b's, which the caller set with guard_baseline_init().
 */
int guard_baseline_load(const char *path, struct baseline *b, char *err,
			size_t errlen);

/* Write @b to @path (atomic_write_file).  0 or -errno. */
int guard_baseline_save(const char *path, const struct baseline *b);

#endif /* RAFLEET_GUARD_BASELINE_H */
