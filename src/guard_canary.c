// SPDX-License-Identifier: GPL-2.0
/* guard_canary.c - run the canary of a feature, see guard_canary.h. */
#include "guard_canary.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *canary_decision(const struct canary_run *r)
{
	if (r->err || r->status < 0)
		return "failed";
	switch (r->status) {
	case CANARY_PASS:
		return "PASS";
	case CANARY_REGRESS:
		return "REGRESS";
	case CANARY_UNKNOWN:
		return "UNKNOWN";
	case CANARY_ERROR:
		return "error";
	case CANARY_USAGE:
		return "usage";
	default:
		return "failed";
	}
}

/* In the child: exec the canary, or tell the parent errno on @errfd. */
static void child(const char *prog, const char *name, int out, int errfd)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int err;

	if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(out, STDOUT_FILENO) < 0)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execl(prog, prog, "canary", name, "--act", "--json", (char *)NULL);
	err = errno;
	if (write(errfd, &err, sizeof(err)) != sizeof(err))
		_exit(126);
	_exit(127);
}

/* The errno of a failed exec, or 0 once exec closed the pipe. */
static int exec_error(int fd)
{
	int err = 0;

	while (read(fd, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	return err;
}

/*
 * Everything the child writes, up to the limit; the rest is read and
 * dropped, so the child never blocks on a full pipe.
 */
static int collect(int fd, struct canary_run *r)
{
	size_t cap = 0;
	char buf[8192];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		size_t keep;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		keep = (size_t)n;
		if (r->len + keep > GUARD_CANARY_MAX_OUTPUT) {
			keep = GUARD_CANARY_MAX_OUTPUT - r->len;
			r->truncated = true;
		}
		if (r->len + keep + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 16384;
			char *p;

			while (ncap < r->len + keep + 1)
				ncap *= 2;
			p = realloc(r->output, ncap);
			if (!p) {	/* keep what we have, drain the rest */
				r->truncated = true;
				continue;
			}
			r->output = p;
			cap = ncap;
		}
		memcpy(r->output + r->len, buf, keep);
		r->len += keep;
		r->output[r->len] = '\0';
	}
}

void guard_canary_run(const char *name, struct canary_run *r)
{
	const char *env = getenv(GUARD_CANARY_ENV);
	const char *prog = env && *env ? env : "/proc/self/exe";
	int pipefd[2], errpipe[2], status, err, exec_err;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	snprintf(r->program, sizeof(r->program), "%s", prog);
	if (!env || !*env) {
		ssize_t n = readlink("/proc/self/exe", r->program,
				     sizeof(r->program) - 1);

		if (n > 0)
			r->program[n] = '\0';
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		r->err = -errno;
		return;
	}
	if (pipe2(errpipe, O_CLOEXEC)) {
		r->err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		r->err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		close(errpipe[0]);
		close(errpipe[1]);
		return;
	}
	if (pid == 0)
		child(prog, name, pipefd[1], errpipe[1]);
	close(pipefd[1]);
	close(errpipe[1]);
	exec_err = exec_error(errpipe[0]);
	close(errpipe[0]);
	err = collect(pipefd[0], r);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			r->err = -errno;
			return;
		}
	}
	if (err)
		r->err = err;
	if (exec_err) {
		r->err = -exec_err;
		return;
	}
	if (WIFEXITED(status)) {
		r->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
	}
}

void guard_canary_free(struct canary_run *r)
{
	free(r->output);
	r->output = NULL;
	r->len = 0;
}
