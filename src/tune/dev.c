// SPDX-License-Identifier: GPL-2.0
/*
 * tune/dev.c - block devices as `rafleet tune` sees them (class, values,
 * from sysfs), which rule matches one and what it would set; see tune/tune.h.
 */
#include "tune/tune.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fileio.h"

static bool valid_name(const char *s)
{
	return s && s[0] && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..") && strlen(s) < sizeof(((struct tune_dev *)0)->asked);
}

static bool is_dir(const char *dir, const char *sub)
{
	char path[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, sub) >= sizeof(path))
		return false;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The last component of the symlink @dir/@sub's target into @out. */
static bool link_base(const char *dir, const char *sub, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, sub) >= sizeof(path))
		return false;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	return (size_t)snprintf(out, len, "%s", base) < len;
}

/* loop followed by digits only */
static bool loop_name(const char *name)
{
	if (strncmp(name, "loop", 4) || !name[4])
		return false;
	return strspn(name + 4, "0123456789") == strlen(name + 4);
}

static void classify(struct tune_dev *d)
{
	const char *sys = d->disk.sysdir;
	char subsys[64];
	uint64_t rot;

	if (is_dir(sys, "dm")) {
		d->cls = TUNE_DM;
		snprintf(d->class_why, sizeof(d->class_why), "it has dm/ (device-mapper)");
	} else if (is_dir(sys, "md")) {
		d->cls = TUNE_MD;
		snprintf(d->class_why, sizeof(d->class_why), "it has md/ (software RAID)");
	} else if (is_dir(sys, "loop") || loop_name(d->disk.name)) {
		d->cls = TUNE_LOOP;
		snprintf(d->class_why, sizeof(d->class_why), "%s",
			 is_dir(sys, "loop") ? "it has loop/ (attached loop device)" :
			 "its name is loopN");
	} else if (link_base(sys, "device/subsystem", subsys, sizeof(subsys)) &&
		   (!strcmp(subsys, "nvme") || !strcmp(subsys, "nvme-subsystem"))) {
		d->cls = TUNE_NVME;
		snprintf(d->class_why, sizeof(d->class_why),
			 "device/subsystem is %s", subsys);
	} else if (link_base(sys, "device/subsystem", subsys, sizeof(subsys)) &&
		   !strcmp(subsys, "virtio")) {
		d->cls = TUNE_VIRTIO;
		snprintf(d->class_why, sizeof(d->class_why), "device/subsystem is virtio");
	} else if (!blockdev_queue_get(&d->disk, "rotational", &rot) && rot == 1) {
		d->cls = TUNE_ROTATIONAL;
		snprintf(d->class_why, sizeof(d->class_why), "queue/rotational is 1");
	} else {
		d->cls = TUNE_OTHER;
		snprintf(d->class_why, sizeof(d->class_why),
			 "not dm, md, loop, nvme or virtio, and not rotational");
	}
}

static void read_values(struct tune_dev *d)
{
	char path[PATH_MAX], buf[32];
	char *end;

	d->ra_err = blockdev_queue_get(&d->disk, "read_ahead_kb", &d->ra_kb);
	d->ms_err = blockdev_queue_get(&d->disk, "max_sectors_kb",
				       &d->max_sectors_kb);
	d->have_diskseq = false;
	if ((size_t)snprintf(path, sizeof(path), "%s/diskseq", d->disk.sysdir) <
	    sizeof(path) && !read_small_file(path, buf, sizeof(buf))) {
		errno = 0;
		d->diskseq = strtoull(buf, &end, 10);
		d->have_diskseq = !errno && end != buf &&
				  (*end == '\n' || !*end);
	}
}

/* realpath of SYSFS/@sub/@name, -ENODEV if it is not there */
static int resolve(const char *sysfs, const char *sub, const char *name,
		   char *out)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", sysfs, sub, name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	if (!realpath(path, out))
		return errno == ENOENT || errno == ENOTDIR ? -ENODEV : -errno;
	return 0;
}

