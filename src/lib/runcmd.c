// SPDX-License-Identifier: GPL-2.0
#include "lib/runcmd.h"
#include "lib/trust.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 20

static void child(char *const argv[], const struct run_io *io, unsigned int timeout_s)
{
	char prog[PATH_MAX];

	/*
	 * Its own group, killed whole on timeout.  Without a limit it stays
	 * in ours, where the terminal's ^C reaches it.
	 */
	if (timeout_s)
		setpgid(0, 0);
	/*
	 * Our standard output is our report (smoke.json is the unit's
	 * stdout): a child's output goes where we are told, else to our
	 * standard error, never into it.  "Failed to connect to bus" from
	 * systemctl once made a smoke.json unparseable.
	 */
	if ((io->in_fd >= 0 && dup2(io->in_fd, STDIN_FILENO) < 0) ||
	    dup2(io->out_fd >= 0 ? io->out_fd : STDERR_FILENO, STDOUT_FILENO) < 0 ||
	    (io->err_fd >= 0 && dup2(io->err_fd, STDERR_FILENO) < 0))
		_exit(127);
	for (char *const *e = io->env; e && *e; e++)
		if (putenv(*e))
			_exit(127);
	/*
	 * Never looked up in PATH, never relative to the current directory:
	 * an absolute path, or a bare name runcmd_find() finds as the
	 * system's own program.
	 */
	if (!strchr(argv[0], '/')) {
		if (runcmd_find(argv[0], prog, sizeof(prog))) {
			fprintf(stderr, "rafleet: cannot run %s: not in /usr/sbin, /usr/bin, /sbin or /bin as root's own\n",
				argv[0]);
			_exit(127);
		}
	} else if (argv[0][0] != '/') {
		fprintf(stderr, "rafleet: cannot run %s: not an absolute path\n", argv[0]);
		_exit(127);
	}
	execv(argv[0][0] == '/' ? argv[0] : prog, argv);
	fprintf(stderr, "rafleet: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int decode(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return RUNCMD_SIGNALED + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int run_command(char *const argv[], int out_fd, unsigned int timeout_s)
{
	struct run_io io = { .in_fd = -1, .out_fd = out_fd, .err_fd = -1 };

	return run_command_io(argv, &io, timeout_s);
}

int run_command_io(char *const argv[], const struct run_io *io, unsigned int timeout_s)
{
	struct timespec step = { 0, POLL_MS * 1000000L };
	unsigned long waited_ms = 0;
	int status;
	pid_t pid, w;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child(argv, io, timeout_s);
	if (timeout_s)
		setpgid(pid, pid);	/* as the child does: no race either way */
	for (;;) {
		w = waitpid(pid, &status, timeout_s ? WNOHANG : 0);
		if (w == pid)
			return decode(status);
		if (w < 0 && errno != EINTR)
			return -errno;
		if (!timeout_s || w < 0)
			continue;
		if (waited_ms >= timeout_s * 1000UL) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return RUNCMD_TIMED_OUT;
		}
		nanosleep(&step, NULL);
		waited_ms += POLL_MS;
	}
}

int runcmd_find(const char *name, char *out, size_t len)
{
	static const char *const dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };
	char path[PATH_MAX], why[PATH_MAX + 160];
	struct stat st;

	if (!*name || strchr(name, '/'))
		goto none;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dirs[i], name) >= sizeof(path))
			return -ENAMETOOLONG;
		/*
		 * Every directory and symlink on the way root's own
		 * (/usr/bin/sh -> dash, /etc/alternatives), and the program
		 * it ends at: its real path, no symlink left in it.
		 */
		if (!trust_path("/", path, 0, out, len, why, sizeof(why)) &&
		    !stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK))
			return 0;
	}
none:
	snprintf(out, len, "%s", name);
	return -ENOENT;
}

const char *run_command_result(int rc, char *buf, size_t len)
{
	if (rc == RUNCMD_TIMED_OUT)
		snprintf(buf, len, "timed out");
	else if (rc >= RUNCMD_SIGNALED)
		snprintf(buf, len, "killed by signal %d", rc - RUNCMD_SIGNALED);
	else if (rc < 0)
		snprintf(buf, len, "cannot start: %s", strerror(-rc));
	else
		snprintf(buf, len, "exit %d", rc);
	return buf;
}
