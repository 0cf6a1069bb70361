/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot this process runs in: the kernel release (uname -r), the boot
 * id and the kernel command line, with the rafleet.trial token if any.
 * For tests: $RAFLEET_UNAME_R stands for uname -r, $RAFLEET_PROC/cmdline
 * for /proc/cmdline (and $RAFLEET_PROC/uptime for /proc/uptime), and the
 * boot id is read under $RAFLEET_PROCSYS.
 */
#ifndef RAFLEET_RUNNING_H
#define RAFLEET_RUNNING_H

#include <stdbool.h>
#include <stddef.h>

#define TRIAL_PARAM "rafleet.trial"

struct running {
	char release[65];
	char boot_id[40];	/* "" if unknown */
	char cmdline[4096];	/* without its newline */
	char token[64];		/* rafleet.trial=TOKEN; "" if none */
	bool trial_param;	/* rafleet.trial is on the command line */
};

/* 0, or -errno if the command line cannot be read (@r is still usable). */
int running_read(struct running *r);

/*
 * @cmdline for a kexec: without BOOT_IMAGE= (the boot loader adds it) and
 * without any rafleet.trial.  0 or -ENAMETOOLONG.
 */
int running_kexec_cmdline(const char *cmdline, char *out, size_t len);

/* Is this boot the trial of @release started with @token? */
bool running_is_trial(const struct running *r, const char *release,
		      const char *token);

/* Seconds since this kernel booted (/proc/uptime).  0 or -errno. */
int running_uptime(double *secs);

#endif
