// SPDX-License-Identifier: GPL-2.0
/*
 * perf: a software counter of this task counts the page faults we make;
 * a tracepoint sampler delivers one raw record per hit.  Where the kernel
 * or permissions refuse perf_event_open, the test says so and skips.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/perf.h"
#include "tap.h"
#include "host/tracefs.h"

static void count_raw(const void *raw, size_t size, void *arg)
{
	(void)raw;
	if (size)
		(*(uint64_t *)arg)++;
}

int main(void)
{
	struct perf_event_set s;
	uint64_t n = 0, id, hits = 0;
	const char *root;
	char *p;
	int err;

	ok(perf_nr_cpus() >= 1, "at least one CPU");

	err = perf_counter_open_sw(&s, PERF_COUNT_SW_PAGE_FAULTS_MIN, 0);
	if (err) {
		ok(1, "# SKIP perf_event_open refused: %s", strerror(-err));
	} else {
		p = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		perf_enable(&s);
		for (int i = 0; i < 64; i++)
			p[i * 4096] = 1;
		perf_disable(&s);
		is_i64(perf_read_sum(&s, &n), 0, "the counter reads");
		ok(n >= 64, "64 pages touched: %llu minor faults counted", (unsigned long long)n);
		munmap(p, 64 * 4096);
		perf_close(&s);
	}

	ok(perf_sampler_open_tp(&s, 1, NULL, 3) == -EINVAL,
	   "a ring that is not a power of two is refused");

	root = tracefs_root();
	if (!root || tracefs_event_id(root, "syscalls", "sys_enter_getppid", &id)) {
		ok(1, "# SKIP no tracefs or no syscall tracepoints here");
		return tap_done();
	}
	err = perf_sampler_open_tp(&s, id, NULL, 8);
	if (err) {
		ok(1, "# SKIP sampling a tracepoint refused: %s", strerror(-err));
		return tap_done();
	}
	perf_enable(&s);
	for (int i = 0; i < 100; i++)
		getppid();
	perf_disable(&s);
	perf_drain(&s, count_raw, &hits);
	ok(hits >= 100, "100 getppid() calls: %llu raw samples", (unsigned long long)hits);
	is_u64(s.lost, 0, "no samples lost");
	perf_close(&s);
	return tap_done();
}
