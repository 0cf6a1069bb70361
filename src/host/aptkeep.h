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
 *  - `apt remove linux-image-RELEASE` by hand: the image's prerm runs
 *    /etc/kernel/prerm.d with run-parts --exit-on-error, where the tools
 *    package's hook (kernel-install/prerm.d-rafleet) reads the file's
 *    "// release" line and fails, which makes dpkg keep the package.
 *
 * The file is written (atomically) whenever the state is saved in phase
 * staged, trial, promoted or rolled-back, the phases in which the dnf
 * plugin (dnf-plugin/rafleet.py) keeps the same kernel from dnf, and
 * removed in phase idle.  Only on a host with /etc/apt/apt.conf.d (under
 * $RAFLEET_ROOT): elsewhere it is not made.
 */
#ifndef RAFLEET_APTKEEP_H
#define RAFLEET_APTKEEP_H

#include <stdbool.h>
#include <stddef.h>

#define AUTOREMOVE_DIR "/etc/apt/apt.conf.d"
#define AUTOREMOVE_FILE AUTOREMOVE_DIR "/50rafleet-previous-kernel"

/*
 * Whether @release is a kernel release the file can name: 1 to 64 of
 * [A-Za-z0-9._+~-], not starting with '-' (uname -r never holds more).
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
 * when @release is NULL.  0 when done or when the host has no apt (no
 * AUTOREMOVE_DIR), else -errno (-EINVAL: a release it cannot name).
 */
int aptkeep_sync(const char *release, const char *phase);

#endif
