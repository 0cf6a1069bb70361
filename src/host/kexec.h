/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Switching kernels with kexec-tools: load a kernel (kexec -l), unload it
 * (kexec -u), and start it: `systemctl kexec` where systemd is PID 1
 * (/run/systemd/system exists), else `kexec -e`.  Or reboot through the
 * firmware: `systemctl reboot`, else reboot(RB_AUTOBOOT).
 *
 * $RAFLEET_KEXEC and $RAFLEET_SYSTEMCTL stand for /sbin/kexec and
 * systemctl (tests give scripts that record their arguments).  Under a
 * $RAFLEET_ROOT other than /, the real programs are never run: that is a
 * test, and this machine is not the one to restart.
 */
#ifndef RAFLEET_KEXEC_H
#define RAFLEET_KEXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/env.h"

#define KEXEC_DEFAULT "kexec"
#define SYSTEMCTL_DEFAULT "systemctl"

/*
 * The program to run for @def (KEXEC_DEFAULT, SYSTEMCTL_DEFAULT): $@env
 * when set (a test build only: lib/env.h), else the system's @def by
 * absolute path (runcmd_find(); -ENOENT if there is none); -EPERM (with
 * @why) under a $RAFLEET_ROOT other than / without $@env, so that a test
 * never runs the real one.
 */
int host_program(enum env_var env, const char *def, const char **prog, char *why, size_t len);

/*
 * Whether the kernel is locked down (/sys/kernel/security/lockdown, under
 * $RAFLEET_SYSFS in tests: "integrity" or "confidentiality" in force, as with
 * Secure Boot and CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT).  A locked-down
 * kernel refuses kexec_load(2) and takes only kexec_file_load(2), which
 * checks the image's signature (CONFIG_KEXEC_SIG) against the kernel's
 * keyrings (the built-in, secondary and platform ones: UEFI's db, and
 * MOK where the machine keyring is built).  False without the file.
 */
bool kexec_locked_down(void);

/*
 * kexec -l IMAGE [--initrd=INITRD] --append=CMDLINE, the files as the host
 * sees them (looked up under $RAFLEET_ROOT); kexec -s (kexec_file_load)
 * instead when the kernel is locked down.  0, or -EIO / -EPERM with @why
 * saying what went wrong.
 */
int kexec_load(const char *image, const char *initrd, const char *cmdline,
	       char *why, size_t len);

/* kexec -u: forget a loaded kernel.  0 or -EIO (with @why). */
int kexec_unload(char *why, size_t len);

/*
 * Start the loaded kernel; @how is set to "systemctl kexec" or "kexec -e".
 * Returns only if that failed (or, for systemctl, once the job is queued).
 */
int kexec_exec(const char **how, char *why, size_t len);

/* Reboot through the firmware into the default boot entry. */
int host_reboot(const char **how, char *why, size_t len);

/*
 * The same at once, whatever userspace is doing: `systemctl reboot
 * --force --force` (systemctl syncs and calls reboot(2) itself, without
 * PID 1), else reboot(RB_AUTOBOOT).
 */
int host_reboot_now(const char **how, char *why, size_t len);

#endif
