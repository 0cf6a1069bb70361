// SPDX-License-Identifier: GPL-2.0
/* guard/run_canary.c - run the canary of a feature, see guard/run_canary.h. */
#include "guard/run_canary.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/runcmd.h"
#include "lib/env.h"

const char *guard_canary_decision(const struct canary_run *r)
{
	if (r->err || r->status < 0)
		return "failed";
	switch (r->status) {
	case EXIT_OK:
		return "PASS";
	case EXIT_REGRESS:
		return "REGRESS";
	case EXIT_UNKNOWN:
		return "UNKNOWN";
	case EXIT_FAILED:
		return "error";
	case EXIT_USAGE:
		return "usage";
	default:
		return "failed";
	}
}

/*
 * Its standard output, from the memfd it went to: up to the limit, the
 * rest dropped and said.
 */
static int collect(int fd, struct canary_run *r)
{
	struct stat st;
	size_t keep;
	ssize_t n;

	if (fstat(fd, &st))
		return -errno;
	keep = (size_t)st.st_size;
	if (keep > GUARD_CANARY_MAX_OUTPUT) {
		keep = GUARD_CANARY_MAX_OUTPUT;
		r->truncated = true;
	}
	r->output = malloc(keep + 1);
	if (!r->output)
		return -ENOMEM;
	n = pread(fd, r->output, keep, 0);
	if (n < 0)
		return -errno;
	r->len = (size_t)n;
	r->output[r->len] = '\0';
	return 0;
}

void guard_canary_run(const char *name, struct canary_run *r)
{
	const char *env = env_get(ENV_CANARY);
	const char *prog = env ? env : "/proc/self/exe";
	char *argv[] = { (char *)prog, "canary", (char *)name, "--act", "--json", NULL };
	struct run_io io = { .err_fd = -1 };
	int rc, err;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	snprintf(r->program, sizeof(r->program), "%s", prog);
	if (!env) {
		ssize_t n = readlink("/proc/self/exe", r->program,
				     sizeof(r->program) - 1);

		if (n > 0)
			r->program[n] = '\0';
	}
	/* a program that cannot be run is said as such, not as an exit 127 */
	if (access(prog, X_OK)) {
		r->err = -errno;
		return;
	}
	io.in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	io.out_fd = memfd_create("canary-output", MFD_CLOEXEC);
	if (io.in_fd < 0 || io.out_fd < 0) {
		r->err = -errno;
		goto out;
	}
	/* no time limit: the canary's trials bound its own run */
	rc = run_command_io(argv, &io, 0);
	if (rc < 0) {
		r->err = rc;
		goto out;
	}
	err = collect(io.out_fd, r);
	if (err)
		r->err = err;
	if (rc >= RUNCMD_SIGNALED)
		r->signal = rc - RUNCMD_SIGNALED;
	else
		r->status = rc;
out:
	if (io.in_fd >= 0)
		close(io.in_fd);
	if (io.out_fd >= 0)
		close(io.out_fd);
}

void guard_canary_free(struct canary_run *r)
{
	free(r->output);
	r->output = NULL;
	r->len = 0;
}
