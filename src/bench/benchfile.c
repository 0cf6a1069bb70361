// SPDX-License-Identifier: GPL-2.0
/* The data and exec files of the workloads, made or checked. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bench/args.h"
#include "bench/benchfile.h"
#include "bench/measure.h"
#include "bench/testfile.h"
#include "lib/statedir.h"
#include "lib/trust.h"

/* STATEDIR/bench/bench.dat, its directory made root's alone (0700). */
static int default_file(char *out, size_t len, char *why, size_t wlen)
{
	char dir[PATH_MAX];
	int err = statedir_ensure();

	if (!err)
		err = statedir_path(BENCH_DEFAULT_DIR, dir, sizeof(dir));
	if (err)
		return err;
	if (mkdir(dir, 0700) && errno != EEXIST) {
		err = -errno;
		snprintf(why, wlen, "%s: %s", dir, strerror(errno));
		return err;
	}
	err = trust_dir(dir, why, wlen);
	if (err)
		return err;
	if ((size_t)snprintf(out, len, "%s/bench.dat", dir) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int benchfile_prepare(const char *who, const char *file, off_t given,
		      enum scenario_file kind, char *path, size_t len)
{
	char def[PATH_MAX], why[PATH_MAX + 160] = "";
	const char *base = file;
	off_t size = given ? given : (file ? 0 : BENCH_DEFAULT_SIZE);
	uint64_t seed = kind == FILE_EXEC ? TESTFILE_RET : TESTFILE_SEED;
	int made, err;

	if (!file) {
		err = default_file(def, sizeof(def), why, sizeof(why));
		if (err)
			goto out;
		base = def;
	}
	if ((size_t)snprintf(path, len, "%s%s", base,
			     kind == FILE_EXEC ? ".exec" : "") >= len)
		return -ENAMETOOLONG;
	if (!size && kind == FILE_DATA) {
		/* --file without --size: as it is, if it may be trusted */
		int fd = trust_open(path, O_RDONLY, why, sizeof(why));

		err = fd < 0 ? fd : 0;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (!size) {
		struct measure_file mf;

		err = measure_file_open(&mf, base);
		if (err)
			return err;
		size = mf.size - mf.size % TESTFILE_BLOCK;
	}
	err = testfile_ensure(path, size, seed, &made, why, sizeof(why));
	if (err == -EEXIST)
		fprintf(stderr, "rafleet %s: %s exists and is not a rafleet test file of %lld bytes; remove it or name another\n",
			who, path, (long long)size);
	else if (!err && made)
		fprintf(stderr, "rafleet %s: made %s (%lld bytes)\n", who, path,
			(long long)size);
out:
	if (err && err != -EEXIST) {
		if (why[0])
			fprintf(stderr, "rafleet %s: refused: %s\n", who, why);
		else
			fprintf(stderr, "rafleet %s: cannot make %s: %s\n", who, path,
				strerror(-err));
	}
	return err;
}
