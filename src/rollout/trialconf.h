/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /etc/rafleet/trial.conf: what a trial boot gets besides its own boot
 * entry's options (man rafleet-stage).  An EnvironmentFile (lib/envfile.h):
 *
 *   RAFLEET_TRIAL_CMDLINE=panic=10 oops=panic ...
 *   RAFLEET_TRIAL_WATCHDOG=/dev/watchdog0      (or "none")
 *   RAFLEET_TRIAL_WATCHDOG_SEC=60
 *   RAFLEET_TRIAL_DEADLINE=45min
 *   RAFLEET_HEALTH_UNITS=sshd.service          (the units check's units)
 *   RAFLEET_HEALTH_TIMEOUT=2min                (each health check's limit)
 *
 * The kernel parameters make every kernel failure of the trial end in a
 * reset, so that the host comes back to its default entry (a word of the
 * base command line that names the same parameter is replaced; the words
 * go before a "--": what follows it is init's).  The hardware watchdog,
 * kept alive by `rafleet trial-watch` on the trial boot, resets a kernel
 * that hangs where nothing in it can; the deadline reboots a trial that
 * reached no verdict, whatever its userspace is doing.
 */
#ifndef RAFLEET_TRIALCONF_H
#define RAFLEET_TRIALCONF_H

#include <stddef.h>

#define TRIAL_CONF "/etc/rafleet/trial.conf"
/* What a host without trial.conf gets: the shipped file says the same. */
#define TRIAL_CMDLINE_DEFAULT "panic=10 oops=panic softlockup_panic=1 " \
	"hardlockup_panic=1 hung_task_panic=1 sysctl.kernel.panic_on_rcu_stall=1"

#define TRIAL_WATCHDOG_DEFAULT "/dev/watchdog0"
#define TRIAL_WATCHDOG_SEC_DEFAULT 60
#define TRIAL_DEADLINE_DEFAULT (45 * 60)
#define HEALTH_UNITS_DEFAULT "sshd.service"
#define HEALTH_TIMEOUT_DEFAULT 120

struct trial_config {
	char cmdline[1024];	/* RAFLEET_TRIAL_CMDLINE */
	char watchdog[256];	/* RAFLEET_TRIAL_WATCHDOG; "" for none */
	unsigned int watchdog_sec;	/* RAFLEET_TRIAL_WATCHDOG_SEC, 5..600 */
	unsigned int deadline_s;	/* RAFLEET_TRIAL_DEADLINE, 1 min..24 h */
	char health_units[1024];	/* RAFLEET_HEALTH_UNITS, words; may be "" */
	unsigned int health_timeout_s;	/* RAFLEET_HEALTH_TIMEOUT, 5 s..1 h */
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
