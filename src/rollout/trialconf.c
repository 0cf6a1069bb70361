// SPDX-License-Identifier: GPL-2.0
#include "rollout/trialconf.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/envfile.h"
#include "lib/parsenum.h"
#include "host/running.h"
#include "lib/strbuf.h"

/* The length of the name of the parameter @w (up to '=' or its end). */
static size_t name_len(const char *w, size_t n)
{
	const char *eq = memchr(w, '=', n);

	return eq ? (size_t)(eq - w) : n;
}

static bool is_word(const char *w, size_t n, const char *name)
{
	size_t k = strlen(name);

	return name_len(w, n) == k && !strncmp(w, name, k);
}

/* One word of RAFLEET_TRIAL_CMDLINE: NAME or NAME=VALUE, nothing to quote. */
static int check_param(const char *w, size_t n, char *why, size_t len)
{
	size_t k = name_len(w, n);

	for (size_t i = 0; i < k; i++)
		if (!isalnum((unsigned char)w[i]) && !strchr("_.-", w[i]))
			goto bad;
	for (size_t i = k; i < n; i++)
		if (!isgraph((unsigned char)w[i]) || strchr("\"'\\", w[i]))
			goto bad;
	if (!k || (n == 2 && !strncmp(w, "--", 2)))
		goto bad;
	if (is_word(w, n, "BOOT_IMAGE") || is_word(w, n, TRIAL_PARAM)) {
		snprintf(why, len, "RAFLEET_TRIAL_CMDLINE: %.*s is set by the boot loader or by rafleet itself",
			 (int)k, w);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(why, len, "RAFLEET_TRIAL_CMDLINE: '%.*s' is not a kernel parameter (NAME or NAME=VALUE, no quotes)",
		 (int)n, w);
	return -EINVAL;
}

/* RAFLEET_HEALTH_UNITS: unit names, each with a type suffix (sshd.service) */
static int health_units(struct trial_config *c, const char *val, char *why, size_t len)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.\\@";

	const char *p = val, *w;
	size_t n;

	while (word_next(&p, " \t", &w, &n)) {
		const char *dot = memrchr(w, '.', n);

		if (strspn(w, ok) < n || !dot || dot == w || dot == w + n - 1 || *w == '-') {
			snprintf(why, len, "RAFLEET_HEALTH_UNITS: '%.*s' is not a unit name (sshd.service)",
				 (int)n, w);
			return -EINVAL;
		}
	}
	if ((size_t)snprintf(c->health_units, sizeof(c->health_units), "%s", val) >=
	    sizeof(c->health_units)) {
		snprintf(why, len, "RAFLEET_HEALTH_UNITS: longer than %zu bytes",
			 sizeof(c->health_units) - 1);
		return -EINVAL;
	}
	return 0;
}

