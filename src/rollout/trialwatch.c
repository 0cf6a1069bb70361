// SPDX-License-Identifier: GPL-2.0
#include "rollout/trialwatch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/watchdog.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "host/journal.h"
#include "host/kexec.h"
#include "rollout/core.h"
#include "lib/rootdir.h"
#include "host/running.h"
#include "rollout/state.h"
#include "lib/statedir.h"

const char *watch_end_name(enum watch_end e)
{
	static const char *const names[] = {
		[WATCH_NOT_TRIAL] = "not-trial", [WATCH_JUDGED] = "judged",
		[WATCH_OVER] = "over", [WATCH_STOPPED] = "stopped",
		[WATCH_DEADLINE] = "deadline",
	};

	return (size_t)e < sizeof(names) / sizeof(names[0]) ? names[e] : "?";
}

enum view { V_RUNNING, V_PASSED, V_ROLLING_BACK, V_OVER, V_NOT_THIS };

/* What the state says of this boot's trial. */
static int look(const struct running *now, enum view *v, char *release, size_t rlen,
		char *why, size_t len)
{
	char path[PATH_MAX];
	struct state s;
	int err = rollout_state_path(path, sizeof(path));

	if (err)
		return err;
	err = state_load(&s, path, why, len);
	if (err) {
		if (err != -EBADMSG)
			snprintf(why, len, "%s: %s", path, strerror(-err));
		return err;
	}
	snprintf(release, rlen, "%s", s.trial.release ? s.trial.release : "");
	if (s.phase == PHASE_IDLE)
		*v = V_OVER;
	else if (!running_is_trial(now, s.trial.release, s.trial.token))
		*v = V_NOT_THIS;
	else if (s.phase == PHASE_PROMOTED)
		*v = V_PASSED;
	else if (s.phase == PHASE_ROLLED_BACK)
		*v = V_ROLLING_BACK;
	else if (state_trial_passed(&s))
		*v = V_PASSED;
	else if (state_trial_judged(&s))
		*v = V_ROLLING_BACK;
	else
		*v = V_RUNNING;
	state_free(&s);
	return 0;
}

struct dog {
	int fd;
	unsigned int timeout;	/* the device's, in s */
	char path[256];
};

static void dog_open(struct dog *d, const struct trial_config *tc, struct journal_fields *jf)
{
	char full[PATH_MAX];
	int t = (int)tc->watchdog_sec;

	d->fd = -1;
	d->timeout = tc->watchdog_sec;
	snprintf(d->path, sizeof(d->path), "%s", tc->watchdog);
	if (!tc->watchdog[0]) {
		journal_log(LOG_WARNING, "trial-watch", jf,
			    "no hardware watchdog (RAFLEET_TRIAL_WATCHDOG=none): a trial that hangs hard does not come back by itself; the deadline only");
		return;
	}
	if (root_path(rootdir_get(), tc->watchdog, full, sizeof(full)) ||
	    (d->fd = open(full, O_WRONLY | O_CLOEXEC)) < 0) {
		journal_log(LOG_ERR, "trial-watch", jf,
			    "cannot open the watchdog %s: %s; the deadline only", tc->watchdog,
			    strerror(errno));
		return;
	}
	if (ioctl(d->fd, WDIOC_SETTIMEOUT, &t) == 0) {
		d->timeout = (unsigned int)t;	/* what the device took */
	} else {
		int got = 0;

		if (ioctl(d->fd, WDIOC_GETTIMEOUT, &got) == 0 && got > 0)
			d->timeout = (unsigned int)got;
		journal_log(LOG_WARNING, "trial-watch", jf,
			    "%s does not take a timeout of %u s (%s); it keeps its own%s",
			    tc->watchdog, tc->watchdog_sec, strerror(errno),
			    got > 0 ? "" : ", taken to be the one asked for");
	}
	journal_log(LOG_NOTICE, "trial-watch", jf, "watchdog %s armed: %u s", tc->watchdog,
		    d->timeout);
}

