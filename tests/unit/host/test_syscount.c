// SPDX-License-Identifier: GPL-2.0
/*
 * syscount: which block devices are watched by default (fake sysfs), reads
 * summed over the devices and their deltas, and counters that cannot be
 * opened (a fake tracefs: no order field, no readahead events, an id the
 * kernel does not know) reported unavailable with a reason, never 0.
 * Where perf_event_open is allowed, a major fault we make is counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fakefs.h"
#include "host/syscount.h"
#include "tap.h"

static char tmpdir[] = "/tmp/rafleet-test-syscount.XXXXXX";
static char sysfs[PATH_MAX], tracefs[PATH_MAX];

static void stat_line(const char *dev, unsigned long ios, unsigned long sectors)
{
	char rel[128], buf[256];

	snprintf(rel, sizeof(rel), "block/%s/stat", dev);
	snprintf(buf, sizeof(buf),
		 "%lu 0 %lu 10 0 0 0 0 0 10 10 0 0 0 0 0 0\n", ios, sectors);
	fakefs_put(sysfs, rel, buf);
}

static void disk(const char *dev, const char *size, const char *holder)
{
	char rel[128], path[PATH_MAX + 64];

	snprintf(rel, sizeof(rel), "block/%s/size", dev);
	fakefs_put(sysfs, rel, size);
	stat_line(dev, 1, 8);
	snprintf(path, sizeof(path), "%s/block/%s/holders", sysfs, dev);
	fakefs_mkdir_p(path);
	if (holder) {
		snprintf(rel, sizeof(rel), "block/%s/holders/%s", dev, holder);
		fakefs_put(sysfs, rel, "");
	}
}

static void test_default_devices(void)
{
	char names[SC_MAX_DEVS][SC_NAME_LEN];
	int n;

	disk("vda", "524288\n", NULL);
	disk("sda", "1000\n", "dm-0");		/* under LVM */
	disk("dm-0", "1000\n", NULL);
	disk("loop0", "0\n", NULL);		/* not attached */
	disk("loop1", "2048\n", NULL);
	disk("zram0", "8192\n", NULL);		/* swap */
	disk("ram0", "8192\n", NULL);
	n = sc_default_devices(sysfs, names, SC_MAX_DEVS);
	is_i64(n, 3, "three devices watched by default");
	ok(n == 3 && !strcmp(names[0], "dm-0") && !strcmp(names[1], "loop1") &&
	   !strcmp(names[2], "vda"),
	   "dm-0, loop1, vda (sorted); not sda under dm-0, an empty loop, RAM disks");
	is_i64(sc_default_devices(sysfs, names, 1), 1, "no more than asked for");
	ok(sc_device_exists(sysfs, "sda"), "sda can be named all the same");
	ok(!sc_device_exists(sysfs, "sdz"), "sdz does not exist");
	ok(!sc_device_exists(sysfs, "../block/vda"), "a path is not a device name");
}

/* A tracefs where nothing can be counted for real. */
static void fake_tracefs(void)
{
	fakefs_put(tracefs, "events/filemap/mm_filemap_add_to_page_cache/id",
		   "4000000000\n");
	fakefs_put(tracefs, "events/filemap/mm_filemap_add_to_page_cache/format",
		   "name: mm_filemap_add_to_page_cache\nID: 4000000000\nformat:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:unsigned long i_ino;\toffset:8;\tsize:8;\tsigned:0;\n");
}

