/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rafleet health` on a trial boot: the health gate (rollout/health_run.h) judged
 * into the state.  A required check that does not pass fails the trial
 * and rolls the kernel back, as a failed smoke run does; promotion needs
 * a pass of both (state_trial_passed()).
 */
#ifndef RAFLEET_ROLLOUT_HEALTH_H
#define RAFLEET_ROLLOUT_HEALTH_H

#include <stdbool.h>

#include "rollout/health_run.h"
#include "rollout/core.h"

struct health_opts {
	unsigned int timeout_s;	/* each check's; 0: RAFLEET_HEALTH_TIMEOUT */
	bool rollback;		/* roll the kernel back on failure */
	bool exec;		/* ... and start the previous kernel */
};

/*
 * Run the gate on the trial boot.  0 when a verdict was reached (@rep
 * says which; a failure has rolled back unless told not to), else -errno.
 * @rep is filled in as far as it got.
 */
int rollout_health(struct rollout *r, const struct health_opts *o, struct health_report *rep);

#endif