int tune_dev_open(const char *sysfs, const char *name, struct tune_dev *d)
{
	char real[PATH_MAX], probe[PATH_MAX];
	struct tune_dev tmp;
	char *slash;
	int ret;

	if (!valid_name(name))
		return -EINVAL;
	if (!sysfs)
		sysfs = blockdev_sysfs_root();
	memset(&tmp, 0, sizeof(tmp));
	strcpy(tmp.asked, name);

	ret = resolve(sysfs, "class/block", name, real);
	if (ret == -ENODEV)
		ret = resolve(sysfs, "block", name, real);
	if (ret)
		return ret;
	if (!is_dir(real, "."))
		return -ENODEV;
	if ((size_t)snprintf(probe, sizeof(probe), "%s/partition", real) >=
	    sizeof(probe))
		return -ENAMETOOLONG;
	if (!access(probe, F_OK)) {
		/* a partition has no queue/: it reads ahead with its disk's */
		tmp.partition = true;
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			return -ENODEV;
		*slash = '\0';
	}
	slash = strrchr(real, '/');
	if (!slash || !slash[1] ||
	    strlen(slash + 1) >= sizeof(tmp.disk.name) ||
	    strlen(real) >= sizeof(tmp.disk.sysdir))
		return -ENAMETOOLONG;
	strcpy(tmp.disk.name, slash + 1);
	strcpy(tmp.disk.sysdir, real);

	classify(&tmp);
	read_values(&tmp);
	*d = tmp;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct tune_dev *x = a, *y = b;

	return strcmp(x->disk.name, y->disk.name);
}

int tune_dev_list(const char *sysfs, struct tune_dev **devs, size_t *nr)
{
	struct tune_dev *all = NULL, *more;
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *dir;
	int ret = 0;

	if (!sysfs)
		sysfs = blockdev_sysfs_root();
	if ((size_t)snprintf(path, sizeof(path), "%s/block", sysfs) >= sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || !valid_name(de->d_name))
			continue;
		more = realloc(all, (n + 1) * sizeof(*all));
		if (!more) {
			ret = -ENOMEM;
			break;
		}
		all = more;
		/* one that went away since readdir() is not an error */
		if (!tune_dev_open(sysfs, de->d_name, &all[n]))
			n++;
	}
	closedir(dir);
	if (ret) {
		free(all);
		return ret;
	}
	if (n)
		qsort(all, n, sizeof(*all), by_name);
	*devs = all;
	*nr = n;
	return 0;
}

const struct tune_rule *tune_match(const struct tune_policy *p,
				   const struct tune_dev *d)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct tune_rule *r = &p->rules[i];

		if (r->by_class ? r->cls == d->cls :
		    !fnmatch(r->glob, d->disk.name, 0))
			return r;
	}
	return NULL;
}

/*
 * At least @floor, named @what ("" for a plain number, else followed by a
 * blank): raise the current value to it, never lower it.
 */
static void at_least(const struct tune_dev *d, uint64_t floor,
		     const char *what, struct tune_decision *out)
{
	if (d->ra_kb >= floor) {
		out->want = d->ra_kb;
		snprintf(out->why, sizeof(out->why),
			 "at least %s%" PRIu64 ": %" PRIu64 " is not lower, kept",
			 what, floor, d->ra_kb);
		return;
	}
	out->want = floor;
	out->change = true;
	snprintf(out->why, sizeof(out->why),
		 "at least %s%" PRIu64 ": raised from %" PRIu64, what, floor,
		 d->ra_kb);
}

void tune_decide(const struct tune_policy *p, const struct tune_dev *d,
		 struct tune_decision *out)
{
	memset(out, 0, sizeof(*out));
	out->rule = tune_match(p, d);
	if (d->ra_err) {
		out->err = d->ra_err;
		snprintf(out->why, sizeof(out->why), "queue/read_ahead_kb: %s",
			 strerror(-d->ra_err));
		return;
	}
	out->want = d->ra_kb;
	if (!out->rule) {
		snprintf(out->why, sizeof(out->why), "no rule matches: left as it is");
		return;
	}
	switch (out->rule->value.kind) {
	case TUNE_FIXED:
		out->want = out->rule->value.kb;
		out->change = d->ra_kb != out->want;
		snprintf(out->why, sizeof(out->why), out->change ?
			 "fixed %" PRIu64 ": changed from %" PRIu64 :
			 "fixed %" PRIu64 ": already %" PRIu64,
			 out->want, d->ra_kb);
		break;
	case TUNE_AT_LEAST:
		at_least(d, out->rule->value.kb, "", out);
		break;
	case TUNE_MAX_SECTORS:
		if (d->ms_err) {
			out->err = d->ms_err;
			snprintf(out->why, sizeof(out->why), "queue/max_sectors_kb: %s",
				 strerror(-d->ms_err));
			break;
		}
		at_least(d, d->max_sectors_kb, "max_sectors_kb ", out);
		break;
	case TUNE_KEEP:
		snprintf(out->why, sizeof(out->why), "keep: left as it is");
		break;
	}
}
