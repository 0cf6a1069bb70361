// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/tune/conf.c and src/tune/dev.c: the policy parser
 * (values, rules, every kind of bad line with its file:line), the class of
 * a disk from a fake sysfs tree, partitions taken to their disk, the first
 * matching rule, and what each kind of value decides.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "tap.h"
#include "tune/tune.h"

static char tmpdir[] = "/tmp/rafleet-test-tune.XXXXXX";

/* Parse @text as FILE "tune.conf"; the error message in @err. */
static int parse(const char *text, struct tune_policy *p, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	err[0] = '\0';
	if (!f)
		return -errno;
	ret = tune_policy_parse(f, "tune.conf", p, err, len);
	fclose(f);
	return ret;
}

static void test_values(void)
{
	struct tune_value v;

	is_i64(tune_value_parse("4096", &v), 0, "value 4096 parses");
	ok(v.kind == TUNE_FIXED && v.kb == 4096, "  as fixed 4096");
	is_i64(tune_value_parse(">4096", &v), 0, "value >4096 parses");
	ok(v.kind == TUNE_AT_LEAST && v.kb == 4096, "  as at least 4096");
	is_i64(tune_value_parse("0", &v), 0, "value 0 (readahead off) parses");
	is_i64(tune_value_parse("max_sectors", &v), 0, "max_sectors parses");
	ok(v.kind == TUNE_MAX_SECTORS, "  as max_sectors");
	is_i64(tune_value_parse("keep", &v), 0, "keep parses");
	ok(v.kind == TUNE_KEEP, "  as keep");
	is_i64(tune_value_parse("1048576", &v), 0, "1048576 (1 GiB) is the largest");
	is_i64(tune_value_parse("1048577", &v), -ERANGE, "1048577 is too large");
	is_i64(tune_value_parse("99999999999999999999999", &v), -ERANGE,
	       "a number past 64 bits is too large, not wrapped");
	is_i64(tune_value_parse("", &v), -EINVAL, "an empty value is refused");
	is_i64(tune_value_parse(">", &v), -EINVAL, "'>' alone is refused");
	is_i64(tune_value_parse("-1", &v), -EINVAL, "-1 is refused");
	is_i64(tune_value_parse("4k", &v), -EINVAL, "4k (a unit) is refused");
	is_i64(tune_value_parse(">>4", &v), -EINVAL, ">>4 is refused");
	is_i64(tune_value_parse("<4", &v), -EINVAL, "<4 is refused");
	is_i64(tune_value_parse("max_sector", &v), -EINVAL, "max_sector (typo) is refused");
}

