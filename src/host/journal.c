// SPDX-License-Identifier: GPL-2.0
/* Structured journal entries with sd_journal_sendv(), or a line on stderr. */
#include "host/journal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include "lib/env.h"

#define MAX_FIELDS 8

struct entry {
	struct iovec iov[MAX_FIELDS];
	char *buf[MAX_FIELDS];
	int n;
	int lost;		/* fields that could not be made: out of memory */
};

__attribute__((format(printf, 2, 3)))
static void add(struct entry *e, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0 || e->n == MAX_FIELDS) {
		if (len >= 0)
			free(s);
		e->lost++;
		return;
	}
	e->buf[e->n] = s;
	e->iov[e->n].iov_base = s;
	e->iov[e->n].iov_len = (size_t)len;
	e->n++;
}

static void add_opt(struct entry *e, const char *key, const char *val)
{
	if (val)
		add(e, "%s=%s", key, val);
}

/*
 * sd_journal_sendv() returns 0 without a word where journald's socket is
 * missing (an initramfs, a container): look for the socket first.
 */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

static bool to_journal(void)
{
	const char *env = env_get(ENV_JOURNAL);

	if (env && !strcmp(env, "stderr"))
		return false;
	return access(JOURNAL_SOCKET, W_OK) == 0;
}

static void to_stderr(const char *action, const char *msg,
		      const struct journal_fields *jf)
{
	fprintf(stderr, "rafleet: %s: %s", action, msg);
	if (jf && jf->feature)
		fprintf(stderr, " [feature=%s]", jf->feature);
	if (jf && jf->kernel)
		fprintf(stderr, " [kernel=%s]", jf->kernel);
	if (jf && jf->reason)
		fprintf(stderr, " [reason=%s]", jf->reason);
	if (jf && jf->verdict)
		fprintf(stderr, " [verdict=%s]", jf->verdict);
	fputc('\n', stderr);
}

int journal_log(int priority, const char *action,
		const struct journal_fields *jf, const char *fmt, ...)
{
	struct entry e = { .n = 0 };
	va_list ap;
	char *msg;
	int ret = 1;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return 1;	/* out of memory: nothing sensible to say */
	if (to_journal()) {
		add(&e, "MESSAGE=%s", msg);
		add(&e, "PRIORITY=%d", priority);
		add(&e, "SYSLOG_IDENTIFIER=rafleet");
		add(&e, "RAFLEET_ACTION=%s", action);
		if (jf) {
			add_opt(&e, "RAFLEET_FEATURE", jf->feature);
			add_opt(&e, "RAFLEET_KERNEL", jf->kernel);
			add_opt(&e, "RAFLEET_REASON", jf->reason);
			add_opt(&e, "RAFLEET_VERDICT", jf->verdict);
		}
		if (!e.lost && sd_journal_sendv(e.iov, e.n) >= 0)
			ret = 0;
		for (int i = 0; i < e.n; i++)
			free(e.buf[i]);
	}
	if (ret)
		to_stderr(action, msg, jf);
	free(msg);
	return ret;
}
