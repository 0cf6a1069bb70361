/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one time format of rafleet's state, drop-ins and reports: RFC 3339
 * in UTC to the second ("2026-11-30T20:34:19Z").
 */
#ifndef RAFLEET_RFC3339_H
#define RAFLEET_RFC3339_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define RFC3339_LEN sizeof("2026-11-30T20:34:19Z")

/* @t as RFC 3339 UTC into @buf; "unknown" if it cannot be. */
void rfc3339_format(time_t t, char *buf, size_t len);
/* Now, as RFC 3339 UTC. */
void rfc3339_now(char *buf, size_t len);
/* @s, the whole string, as seconds since the epoch; false if it is not one. */
bool rfc3339_parse(const char *s, long long *out);

#endif
