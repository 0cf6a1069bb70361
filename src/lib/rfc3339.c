// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "lib/rfc3339.h"

void rfc3339_format(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "unknown");
}

void rfc3339_now(char *buf, size_t len)
{
	rfc3339_format(time(NULL), buf, len);
}

bool rfc3339_parse(const char *s, long long *out)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	time_t t;

	if (!end || *end)
		return false;
	t = timegm(&tm);
	*out = t;
	return t != (time_t)-1;
}
