// SPDX-License-Identifier: GPL-2.0
#include "lib/parsenum.h"

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

int parse_duration(const char *s, uint64_t min_s, uint64_t max_s, uint64_t *out)
{
	static const struct {
		const char *unit;
		uint64_t secs;
	} units[] = { { "", 1 }, { "s", 1 }, { "min", 60 }, { "h", 3600 } };
	char *end;
	uint64_t v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > max_s / units[i].secs || v * units[i].secs < min_s ||
		    v * units[i].secs > max_s)
			return -EINVAL;
		*out = v * units[i].secs;
		return 0;
	}
	return -EINVAL;
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

int parse_positive(const char *s, double max, double *out)
{
	char *end;

	if (!s || ((*s < '0' || *s > '9') && *s != '.'))
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out) || *out <= 0 || *out > max)
		return -EINVAL;
	return 0;
}

int parse_size(const char *s, off_t *out)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'K': case 'k':
		mult = 1ULL << 10;
		end++;
		break;
	case 'M': case 'm':
		mult = 1ULL << 20;
		end++;
		break;
	case 'G': case 'g':
		mult = 1ULL << 30;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end || !v || v > (unsigned long long)INT64_MAX / mult)
		return -EINVAL;
	*out = (off_t)(v * mult);
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
