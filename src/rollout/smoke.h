/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rafleet smoke` on a trial boot: run the smoke workloads with a time
 * limit, read the kernel log, and compare with the baseline of the
 * previous kernel, both with every feature off, by their clock-free
 * counters (rollout/smoke_compare.h).  A critical failure (a run fails,
 * crashes or times out, the kernel warned or oopsed), a baseline of
 * another key or a scenario on one side only, or a counter beyond its
 * tolerance in two separate measurements rolls the kernel back.  Wall
 * time is reported against delta, not judged: it crosses a boot.
 */
#ifndef RAFLEET_ROLLOUT_SMOKE_H
#define RAFLEET_ROLLOUT_SMOKE_H

#include <stdbool.h>

#include "host/kmsg.h"
#include "rollout/core.h"
#include "rollout/smoke_compare.h"
#include "rollout/smoke_conf.h"

#define SMOKE_DEFAULT_DELTA 0.05
#define SMOKE_DEFAULT_TIMEOUT_S 600

struct smoke_opts {
	double delta;		/* 0.05: a time loss beyond 5 % is noted, not judged */
	unsigned int timeout_s;	/* per bench run */
	bool rollback;		/* roll the kernel back on failure */
	bool exec;		/* ... and start the previous kernel */
};

struct smoke_report {
	char verdict[8];		/* "pass", "fail" */
	char detail[1024];		/* why, in a sentence */
	bool critical;			/* a run failed or the kernel complained */
	struct kernel_health health;
	bool have_baseline;
	struct smoke_key key;		/* what the baseline must have been measured for */
	char key_hash[17];
	bool key_mismatch;		/* it was not: no comparison */
	struct smoke_run baseline, run, off[2];
	int nr_off;			/* feature-off measurements made */
	struct smoke_cmp cmp[2];	/* their counters against the baseline's */
	bool counters_beyond;		/* one beyond in both: the kernel fails */
	struct smoke_diff beyond;	/* that one */
	double worst[2];		/* their worst time ratio to the baseline */
	char which[2][64];		/* in which scenario */
	bool time_beyond[2];		/* beyond delta: reported, not judged */
	bool rolled_back;
};

/* Run it; 0 when a verdict was reached (@rep says which), else -errno. */
int rollout_smoke(struct rollout *r, const struct smoke_opts *o,
		  struct smoke_report *rep);

#endif
