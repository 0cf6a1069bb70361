// SPDX-License-Identifier: GPL-2.0
/*
 * In a test guest: a loss of a chosen size in one arm only.  While the
 * sysctl FEATURE (/proc/sys/vm/FEATURE) is 1, read 4 KiB with O_DIRECT
 * from DEVICE, at spread offsets, PER_S times a second; otherwise idle.
 * Until killed.
 *
 * On a device where each request costs time (the guest's throttled disk:
 * QEMU admits 400 requests a second), a workload whose time follows its
 * requests loses the share of the device those reads take: 40 a second
 * of 400 make it about 11 % slower.  That is what a feature that makes
 * extra reads of the same device costs (a readahead that reads what is
 * not used).  read_ahead_kb cannot make a loss of that size there: the
 * kernel rounds the window to a power of two, so the requests halve or
 * double.
 *
 * usage: io_inject FEATURE DEVICE PER_S
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define BLOCK 4096

static int feature_on(int fd)
{
	char c = 0;

	return pread(fd, &c, 1, 0) == 1 && c == '1';
}

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	uint64_t size = 0, blocks, i = 0;
	char sysctl[256];
	long per_s, gap_ns;
	void *buf;
	int fd, dev;

	if (argc != 4 || (per_s = strtol(argv[3], NULL, 10)) <= 0 || per_s > 100000) {
		fprintf(stderr, "usage: io_inject FEATURE DEVICE PER_S (1..100000)\n");
		return 2;
	}
	snprintf(sysctl, sizeof(sysctl), "/proc/sys/vm/%s", argv[1]);
	fd = open(sysctl, O_RDONLY);
	dev = open(argv[2], O_RDONLY | O_DIRECT);
	if (fd < 0 || dev < 0 || ioctl(dev, BLKGETSIZE64, &size) || size < BLOCK ||
	    posix_memalign(&buf, BLOCK, BLOCK)) {
		perror(fd < 0 ? sysctl : argv[2]);
		return 1;
	}
	blocks = size / BLOCK;
	gap_ns = 1000000000L / per_s;
	for (;;) {
		struct timespec t0, t1;
		long spent;

		if (!feature_on(fd)) {
			sleep_ns(500000);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		/* a stride that visits the disk's blocks spread out, none twice soon */
		i = (i + 7919) % blocks;
		if (pread(dev, buf, BLOCK, (off_t)(i * BLOCK)) != BLOCK)
			perror(argv[2]);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		spent = (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec);
		if (spent < gap_ns)
			sleep_ns(gap_ns - spent);
	}
}