static int config_line(const char *name, const char *val, void *ctx, char *why,
		       size_t len)
{
	struct trial_config *c = ctx;
	uint64_t v;
	size_t n;

	if (!strcmp(name, "RAFLEET_TRIAL_WATCHDOG")) {
		if (!strcmp(val, "none")) {
			c->watchdog[0] = '\0';
			return 0;
		}
		if (val[0] != '/' || strlen(val) >= sizeof(c->watchdog) || strpbrk(val, " \t")) {
			snprintf(why, len, "RAFLEET_TRIAL_WATCHDOG=%s: not a device path or none", val);
			return -EINVAL;
		}
		snprintf(c->watchdog, sizeof(c->watchdog), "%s", val);
		return 0;
	}
	if (!strcmp(name, "RAFLEET_TRIAL_WATCHDOG_SEC")) {
		if (parse_duration(val, 5, 600, &v)) {
			snprintf(why, len, "RAFLEET_TRIAL_WATCHDOG_SEC=%s: not a duration of 5 s..10 min", val);
			return -EINVAL;
		}
		c->watchdog_sec = (unsigned int)v;
		return 0;
	}
	if (!strcmp(name, "RAFLEET_TRIAL_DEADLINE")) {
		if (parse_duration(val, 60, 24 * 3600, &v)) {
			snprintf(why, len, "RAFLEET_TRIAL_DEADLINE=%s: not a duration of 1 min..24 h (45min, 2h)", val);
			return -EINVAL;
		}
		c->deadline_s = (unsigned int)v;
		return 0;
	}
	if (!strcmp(name, "RAFLEET_HEALTH_TIMEOUT")) {
		if (parse_duration(val, 5, 3600, &v)) {
			snprintf(why, len, "RAFLEET_HEALTH_TIMEOUT=%s: not a duration of 5 s..1 h (2min, 90s)", val);
			return -EINVAL;
		}
		c->health_timeout_s = (unsigned int)v;
		return 0;
	}
	if (!strcmp(name, "RAFLEET_HEALTH_UNITS"))
		return health_units(c, val, why, len);
	if (strcmp(name, "RAFLEET_TRIAL_CMDLINE")) {
		snprintf(why, len, "%s: not a setting of trial.conf (RAFLEET_TRIAL_CMDLINE, RAFLEET_TRIAL_WATCHDOG, RAFLEET_TRIAL_WATCHDOG_SEC, RAFLEET_TRIAL_DEADLINE, RAFLEET_HEALTH_UNITS, RAFLEET_HEALTH_TIMEOUT)",
			 name);
		return -EINVAL;
	}
	for (const char *p = val, *w; word_next(&p, " \t", &w, &n); ) {
		int err = check_param(w, n, why, len);

		if (err)
			return err;
	}
	if ((size_t)snprintf(c->cmdline, sizeof(c->cmdline), "%s", val) >= sizeof(c->cmdline)) {
		snprintf(why, len, "RAFLEET_TRIAL_CMDLINE: longer than %zu bytes", sizeof(c->cmdline) - 1);
		return -EINVAL;
	}
	return 0;
}

int trial_config_load(struct trial_config *c, char *why, size_t len)
{
	snprintf(c->cmdline, sizeof(c->cmdline), "%s", TRIAL_CMDLINE_DEFAULT);
	snprintf(c->watchdog, sizeof(c->watchdog), "%s", TRIAL_WATCHDOG_DEFAULT);
	c->watchdog_sec = TRIAL_WATCHDOG_SEC_DEFAULT;
	c->deadline_s = TRIAL_DEADLINE_DEFAULT;
	snprintf(c->health_units, sizeof(c->health_units), "%s", HEALTH_UNITS_DEFAULT);
	c->health_timeout_s = HEALTH_TIMEOUT_DEFAULT;
	return envfile_read(TRIAL_CONF, config_line, c, NULL, why, len);
}

/* Does @extra name the parameter of the word @w? */
static bool overridden(const char *extra, const char *w, size_t n)
{
	size_t k = name_len(w, n), m;

	for (const char *p = extra, *x; word_next(&p, " \t", &x, &m); )
		if (name_len(x, m) == k && !strncmp(x, w, k))
			return true;
	return false;
}

static void add_words(struct strbuf *o, const char *s)
{
	const char *w;
	size_t n;

	while (word_next(&s, " \t\n", &w, &n))
		sb_add_word(o, w, n);
}

int trial_cmdline(const char *base, const char *extra, const char *token,
		  char *out, size_t len)
{
	const char *p = base, *w, *init = NULL;
	struct strbuf o;
	char trial[64];
	size_t n;

	sb_init(&o, out, len);
	while (word_next(&p, " \t\n", &w, &n)) {
		if (n == 2 && !strncmp(w, "--", 2)) {
			init = w;
			break;
		}
		if (!is_word(w, n, "BOOT_IMAGE") && !is_word(w, n, TRIAL_PARAM) &&
		    !overridden(extra, w, n))
			sb_add_word(&o, w, n);
	}
	add_words(&o, extra);
	snprintf(trial, sizeof(trial), "%s=%s", TRIAL_PARAM, token);
	sb_add_word(&o, trial, strlen(trial));
	if (init)
		add_words(&o, init);
	return o.cut ? -ENAMETOOLONG : 0;
}
