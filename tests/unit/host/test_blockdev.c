// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/host/blockdev.c, against a fake sysfs tree in a temp dir.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "lib/env.h"
#include "fakefs.h"
#include "tap.h"

#define VDA "devices/pci0000:00/0000:00:04.0/virtio2/block/vda"
#define VDB "devices/pci0000:00/0000:00:05.0/virtio3/block/vdb"
#define VDC "devices/virtual/block/vdc"

/* a 6.x kernel: 17 fields */
static const char vda_stat[] =
	"   12093     3211  1637842     5870     4021     2210   301480"
	"     9876        2    10321    15905        0        0        0"
	"        0      789      160\n";
static const char vda1_stat[] =
	"    9000      100   800000     3000      100       10     1000"
	"      500        0     4000     3500        0        0        0"
	"        0        0        0\n";
/* before 4.19: 11 fields */
static const char vdb_stat[] =
	"     153       12     9872       44        7        1       64"
	"        3        0       51       47\n";

static char tmpdir[] = "/tmp/rafleet-test-blockdev.XXXXXX";

/* disk names of 63 bytes (the longest name[64] holds) and 64 bytes */
static char name63[64], name64[65];

/* write @content to TMPDIR/@rel, creating directories on the way */
static int put(const char *rel, const char *content)
{
	return fakefs_put(tmpdir, rel, content);
}

/* TMPDIR/dev/block/@name -> @target */
static int link_dev(const char *name, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/dev/block/%s", tmpdir, name);
	return symlink(target, path) ? -errno : 0;
}

/* the resolved path of TMPDIR/@rel, as blockdev_from_dev() reports it */
static const char *real(const char *rel)
{
	static char out[PATH_MAX];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	if (!realpath(path, out))
		snprintf(out, sizeof(out), "(realpath of %s: %s)", rel,
			 strerror(errno));
	return out;
}

/* TMPDIR/dev/block/@dev -> ../../devices/virtual/block/@name */
static int virtual_disk(const char *dev, const char *name)
{
	char rel[PATH_MAX];
	int ret;

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/stat", name);
	ret = put(rel, vdb_stat);
	if (ret)
		return ret;
	snprintf(rel, sizeof(rel), "../../devices/virtual/block/%s", name);
	return link_dev(dev, rel);
}

static int make_tree(void)
{
	char path[PATH_MAX];
	int ret = 0;

	memset(name63, 'n', sizeof(name63) - 1);
	memset(name64, 'n', sizeof(name64) - 1);

	ret |= put(VDA "/dev", "254:0\n");
	ret |= put(VDA "/stat", vda_stat);
	ret |= put(VDA "/queue/read_ahead_kb", "128\n");
	ret |= put(VDA "/queue/max_sectors_kb", "1280\n");
	ret |= put(VDA "/queue/rotational", "0\n");
	ret |= put(VDA "/queue/scheduler", "[none] mq-deadline\n");
	ret |= put(VDA "/queue/empty", "\n");
	ret |= put(VDA "/queue/two", "1 2\n");
	ret |= put(VDA "/vda1/dev", "254:1\n");
	ret |= put(VDA "/vda1/partition", "1\n");
	ret |= put(VDA "/vda1/stat", vda1_stat);
	ret |= put(VDB "/stat", vdb_stat);
	ret |= put(VDC "/stat", "");
	snprintf(path, sizeof(path), "%s/dev/block", tmpdir);
	ret |= fakefs_mkdir_p(path);
	if (ret)
		return ret;

	ret |= link_dev("254:0", "../../" VDA);
	ret |= link_dev("254:1", "../../" VDA "/vda1");
	ret |= link_dev("254:16", "../../" VDB);
	ret |= link_dev("254:32", "../../" VDC);
	ret |= link_dev("254:48", "../../devices/virtual/block/gone");
	ret |= virtual_disk("254:64", name64);
	ret |= virtual_disk("254:96", name63);
	ret |= link_dev("254:80", "../../" VDA "/stat");
	return ret;
}

static void test_whole_disk(void)
{
	struct blockdev bd;
	int ret;

	memset(&bd, 0xa5, sizeof(bd));
	bd.is_partition = true;
	ret = blockdev_from_dev(tmpdir, makedev(254, 0), &bd);
	if (!is_i64(ret, 0, "disk: 254:0 resolves"))
		return;
	is_str(bd.name, "vda", "disk: name");
	is_str(bd.sysdir, real(VDA), "disk: sysdir is the resolved disk dir");
	is_u64(bd.major, 254, "disk: major");
	is_u64(bd.minor, 0, "disk: minor");
	ok(!bd.is_partition, "disk: not a partition");
}

