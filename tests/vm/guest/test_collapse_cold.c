// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: MADV_COLLAPSE of a file range that is not in the page
 * cache collapses it, in one call, as Linux 7.3.4 does.
 *
 * collapse_file() reads what is missing of the range.  7.3.4 read it
 * with the range's earlier folios locked, which deadlocks against hole
 * punching (upstream's eadce52a9ef6, CVE-2026-99643).  The series' first
 * fix (its 0011 of release 2) read ahead once before locking and gave up
 * on any folio still locked for its read: a cold range failed with
 * EAGAIN in every attempt.  Upstream's design, which the series carries
 * now, puts back what it collected, reads the whole range unlocked,
 * waits for it, and scans again.
 *
 * DIR is a writable file system with large folios (ext4, xfs).  The test
 * writes a 4 MiB file of a checkable pattern there, and ATTEMPTS times:
 * evicts it, maps it PROT_READ|PROT_EXEC at a 2 MiB-aligned address,
 * checks with mincore() that no page of it is cached, and asks
 * MADV_COLLAPSE for all of it.  Checked: the call succeeds,
 * every word reads as written, and after those reads both 2 MiB ranges
 * are mapped by a PMD (FilePmdMapped in smaps: the faults map a PMD-sized
 * folio by its PMD).  Every switch is on for the first half of
 * the attempts and off for the rest: the fix is not one of the switches'.
 *
 * usage: test_collapse_cold DIR ATTEMPTS
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/measure.h"
#include "ra_check.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define PMD_SIZE_ (2UL * RA_MIB)
#define FILE_SIZE (2 * PMD_SIZE_)

/* FilePmdMapped of the VMA at @addr, in kB, from /proc/self/smaps; -1: not found. */
static long file_pmd_kb(void *addr)
{
	char line[256];
	unsigned long lo, hi, want = (unsigned long)addr;
	bool in = false;
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = lo <= want && want < hi;
			continue;
		}
		if (in && sscanf(line, "FilePmdMapped: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* Map @fd's FILE_SIZE bytes at a PMD-aligned address; MAP_FAILED on error. */
static void *map_aligned(int fd)
{
	char *area = mmap(NULL, FILE_SIZE + PMD_SIZE_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	uintptr_t at;
	void *map;

	if (area == MAP_FAILED)
		return MAP_FAILED;
	at = ((uintptr_t)area + PMD_SIZE_ - 1) & ~(PMD_SIZE_ - 1);
	map = mmap((void *)at, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, fd, 0);
	/* what is left of the reservation on either side */
	if (at > (uintptr_t)area)
		munmap(area, at - (uintptr_t)area);
	munmap((char *)at + FILE_SIZE, (uintptr_t)area + FILE_SIZE + PMD_SIZE_ - (at + FILE_SIZE));
	return map;
}

int main(int argc, char **argv)
{
	const struct ra_file file = { .name = "collapse", .id = 11, .size = FILE_SIZE };
	char path[4096], label[64];
	int attempts, cold = 0, collapsed = 0, huge = 0, intact = 0;

	if (argc != 3 || (attempts = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: test_collapse_cold DIR ATTEMPTS\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/collapse-cold.dat", argv[1]);
	snprintf(label, sizeof(label), "collapse_cold %s", argv[1]);
	if (!ra_features_exist(label) || !ok(!ra_catch_sigbus(), "%s: SIGBUS is caught", label))
		return tap_done();
	if (!ok(!ra_make_file(path, &file), "%s: a 4 MiB file is written", label))
		return tap_done();

	for (int i = 0; i < attempts; i++) {
		bool on = i < (attempts + 1) / 2;
		struct ra_tally t;
		uint64_t resident;
		int fd, err = 0;
		void *map;
		long kb;

		if (ra_features_set_all(on))
			diag("attempt %d: not every switch went to %d", i, on);
		if (ra_evict(path))
			diag("attempt %d: the file was not evicted", i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		map = fd < 0 ? MAP_FAILED : map_aligned(fd);
		if (map == MAP_FAILED) {
			ok(false, "%s: attempt %d: the file is mapped: %s", label, i, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		/* cold: not a page of it cached (the old fix passed on a warm one) */
		resident = measure_resident_pages(path, FILE_SIZE);
		cold += !resident;
		if (resident)
			diag("attempt %d: %llu pages were cached before MADV_COLLAPSE", i,
			     (unsigned long long)resident);
		if (madvise(map, FILE_SIZE, MADV_COLLAPSE))
			err = errno;
		collapsed += !err;
		/*
		 * Every word as written, through the mapping; the reads also
		 * fault it in, which maps a PMD-sized folio by its PMD.
		 */
		memset(&t, 0, sizeof(t));
		ra_map_read(&file, "collapsed", map, 0, FILE_SIZE, &t);
		intact += !t.bad && !t.sigbus && !t.errors;
		kb = file_pmd_kb(map);
		diag("attempt %d (switches %d): MADV_COLLAPSE %s, FilePmdMapped %ld kB", i, on,
		     err ? strerror(err) : "0", kb);
		huge += kb == (long)(FILE_SIZE / 1024);
		munmap(map, FILE_SIZE);
		close(fd);
	}
	ra_features_set_all(true);
	ok(cold == attempts, "%s: the range was cold before each attempt (%d of %d)", label, cold,
	   attempts);
	ok(collapsed == attempts, "%s: MADV_COLLAPSE of a cold 4 MiB range succeeds (%d of %d)",
	   label, collapsed, attempts);
	ok(huge == attempts, "%s: ... and maps both 2 MiB ranges by PMD (%d of %d)", label, huge,
	   attempts);
	ok(intact == attempts, "%s: ... and every word reads as written (%d of %d)", label, intact,
	   attempts);
	unlink(path);
	return tap_done();
}