static void test_parse(void)
{
	struct tune_policy p;
	char err[512];
	int ret;

	ret = parse("# a comment\n\n"
		    "device  sd[ab]   8192   # inline comment\n"
		    "\tclass rotational >4096\n"
		    "class nvme max_sectors\r\n"
		    "class other keep\n", &p, err, sizeof(err));
	is_i64(ret, 0, "a good policy parses");
	is_u64(p.nr, 4, "  four rules");
	is_str(p.file, "tune.conf", "  the file is named");
	if (p.nr == 4) {
		ok(!p.rules[0].by_class && !strcmp(p.rules[0].glob, "sd[ab]") &&
		   p.rules[0].value.kind == TUNE_FIXED && p.rules[0].value.kb == 8192,
		   "  rule 1: device sd[ab] 8192");
		is_u64(p.rules[0].line, 3, "  rule 1 is line 3");
		ok(p.rules[1].by_class && p.rules[1].cls == TUNE_ROTATIONAL &&
		   p.rules[1].value.kind == TUNE_AT_LEAST && p.rules[1].line == 4,
		   "  rule 2: class rotational >4096, line 4 (leading tab)");
		is_str(p.rules[1].text, ">4096", "  the value as written is kept");
		ok(p.rules[2].cls == TUNE_NVME && p.rules[2].value.kind == TUNE_MAX_SECTORS,
		   "  rule 3: class nvme max_sectors (CRLF line)");
		ok(p.rules[3].cls == TUNE_OTHER && p.rules[3].value.kind == TUNE_KEEP,
		   "  rule 4: class other keep");
	}
	tune_policy_free(&p);

	is_i64(parse("", &p, err, sizeof(err)), 0, "an empty policy parses");
	is_u64(p.nr, 0, "  no rules");
	tune_policy_free(&p);

	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "class rotational >4096\nclass spinning 4096\n",
		  "tune.conf:2: unknown class 'spinning' (dm, md, loop, nvme, virtio, rotational, other)" },
		{ "disk sda 4096\n", "tune.conf:1: unknown match 'disk' (device or class)" },
		{ "\n\ndevice sda\n",
		  "tune.conf:3: want 'device GLOB VALUE' or 'class CLASS VALUE', found 2 words" },
		{ "device sda 4096 8192\n",
		  "tune.conf:1: want 'device GLOB VALUE' or 'class CLASS VALUE', found 4 words" },
		{ "device\n",
		  "tune.conf:1: want 'device GLOB VALUE' or 'class CLASS VALUE', found 1 word" },
		{ "device sda 4M\n", "tune.conf:1: bad value '4M' (N KiB, >N, max_sectors or keep)" },
		{ "class nvme 2097152\n", "tune.conf:1: value '2097152' is above 1048576 KiB" },
		{ "device /dev/sda 4096\n",
		  "tune.conf:1: device glob '/dev/sda' has a '/': it matches a name as in /sys/block" },
		{ "device aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1\n",
		  "tune.conf:1: device glob longer than 63 bytes" },
		{ "class nvme =4096\n", "tune.conf:1: bad value '=4096' (N KiB, >N, max_sectors or keep)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ret = parse(bad[i].text, &p, err, sizeof(err));
		is_i64(ret, -EINVAL, "a bad line is refused");
		is_str(err, bad[i].msg, "  the message names file:line and what is wrong");
		ok(p.nr == 0 && !p.rules, "  and no rule is kept");
	}

	ret = tune_policy_load(tmpdir, "/etc/rafleet/missing.conf", &p, err, sizeof(err));
	is_i64(ret, -ENOENT, "a missing config is -ENOENT");
	is_str(err, "/etc/rafleet/missing.conf: No such file or directory",
	       "  named as the host sees it");
	fakefs_put(tmpdir, "root/etc/rafleet/tune.conf", "class virtio 512\n");
	ret = tune_policy_load(tmpdir, "/root/etc/rafleet/tune.conf", &p, err, sizeof(err));
	is_i64(ret, 0, "a config under the root loads");
	ok(p.nr == 1 && p.rules[0].cls == TUNE_VIRTIO, "  with its rule");
	is_str(p.file, "/root/etc/rafleet/tune.conf", "  named by its path under the root");
	tune_policy_free(&p);
}

