// SPDX-License-Identifier: GPL-2.0
/* A lock file: flock(LOCK_EX), waited for as long as asked, and who holds it. */
#include "lib/lockfile.h"
#include "lib/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fileio.h"
#include "lib/statedir.h"

#define WAIT_STEP_MS 50

void lockfile_holder(const char *path, pid_t *pid, char *who, size_t len)
{
	char buf[256], *end;
	long n;

	*pid = 0;
	snprintf(who, len, "?");
	if (read_small_file(path, buf, sizeof(buf)))
		return;
	n = strtol(buf, &end, 10);
	if (end == buf || *end != ' ' || n <= 0)
		return;
	*pid = (pid_t)n;
	end++;
	end[strcspn(end, "\n")] = '\0';
	snprintf(who, len, "%s", end);
}

static int flock_wait(int fd, unsigned int wait_ms)
{
	struct timespec step = { 0, WAIT_STEP_MS * 1000000L };
	unsigned int waited = 0;

	if (wait_ms == LOCKFILE_WAIT_FOREVER) {
		while (flock(fd, LOCK_EX))
			if (errno != EINTR)
				return -errno;
		return 0;
	}
	for (;;) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return -errno;
		if (waited >= wait_ms)
			return -EBUSY;
		nanosleep(&step, NULL);
		waited += WAIT_STEP_MS;
	}
}

/* "PID WHO\n" in place of whatever the last holder wrote. */
static int write_holder(int fd, const char *who)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%ld %s\n", (long)getpid(), who);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return -EINVAL;
	if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)n, 0) != n)
		return -errno;
	return 0;
}

int lockfile_take(struct lockfile *l, const char *who, unsigned int wait_ms)
{
	char path[PATH_MAX];
	int err;

	l->fd = -1;
	err = statedir_ensure();
	if (!err)
		err = statedir_path(LOCKFILE_NAME, path, sizeof(path));
	return err ? err : lockfile_take_path(l, path, who, wait_ms);
}

int lockfile_take_path(struct lockfile *l, const char *path, const char *who,
		       unsigned int wait_ms)
{
	char why[PATH_MAX + 128];
	struct stat st;
	int err;

	l->fd = -1;
	if ((size_t)snprintf(l->path, sizeof(l->path), "%s", path) >= sizeof(l->path))
		return -ENAMETOOLONG;
	/* root's own directory only: another user could swap the file */
	err = trust_dir_of(l->path, why, sizeof(why));
	if (err)
		return err;
	l->fd = open(l->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (l->fd < 0)
		return -errno;
	if (fstat(l->fd, &st) || !S_ISREG(st.st_mode) || trust_stat(&st)) {
		close(l->fd);
		l->fd = -1;
		return -EPERM;
	}
	err = flock_wait(l->fd, wait_ms);
	if (!err)
		err = write_holder(l->fd, who);
	if (err) {
		close(l->fd);
		l->fd = -1;
	}
	return err;
}

void lockfile_busy(const struct lockfile *l, char *msg, size_t len)
{
	char holder[128];
	pid_t pid;

	lockfile_holder(l->path, &pid, holder, sizeof(holder));
	if (pid)
		snprintf(msg, len, "another rafleet (pid %ld, '%s') holds %s",
			 (long)pid, holder, l->path);
	else
		snprintf(msg, len, "another rafleet holds %s", l->path);
}

void lockfile_release(struct lockfile *l)
{
	if (l->fd < 0)
		return;
	/* no holder to name; if this fails, the next holder overwrites it */
	if (ftruncate(l->fd, 0)) {
	}
	close(l->fd);
	l->fd = -1;
}
