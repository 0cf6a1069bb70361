// SPDX-License-Identifier: GPL-2.0
#include "host/running.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/env.h"
#include "lib/fileio.h"
#include "lib/rootdir.h"
#include "lib/strbuf.h"
#include "host/sysctl.h"

static void read_release(struct running *r)
{
	const char *env = env_get(ENV_UNAME_R);
	struct utsname u;

	if (env)
		snprintf(r->release, sizeof(r->release), "%s", env);
	else if (!uname(&u))
		snprintf(r->release, sizeof(r->release), "%s", u.release);
	else
		snprintf(r->release, sizeof(r->release), "unknown");
}

/* The value of rafleet.trial=VALUE among the words of @cmdline. */
static void find_token(struct running *r)
{
	size_t n = strlen(TRIAL_PARAM);

	for (const char *p = r->cmdline; *p; ) {
		size_t len = strcspn(p, " ");

		if (len >= n && !strncmp(p, TRIAL_PARAM, n) &&
		    (len == n || p[n] == '=')) {
			r->trial_param = true;
			if (len > n)
				snprintf(r->token, sizeof(r->token), "%.*s",
					 (int)(len - n - 1), p + n + 1);
		}
		p += len;
		p += strspn(p, " ");
	}
}

int running_read(struct running *r)
{
	char path[PATH_MAX];
	int err;

	memset(r, 0, sizeof(*r));
	read_release(r);
	if (sysctl_get("kernel.random.boot_id", r->boot_id, sizeof(r->boot_id)))
		r->boot_id[0] = '\0';
	err = host_path("/proc/cmdline", path, sizeof(path));
	if (!err)
		err = read_small_file(path, r->cmdline, sizeof(r->cmdline));
	if (err) {
		r->cmdline[0] = '\0';
		return err;
	}
	r->cmdline[strcspn(r->cmdline, "\n")] = '\0';
	find_token(r);
	return 0;
}

int running_uptime(double *secs)
{
	char path[PATH_MAX], buf[128], *end;
	int err;

	err = host_path("/proc/uptime", path, sizeof(path));
	if (!err)
		err = read_small_file(path, buf, sizeof(buf));
	if (err)
		return err;
	*secs = strtod(buf, &end);
	return end == buf || *secs < 0 ? -EINVAL : 0;
}

int running_kexec_cmdline(const char *cmdline, char *out, size_t len)
{
	size_t n = strlen(TRIAL_PARAM), w;
	const char *p = cmdline, *word;
	struct strbuf o;

	sb_init(&o, out, len);
	while (word_next(&p, " \n", &word, &w)) {
		bool drop = !strncmp(word, "BOOT_IMAGE=", 11) ||
			    (w >= n && !strncmp(word, TRIAL_PARAM, n) &&
			     (w == n || word[n] == '='));

		if (!drop)
			sb_add_word(&o, word, w);
	}
	return o.cut ? -ENAMETOOLONG : 0;
}

bool running_is_trial(const struct running *r, const char *release,
		      const char *token)
{
	return release && token && !strcmp(r->release, release) &&
	       !strcmp(r->token, token);
}