/* The disks of the fake sysfs: one of each class, and a partition. */
#define PCI "devices/pci0000:00/0000:00:"
static int make_sysfs(const char *sys)
{
	static const struct {
		const char *name, *dir, *subsys, *rot, *ra, *ms, *extra;
	} disks[] = {
		{ "vda", PCI "04.0/virtio2/block/vda", "../../../bus/virtio", "1", "128", "1280", NULL },
		{ "nvme0n1", PCI "06.0/nvme/nvme0/nvme0n1", "../../../../class/nvme", "0", "128", "512", NULL },
		{ "nvme1n1", "devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1",
		  "../../../../class/nvme-subsystem", "0", "128", "512", NULL },
		{ "sda", PCI "07.0/host0/target0:0:0/0:0:0:0/block/sda",
		  "../../../../../../../bus/scsi", "1", "8192", "1280", NULL },
		{ "sdb", PCI "07.0/host0/target0:0:1/0:0:1:0/block/sdb",
		  "../../../../../../../bus/scsi", "0", "128", "1280", NULL },
		{ "dm-0", "devices/virtual/block/dm-0", NULL, "1", "128", "1280", "dm/name" },
		{ "md0", "devices/virtual/block/md0", NULL, "1", "128", "1280", "md/level" },
		{ "loop0", "devices/virtual/block/loop0", NULL, "1", "128", "1280", NULL },
		{ "loop1", "devices/virtual/block/loop1", NULL, "0", "128", "1280", "loop/backing_file" },
		{ "zram0", "devices/virtual/block/zram0", NULL, "0", "128", "1280", NULL },
		{ "sr0", PCI "07.0/host1/block/sr0", NULL, "1", "nope", NULL, NULL },
	};
	char rel[PATH_MAX], target[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		const char *dir = disks[i].dir;

		snprintf(rel, sizeof(rel), "%s/queue/rotational", dir);
		ret |= fakefs_put(sys, rel, disks[i].rot);
		snprintf(rel, sizeof(rel), "%s/queue/read_ahead_kb", dir);
		ret |= fakefs_put(sys, rel, disks[i].ra);
		if (disks[i].ms) {
			snprintf(rel, sizeof(rel), "%s/queue/max_sectors_kb", dir);
			ret |= fakefs_put(sys, rel, disks[i].ms);
		}
		snprintf(rel, sizeof(rel), "%s/diskseq", dir);
		ret |= fakefs_put(sys, rel, "9\n");
		if (disks[i].extra) {
			snprintf(rel, sizeof(rel), "%s/%s", dir, disks[i].extra);
			ret |= fakefs_put(sys, rel, "x\n");
		}
		if (disks[i].subsys) {
			/* SYSDIR/device -> ../.., its subsystem a link to the bus or class */
			snprintf(rel, sizeof(rel), "%s/device", dir);
			ret |= fakefs_symlink(sys, rel, "../..");
			snprintf(rel, sizeof(rel), "%s/../../subsystem", dir);
			ret |= fakefs_symlink(sys, rel, disks[i].subsys);
		}
		snprintf(rel, sizeof(rel), "block/%s", disks[i].name);
		snprintf(target, sizeof(target), "../%s", dir);
		ret |= fakefs_symlink(sys, rel, target);
		snprintf(rel, sizeof(rel), "class/block/%s", disks[i].name);
		snprintf(target, sizeof(target), "../../%s", dir);
		ret |= fakefs_symlink(sys, rel, target);
	}
	/* vda1: a partition, in class/block only, as the kernel has it */
	ret |= fakefs_put(sys, PCI "04.0/virtio2/block/vda/vda1/partition", "1\n");
	ret |= fakefs_symlink(sys, "class/block/vda1",
			      "../../" PCI "04.0/virtio2/block/vda/vda1");
	return ret;
}

