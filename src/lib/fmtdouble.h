/* SPDX-License-Identifier: GPL-2.0 */
/* A double as text for JSON and the Prometheus text format. */
#ifndef RAFLEET_FMTDOUBLE_H
#define RAFLEET_FMTDOUBLE_H

#include <stddef.h>

/* Room for any finite double that fmt_double() writes. */
#define FMT_DOUBLE_LEN 40

/*
 * Finite @v in @buf (@len bytes, FMT_DOUBLE_LEN will do) with the fewest
 * digits that read back as the same double (17 always do), and a '.' for
 * its decimal point whatever the locale.
 */
void fmt_double(char *buf, size_t len, double v);

#endif
