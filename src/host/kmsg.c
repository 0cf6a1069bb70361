// SPDX-License-Identifier: GPL-2.0
#include "host/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/sysctl.h"
#include "lib/rootdir.h"
#include "lib/strbuf.h"

/* taint bits that mean the kernel itself went wrong */
#define TAINT_MACHINE_CHECK (1L << 4)
#define TAINT_DIE (1L << 7)
#define TAINT_WARN (1L << 9)
#define TAINT_SOFTLOCKUP (1L << 14)
#define TAINT_BAD (TAINT_MACHINE_CHECK | TAINT_DIE | TAINT_WARN | TAINT_SOFTLOCKUP)

static void note(struct kernel_health *h, const char *msg)
{
	if (!h->first[0])
		snprintf(h->first, sizeof(h->first), "%s", msg);
}

/* One record: "PRI,SEQ,TIME,FLAGS;MESSAGE", continuation lines start with ' '. */
static void record(struct kernel_health *h, const char *rec)
{
	const char *msg = strchr(rec, ';');

	if (!msg || rec[0] == ' ')
		return;
	msg++;
	if (!strncmp(msg, "WARNING:", 8)) {
		h->warnings++;
		note(h, msg);
	} else if (!strncmp(msg, "BUG:", 4) || strstr(msg, "kernel BUG at") ||
		   !strncmp(msg, "Oops", 4) || !strncmp(msg, "Kernel panic", 12) ||
		   !strncmp(msg, "general protection fault", 24)) {
		h->oopses++;
		note(h, msg);
	}
}

static void read_log(struct kernel_health *h)
{
	char path[PATH_MAX], buf[8192];
	int fd;

	if (host_path("/dev/kmsg", path, sizeof(path))) {
		snprintf(h->log_error, sizeof(h->log_error), "/dev/kmsg: %s", strerror(ENAMETOOLONG));
		return;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		struct strbuf sb;

		/* a longer one is cut to the field, as it always was */
		sb_init(&sb, h->log_error, sizeof(h->log_error));
		sb_addf(&sb, "%s: %s", path, strerror(errno));
		return;
	}
	h->log_read = true;
	for (;;) {
		/* /dev/kmsg gives one record a read; a plain file, many lines */
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: records overwritten, go on */
		if (n <= 0)
			break;		/* EAGAIN: no more records */
		buf[n] = '\0';
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
			record(h, line);
	}
	close(fd);
}

void kernel_health_read(struct kernel_health *h)
{
	char val[32], *end;

	memset(h, 0, sizeof(*h));
	h->taint = -1;
	read_log(h);
	if (!sysctl_get("kernel.tainted", val, sizeof(val))) {
		long t = strtol(val, &end, 10);

		if (end != val && !*end)
			h->taint = t;
	}
}

bool kernel_health_bad(const struct kernel_health *h)
{
	return h->warnings || h->oopses || (h->taint > 0 && (h->taint & TAINT_BAD));
}