static void test_classes(const char *sys)
{
	static const struct {
		const char *name;
		enum tune_class cls;
		const char *why;
	} want[] = {
		{ "vda", TUNE_VIRTIO, "device/subsystem is virtio" },
		{ "nvme0n1", TUNE_NVME, "device/subsystem is nvme" },
		{ "nvme1n1", TUNE_NVME, "device/subsystem is nvme-subsystem" },
		{ "sda", TUNE_ROTATIONAL, "queue/rotational is 1" },
		{ "sdb", TUNE_OTHER, "not dm, md, loop, nvme or virtio, and not rotational" },
		{ "dm-0", TUNE_DM, "it has dm/ (device-mapper)" },
		{ "md0", TUNE_MD, "it has md/ (software RAID)" },
		{ "loop0", TUNE_LOOP, "its name is loopN" },
		{ "loop1", TUNE_LOOP, "it has loop/ (attached loop device)" },
		{ "zram0", TUNE_OTHER, "not dm, md, loop, nvme or virtio, and not rotational" },
	};
	struct tune_dev d, *all = NULL;
	size_t nr = 0;
	int ret;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ret = tune_dev_open(sys, want[i].name, &d);
		is_i64(ret, 0, want[i].name);
		if (ret)
			continue;
		ok(d.cls == want[i].cls, "  class %s (got %s)",
		   tune_class_name(want[i].cls), tune_class_name(d.cls));
		is_str(d.class_why, want[i].why, "  and how it was found");
		ok(!d.partition && !strcmp(d.asked, want[i].name) &&
		   !strcmp(d.disk.name, want[i].name), "  a disk, its own name");
	}

	ret = tune_dev_open(sys, "vda", &d);
	ok(!ret && d.ra_kb == 128 && !d.ra_err && d.max_sectors_kb == 1280 &&
	   !d.ms_err && d.have_diskseq && d.diskseq == 9,
	   "vda: read_ahead_kb 128, max_sectors_kb 1280, diskseq 9");
	ret = tune_dev_open(sys, "vda1", &d);
	is_i64(ret, 0, "vda1, a partition, opens");
	ok(d.partition && !strcmp(d.asked, "vda1") && !strcmp(d.disk.name, "vda") &&
	   d.cls == TUNE_VIRTIO && d.ra_kb == 128,
	   "  as its disk vda (partition, class virtio, the disk's read_ahead_kb)");
	ret = tune_dev_open(sys, "sr0", &d);
	ok(!ret && d.ra_err == -EBADMSG && d.ms_err == -ENOENT,
	   "sr0: an unreadable read_ahead_kb and a missing max_sectors_kb are recorded, not fatal");
	is_i64(tune_dev_open(sys, "vdz", &d), -ENODEV, "a device that is not there: -ENODEV");
	is_i64(tune_dev_open(sys, "../vda", &d), -EINVAL, "a name with a '/': -EINVAL");
	is_i64(tune_dev_open(sys, "..", &d), -EINVAL, "'..': -EINVAL");
	is_i64(tune_dev_open(sys, "", &d), -EINVAL, "an empty name: -EINVAL");

	ret = tune_dev_list(sys, &all, &nr);
	is_i64(ret, 0, "tune_dev_list");
	is_u64(nr, 11, "  every disk of block/, no partition");
	ok(nr == 11 && !strcmp(all[0].disk.name, "dm-0") &&
	   !strcmp(all[10].disk.name, "zram0"), "  sorted by name");
	free(all);
}

/* A device of @cls, read_ahead_kb @ra, max_sectors_kb @ms, named @name. */
static struct tune_dev dev(const char *name, enum tune_class cls, uint64_t ra,
			   uint64_t ms)
{
	struct tune_dev d;

	memset(&d, 0, sizeof(d));
	snprintf(d.asked, sizeof(d.asked), "%s", name);
	snprintf(d.disk.name, sizeof(d.disk.name), "%s", name);
	d.cls = cls;
	d.ra_kb = ra;
	d.max_sectors_kb = ms;
	return d;
}

