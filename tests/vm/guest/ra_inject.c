// SPDX-License-Identifier: GPL-2.0
/*
 * In a test guest: a regression in one arm only, through a real kernel
 * mechanism.  While the sysctl FEATURE (/proc/sys/vm/FEATURE) is 1, the
 * block device's read_ahead_kb is ON_KB; otherwise OFF_KB.  Checked every
 * half millisecond, until killed; the canary empties the page cache between
 * setting the sysctl and opening its file (which is when readahead takes
 * the device's read_ahead_kb), which takes longer than that.
 *
 * usage: ra_inject FEATURE READ_AHEAD_KB_FILE ON_KB OFF_KB
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int read_value(int fd)
{
	char c = 0;

	return pread(fd, &c, 1, 0) == 1 ? c : -1;
}

static void set(const char *path, const char *kb)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, kb, strlen(kb)) < 0)
		perror(path);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	char sysctl[256];
	int fd, last = -2;

	if (argc != 5) {
		fprintf(stderr, "usage: ra_inject FEATURE READ_AHEAD_KB_FILE ON_KB OFF_KB\n");
		return 2;
	}
	snprintf(sysctl, sizeof(sysctl), "/proc/sys/vm/%s", argv[1]);
	fd = open(sysctl, O_RDONLY);
	if (fd < 0) {
		perror(sysctl);
		return 1;
	}
	for (;;) {
		struct timespec ts = { 0, 500000 };
		int v = read_value(fd);

		if (v != last) {
			set(argv[2], v == '1' ? argv[3] : argv[4]);
			last = v;
		}
		nanosleep(&ts, NULL);
	}
}
