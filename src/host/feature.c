// SPDX-License-Identifier: GPL-2.0
#include "host/feature.h"
#include "host/sysctl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct feature features[] = {
	{ "readahead_unbounded_large_folios", "000",
	  "page_cache_ra_unbounded() allocates the largest folio that fits" },
	{ "readahead_async_two_windows", "001",
	  "async readahead looks two windows ahead for the hole" },
	{ "readahead_async_keep_half", "002",
	  "window-end alignment keeps at least half of the window" },
	{ "readahead_populate_io_pages", "003",
	  "MADV_POPULATE_READ reads ahead in device-sized requests" },
	{ "readahead_exec_mmap_miss_bypass", "004/1",
	  "VM_EXEC faults bypass the mmap_miss heuristic" },
	{ "readahead_exec_large_folio", "004/2",
	  "force_thp_readahead uses mapping_max_folio_order()" },
};
const int nr_features = sizeof(features) / sizeof(features[0]);

const struct feature *feature_find(const char *name)
{
	if (!strncmp(name, "vm.", 3))
		name += 3;
	for (int i = 0; i < nr_features; i++)
		if (!strcmp(features[i].name, name))
			return &features[i];
	return NULL;
}

/* "vm.readahead_async_keep_half": the name sysctl.c takes. */
static const char *feature_sysctl(const struct feature *f, char *buf, size_t len)
{
	snprintf(buf, len, "vm.%s", f->name);
	return buf;
}

int feature_get(const struct feature *f)
{
	char name[128], buf[16];
	int err;

	err = sysctl_get(feature_sysctl(f, name, sizeof(name)), buf, sizeof(buf));
	if (err)
		return err == -EBADMSG ? -EINVAL : err;
	if (!strcmp(buf, "0"))
		return 0;
	if (!strcmp(buf, "1"))
		return 1;
	return -EINVAL;
}

int feature_set(const struct feature *f, bool on)
{
	char name[128];

	return sysctl_set(feature_sysctl(f, name, sizeof(name)), on ? "1\n" : "0\n");
}
