// SPDX-License-Identifier: GPL-2.0
#include "lib/failpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/env.h"
#include "lib/rootdir.h"

/*
 * The machine reset at once, as a power cut: sysrq b (no sync, no
 * unmount).  The kernel restarts inside the write(), which never returns;
 * if it does ($RAFLEET_PROC moved the file: a test), or the file cannot be
 * opened, the process is killed instead.
 */
static void reset_machine(void)
{
	char path[4096] = "/proc/sysrq-trigger";
	int fd = -1;

	fprintf(stderr, "rafleet: failpoint: resetting the machine (sysrq b)\n");
	fflush(NULL);
	if (!host_path("/proc/sysrq-trigger", path, sizeof(path)))
		fd = open(path, O_WRONLY | O_CLOEXEC);
	else
		errno = ENAMETOOLONG;
	if (fd < 0 || write(fd, "b", 1) != 1)
		fprintf(stderr, "rafleet: failpoint: cannot reset the machine through %s (%s); killed instead\n",
			path, strerror(errno));
	fflush(NULL);
	raise(SIGKILL);
}

void failpoint(const char *name)
{
	const char *env = env_get(ENV_FAILPOINT);
	size_t n;

	if (!env)
		return;
	if (!strcmp(env, "list")) {
		fprintf(stderr, "rafleet: failpoint %s\n", name);
		fflush(stderr);
		return;
	}
	n = strcspn(env, ":");
	if (n != strlen(name) || strncmp(env, name, n))
		return;
	if (!strcmp(env + n, ":reset"))
		reset_machine();
	/* NAME or NAME:kill; an unknown mode is a typo: kill rather than pass */
	fflush(NULL);
	raise(SIGKILL);
}
