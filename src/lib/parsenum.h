/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers of command lines, checked whole: no sign, no junk, in range. */
#ifndef RAFLEET_PARSENUM_H
#define RAFLEET_PARSENUM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A decimal integer 0..@max.  0 or -EINVAL. */
int parse_u64(const char *s, uint64_t max, uint64_t *out);

/*
 * A percentage such as "3", "2.5" or "10%", @min..@max, as a fraction
 * (3 gives 0.03).  0 or -EINVAL.
 */
int parse_percent(const char *s, double min, double max, double *out);

/*
 * A duration as systemd writes one: a decimal integer with an optional
 * unit, s (the default), min or h ("90", "90s", "45min", "2h"), in
 * seconds, @min_s..@max_s.  0 or -EINVAL.
 */
int parse_duration(const char *s, uint64_t min_s, uint64_t max_s, uint64_t *out);

/* A decimal number such as "4" or "0.5" above 0, at most @max.  0 or -EINVAL. */
int parse_positive(const char *s, double max, double *out);

/*
 * A size: "4096", "512K", "256M", "1G" (powers of 1024, k m g too) into
 * bytes, above 0, below 2^63.  0 or -EINVAL.
 */
int parse_size(const char *s, off_t *out);

/*
 * A bad command line: the message, as printf() would write it, into
 * @error (@len bytes, cut to fit).  -EINVAL.
 */
__attribute__((format(printf, 3, 4)))
int parse_bad(char *error, size_t len, const char *fmt, ...);

#endif
