// SPDX-License-Identifier: GPL-2.0
#include "status/status.h"
#include "host/sysctl.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "rollout/core.h"
#include "lib/statedir.h"

static void read_live(struct status *st)
{
	for (int i = 0; i < nr_features; i++) {
		struct feature_status *fs = &st->feat[i];

		fs->f = &features[i];
		fs->live = feature_get(fs->f);
		if (fs->live != -ENOENT)
			st->nr_present++;
		if (fs->live < 0 && fs->live != -ENOENT)
			warn_add(&st->warn, "vm.%s: %s", fs->f->name,
				 fs->live == -EINVAL ? "holds something other than 0 or 1" :
				 strerror(-fs->live));
	}
	st->rafleet = st->nr_present == nr_features;
	if (st->nr_present && !st->rafleet)
		warn_add(&st->warn, "only %d of the %d vm.readahead_* sysctls exist: a rafleet kernel of another version?",
			 st->nr_present, nr_features);
}

/* The boot loader, its menu, its default and one-shot. */
static int read_boot(struct status *st)
{
	char why[512];

	st->bl_err = bootloader_detect(&st->bl, st->bl_why, sizeof(st->bl_why));
	if (st->bl_err)
		return 0;
	st->def_err = bootloader_default(&st->bl, &st->def, st->def_why, sizeof(st->def_why));
	st->once_err = bootloader_oneshot(&st->bl, &st->once, why, sizeof(why));
	if (st->once_err && st->once_err != -ENOENT)
		warn_add(&st->warn, "the one-shot boot: %s", why);
	return bootloader_menu(&st->bl, &st->boot, &st->warn);
}

/* a record of sysctls changed and not yet put back (host/sysctl.h) */
static void undo_pending(struct status *st)
{
	char path[PATH_MAX];

	if (!statedir_path(SYSCTL_UNDO_FILE, path, sizeof(path)) && !access(path, F_OK))
		warn_add(&st->warn, "%s: sysctls changed by a canary, calibrate or bench --sysctl and not yet put back (if it no longer runs, 'rafleet recover' puts them back)",
			 path);
}

static void boot_values(struct status *st)
{
	for (int i = 0; i < nr_features; i++) {
		struct feature_status *fs = &st->feat[i];
		const struct sysctld_setting *b;
		char name[128];

		snprintf(name, sizeof(name), "vm.%s", fs->f->name);
		b = sysctld_boot_value(&st->sysctl, name);
		fs->boot = b;
		if (b && strcmp(b->value, "0") && strcmp(b->value, "1"))
			warn_add(&st->warn, "%s:%u: %s = '%s': the kernel takes only 0 or 1",
				 b->file, b->line, name, b->value);
		/* the kernel's default is 1 (docs/kernel.md) */
		else if (fs->live >= 0 && fs->live != (b ? b->value[0] == '1' : 1))
			warn_add(&st->warn, "%s is %d live but %s at boot (%s): a canary, calibrate or bench --sysctl cut short, or set by hand ('rafleet recover' puts back what rafleet recorded)",
				 name, fs->live, b ? b->value : "1",
				 b ? b->file : "the kernel's default");
	}
	undo_pending(st);
}

static void read_rollout(struct status *st)
{
	struct rollout_status *r = &st->rollout;

	state_init(&r->st);
	r->err = rollout_state_path(r->path, sizeof(r->path));
	if (!r->err)
		r->err = state_load(&r->st, r->path, r->why, sizeof(r->why));
	if (r->err && !r->why[0])
		snprintf(r->why, sizeof(r->why), "%s", strerror(-r->err));
	if (r->err)
		warn_add(&st->warn, "%s: %s: the rollout state cannot be used", r->path, r->why);
	else
		r->has_next = rollout_next(&r->st, &r->now, r->next, sizeof(r->next));
}

static int read_canaries(struct status *st)
{
	int err = statedir_path(STATUS_CANARY_DIR, st->canary_dir, sizeof(st->canary_dir));

	if (err) {
		warn_add(&st->warn, "the canary reports' directory: %s", strerror(-err));
		return 0;
	}
	st->canary = calloc(nr_features, sizeof(*st->canary));
	if (!st->canary)
		return -ENOMEM;
	return status_canaries_load(st->canary_dir, st->canary, &st->nr_canary, &st->warn);
}

int status_collect(struct status *st, const char *root)
{
	DIR *d;
	int err;

	memset(st, 0, sizeof(*st));
	st->root = root;
	d = opendir(root);
	if (!d)
		return -errno;
	closedir(d);
	running_read(&st->rollout.now);	/* uname -r, the boot id, cmdline */
	snprintf(st->release, sizeof(st->release), "%s", st->rollout.now.release);
	read_rollout(st);

	st->feat = calloc(nr_features, sizeof(*st->feat));
	if (!st->feat)
		return -ENOMEM;
	read_live(st);
	err = read_canaries(st);
	if (err)
		return err;
	err = sysctld_load(&st->sysctl, root, &st->warn);
	if (err)
		return err;
	boot_values(st);
	err = kernels_load(&st->kernels, root, &st->warn);
	if (err)
		return err;
	for (size_t i = 0; i < st->kernels.nr; i++)
		st->kernels.k[i].running = !strcmp(st->kernels.k[i].release, st->release);
	return read_boot(st);
}

void status_free(struct status *st)
{
	free(st->feat);
	free(st->canary);
	sysctld_free(&st->sysctl);
	kernels_free(&st->kernels);
	boot_loader_free(&st->boot);
	state_free(&st->rollout.st);
	warn_free(&st->warn);
}
