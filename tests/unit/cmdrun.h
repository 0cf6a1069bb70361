/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmdrun.h - run a rafleet command in a child for the unit tests, its
 * stdout and stderr captured in files of a temporary directory.
 *
 *	slurp(path, buf, len)	a file's start into @buf, NUL-terminated
 *				("" if it cannot be read)
 *	cmdrun(r, dir, cmd, name, args)
 *				`rafleet NAME ARGS` (ARGS split at spaces):
 *				cmd(argc, argv) in a child, its output in
 *				@dir/out and @dir/err; r->rc its exit status
 *				(-1 if it did not exit), r->out its stdout,
 *				r->err the first line of its stderr
 */
#ifndef RAFLEET_CMDRUN_H
#define RAFLEET_CMDRUN_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct run {
	int rc;
	char out[65536];
	char err[4096];
};

static inline void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

static inline void cmdrun(struct run *r, const char *dir, int (*cmd)(int, char **),
			  const char *name, const char *args)
{
	char out[PATH_MAX], err[PATH_MAX], buf[512];
	char *argv[16] = { (char *)name };
	int argc = 1, status;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(buf, sizeof(buf), "%s", args);
	for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
			_exit(99);
		exit(cmd(argc, argv));
	}
	r->rc = -1;
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		r->rc = WEXITSTATUS(status);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
	r->err[strcspn(r->err, "\n")] = '\0';	/* its first line */
}

#endif /* RAFLEET_CMDRUN_H */
