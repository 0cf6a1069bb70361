// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of rafleet bench, from arbitrary bytes split at NULs
 * into argv: it must never crash, and what it accepts must be consistent.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[64];
	struct bench_args a;
	int argc = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "bench";
	for (char *p = buf; p <= buf + size && argc < 63; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	if (bench_parse_args(argc, argv, &a) == 0) {
		if (a.cmd == BENCH_RUN && (a.nr_sc < 1 || a.repeat < 1 || a.repeat > 1000))
			abort();
		if (a.size % 4096 || a.nr_sysctls > BENCH_MAX_SYSCTLS)
			abort();
		for (int i = 0; i < a.nr_sysctls; i++)
			if (!a.sysctl_name[i][0] || !a.sysctl_val[i][0])
				abort();
	} else if (!a.error[0]) {
		abort();	/* a refusal must say why */
	}
	free(buf);
	return 0;
}
