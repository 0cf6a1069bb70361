/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /etc/rafleet/trial.conf: what a trial boot gets besides its own boot
 * entry's options (man rafleet-stage).  An EnvironmentFile (envfile.h):
 *
 *   RAFLEET_TRIAL_CMDLINE=panic=10 oops=panic ...
 *
 * the kernel parameters that make every kernel failure of the trial end
 * in a reset, so that the host comes back to its default entry.  A word
 * of the base command line that names the same parameter is replaced;
 * the words go before a "--" (what follows it is init's).
 */
#ifndef RAFLEET_TRIALCONF_H
#define RAFLEET_TRIALCONF_H

#include <stddef.h>

#define TRIAL_CONF "/etc/rafleet/trial.conf"
/* What a host without trial.conf gets: the shipped file says the same. */
#define TRIAL_CMDLINE_DEFAULT "panic=10 oops=panic softlockup_panic=1 " \
	"hardlockup_panic=1 hung_task_panic=1 sysctl.kernel.panic_on_rcu_stall=1"

struct trial_config {
	char cmdline[1024];	/* RAFLEET_TRIAL_CMDLINE */
};

/*
 * TRIAL_CONF under $RAFLEET_ROOT, the defaults where it is silent.  0, or
 * -EINVAL for a line that is not NAME=value, a name it does not know or a
 * parameter that cannot be one (quotes, BOOT_IMAGE=, rafleet.trial, --),
 * with @why saying FILE:LINE and what.
 */
int trial_config_load(struct trial_config *c, char *why, size_t len);

/*
 * The trial's command line: @base (its entry's options, or this boot's
 * command line) less BOOT_IMAGE=, any rafleet.trial and every parameter
 * that @extra names, then @extra and rafleet.trial=@token, before a "--"
 * of @base.  0, or -ENAMETOOLONG if @len is too small.
 */
int trial_cmdline(const char *base, const char *extra, const char *token,
		  char *out, size_t len);

#endif
