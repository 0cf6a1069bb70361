/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open(2) on tracepoints and software events, without perf(1).
 *
 * Two kinds of event:
 *  - a counter: one counting event per online CPU (system-wide, needs
 *    CAP_PERFMON or perf_event_paranoid <= 0) or one per task;
 *  - a sampler: a tracepoint sampled on every hit with its raw record, one
 *    ring buffer per CPU, drained while the workload runs, so that a field
 *    of each record (the folio order) can be read.  Lost records are
 *    counted, never hidden.
 */
#ifndef RAFLEET_PERF_H
#define RAFLEET_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PERF_MAX_CPUS 256

struct perf_event_set {
	int fd[PERF_MAX_CPUS];
	void *ring[PERF_MAX_CPUS];
	size_t ring_bytes;		/* data area, a power of two */
	int nr;
	uint64_t lost;			/* records the kernel dropped */
	uint64_t seen;			/* records handed to the callback */
};

/* Called for each sample record with its raw tracepoint data. */
typedef void (*perf_raw_fn)(const void *raw, size_t size, void *arg);

/* CPUs a system-wide event is opened on: 0 .. n-1, from sysconf. */
int perf_nr_cpus(void);

/*
 * Open a counting tracepoint (type PERF_TYPE_TRACEPOINT, config @id) on
 * every CPU, with an ftrace @filter if not NULL.  Events start disabled.
 * Returns 0 or a negative errno; on error nothing stays open.
 */
int perf_counter_open_tp(struct perf_event_set *s, uint64_t id,
			 const char *filter);

/* The same for a software event (PERF_COUNT_SW_*) of task @pid. */
int perf_counter_open_sw(struct perf_event_set *s, uint64_t config, pid_t pid);

/*
 * Open a sampling tracepoint on every CPU: every hit is a PERF_SAMPLE_RAW
 * record in a ring of @ring_pages pages (a power of two) per CPU.
 */
int perf_sampler_open_tp(struct perf_event_set *s, uint64_t id,
			 const char *filter, unsigned int ring_pages);

int perf_enable(struct perf_event_set *s);
int perf_disable(struct perf_event_set *s);

/* Sum of the counts over all fds. */
int perf_read_sum(struct perf_event_set *s, uint64_t *sum);

/* Hand every record waiting in the rings to @fn; returns records read. */
uint64_t perf_drain(struct perf_event_set *s, perf_raw_fn fn, void *arg);

/* Wait up to @timeout_ms for any ring to have data; 1 if so, 0 if not. */
int perf_wait(struct perf_event_set *s, int timeout_ms);

void perf_close(struct perf_event_set *s);

#endif
