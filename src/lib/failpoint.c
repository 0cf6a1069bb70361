// SPDX-License-Identifier: GPL-2.0
#include "lib/failpoint.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/env.h"

void failpoint(const char *name)
{
	const char *env = env_get(ENV_FAILPOINT);

	if (!env)
		return;
	if (!strcmp(env, "list")) {
		fprintf(stderr, "rafleet: failpoint %s\n", name);
		fflush(stderr);
		return;
	}
	if (!strcmp(env, name)) {
		fflush(NULL);
		raise(SIGKILL);
	}
}