static void test_partition(void)
{
	struct blockdev_stat st;
	struct blockdev bd;
	int ret;

	ret = blockdev_from_dev(tmpdir, makedev(254, 1), &bd);
	if (!is_i64(ret, 0, "partition: 254:1 resolves"))
		return;
	is_str(bd.name, "vda", "partition: name is the parent disk");
	is_str(bd.sysdir, real(VDA), "partition: sysdir is the parent disk");
	is_u64(bd.major, 254, "partition: major of the partition");
	is_u64(bd.minor, 1, "partition: minor of the partition");
	ok(bd.is_partition, "partition: is_partition set");

	memset(&st, 0, sizeof(st));
	is_i64(blockdev_read_stat(&bd, &st), 0, "partition: read stat");
	is_u64(st.read_ios, 12093, "partition: counters are the disk's");
}

static void test_missing(void)
{
	struct blockdev bd = { .name = "keep" };

	is_i64(blockdev_from_dev(tmpdir, makedev(0, 42), &bd), -ENODEV,
	       "missing: anonymous 0:42 is -ENODEV");
	is_i64(blockdev_from_dev(tmpdir, makedev(8, 0), &bd), -ENODEV,
	       "missing: absent 8:0 is -ENODEV");
	is_i64(blockdev_from_dev(tmpdir, makedev(254, 48), &bd), -ENODEV,
	       "missing: dangling link is -ENODEV");
	is_i64(blockdev_from_dev(tmpdir, makedev(254, 80), &bd), -ENODEV,
	       "missing: link to a plain file is -ENODEV");
	is_i64(blockdev_from_dev("/nonexistent-sysfs", makedev(254, 0), &bd),
	       -ENODEV, "missing: no sysfs at all is -ENODEV");
	is_i64(blockdev_from_dev(tmpdir, makedev(254, 64), &bd),
	       -ENAMETOOLONG, "missing: a 64-byte name is -ENAMETOOLONG");
	is_str(bd.name, "keep", "missing: output untouched on failure");
	is_i64(blockdev_from_dev(tmpdir, makedev(254, 96), &bd), 0,
	       "missing: a 63-byte name fits");
	is_str(bd.name, name63, "missing: 63-byte name intact");
	is_i64(blockdev_from_dev(tmpdir, makedev(254, 0), NULL), -EINVAL,
	       "missing: NULL output is -EINVAL");
}

static void test_sysfs_env(void)
{
	struct blockdev bd;

	unsetenv(env_name(ENV_SYSFS));
	is_str(blockdev_sysfs_root(), "/sys", "env: default is /sys");
	setenv(env_name(ENV_SYSFS), tmpdir, 1);
	is_str(blockdev_sysfs_root(), tmpdir, "env: $RAFLEET_SYSFS is used");
	is_i64(blockdev_from_dev(NULL, makedev(254, 16), &bd), 0,
	       "env: NULL sysfs resolves through $RAFLEET_SYSFS");
	is_str(bd.name, "vdb", "env: found vdb");
	unsetenv(env_name(ENV_SYSFS));
}

static void test_stat(void)
{
	struct blockdev_stat st;
	struct blockdev bd;

	if (!is_i64(blockdev_from_dev(tmpdir, makedev(254, 0), &bd), 0,
		    "stat: resolve vda"))
		return;
	memset(&st, 0xff, sizeof(st));
	is_i64(blockdev_read_stat(&bd, &st), 0, "stat: 17 fields");
	ok(st.read_ios == 12093 && st.read_merges == 3211 &&
	   st.read_sectors == 1637842 && st.read_ticks_ms == 5870 &&
	   st.write_ios == 4021 && st.write_sectors == 301480 &&
	   st.in_flight == 2,
	   "stat: fields 1-5, 7 and 9 land in place");

	if (!is_i64(blockdev_from_dev(tmpdir, makedev(254, 16), &bd), 0,
		    "stat: resolve vdb"))
		return;
	memset(&st, 0xff, sizeof(st));
	is_i64(blockdev_read_stat(&bd, &st), 0, "stat: 11 fields");
	ok(st.read_ios == 153 && st.read_merges == 12 &&
	   st.read_sectors == 9872 && st.read_ticks_ms == 44 &&
	   st.write_ios == 7 && st.write_sectors == 64 && st.in_flight == 0,
	   "stat: old kernel layout");
}

struct stat_case {
	const char *content;
	int want;
	const char *what;
};

