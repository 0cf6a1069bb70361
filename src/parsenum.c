// SPDX-License-Identifier: GPL-2.0
#include "parsenum.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end || *out > max ? -EINVAL : 0;
}

int parse_percent(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || ((*s < '0' || *s > '9') && *s != '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -EINVAL;
	*out = v / 100;
	return 0;
}

int parse_bad(char *error, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
