// SPDX-License-Identifier: GPL-2.0
/* The one reader of the environment: see lib/env.h, docs/environment.md. */
#include "lib/env.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[ENV_NR] = {
	[ENV_ROOT] = "RAFLEET_ROOT",
	[ENV_PROCSYS] = "RAFLEET_PROCSYS",
	[ENV_PROC] = "RAFLEET_PROC",
	[ENV_MOUNTINFO] = "RAFLEET_MOUNTINFO",
	[ENV_SYSFS] = "RAFLEET_SYSFS",
	[ENV_TRACEFS] = "RAFLEET_TRACEFS",
	[ENV_KMSG] = "RAFLEET_KMSG",
	[ENV_UNAME_R] = "RAFLEET_UNAME_R",
	[ENV_GRUB_EDITENV] = "RAFLEET_GRUB_EDITENV",
	[ENV_KEXEC] = "RAFLEET_KEXEC",
	[ENV_SYSTEMCTL] = "RAFLEET_SYSTEMCTL",
	[ENV_CANARY] = "RAFLEET_CANARY",
	[ENV_BENCH] = "RAFLEET_BENCH",
	[ENV_FIO_DIR] = "RAFLEET_FIO_DIR",
	[ENV_STATE_DIR] = "RAFLEET_STATE_DIR",
	[ENV_LOCK_WAIT] = "RAFLEET_LOCK_WAIT",
	[ENV_CHECK_TIMEOUT] = "RAFLEET_CHECK_TIMEOUT",
	[ENV_JOURNAL] = "RAFLEET_JOURNAL",
	[ENV_FAILPOINT] = "RAFLEET_FAILPOINT",
};

const char *env_name(enum env_var v)
{
	return (unsigned int)v < ENV_NR ? names[v] : "";
}

const char *env_get(enum env_var v)
{
	const char *s;

	if ((unsigned int)v >= ENV_NR)
		return NULL;
	s = getenv(names[v]);
	return s && *s ? s : NULL;
}

int env_find(const char *name)
{
	for (int v = 0; v < ENV_NR; v++)
		if (!strcmp(names[v], name))
			return v;
	return -1;
}
