/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where rafleet keeps what it knows about this host: /var/lib/rafleet
 * under $RAFLEET_ROOT, or $RAFLEET_STATE_DIR when set (tests).
 */
#ifndef RAFLEET_STATEDIR_H
#define RAFLEET_STATEDIR_H

#include <stddef.h>

#define STATEDIR_DEFAULT "/var/lib/rafleet"

/* The path of @name in the state directory ("" gives the directory). */
int statedir_path(const char *name, char *out, size_t len);

/* Make the state directory (mode 0755) if it is missing.  0 or -errno. */
int statedir_ensure(void);

#endif
