// SPDX-License-Identifier: GPL-2.0
#include "lib/fmtdouble.h"

#include <stdio.h>
#include <stdlib.h>

void fmt_double(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, len, "%.17g", v);
	for (char *c = buf; *c; c++)
		if (*c == ',')	/* a locale's decimal comma */
			*c = '.';
}
