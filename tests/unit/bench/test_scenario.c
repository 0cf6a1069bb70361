// SPDX-License-Identifier: GPL-2.0
/*
 * scenario: the table, and each access pattern run on a real file: the
 * bytes the sequential ones read hash like the file, the random ones make
 * the number of calls the table says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/scenario.h"
#include "lib/sha256.h"
#include "tap.h"

#define SIZE (64L << 20)

static int make_file(char *path)
{
	unsigned char *buf = malloc(SIZE);
	int fd = mkstemp(path);

	if (fd < 0 || !buf)
		return -1;
	for (long i = 0; i < SIZE; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	if (write(fd, buf, SIZE) != SIZE)
		return -1;
	close(fd);
	free(buf);
	return 0;
}

static void file_hash(const char *path, char hex[SHA256_HEX_LEN])
{
	struct sha256 h;
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	sha256_init(&h);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&h, buf, n);
	close(fd);
	sha256_final_hex(&h, hex);
}

int main(void)
{
	char path[] = "/var/tmp/rafleet-scenario-XXXXXX";
	char want[SHA256_HEX_LEN], got[SHA256_HEX_LEN];
	struct scenario_io io;
	struct sha256 h;

	for (int i = 0; i < nr_scenarios; i++) {
		ok(scenario_find(scenarios[i].name) == &scenarios[i],
		   "%s is found by name", scenarios[i].name);
		ok((scenarios[i].step > 0) == (scenarios[i].kind != SC_POPULATE &&
						 scenarios[i].kind != SC_FIO &&
						 scenarios[i].kind != SC_EXEC) &&
		   scenarios[i].nproc >= 0 && scenarios[i].nproc <= 16,
		   "%s has a step (unless it needs none) and 1..16 readers",
		   scenarios[i].name);
	}
	ok(scenario_find("no-such-scenario") == NULL, "unknown name: NULL");
	ok(scenario_reads_in_order(scenario_find("fadv-random-pread-1m")),
	   "1 MiB pread over the file reads in order");
	ok(!scenario_reads_in_order(scenario_find("random-pread-4k")),
	   "random 4 KiB preads do not");
	ok(!scenario_reads_in_order(scenario_find("fadv-random-4proc-64k")),
	   "four readers at once do not count as in order");

	if (!ok(!make_file(path), "a test file of 64 MiB"))
		return tap_done();
	file_hash(path, want);

	sha256_init(&h);
	is_i64(scenario_run(scenario_find("fadv-random-pread-1m"), path, SIZE, 1, &h, &io),
	       0, "fadv-random-pread-1m runs");
	sha256_final_hex(&h, got);
	is_str(got, want, "  and what it read hashes like the file");
	is_u64(io.bytes, SIZE, "  and it read every byte");
	is_u64(io.calls, SIZE >> 20, "  in 1 MiB calls");

	sha256_init(&h);
	is_i64(scenario_run(scenario_find("seq-read"), path, SIZE, 1, &h, &io), 0, "seq-read runs");
	sha256_final_hex(&h, got);
	is_str(got, want, "  and what it read hashes like the file");

	is_i64(scenario_run(scenario_find("random-pread-4k"), path, SIZE, 7, NULL, &io), 0,
	       "random-pread-4k runs");
	is_u64(io.calls, 20000L * SIZE / (1L << 30), "  20000 calls per GiB, scaled to 8 MiB");
	is_i64(scenario_run(scenario_find("readahead-2m"), path, SIZE, 1, NULL, &io), 0,
	       "readahead-2m runs");
	is_i64(scenario_run(scenario_find("willneed-8m"), path, SIZE, 1, NULL, &io), 0,
	       "willneed-8m runs");
	is_i64(scenario_run(scenario_find("fadv-random-4proc-64k"), path, SIZE, 1, NULL, &io), 0,
	       "fadv-random-4proc-64k runs");
	is_u64(io.bytes, 4 * SIZE, "  four readers read the file each");
	is_i64(scenario_run(scenario_find("read-4k-then-1m"), path, SIZE, 1, NULL, &io), 0,
	       "read-4k-then-1m runs");
	is_u64(io.bytes, SIZE, "  and reads the whole file");
	is_u64(io.calls, 1 + (SIZE - 4096 + (1 << 20) - 1) / (1 << 20),
	       "  a 4 KiB read, then 1 MiB reads from 4 KiB on");
	is_i64(scenario_run(scenario_find("pcopy-4t"), path, SIZE, 1, NULL, &io), 0,
	       "pcopy-4t runs");
	is_u64(io.bytes, SIZE, "  four threads copy the file out");
	is_i64(scenario_run(scenario_find("pcopy-1t-skip"), path, SIZE, 1, NULL, &io), 0,
	       "pcopy-1t-skip runs");
	is_u64(io.bytes, SIZE - SIZE / 8, "  one thread copies from 1/8 in to the end");
	is_i64(scenario_run(scenario_find("pcopy-4t"), path, 8 << 20, 1, NULL, &io), -EFBIG,
	       "pcopy-4t on 8 MiB (less than a piece per thread) is -EFBIG");
	is_i64(scenario_run(scenario_find("populate-read"), path, SIZE, 1, NULL, &io), 0,
	       "populate-read runs");
	ok(scenario_run(scenario_find("seq-read"), "/nonexistent/file", SIZE, 1, NULL, &io) < 0,
	   "a missing file is an error");
	unlink(path);
	return tap_done();
}
