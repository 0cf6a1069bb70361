/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rafleet smoke` on a trial boot: run the smoke workloads with a time
 * limit, read the kernel log, and compare with the baseline of the
 * previous kernel with every feature off.  A critical failure (a run
 * fails, crashes or times out, the kernel warned or oopsed) or a loss
 * beyond delta in two separate measurements rolls the kernel back.
 */
#ifndef RAFLEET_ROLLOUT_SMOKE_H
#define RAFLEET_ROLLOUT_SMOKE_H

#include <stdbool.h>

#include "host/kmsg.h"
#include "rollout/core.h"
#include "rollout/smoke_conf.h"

#define SMOKE_DEFAULT_DELTA 0.05
#define SMOKE_DEFAULT_TIMEOUT_S 600

struct smoke_opts {
	double delta;		/* 0.05: a loss of more than 5 % counts */
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
	struct smoke_run baseline, run, off[2];
	int nr_off;			/* feature-off measurements made */
	double worst[2];		/* their worst ratio to the baseline */
	char which[2][64];		/* in which scenario */
	bool rolled_back;
};

/* Run it; 0 when a verdict was reached (@rep says which), else -errno. */
int rollout_smoke(struct rollout *r, const struct smoke_opts *o,
		  struct smoke_report *rep);

#endif
