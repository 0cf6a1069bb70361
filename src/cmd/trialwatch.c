// SPDX-License-Identifier: GPL-2.0
/* rafleet trial-watch: the watchdog and the deadline of a trial boot. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lib/json.h"
#include "lib/options.h"
#include "rollout/trialwatch.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static const struct options_help trialwatch_help = {
	"usage: rafleet trial-watch [--json]\n"
	"\n"
	"On a trial boot (rafleet.trial=TOKEN, the state's trial), from early in\n"
	"the boot (rafleet-trial-watch.service): arm the hardware watchdog of\n"
	"/etc/rafleet/trial.conf (RAFLEET_TRIAL_WATCHDOG, with the timeout\n"
	"RAFLEET_TRIAL_WATCHDOG_SEC) and keep it alive, every third of the timeout,\n"
	"until the smoke run's verdict: pass (or the trial promoted) disarms it; a\n"
	"rollback keeps it running through the restart.  No verdict within\n"
	"RAFLEET_TRIAL_DEADLINE of the kernel's start: reboot at once into the\n"
	"default entry (systemctl reboot --force --force), whatever userspace is\n"
	"doing.  A kernel that hangs hard stops the keep-alives, and the watchdog\n"
	"resets the machine.  SIGTERM ends the watch with the watchdog running.\n"
	"On any other boot it ends at once.\n"
	"\n"
	"options:\n",
	15,
	"\n"
	"exit status: 0 the watch ended (judged, over, stopped, not a trial), 1 the\n"
	"deadline passed (the reboot was asked for) or the watch failed, 2 bad\n"
	"arguments.  'man rafleet-trial-watch'.\n"
};

int cmd_trialwatch(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct trial_config tc;
	char why[512] = "";
	bool json = false;
	const struct option_spec spec[] = {
		OPT_FLAG('j', "json", &json, "at the end, JSON (schema rafleet-trial-watch/1) on stdout"),
		OPT_HELP(),
		OPT_END()
	};
	int rc, end, ind;

	rc = options_run("trial-watch", spec, &trialwatch_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	if (trial_config_load(&tc, why, sizeof(why))) {
		fprintf(stderr, "rafleet trial-watch: %s\n", why);
		return EXIT_FAILED;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	end = trial_watch(&tc, &stop, why, sizeof(why));
	if (end < 0)
		fprintf(stderr, "rafleet trial-watch: %s\n", why);
	else if (end == WATCH_NOT_TRIAL)
		fprintf(stderr, "rafleet trial-watch: not a trial boot%s%s\n", *why ? ": " : "", why);
	if (json) {
		struct json_writer w;

		json_init(&w, stdout, true);
		json_obj_begin(&w, NULL);
		json_str(&w, "schema", "rafleet-trial-watch/1");
		json_str(&w, "end", end < 0 ? "failed" : watch_end_name(end));
		json_str(&w, "watchdog", tc.watchdog[0] ? tc.watchdog : NULL);
		json_u64(&w, "watchdog_sec", tc.watchdog_sec);
		json_u64(&w, "deadline_s", tc.deadline_s);
		if (*why)
			json_str(&w, "detail", why);
		else
			json_null(&w, "detail");
		json_obj_end(&w);
		json_end(&w);
	}
	return end < 0 || end == WATCH_DEADLINE ? EXIT_FAILED : EXIT_OK;
}
