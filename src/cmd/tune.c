// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet tune: set each block device's read_ahead_kb as the policy in
 * /etc/rafleet/tune.conf says, recording the old value first; --restore
 * puts it back.  udev runs it for each disk that appears or changes
 * (rafleet-tune@.service, udev/60-rafleet-tune.rules).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "commands.h"
#include "lib/options.h"
#include "lib/rootdir.h"
#include "lib/statedir.h"
#include "host/sysctl.h"
#include "tune/tune.h"
#include "tune/report.h"
#include "tune/state.h"

static const struct options_help tune_help = {
	"usage: rafleet tune [--dry-run] [--device NAME] [--config FILE] [--json]\n"
	"       rafleet tune --restore [DEVICE] [--dry-run] [--json]\n"
	"\n"
	"Set each block disk's queue/read_ahead_kb as the policy says: the first\n"
	"rule of the config that matches the disk's name (device GLOB VALUE) or its\n"
	"class (class CLASS VALUE: dm, md, loop, nvme, virtio, rotational, other).\n"
	"VALUE is N KiB, >N (never below the current value), max_sectors (at least\n"
	"the disk's max_sectors_kb) or keep.  A partition stands for its disk.  The\n"
	"value before the first change is recorded in STATEDIR/" TUNE_STATE ".\n"
	"\n"
	"options:\n",
	21,
	"\n"
	"RAFLEET_SYSFS stands for /sys, RAFLEET_ROOT (default /) is the root the\n"
	"config is read under, RAFLEET_STATE_DIR for /var/lib/rafleet.\n"
	"\n"
	"exit status: 0 done (or nothing to do), 1 a device could not be read or\n"
	"written, or no such device, 2 bad arguments or a bad config: nothing\n"
	"was changed.  'man rafleet-tune'.\n"
};

struct tune_opts {
	bool dry_run, restore, json;
	const char *device;
	const char *config;
};

