// SPDX-License-Identifier: GPL-2.0
#include "lib/utf8.h"

#include <stdio.h>
#include <string.h>

size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned int cp;
	size_t len;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* U+0080..U+009F, the C1 controls (CSI is U+009B): two bytes, 0xc2 0x80..0x9f */
static int c1_control(const unsigned char *s, size_t len)
{
	return len == 2 && s[0] == 0xc2 && s[1] <= 0x9f;
}

const char *utf8_term_safe(const char *str, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s), o = 0;

	if (!outlen)
		return "";
	while (n) {
		size_t len = utf8_len(s, n);
		char esc[8];
		const char *put = esc;
		size_t plen;

		if (len == 1 && *s >= 0x20 && *s != 0x7f) {
			put = (const char *)s;
			plen = 1;
		} else if (len > 1 && !c1_control(s, len)) {
			put = (const char *)s;
			plen = len;
		} else {
			/* a control, or a byte that is no UTF-8: shown, not obeyed */
			plen = (size_t)snprintf(esc, sizeof(esc), *s == '\n' ? "\\n" :
						*s == '\r' ? "\\r" : *s == '\t' ? "\\t" : "\\x%02x", *s);
			len = 1;
		}
		if (o + plen >= outlen)
			break;
		memcpy(out + o, put, plen);
		o += plen;
		s += len;
		n -= len;
	}
	out[o] = '\0';
	return out;
}

const char *term_safe(const char *str)
{
	static char ring[8][1024];
	static unsigned int next;

	return utf8_term_safe(str, ring[next++ % 8], sizeof(ring[0]));
}
