/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakehost.h - a host for the rollout's unit tests, under a temporary
 * directory TMP, each part in the environment rafleet reads:
 *
 *	TMP/root	RAFLEET_ROOT (/etc, /boot, sysctl.d drop-ins)
 *	TMP/procsys	RAFLEET_PROCSYS (/proc/sys)
 *	TMP/proc	RAFLEET_PROC (/proc, with a kernel command line)
 *	TMP/state	RAFLEET_STATE_DIR
 *	the journal	on stderr (RAFLEET_JOURNAL)
 *
 * fakehost_init(tmp, root, procsys, statedir) sets them and fills the
 * three paths (PATH_MAX bytes each); 0 or -errno.
 */
#ifndef RAFLEET_FAKEHOST_H
#define RAFLEET_FAKEHOST_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "fakefs.h"

static inline int fakehost_init(const char *tmp, char *root, char *procsys, char *statedir)
{
	char proc[PATH_MAX];

	snprintf(root, PATH_MAX, "%s/root", tmp);
	snprintf(procsys, PATH_MAX, "%s/procsys", tmp);
	snprintf(statedir, PATH_MAX, "%s/state", tmp);
	snprintf(proc, sizeof(proc), "%s/proc", tmp);
	if (setenv("RAFLEET_ROOT", root, 1) || setenv("RAFLEET_PROCSYS", procsys, 1) ||
	    setenv("RAFLEET_STATE_DIR", statedir, 1) || setenv("RAFLEET_PROC", proc, 1) ||
	    setenv("RAFLEET_JOURNAL", "stderr", 1))
		return -errno;
	return fakefs_put(tmp, "proc/cmdline", "root=/dev/vda1\n");
}

#endif
