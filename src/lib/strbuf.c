// SPDX-License-Identifier: GPL-2.0
#include "lib/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_init(struct strbuf *sb, char *buf, size_t len)
{
	sb->buf = buf;
	sb->len = len;
	sb->used = 0;
	sb->cut = false;
	buf[0] = '\0';
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->cut)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->used, sb->len - sb->used, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->buf[sb->used] = '\0';
		sb->cut = true;
	} else if ((size_t)n >= sb->len - sb->used) {
		sb->used = sb->len - 1;		/* vsnprintf ended it there */
		sb->cut = true;
	} else {
		sb->used += (size_t)n;
	}
}

void sb_add_word(struct strbuf *sb, const char *w, size_t n)
{
	size_t need = n + (sb->used ? 1 : 0);

	if (!n)
		return;
	if (sb->cut || need >= sb->len - sb->used) {
		sb->cut = true;
		return;
	}
	if (sb->used)
		sb->buf[sb->used++] = ' ';
	memcpy(sb->buf + sb->used, w, n);
	sb->used += n;
	sb->buf[sb->used] = '\0';
}

bool word_next(const char **p, const char *sep, const char **w, size_t *n)
{
	*p += strspn(*p, sep);
	if (!**p)
		return false;
	*w = *p;
	*n = strcspn(*p, sep);
	*p += *n;
	return true;
}
