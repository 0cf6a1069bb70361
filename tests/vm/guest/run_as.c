// SPDX-License-Identifier: GPL-2.0
/*
 * run_as UID PROGRAM [ARGS...]: in the guest, run PROGRAM as user and
 * group UID (no supplementary groups), as run_vmtests.sh runs a selftest
 * through `sudo -u nobody`: the initramfs has neither sudo nor a passwd
 * file.  Exits 127 if it cannot drop to UID or run PROGRAM.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long id;

	if (argc < 3) {
		fprintf(stderr, "usage: run_as UID PROGRAM [ARGS...]\n");
		return 127;
	}
	errno = 0;
	id = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || id > 65535) {
		fprintf(stderr, "run_as: bad UID '%s'\n", argv[1]);
		return 127;
	}
	if (setgroups(0, NULL) || setgid((gid_t)id) || setuid((uid_t)id)) {
		fprintf(stderr, "run_as: cannot become %lu: %s\n", id, strerror(errno));
		return 127;
	}
	execv(argv[2], argv + 2);
	fprintf(stderr, "run_as: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
