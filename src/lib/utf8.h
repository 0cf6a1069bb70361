/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8, strictly: no overlong forms, no surrogates, nothing past U+10FFFF. */
#ifndef RAFLEET_UTF8_H
#define RAFLEET_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at @s (@n bytes there), 0 if it is none. */
size_t utf8_len(const unsigned char *s, size_t n);

/*
 * @str for a terminal: C0 and C1 controls (newline, CR, ESC, CSI, DEL)
 * and bytes that are not UTF-8 written as \n, \r, \t, \xNN, so that a
 * string a user put into the state (a rollback --reason) cannot forge a
 * line or move the cursor.  Into @out (@outlen bytes, cut there); @out.
 */
const char *utf8_term_safe(const char *str, char *out, size_t outlen);

/* The same into one of eight rotating 1 KiB buffers: for a printf's arguments. */
const char *term_safe(const char *str);

#endif
