/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In the guest: a sysfs knob set for a while and put back, as a test
 * found it.  A choice file ("always [madvise] never") keeps its bracketed
 * choice; any other file its whole first line.  One mechanism for every
 * guest test that turns THP or khugepaged knobs.
 */
#ifndef RAFLEET_RA_KNOB_H
#define RAFLEET_RA_KNOB_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/fileio.h"
#include "tap.h"

#define RA_THP_DIR "/sys/kernel/mm/transparent_hugepage"

struct ra_knob {
	char path[160];
	char was[32];	/* "" if not changed */
};

/* What @path holds now, as it would be written back: 0 or -errno. */
static inline int ra_knob_read(const char *path, char *out, size_t len)
{
	char buf[256], *open_, *close_;
	int err = read_small_file(path, buf, sizeof(buf));
	size_t n;

	if (err)
		return err;
	open_ = strchr(buf, '[');
	close_ = open_ ? strchr(open_, ']') : NULL;
	if (open_ && close_) {
		n = close_ - open_ - 1;
		open_++;
	} else {
		n = strcspn(buf, "\n");
		open_ = buf;
	}
	if (!n || n >= len)
		return -EBADMSG;
	snprintf(out, len, "%.*s", (int)n, open_);
	return 0;
}

/* Set @path to @val, keeping what it was in @k: 0 or -errno. */
static inline int ra_knob_set(struct ra_knob *k, const char *path, const char *val)
{
	char was[sizeof(k->was)];
	int fd, err = ra_knob_read(path, was, sizeof(was));

	k->was[0] = '\0';
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write_full(fd, val, strlen(val));
	close(fd);
	if (!err) {
		snprintf(k->path, sizeof(k->path), "%s", path);
		snprintf(k->was, sizeof(k->was), "%s", was);
	}
	return err;
}

/* Put each of @n knobs back (said if it cannot be). */
static inline void ra_knobs_restore(struct ra_knob *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int fd;

		if (!k[i].was[0])
			continue;
		fd = open(k[i].path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write_full(fd, k[i].was, strlen(k[i].was)))
			diag("cannot put %s back to %s", k[i].path, k[i].was);
		if (fd >= 0)
			close(fd);
		k[i].was[0] = '\0';
	}
}

struct ra_knob_val {
	const char *file, *val;	/* file under RA_THP_DIR */
};

/* Set @n knobs of @t under RA_THP_DIR, keeping what they were in @k (said if one cannot be). */
static inline void ra_knobs_apply(struct ra_knob *k, const struct ra_knob_val *t, size_t n)
{
	char path[160];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), RA_THP_DIR "/%s", t[i].file);
		if (ra_knob_set(&k[i], path, t[i].val))
			diag("cannot set %s to %s", path, t[i].val);
	}
}

#endif
