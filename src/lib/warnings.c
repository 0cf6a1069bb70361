// SPDX-License-Identifier: GPL-2.0
#include "lib/warnings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void warn_add(struct warnings *w, const char *fmt, ...)
{
	char **msg;
	char *s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		w->lost++;
		return;
	}
	msg = realloc(w->msg, (w->nr + 1) * sizeof(*msg));
	if (!msg) {
		free(s);
		w->lost++;
		return;
	}
	w->msg = msg;
	w->msg[w->nr++] = s;
}

void warn_free(struct warnings *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->msg[i]);
	free(w->msg);
	memset(w, 0, sizeof(*w));
}
