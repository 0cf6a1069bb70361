// SPDX-License-Identifier: GPL-2.0
/* features: the six sysctls, looked up and read/written in a fake procfs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/feature.h"
#include "tap.h"

static char root[64];

static void put(const char *name, const char *val)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/vm/%s", root, name);
	f = fopen(path, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

int main(void)
{
	const struct feature *f;
	char dir[128];

	is_u64(nr_features, 6, "six features, one per seed change");
	ok(feature_find("readahead_async_keep_half") != NULL, "found by name");
	ok(feature_find("vm.readahead_async_keep_half") ==
	   feature_find("readahead_async_keep_half"), "found with the vm. prefix");
	ok(feature_find("readahead_nonsense") == NULL, "an unknown name is not found");
	ok(feature_find("vm.") == NULL, "\"vm.\" alone is not found");
	for (int i = 0; i < nr_features; i++)
		ok(!strncmp(features[i].name, "readahead_", 10),
		   "%s is under vm.readahead_*", features[i].name);

	snprintf(root, sizeof(root), "/tmp/rafleet-procsys-XXXXXX");
	if (!mkdtemp(root))
		return ok(0, "mkdtemp"), tap_done();
	snprintf(dir, sizeof(dir), "%s/vm", root);
	mkdir(dir, 0755);
	setenv("RAFLEET_PROCSYS", root, 1);

	f = feature_find("readahead_exec_large_folio");
	is_i64(feature_get(f), -ENOENT, "a kernel without the sysctl: -ENOENT");
	put(f->name, "1\n");
	is_i64(feature_get(f), 1, "reads 1");
	is_i64(feature_set(f, false), 0, "set to 0");
	is_i64(feature_get(f), 0, "reads 0 after setting it");
	put(f->name, "2\n");
	is_i64(feature_get(f), -EINVAL, "a value other than 0/1 is an error");
	put(f->name, "");
	is_i64(feature_get(f), -EINVAL, "an empty file is an error");

	snprintf(dir, sizeof(dir), "rm -rf %s", root);
	if (system(dir))
		diag("cleanup of %s failed", root);
	return tap_done();
}
