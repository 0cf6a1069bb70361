// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: misbehave on purpose, so that the harness can be shown to
 * catch it (tests/host/test_vm_harness).
 *
 * usage: fault_inject noplan|fail|hang|panic|reboot
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

static int sysrq(char c)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	if (fd < 0 || write(fd, &c, 1) != 1) {
		perror("sysrq-trigger");
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	printf("ok 1 - fault_inject %s starts\n", mode);
	fflush(stdout);
	if (!strcmp(mode, "noplan"))
		return 0;			/* ok lines but no 1..N */
	if (!strcmp(mode, "fail")) {
		printf("not ok 2 - fails on purpose\n1..2\n");
		return 1;
	}
	if (!strcmp(mode, "hang"))
		for (;;)
			pause();
	if (!strcmp(mode, "panic"))
		return sysrq('c');		/* crash the kernel */
	if (!strcmp(mode, "reboot")) {
		sync();
		reboot(RB_AUTOBOOT);		/* vanish mid-suite */
		return 1;
	}
	fprintf(stderr, "fault_inject: unknown mode '%s'\n", mode);
	return 2;
}