/* The options into @o: 0, 1 after the help, or -1 after a message. */
static int tune_args(int argc, char **argv, struct tune_opts *o)
{
	const struct option_spec spec[] = {
		OPT_FLAG('n', "dry-run", &o->dry_run, "show what would be set, and why; write nothing"),
		OPT_STRING('d', "device", &o->device, "NAME",
			   "only this device (vda, vda1, dm-0), as udev passes it"),
		OPT_STRING('c', "config", &o->config, "FILE",
			   "the policy (default " TUNE_CONF ", under RAFLEET_ROOT)"),
		OPT_FLAG('r', "restore", &o->restore, "put back the recorded values (all, or DEVICE's)"),
		OPT_FLAG('j', "json", &o->json, "JSON (schema " TUNE_SCHEMA ") instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	int rc, ind;

	rc = options_run("tune", spec, &tune_help, argc, argv, false, &ind);
	if (rc != OPTIONS_RUN)
		return rc == EXIT_OK ? 1 : -1;
	if (ind < argc && o->restore && !o->device && ind + 1 == argc) {
		o->device = argv[ind++];
	}
	if (ind < argc) {
		fprintf(stderr, "rafleet tune: unexpected argument '%s'%s\n",
			argv[ind], o->restore ? "" : " (a device is --device NAME)");
		return -1;
	}
	if (o->restore && o->config) {
		fprintf(stderr, "rafleet tune: --restore reads no config, drop --config\n");
		return -1;
	}
	if (o->device && !o->device[0]) {
		fprintf(stderr, "rafleet tune: --device needs a name\n");
		return -1;
	}
	return 0;
}

/* The device @name, with a message for the operator if it is not there. */
static int open_device(const char *name, struct tune_dev *d)
{
	int ret = tune_dev_open(NULL, name, d);

	if (ret == -ENODEV)
		fprintf(stderr, "rafleet tune: no block device '%s' in %s/class/block\n",
			name, blockdev_sysfs_root());
	else if (ret == -EINVAL)
		fprintf(stderr, "rafleet tune: '%s' is not a device name (as in /sys/block)\n",
			name);
	else if (ret)
		fprintf(stderr, "rafleet tune: %s: %s\n", name, strerror(-ret));
	return ret;
}

static int print_report(const struct tune_opts *o, const struct tune_report *r)
{
	int ret = o->json ? tune_report_json(stdout, r) : tune_report_table(stdout, r);

	if (ret)
		fprintf(stderr, "rafleet tune: cannot write the report\n");
	return ret;
}

/* Take the state: the directory made, the lock held, the file read. */
/* The recorded values, locked; --dry-run reads them only: it makes no directory or lock file. */
static int state_open(const char *path, struct tune_state *s, struct lockfile *lock,
		      bool dry_run)
{
	char boot_id[40] = "", err[PATH_MAX + 128];
	int ret = 0;

	if (!dry_run) {
		ret = statedir_ensure();
		if (!ret)
			ret = tune_state_lock(lock, path);
	}
	if (ret) {
		fprintf(stderr, "rafleet tune: cannot lock %s: %s\n", path, strerror(-ret));
		return ret;
	}
	if (sysctl_get("kernel.random.boot_id", boot_id, sizeof(boot_id)))
		boot_id[0] = '\0';
	ret = tune_state_load(path, boot_id, s, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "rafleet tune: %s\n", err);
		lockfile_release(lock);
	}
	return ret;
}

/*
 * Record the old value of every disk about to change, in one atomic write
 * of the state, before anything is written to sysfs.
 */
static int record_old(const char *path, struct tune_row *rows, size_t nr,
		      const struct tune_policy *p)
{
	char rule[PATH_MAX + 16];
	struct tune_state s;
	bool any = false;
	struct lockfile lock = { .fd = -1 };
	int ret;

	for (size_t i = 0; i < nr; i++)
		any |= rows[i].dec.change;
	if (!any)
		return 0;
	ret = state_open(path, &s, &lock, false);
	if (ret)
		return ret;
	for (size_t i = 0; i < nr && !ret; i++) {
		struct tune_row *row = &rows[i];
		struct tune_saved *e;

		if (!row->dec.change)
			continue;
		snprintf(rule, sizeof(rule), "%s:%u", p->file, row->dec.rule->line);
		e = tune_state_find(&s, row->dev.disk.name);
		if (e && tune_saved_is(e, &row->dev)) {
			/* changed before: the first old value is the one to keep */
			e->set_kb = row->dec.want;
			snprintf(e->rule, sizeof(e->rule), "%s", rule);
			continue;
		}
		ret = tune_state_record(&s, &row->dev, row->dec.want, rule,
					(int64_t)time(NULL));
	}
	if (!ret)
		ret = tune_state_save(path, &s);
	if (ret)
		fprintf(stderr, "rafleet tune: cannot record the old values in %s: %s; nothing changed\n",
			path, strerror(-ret));
	tune_state_free(&s);
	lockfile_release(&lock);
	return ret;
}

static int do_apply(const struct tune_opts *o, const char *state_path)
{
	const char *config = o->config ? o->config : TUNE_CONF;
	struct tune_report rep = { .mode = o->dry_run ? TUNE_DRY_RUN : TUNE_APPLY };
	struct tune_dev *devs = NULL;
	struct tune_policy p;
	char err[PATH_MAX + 256], note[PATH_MAX + 64];
	size_t nr = 0;
	int ret, status = EXIT_OK;

	ret = tune_policy_load(rootdir_get(), config, &p, err, sizeof(err));
	if (ret == -ENOENT && !o->config) {
		/* no policy is nothing to do: not an error for udev's runs */
		snprintf(note, sizeof(note), "no policy: %s is missing, nothing to do",
			 config);
		snprintf(p.file, sizeof(p.file), "%s", config);
		rep.note = note;
	} else if (ret) {
		fprintf(stderr, "rafleet tune: %s%s\n", err,
			ret == -EINVAL ? "; nothing changed" : "");
		return EXIT_USAGE;
	}

	if (o->device) {
		devs = calloc(1, sizeof(*devs));
		if (!devs) {
			ret = -ENOMEM;
		} else {
			ret = open_device(o->device, devs);
			nr = !ret;
		}
		if (ret == -EINVAL) {
			status = EXIT_USAGE;
			goto out;
		}
	} else {
		ret = tune_dev_list(NULL, &devs, &nr);
		if (ret)
			fprintf(stderr, "rafleet tune: %s/block: %s\n",
				blockdev_sysfs_root(), strerror(-ret));
	}
	if (ret) {
		status = EXIT_FAILED;
		goto out;
	}

	rep.rows = calloc(nr ? nr : 1, sizeof(*rep.rows));
	if (!rep.rows) {
		fprintf(stderr, "rafleet tune: out of memory\n");
		status = EXIT_FAILED;
		goto out;
	}
	rep.nr = nr;
	rep.config = config;
	rep.policy = &p;
	rep.state_file = state_path;
	for (size_t i = 0; i < nr; i++) {
		struct tune_row *row = &rep.rows[i];

		row->dev = devs[i];
		row->have_dev = true;
		tune_decide(&p, &row->dev, &row->dec);
		row->err = row->dec.err;
		row->action = row->dec.err ? TUNE_ACT_FAILED :
			      row->dec.change ? TUNE_ACT_SET : TUNE_ACT_UNCHANGED;
		snprintf(row->why, sizeof(row->why), "%s", row->dec.why);
		if (row->err)
			status = EXIT_FAILED;
	}

	if (!o->dry_run) {
		if (record_old(state_path, rep.rows, nr, &p)) {
			status = EXIT_FAILED;
			goto out;
		}
		for (size_t i = 0; i < nr; i++) {
			struct tune_row *row = &rep.rows[i];

			if (!row->dec.change)
				continue;
			ret = blockdev_queue_set(&row->dev.disk, "read_ahead_kb",
						 row->dec.want);
			if (!ret)
				continue;
			row->err = ret;
			row->action = TUNE_ACT_FAILED;
			snprintf(row->why, sizeof(row->why), "writing queue/read_ahead_kb: %s",
				 strerror(-ret));
			status = EXIT_FAILED;
		}
	}
	if (print_report(o, &rep) && status == EXIT_OK)
		status = EXIT_FAILED;
out:
	free(rep.rows);
	free(devs);
	tune_policy_free(&p);
	return status;
}

/* One recorded disk: put its old value back, or say why not. */
static void restore_one(bool dry_run, struct tune_state *s, size_t *i,
			struct tune_row *row, bool *dirty)
{
	struct tune_saved *e = &s->dev[*i];
	int ret;

	snprintf(row->dev.disk.name, sizeof(row->dev.disk.name), "%s", e->name);
	row->have_old = true;
	row->old_kb = e->old_kb;
	ret = tune_dev_open(NULL, e->name, &row->dev);
	if (ret || !tune_saved_is(e, &row->dev)) {
		row->have_dev = !ret;
		snprintf(row->dev.disk.name, sizeof(row->dev.disk.name), "%s", e->name);
		row->action = TUNE_ACT_DROPPED;
		snprintf(row->why, sizeof(row->why), ret ?
			 "the disk is gone: its record is dropped" :
			 "another disk now (diskseq changed): its queue starts from the kernel's default, the record is dropped");
		goto forget;
	}
	row->have_dev = true;
	if (row->dev.ra_err) {
		row->err = row->dev.ra_err;
		row->action = TUNE_ACT_FAILED;
		snprintf(row->why, sizeof(row->why), "queue/read_ahead_kb: %s",
			 strerror(-row->err));
		(*i)++;
		return;
	}
	if (row->dev.ra_kb == e->old_kb) {
		row->action = TUNE_ACT_UNCHANGED;
		snprintf(row->why, sizeof(row->why), "already %llu",
			 (unsigned long long)e->old_kb);
		goto forget;
	}
	row->action = TUNE_ACT_RESTORED;
	snprintf(row->why, sizeof(row->why), "back to %llu, set by %s",
		 (unsigned long long)e->old_kb, e->rule);
	if (!dry_run) {
		ret = blockdev_queue_set(&row->dev.disk, "read_ahead_kb", e->old_kb);
		if (ret) {
			row->err = ret;
			row->action = TUNE_ACT_FAILED;
			snprintf(row->why, sizeof(row->why), "writing queue/read_ahead_kb: %s",
				 strerror(-ret));
			(*i)++;
			return;
		}
	}
forget:
	if (dry_run) {
		(*i)++;
		return;
	}
	tune_state_remove(s, e);
	*dirty = true;
}

static int do_restore(const struct tune_opts *o, const char *state_path)
{
	struct tune_report rep = {
		.mode = o->dry_run ? TUNE_RESTORE_DRY_RUN : TUNE_RESTORE,
		.state_file = state_path,
	};
	char note[PATH_MAX + 128];
	const char *only = NULL;
	struct tune_dev dev;
	struct tune_state s;
	bool dirty = false;
	struct lockfile lock = { .fd = -1 };
	int status = EXIT_OK;

	if (o->device) {
		/* a partition, or a disk that is gone: the record's name */
		only = o->device;
		if (!tune_dev_open(NULL, o->device, &dev))
			only = dev.disk.name;
	}
	if (state_open(state_path, &s, &lock, o->dry_run))
		return EXIT_FAILED;
	rep.rows = calloc(s.nr ? s.nr : 1, sizeof(*rep.rows));
	if (!rep.rows) {
		fprintf(stderr, "rafleet tune: out of memory\n");
		status = EXIT_FAILED;
		goto out;
	}
	for (size_t i = 0; i < s.nr;) {
		struct tune_row *row;

		if (only && strcmp(s.dev[i].name, only)) {
			i++;
			continue;
		}
		row = &rep.rows[rep.nr++];
		restore_one(o->dry_run, &s, &i, row, &dirty);
		if (row->action == TUNE_ACT_FAILED)
			status = EXIT_FAILED;
	}
	if (s.dropped) {
		snprintf(note, sizeof(note),
			 "%zu record%s of an earlier boot dropped: read_ahead_kb starts from the kernel's default at boot",
			 s.dropped, s.dropped == 1 ? "" : "s");
		rep.note = note;
		dirty = !o->dry_run;
	} else if (!rep.nr) {
		snprintf(note, sizeof(note), "nothing recorded%s%s in %s",
			 only ? " for " : "", only ? only : "", state_path);
		rep.note = note;
	}
	if (dirty && tune_state_save(state_path, &s)) {
		fprintf(stderr, "rafleet tune: cannot update %s\n", state_path);
		status = EXIT_FAILED;
	}
	if (print_report(o, &rep) && status == EXIT_OK)
		status = EXIT_FAILED;
out:
	free(rep.rows);
	tune_state_free(&s);
	lockfile_release(&lock);
	return status;
}

int cmd_tune(int argc, char **argv)
{
	struct tune_opts o = { 0 };
	char state_path[PATH_MAX];
	int ret;

	ret = tune_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	if (statedir_path(TUNE_STATE, state_path, sizeof(state_path))) {
		fprintf(stderr, "rafleet tune: the state directory's path is too long\n");
		return EXIT_USAGE;
	}
	return o.restore ? do_restore(&o, state_path) : do_apply(&o, state_path);
}