static void test_unavailable(void)
{
	const char *devs[] = { "vda", "loop1" };
	struct syscount *sc = calloc(1, sizeof(*sc));
	struct sc_values a, b, d;

	setenv("RAFLEET_SYSFS", sysfs, 1);
	setenv("RAFLEET_TRACEFS", tracefs, 1);
	fake_tracefs();
	stat_line("vda", 100, 8000);
	stat_line("loop1", 10, 2000);
	is_i64(sc_open(sc, devs, 2), 0, "counters opened, what can be");
	ok(!sc->avail.orders_ok.ok &&
	   strstr(sc->avail.orders_ok.why, "has no order field"),
	   "no order field: orders unavailable: '%s'", sc->avail.orders_ok.why);
	ok(!sc->avail.folio_ok.ok && sc->avail.folio_ok.why[0],
	   "an id the kernel does not know: folios unavailable: '%s'",
	   sc->avail.folio_ok.why);
	ok(!sc->avail.ra_ok.ok &&
	   strstr(sc->avail.ra_ok.why, "readahead:* tracepoints: No such file"),
	   "no readahead events: unavailable: '%s'", sc->avail.ra_ok.why);
	ok(sc->avail.disk_ok.ok && sc->nr_dev == 2, "the two devices named");

	sc_read(sc, &a);
	is_u64(a.read_ios, 110, "read requests summed over vda and loop1");
	is_u64(a.read_sectors, 10000, "sectors summed");
	stat_line("vda", 150, 9000);
	sc_read(sc, &b);
	sc_delta(&a, &b, &d);
	is_u64(d.read_ios, 50, "delta: 50 requests");
	is_u64(d.read_sectors, 1000, "delta: 1000 sectors");
	ok(!d.folio_ok.ok && d.folios == 0 && !d.ra_ok.ok,
	   "unavailable counters stay unavailable in the window");

	fakefs_put(sysfs, "block/loop1/stat", "garbage\n");
	sc_read(sc, &b);
	ok(!b.disk_ok.ok && strstr(b.disk_ok.why, "loop1"),
	   "a stat file that cannot be parsed: reads unavailable: '%s'",
	   b.disk_ok.why);
	sc_close(sc);

	unsetenv("RAFLEET_TRACEFS");
	setenv("RAFLEET_SYSFS", tmpdir, 1);	/* no block/ at all */
	sc_open(sc, NULL, 0);
	ok(!sc->avail.disk_ok.ok && strstr(sc->avail.disk_ok.why, "no block device"),
	   "no devices: reads unavailable: '%s'", sc->avail.disk_ok.why);
	sc_close(sc);
	unsetenv("RAFLEET_SYSFS");
	free(sc);
}

/* Fault in a page of a file that is not cached: one major fault. */
static void test_major_fault(void)
{
	struct syscount *sc = calloc(1, sizeof(*sc));
	struct sc_values a, b, d;
	char path[PATH_MAX], buf[4096];
	volatile char sink;
	char *p;
	int fd;

	setenv("RAFLEET_SYSFS", sysfs, 1);
	sc_open(sc, NULL, 0);
	unsetenv("RAFLEET_SYSFS");
	if (!sc->avail.majflt_ok.ok) {
		ok(1, "# SKIP %s", sc->avail.majflt_ok.why);
		goto out;
	}
	snprintf(path, sizeof(path), "/var/tmp/rafleet-test-syscount-%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; fd >= 0 && i < 64; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	if (fd < 0 || fdatasync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
		ok(1, "# SKIP cannot make an uncached file in /var/tmp");
		goto out_file;
	}
	p = mmap(NULL, 64 * 4096, PROT_READ, MAP_SHARED, fd, 0);
	madvise(p, 64 * 4096, MADV_RANDOM);
	sc_read(sc, &a);
	sink = p[4096 * 10];
	sc_read(sc, &b);
	(void)sink;
	sc_delta(&a, &b, &d);
	ok(d.majflt >= 1, "touching an uncached page: %llu major faults counted",
	   (unsigned long long)d.majflt);
	munmap(p, 64 * 4096);
out_file:
	if (fd >= 0)
		close(fd);
	unlink(path);
out:
	sc_close(sc);
	free(sc);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tmpdir);
	snprintf(tracefs, sizeof(tracefs), "%s/tracing", tmpdir);
	test_default_devices();
	test_unavailable();
	test_major_fault();
	fakefs_rm_tree(tmpdir);
	return tap_done();
}
