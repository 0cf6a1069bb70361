// SPDX-License-Identifier: GPL-2.0
#include "host/sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fileio.h"
#include "lib/rootdir.h"

struct saved {
	char path[PATH_MAX];
	char val[128];
	size_t len;
};

static struct saved saved[SYSCTL_MAX_SAVED];
static volatile sig_atomic_t nr_saved;

int sysctl_path(const char *name, char *out, size_t len)
{
	char host[PATH_MAX];
	size_t n;

	if (!name || !*name || *name == '.' || strstr(name, "..") ||
	    strchr(name, '/') || name[strlen(name) - 1] == '.')
		return -EINVAL;
	for (const char *c = name; *c; c++)
		if (!(*c == '.' || *c == '_' || *c == '-' ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9')))
			return -EINVAL;
	n = snprintf(host, sizeof(host), "/proc/sys/%s", name);
	if (n >= sizeof(host))
		return -ENAMETOOLONG;
	for (char *p = host + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return host_path(host, out, len);
}

int sysctl_get(const char *name, char *val, size_t len)
{
	char path[PATH_MAX];
	int err = sysctl_path(name, path, sizeof(path));
	size_t n;

	if (!err)
		err = read_small_file(path, val, len);
	if (err)
		return err;
	n = strlen(val);
	if (n && val[n - 1] == '\n')
		val[n - 1] = '\0';
	return 0;
}

static int write_value(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

int sysctl_set(const char *name, const char *val)
{
	char path[PATH_MAX];
	int err = sysctl_path(name, path, sizeof(path));

	return err ? err : write_value(path, val, strlen(val));
}

int sysctl_set_saved(const char *name, const char *val)
{
	struct saved *s;
	int err;

	if (nr_saved >= SYSCTL_MAX_SAVED)
		return -ENOSPC;
	s = &saved[nr_saved];
	err = sysctl_path(name, s->path, sizeof(s->path));
	if (!err)
		err = sysctl_get(name, s->val, sizeof(s->val) - 1);
	if (err)
		return err;
	s->len = strlen(s->val);
	s->val[s->len++] = '\n';
	nr_saved++;	/* saved before the write: a signal now restores it */
	err = write_value(s->path, val, strlen(val));
	if (err)
		nr_saved--;	/* nothing changed */
	return err;
}

int sysctl_restore_all(void)
{
	int first = 0;

	while (nr_saved > 0) {
		struct saved *s = &saved[nr_saved - 1];
		int err = write_value(s->path, s->val, s->len);

		if (err && !first)
			first = err;
		nr_saved--;
	}
	return first;
}

static void on_signal(int sig)
{
	sysctl_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

void sysctl_restore_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
