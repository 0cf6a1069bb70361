/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's rafleet state, gathered for `rafleet status`: the running
 * kernel and its vm.readahead_* sysctls, the value each would get at boot
 * from sysctl.d, the kernels installed, the boot entries, the rollout
 * state (rollout/state.h) and each feature's latest canary report (status/canary.h).
 * Read-only: the state file is read without the lock.
 */
#ifndef RAFLEET_STATUS_H
#define RAFLEET_STATUS_H

#include <stdbool.h>

#include "host/bootentry.h"
#include "host/bootloader.h"
#include "host/feature.h"
#include "host/kernels.h"
#include "host/running.h"
#include "rollout/state.h"
#include "status/canary.h"
#include "host/sysctld.h"
#include "lib/warnings.h"

struct feature_status {
	const struct feature *f;
	int live;		/* 0 or 1; -ENOENT: absent; another -errno */
	const struct sysctld_setting *boot;	/* NULL: the kernel's default */
};

/* The rollout state file, read without the lock (it is written atomically). */
struct rollout_status {
	char path[4096];	/* STATEDIR/state.json */
	int err;		/* 0, or why it could not be read (-EBADMSG...) */
	char why[256];		/* what is wrong with it */
	struct state st;	/* a fresh idle state if there is no file */
	struct running now;
	bool has_next;		/* the next rafleet invocation has work to do */
	char next[768];		/* which */
};

struct status {
	const char *root;	/* $RAFLEET_ROOT or "/" */
	char release[65];	/* uname -r */
	int nr_present;		/* vm.readahead_* sysctls this kernel has */
	bool rafleet;		/* all of them */
	struct feature_status *feat;	/* nr_features of them */
	struct sysctld sysctl;
	struct kernels kernels;
	struct boot_loader boot;	/* the menu, default_entry the effective one */
	struct bootloader bl;
	int bl_err;			/* 0, or why no boot loader was found */
	char bl_why[512];
	struct boot_target def, once;	/* the default, the one-shot */
	int def_err, once_err;		/* once_err -ENOENT: no one-shot */
	char def_why[512];
	struct rollout_status rollout;
	char canary_dir[4096];	/* STATEDIR/canary */
	struct status_canary *canary;	/* nr_canary of them, in feature order */
	size_t nr_canary;
	struct warnings warn;
};

/*
 * Gather it all under @root (the /proc/sys reads go to $RAFLEET_PROCSYS).
 * 0 when there is a report to make, whatever it warns about; -errno if
 * @root itself cannot be read, or -ENOMEM.  Free it in either case.
 */
int status_collect(struct status *st, const char *root);

void status_free(struct status *st);

#endif
