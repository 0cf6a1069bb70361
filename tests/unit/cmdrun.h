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
 *	cmd_refused(dir, cmd, name, args, want)
 *				one test: `rafleet NAME ARGS` exits 2 with
 *				@want as its stderr's first line, nothing on
 *				stdout
 *	cmd_help(r, dir, cmd, name, args, usage, desc)
 *				one test, @desc: `rafleet NAME ARGS` exits 0
 *				with the usage (@usage its start) on stdout,
 *				nothing on stderr; the run in @r
 *	cmd_tmpdir(tmpl)	mkdtemp(@tmpl), as one test; false if it failed
 *	cmd_tmpdir_remove(dir)	rm -rf @dir (said if it cannot)
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

#include "tap.h"

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

static inline void cmd_refused(const char *dir, int (*cmd)(int, char **), const char *name,
			       const char *args, const char *want)
{
	struct run r;

	cmdrun(&r, dir, cmd, name, args);
	ok(r.rc == 2 && !strcmp(r.err, want) && !r.out[0],
	   "%s %s: exit 2, '%s' (exit %d, '%s')", name, args, want, r.rc, r.err);
}

static inline void cmd_help(struct run *r, const char *dir, int (*cmd)(int, char **),
			    const char *name, const char *args, const char *usage, const char *desc)
{
	cmdrun(r, dir, cmd, name, args);
	ok(r->rc == 0 && !strncmp(r->out, usage, strlen(usage)) && !r->err[0],
	   "%s (exit %d)", desc, r->rc);
}

static inline bool cmd_tmpdir(char *tmpl)
{
	return ok(mkdtemp(tmpl) != NULL, "temp dir");
}

static inline void cmd_tmpdir_remove(const char *dir)
{
	char rm[PATH_MAX + 16];

	snprintf(rm, sizeof(rm), "rm -rf %s", dir);
	if (system(rm))
		diag("cannot remove %s", dir);
}

#endif /* RAFLEET_CMDRUN_H */