static void test_stat_formats(void)
{
	static const struct stat_case cases[] = {
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 0, "15 fields" },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n", 0,
		  "19 fields (appended by a later kernel)" },
		{ "1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11", 0,
		  "tabs and no newline" },
		{ "", -EBADMSG, "empty" },
		{ "\n", -EBADMSG, "only a newline" },
		{ "this is not a stat file\n", -EBADMSG, "text" },
		{ "1 2 3 4 5 6 7 8 9 10\n", -EBADMSG, "10 fields" },
		{ "1 2 3 4 5 6 7 8 9 10 11 12\n", -EBADMSG, "12 fields" },
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", -EBADMSG,
		  "16 fields" },
		{ "1 2 3x 4 5 6 7 8 9 10 11\n", -EBADMSG, "junk in a number" },
		{ "1 2 -3 4 5 6 7 8 9 10 11\n", -EBADMSG, "negative number" },
		{ "1 2 +3 4 5 6 7 8 9 10 11\n", -EBADMSG, "plus sign" },
		{ "1 2 99999999999999999999 4 5 6 7 8 9 10 11\n", -EBADMSG,
		  "overflowing number" },
	};
	struct blockdev_stat st;
	struct blockdev bd;
	char path[PATH_MAX];
	size_t i;

	if (!is_i64(blockdev_from_dev(tmpdir, makedev(254, 32), &bd), 0,
		    "formats: resolve vdc"))
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct stat_case *c = &cases[i];
		int ret;

		if (put(VDC "/stat", c->content)) {
			ok(0, "formats: write %s", c->what);
			continue;
		}
		memset(&st, 0, sizeof(st));
		st.read_ios = 777;
		ret = blockdev_read_stat(&bd, &st);
		ok(ret == c->want &&
		   (ret ? st.read_ios == 777 : st.read_ios == 1 &&
		    st.write_sectors == 7 && st.in_flight == 9),
		   "formats: %s -> %d (read_ios %llu)", c->what, ret,
		   (unsigned long long)st.read_ios);
	}

	snprintf(path, sizeof(path), "%s/" VDC "/stat", tmpdir);
	unlink(path);
	is_i64(blockdev_read_stat(&bd, &st), -ENOENT,
	       "formats: missing stat file is -ENOENT");
	bd.sysdir[0] = '\0';
	is_i64(blockdev_read_stat(&bd, &st), -EINVAL,
	       "formats: empty sysdir is -EINVAL");
}

static void test_queue(void)
{
	struct blockdev bd;
	char path[PATH_MAX];
	uint64_t v = 0;

	if (!is_i64(blockdev_from_dev(tmpdir, makedev(254, 1), &bd), 0,
		    "queue: resolve vda1"))
		return;
	is_i64(blockdev_queue_get(&bd, "read_ahead_kb", &v), 0,
	       "queue: get read_ahead_kb through the partition");
	is_u64(v, 128, "queue: read_ahead_kb value");
	is_i64(blockdev_queue_get(&bd, "max_sectors_kb", &v), 0,
	       "queue: get max_sectors_kb");
	is_u64(v, 1280, "queue: max_sectors_kb value");

	is_i64(blockdev_queue_set(&bd, "read_ahead_kb", 4096), 0,
	       "queue: set read_ahead_kb 4096");
	is_i64(blockdev_queue_get(&bd, "read_ahead_kb", &v), 0, "queue: get");
	is_u64(v, 4096, "queue: 4096 round trip");
	is_i64(blockdev_queue_set(&bd, "read_ahead_kb", 1), 0,
	       "queue: set a shorter value");
	is_i64(blockdev_queue_get(&bd, "read_ahead_kb", &v), 0, "queue: get");
	is_u64(v, 1, "queue: 1 round trip, old value fully replaced");
	is_i64(blockdev_queue_set(&bd, "read_ahead_kb", UINT64_MAX), 0,
	       "queue: set UINT64_MAX");
	is_i64(blockdev_queue_get(&bd, "read_ahead_kb", &v), 0, "queue: get");
	is_u64(v, UINT64_MAX, "queue: UINT64_MAX round trip");

	v = 5;
	is_i64(blockdev_queue_get(&bd, "scheduler", &v), -EBADMSG,
	       "queue: non-numeric attribute is -EBADMSG");
	is_i64(blockdev_queue_get(&bd, "empty", &v), -EBADMSG,
	       "queue: empty attribute file is -EBADMSG");
	is_i64(blockdev_queue_get(&bd, "two", &v), -EBADMSG,
	       "queue: two numbers are -EBADMSG");
	is_i64(blockdev_queue_get(&bd, "nr_requests", &v), -ENOENT,
	       "queue: missing attribute is -ENOENT");
	is_u64(v, 5, "queue: value untouched on failure");
	is_i64(blockdev_queue_set(&bd, "nr_requests", 64), -ENOENT,
	       "queue: setting a missing attribute is -ENOENT");
	snprintf(path, sizeof(path), "%s/queue/nr_requests", bd.sysdir);
	ok(access(path, F_OK) && errno == ENOENT,
	   "queue: set does not create files");
	is_i64(blockdev_queue_get(&bd, "../stat", &v), -EINVAL,
	       "queue: '/' in attribute is -EINVAL");
	is_i64(blockdev_queue_set(&bd, "..", 1), -EINVAL,
	       "queue: '..' attribute is -EINVAL");
	is_i64(blockdev_queue_get(&bd, "", &v), -EINVAL,
	       "queue: empty attribute is -EINVAL");
	is_i64(blockdev_queue_get(&bd, "rotational", NULL), -EINVAL,
	       "queue: NULL output is -EINVAL");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (make_tree()) {
		printf("Bail out! cannot build the fake sysfs in %s\n", tmpdir);
		fakefs_rm_tree(tmpdir);
		return 1;
	}
	test_whole_disk();
	test_partition();
	test_missing();
	test_sysfs_env();
	test_stat();
	test_stat_formats();
	test_queue();
	ok(fakefs_rm_tree(tmpdir) == 0, "cleanup: removed %s", tmpdir);
	return tap_done();
}
