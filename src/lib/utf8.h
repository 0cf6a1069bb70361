/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8, strictly: no overlong forms, no surrogates, nothing past U+10FFFF. */
#ifndef RAFLEET_UTF8_H
#define RAFLEET_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at @s (@n bytes there), 0 if it is none. */
size_t utf8_len(const unsigned char *s, size_t n);

#endif
