// SPDX-License-Identifier: GPL-2.0
/*
 * guard_baseline: the file name of a baseline, a round trip through the
 * file, and files that are missing, damaged or of another kernel or
 * feature mask.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "guard/baseline.h"
#include "tap.h"

static char tmpdir[] = "/tmp/rafleet-test-guard-baseline.XXXXXX";

static void test_name(void)
{
	char name[128];

	is_i64(guard_baseline_name("7.3.4-1.rafleet+virt", 0x3f, name,
				   sizeof(name)), 0, "a name for 7.3.4, all on");
	is_str(name, "guard-baseline-7.3.4-1.rafleet+virt-3f.json",
	       "release and two hex digits of the mask");
	guard_baseline_name("6.1/evil x", 0, name, sizeof(name));
	is_str(name, "guard-baseline-6.1_evil_x-00.json",
	       "a slash or space in a release becomes '_'");
	is_i64(guard_baseline_name("", 0, name, sizeof(name)), -EINVAL,
	       "an empty release has no name");
	is_i64(guard_baseline_name("7.3.4", 0, name, 10), -ENAMETOOLONG,
	       "a buffer too small");
}

static void test_round_trip(const char *path)
{
	struct baseline *b = calloc(1, sizeof(*b));
	struct baseline *c = calloc(1, sizeof(*c));
	char why[160] = "";

	guard_baseline_init(b, "7.3.4", 0x3f, "loop0,vda", 40);
	b->windows = 3;
	b->n[GM_REQ_KIB] = 3;
	b->v[GM_REQ_KIB][0] = 128;
	b->v[GM_REQ_KIB][1] = 127.5;
	b->v[GM_REQ_KIB][2] = 0.1;
	b->n[GM_MAJFLT_PER_MIB] = 1;
	b->v[GM_MAJFLT_PER_MIB][0] = 1e-7;
	is_i64(guard_baseline_save(path, b), 0, "saved");

	guard_baseline_init(c, "7.3.4", 0x3f, "", 10);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), 0, "loaded");
	ok(c->windows == 3 && c->learn_windows == 40 &&
	   !strcmp(c->devices, "loop0,vda"),
	   "windows, K and devices as saved: %u of %u, '%s'", c->windows,
	   c->learn_windows, c->devices);
	ok(c->n[GM_REQ_KIB] == 3 && c->v[GM_REQ_KIB][1] == 127.5 &&
	   c->v[GM_REQ_KIB][2] == 0.1 && c->v[GM_MAJFLT_PER_MIB][0] == 1e-7,
	   "values exactly as saved");
	ok(c->n[GM_FOLIO_PAGES] == 0, "an empty metric stays empty");

	/* an older rafleet's baseline of K 10: it learns on to 30 */
	b->learn_windows = 10;
	is_i64(guard_baseline_save(path, b), 0, "saved with K 10");
	guard_baseline_init(c, "7.3.4", 0x3f, "", 40);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), 0, "  loaded");
	ok(c->windows == 3 && c->learn_windows == GUARD_MIN_SAMPLES &&
	   !guard_baseline_complete(c) && c->n[GM_REQ_KIB] == 3,
	   "  K raised to the %d values a band needs, its 3 windows kept: %u of %u",
	   GUARD_MIN_SAMPLES, c->windows, c->learn_windows);

	guard_baseline_init(c, "7.3.4", 0x1f, "", 10);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), -EBADMSG,
	       "another feature mask is refused");
	ok(strstr(why, "another kernel or feature mask") != NULL, "  '%s'", why);
	guard_baseline_init(c, "7.3.5", 0x3f, "", 10);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), -EBADMSG,
	       "another kernel is refused");
	free(b);
	free(c);
}

static void test_damaged(void)
{
	struct baseline *c = calloc(1, sizeof(*c));
	char path[PATH_MAX], why[160] = "";

	snprintf(path, sizeof(path), "%s/missing.json", tmpdir);
	guard_baseline_init(c, "7.3.4", 0x3f, "", 10);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), -ENOENT,
	       "no file: -ENOENT");
	fakefs_put(tmpdir, "half.json", "{\"schema\": \"rafleet-guard-baseline/1\", \"ker");
	snprintf(path, sizeof(path), "%s/half.json", tmpdir);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), -EBADMSG,
	       "a file cut short is damaged");
	fakefs_put(tmpdir, "other.json", "{\"schema\": \"rafleet-status/1\"}");
	snprintf(path, sizeof(path), "%s/other.json", tmpdir);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), -EBADMSG,
	       "another schema is damaged");
	is_str(why, "not a rafleet-guard-baseline/1 document", "  and says so");
	fakefs_put(tmpdir, "str.json",
		   "{\"schema\": \"rafleet-guard-baseline/1\", \"kernel\": \"7.3.4\","
		   " \"feature_mask\": 63, \"devices\": \"vda\", \"learn_windows\": 3,"
		   " \"windows\": 1,"
		   " \"metrics\": {\"read_kib_per_request\": [\"128\"],"
		   " \"folio_pages\": [], \"ra_per_mib\": [], \"majflt_per_mib\": []}}");
	snprintf(path, sizeof(path), "%s/str.json", tmpdir);
	is_i64(guard_baseline_load(path, c, why, sizeof(why)), -EBADMSG,
	       "a value that is a string is damaged");
	is_str(why, "read_kib_per_request[0] is not a number", "  and says which");
	free(c);
}

int main(void)
{
	char path[PATH_MAX];

	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/b.json", tmpdir);
	test_name();
	test_round_trip(path);
	test_damaged();
	fakefs_rm_tree(tmpdir);
	return tap_done();
}
