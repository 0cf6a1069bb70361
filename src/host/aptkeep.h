/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The previous kernel of a rollout, kept from apt: while a rollout is in
 * progress the kernel it came from is the way back, and nothing on a
 * Debian host may take it away.
 *
 *  - `apt autoremove`: apt keeps the running kernel and the two newest it
 *    knows (its own APT::NeverAutoRemove list), so once a newer kernel is
 *    installed after a promotion, the previous one, pulled in by the meta
 *    package and so marked automatic, is autoremovable.  This file,
 *    AUTOREMOVE_FILE, adds APT::NeverAutoRemove patterns for every
 *    linux-*-RELEASE package of the previous kernel (as apt's own list
 *    names a kernel's packages).
 *  - `apt remove linux-image-RELEASE` by hand: the image's prerm (set -e)
 *    runs the hooks of /etc/kernel/prerm.d with run-parts, where the tools
 *    package's hook (etc/kernel/prerm.d-rafleet) reads the file's
 *    "// release" line and fails, which makes dpkg keep the package.
 *
 * The file follows the state: rollout_open() and every save of the state
 * make it name the previous kernel in phase staged, trial, promoted or
 * rolled-back, the phases in which the dnf plugin (dnf-plugin/rafleet.py)
 * keeps the same kernel from dnf, and remove it in phase idle.  Only on a
 * host with /etc/apt/apt.conf.d (under $RAFLEET_ROOT): elsewhere it is not
 * made; and not for a state directory set by RAFLEET_STATE_DIR without
 * RAFLEET_ROOT (a test's state, not the host's: rollout/core.c).
 */
#ifndef RAFLEET_APTKEEP_H
#define RAFLEET_APTKEEP_H

#include <stdbool.h>
#include <stddef.h>

#define AUTOREMOVE_DIR "/etc/apt/apt.conf.d"
#define AUTOREMOVE_FILE AUTOREMOVE_DIR "/50rafleet-previous-kernel"
#define APTKEEP_RELEASE_MAX 64	/* uname's release field holds 64 */

/*
 * Whether @release is a kernel release the file can name: 1 to
 * APTKEEP_RELEASE_MAX of [A-Za-z0-9._+~-], not starting with '-'.
 */
bool aptkeep_release_ok(const char *release);

/*
 * The file's text for @release kept in phase @phase ("trial") into @out:
 * its length, -EINVAL for a release aptkeep_release_ok() refuses, or
 * -ENOSPC if @len is too small.
 */
int aptkeep_format(char *out, size_t len, const char *release, const char *phase);

/*
 * Make the file say that @release is kept in phase @phase, or remove it
 * when @release is NULL; a file that says so already is left alone (no
 * write, no fsync).  0 when done or when the host has no apt (no
 * AUTOREMOVE_DIR), else -errno (-EINVAL: a release it cannot name).  When
 * the new text cannot be written the old file is removed as well: it would
 * keep a kernel that is no longer the previous one.
 */
int aptkeep_sync(const char *release, const char *phase);

#endif