static void test_match_decide(void)
{
	struct tune_policy p;
	struct tune_decision dec;
	struct tune_dev d;
	char err[256];

	parse("device sdb 8192\n"
	      "device vd? keep\n"
	      "class rotational >4096\n"
	      "class nvme max_sectors\n"
	      "class virtio 0\n"
	      "device sd* 2048\n", &p, err, sizeof(err));
	ok(p.nr == 6, "the matching policy parses: %s", err);

	d = dev("sdb", TUNE_ROTATIONAL, 128, 1280);
	ok(tune_match(&p, &d) == &p.rules[0], "sdb: its device rule, above the class rule");
	d = dev("sdc", TUNE_ROTATIONAL, 128, 1280);
	ok(tune_match(&p, &d) == &p.rules[2], "sdc (rotational): the class rule, first of the two that match");
	d = dev("sdd", TUNE_OTHER, 128, 1280);
	ok(tune_match(&p, &d) == &p.rules[5], "sdd (other): the glob sd* further down");
	d = dev("vda", TUNE_VIRTIO, 128, 1280);
	ok(tune_match(&p, &d) == &p.rules[1], "vda: the glob vd? above class virtio");
	d = dev("vdaa", TUNE_VIRTIO, 128, 1280);
	ok(tune_match(&p, &d) == &p.rules[4], "vdaa: vd? does not match, class virtio does");
	d = dev("dm-0", TUNE_DM, 128, 1280);
	ok(tune_match(&p, &d) == NULL, "dm-0: no rule");

	d = dev("sdb", TUNE_ROTATIONAL, 128, 1280);
	tune_decide(&p, &d, &dec);
	ok(dec.change && dec.want == 8192 && !dec.err, "fixed 8192 over 128: change to 8192");
	is_str(dec.why, "fixed 8192: changed from 128", "  why");
	d.ra_kb = 8192;
	tune_decide(&p, &d, &dec);
	ok(!dec.change && dec.want == 8192, "fixed 8192 over 8192: no change");
	is_str(dec.why, "fixed 8192: already 8192", "  why");

	d = dev("sdc", TUNE_ROTATIONAL, 128, 1280);
	tune_decide(&p, &d, &dec);
	ok(dec.change && dec.want == 4096, ">4096 over 128: raised to 4096");
	is_str(dec.why, "at least 4096: raised from 128", "  why");
	d.ra_kb = 16384;
	tune_decide(&p, &d, &dec);
	ok(!dec.change && dec.want == 16384, ">4096 over 16384: kept, never lowered");
	is_str(dec.why, "at least 4096: 16384 is not lower, kept", "  why");
	d.ra_kb = 4096;
	tune_decide(&p, &d, &dec);
	ok(!dec.change && dec.want == 4096, ">4096 over 4096: no change");

	d = dev("nvme0n1", TUNE_NVME, 128, 512);
	tune_decide(&p, &d, &dec);
	ok(dec.change && dec.want == 512, "max_sectors over 128 with max_sectors_kb 512: 512");
	is_str(dec.why, "at least max_sectors_kb 512: raised from 128", "  why");
	d.ra_kb = 1024;
	tune_decide(&p, &d, &dec);
	ok(!dec.change && dec.want == 1024, "max_sectors over 1024 with max_sectors_kb 512: kept");
	d.ms_err = -ENOENT;
	tune_decide(&p, &d, &dec);
	ok(dec.err == -ENOENT && !dec.change, "max_sectors without max_sectors_kb: an error, no change");
	is_str(dec.why, "queue/max_sectors_kb: No such file or directory", "  why");

	d = dev("vda", TUNE_VIRTIO, 128, 1280);
	tune_decide(&p, &d, &dec);
	ok(!dec.change && dec.want == 128 && dec.rule == &p.rules[1], "keep: no change");
	is_str(dec.why, "keep: left as it is", "  why");
	d = dev("vdaa", TUNE_VIRTIO, 128, 1280);
	tune_decide(&p, &d, &dec);
	ok(dec.change && dec.want == 0, "fixed 0: readahead off");
	d = dev("dm-0", TUNE_DM, 128, 1280);
	tune_decide(&p, &d, &dec);
	ok(!dec.change && !dec.rule && dec.want == 128, "no rule: no change");
	is_str(dec.why, "no rule matches: left as it is", "  why");
	d = dev("sdb", TUNE_ROTATIONAL, 0, 1280);
	d.ra_err = -EBADMSG;
	tune_decide(&p, &d, &dec);
	ok(dec.err == -EBADMSG && !dec.change, "an unreadable read_ahead_kb: an error, no change");
	tune_policy_free(&p);
}

int main(void)
{
	char sys[PATH_MAX];

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(sys, sizeof(sys), "%s/sys", tmpdir);
	test_values();
	test_parse();
	if (make_sysfs(sys))
		diag("could not make the fake sysfs tree in %s", sys);
	test_classes(sys);
	test_match_decide();
	fakefs_rm_tree(tmpdir);
	return tap_done();
}
