/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a report found wrong but went on past: an unreadable file, a line
 * that is not an assignment, a boot entry with nothing to boot.  Each is
 * one line of text that says where ("FILE:LINE: ...") and what.
 */
#ifndef RAFLEET_WARNINGS_H
#define RAFLEET_WARNINGS_H

#include <stddef.h>

struct warnings {
	char **msg;
	size_t nr;
	size_t lost;		/* not recorded: out of memory */
};

__attribute__((format(printf, 2, 3)))
void warn_add(struct warnings *w, const char *fmt, ...);

void warn_free(struct warnings *w);

#endif
