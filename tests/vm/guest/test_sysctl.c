// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: every vm.readahead_* sysctl of the patched kernel exists,
 * reads 1 at boot, takes 0 and 1, and rejects anything else with EINVAL
 * without changing its value.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/feature.h"
#include "tap.h"

static const char *const names[] = {
	"readahead_unbounded_large_folios",
	"readahead_async_two_windows",
	"readahead_async_keep_half",
	"readahead_exec_mmap_miss_bypass",
	"readahead_exec_large_folio",
	"readahead_populate_io_pages",
};

/* Each is written once, as one write(2) of exactly these bytes. */
static const char *const bad[] = {
	"-1", "2", "abc", "", "1e20", "1 1", "-1\n", "2\n", "abc\n", "\n",
	"1e20\n", "1 1\n", "0x1", " 1", "01 ", "99999999999999999999", "+1",
};

/* write(2) @val to vm.@name; 0 or -errno */
static int raw_write(const char *name, const char *val)
{
	char path[128];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static void check_one(const char *name)
{
	const struct feature *f = feature_find(name);

	if (!ok(f, "%s is a known feature", name))
		return;
	is_i64(feature_get(f), 1, "vm.readahead_* reads 1 at boot");
	diag("%s", name);

	for (int start = 1; start >= 0; start--) {
		if (feature_set(f, start))
			ok(0, "%s: set to %d", name, start);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			int err = raw_write(name, bad[i]);
			char what[96];

			snprintf(what, sizeof(what), "%s: writing \"%s\" fails with EINVAL",
				 name, !strcmp(bad[i], "\n") ? "\\n" : bad[i]);
			if (!is_i64(err, -EINVAL, what))
				diag("errno %d (%s)", -err, strerror(-err));
			is_i64(feature_get(f), start, "  ... and the value stays");
		}
	}
	is_i64(raw_write(name, "0"), 0, "writing \"0\" succeeds");
	is_i64(feature_get(f), 0, "  ... and reads 0");
	is_i64(raw_write(name, "1\n"), 0, "writing \"1\\n\" succeeds");
	is_i64(feature_get(f), 1, "  ... and reads 1");
	is_i64(raw_write(name, "0\n"), 0, "writing \"0\\n\" succeeds");
	is_i64(feature_get(f), 0, "  ... and reads 0");
	is_i64(raw_write(name, "1"), 0, "writing \"1\" succeeds");
	is_i64(feature_get(f), 1, "  ... and reads 1");
}

int main(void)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		check_one(names[i]);
	return tap_done();
}
