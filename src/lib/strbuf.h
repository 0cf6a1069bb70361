/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text built a piece at a time into a caller's fixed buffer, never past
 * its end: what does not fit is cut (and said by ->cut), the buffer stays
 * NUL-terminated.  And the words of a string, one by one.
 */
#ifndef RAFLEET_STRBUF_H
#define RAFLEET_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, used;	/* used < len, buf[used] == '\0' */
	bool cut;		/* something did not fit */
};

/* @buf (@len > 0 bytes) emptied, to be appended to. */
void sb_init(struct strbuf *sb, char *buf, size_t len);

/* Append, printf-style; what does not fit is cut. */
__attribute__((format(printf, 2, 3)))
void sb_addf(struct strbuf *sb, const char *fmt, ...);

/*
 * Append the @n bytes at @w as a word, after a space if the buffer has
 * text: whole or not at all (then ->cut is set).
 */
void sb_add_word(struct strbuf *sb, const char *w, size_t n);

/*
 * The next word of *@p (runs of characters not in @sep), *@p moved past
 * it: true with @w and @n set, false at the end.
 */
bool word_next(const char **p, const char *sep, const char **w, size_t *n);

#endif