static void dog_ping(struct dog *d)
{
	if (d->fd >= 0 && write(d->fd, ".", 1) != 1)
		journal_log(LOG_ERR, "trial-watch", NULL, "keep-alive of %s: %s", d->path,
			    strerror(errno));
}

/* Close; with @disarm the magic close first, which stops the watchdog. */
static void dog_close(struct dog *d, bool disarm)
{
	if (d->fd < 0)
		return;
	if (disarm && write(d->fd, "V", 1) != 1)
		journal_log(LOG_ERR, "trial-watch", NULL, "magic close of %s: %s", d->path,
			    strerror(errno));
	close(d->fd);
	d->fd = -1;
}

static void nap(unsigned int secs, volatile sig_atomic_t *stop)
{
	for (unsigned int i = 0; i < 10 * secs && !*stop; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
}

/* STATEDIR/@name: "TOKEN RELEASE BOOT_ID UPTIME", for the next boot. */
static void leave_mark(const char *name, const struct running *now, double up)
{
	char path[PATH_MAX], text[512];

	snprintf(text, sizeof(text), "%s %s %s %.0f\n", now->token, now->release,
		 now->boot_id[0] ? now->boot_id : "-", up);
	if (!statedir_path(name, path, sizeof(path)))
		atomic_write_file(path, text, strlen(text), 0644);
}

int trial_watch(const struct trial_config *tc, volatile sig_atomic_t *stop,
		char *why, size_t len)
{
	struct journal_fields jf = { 0 };
	struct running now;
	struct dog d;
	char release[256];
	unsigned int tick;
	enum view v;
	double up = 0, alive_at = -1;
	int err;

	running_read(&now);
	if (!now.trial_param || !now.token[0])
		return WATCH_NOT_TRIAL;
	err = look(&now, &v, release, sizeof(release), why, len);
	if (err)
		return err;
	if (v == V_NOT_THIS || v == V_OVER) {
		snprintf(why, len, "this boot (rafleet.trial=%s) is not the trial the state records", now.token);
		return WATCH_NOT_TRIAL;
	}
	jf.kernel = release;
	dog_open(&d, tc, &jf);
	tick = d.timeout / 3 ? d.timeout / 3 : 1;
	journal_log(LOG_NOTICE, "trial-watch", &jf,
		    "watching the trial of %s: a verdict within %u s of its start, else a reboot into the default entry",
		    release, tc->deadline_s);
	for (;;) {
		if (*stop) {
			dog_close(&d, false);
			return WATCH_STOPPED;
		}
		err = look(&now, &v, release, sizeof(release), why, len);
		if (err) {
			/* a state being rewritten by hand: keep watching */
			journal_log(LOG_WARNING, "trial-watch", &jf, "the state: %s", why);
			v = V_RUNNING;
		}
		if (v == V_PASSED || v == V_OVER || v == V_NOT_THIS) {
			dog_close(&d, true);
			journal_log(LOG_NOTICE, "trial-watch", &jf, "the trial of %s is %s: watchdog disarmed",
				    release, v == V_PASSED ? "judged (pass)" : "over");
			return v == V_PASSED ? WATCH_JUDGED : WATCH_OVER;
		}
		if (running_uptime(&up) == 0 && (alive_at < 0 || up - alive_at >= TRIAL_ALIVE_EVERY_S)) {
			leave_mark(TRIAL_ALIVE_FILE, &now, up);
			alive_at = up;
		}
		if (up >= tc->deadline_s) {
			const char *how;

			jf.verdict = "deadline";
			journal_log(LOG_ERR, "trial-watch", &jf,
				    "the trial of %s reached no verdict in %u s (up %.0f s): rebooting into the default entry",
				    release, tc->deadline_s, up);
			leave_mark(TRIAL_DEADLINE_FILE, &now, up);
			/* no more keep-alives: the watchdog backs the reboot up */
			dog_close(&d, false);
			err = host_reboot_now(&how, why, len);
			if (err)
				return err;
			return WATCH_DEADLINE;
		}
		dog_ping(&d);
		nap(tick, stop);
	}
}
