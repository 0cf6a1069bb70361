// SPDX-License-Identifier: GPL-2.0
/* The data and exec files of the workloads, made or checked. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/args.h"
#include "bench/benchfile.h"
#include "bench/measure.h"
#include "bench/testfile.h"

int benchfile_prepare(const char *who, const char *file, off_t given,
		      enum scenario_file kind, char *path, size_t len)
{
	const char *base = file ? file : BENCH_DEFAULT_FILE;
	off_t size = given ? given : (file ? 0 : BENCH_DEFAULT_SIZE);
	uint64_t seed = kind == FILE_EXEC ? TESTFILE_RET : TESTFILE_SEED;
	int made, err;

	if ((size_t)snprintf(path, len, "%s%s", base,
			     kind == FILE_EXEC ? ".exec" : "") >= len)
		return -ENAMETOOLONG;
	if (!size && kind == FILE_DATA)
		return 0;	/* --file without --size: as it is */
	if (!size) {
		struct measure_file mf;

		err = measure_file_open(&mf, base);
		if (err)
			return err;
		size = mf.size - mf.size % TESTFILE_BLOCK;
	}
	err = testfile_ensure(path, size, seed, &made);
	if (err == -EEXIST)
		fprintf(stderr, "rafleet %s: %s exists and is not a rafleet test file of %lld bytes; remove it or name another\n",
			who, path, (long long)size);
	else if (err)
		fprintf(stderr, "rafleet %s: cannot make %s: %s\n", who, path,
			strerror(-err));
	else if (made)
		fprintf(stderr, "rafleet %s: made %s (%lld bytes)\n", who, path,
			(long long)size);
	return err;
}

