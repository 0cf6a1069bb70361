// SPDX-License-Identifier: GPL-2.0
/*
 * trialconf and envfile: /etc/rafleet/trial.conf in a fake root, the
 * shipped defaults when it is missing, FILE:LINE for every kind of bad
 * line; the trial's command line from a base: BOOT_IMAGE= and an old
 * rafleet.trial dropped, a parameter trial.conf names replaced, the new
 * words before a "--", and a buffer too small said, not cut.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/envfile.h"
#include "fakefs.h"
#include "tap.h"
#include "rollout/trialconf.h"

static char root[] = "/tmp/rafleet-trialconf-XXXXXX";

static void put(const char *content)
{
	if (fakefs_put(root, "etc/rafleet/trial.conf", content))
		diag("cannot write trial.conf");
}

static int load(struct trial_config *c, char *why, size_t len)
{
	why[0] = '\0';
	return trial_config_load(c, why, len);
}

static void test_load(void)
{
	struct trial_config c;
	char why[512];

	is_i64(load(&c, why, sizeof(why)), 0, "no trial.conf: 0");
	ok(!strcmp(c.cmdline, TRIAL_CMDLINE_DEFAULT) && !strcmp(c.watchdog, "/dev/watchdog0") &&
	   c.watchdog_sec == 60 && c.deadline_s == 2700 && !strcmp(c.health_units, "sshd.service") &&
	   c.health_timeout_s == 120, "  the shipped defaults");
	put("RAFLEET_HEALTH_UNITS=sshd.service  systemd-networkd.service foo@bar.socket\nRAFLEET_HEALTH_TIMEOUT=90s\n");
	is_i64(load(&c, why, sizeof(why)), 0, "the health gate's units and limit");
	ok(!strcmp(c.health_units, "sshd.service  systemd-networkd.service foo@bar.socket") &&
	   c.health_timeout_s == 90, "  three units, 90 s (%s, %u)", c.health_units, c.health_timeout_s);
	put("RAFLEET_HEALTH_UNITS=\n");
	is_i64(load(&c, why, sizeof(why)), 0, "no units: 0");
	is_str(c.health_units, "", "  none");
	put("RAFLEET_TRIAL_WATCHDOG=/dev/watchdog1\nRAFLEET_TRIAL_WATCHDOG_SEC=2min\nRAFLEET_TRIAL_DEADLINE=2h\n");
	is_i64(load(&c, why, sizeof(why)), 0, "the watchdog and the deadline");
	ok(!strcmp(c.watchdog, "/dev/watchdog1") && c.watchdog_sec == 120 && c.deadline_s == 7200,
	   "  /dev/watchdog1, 2min = 120 s, 2h = 7200 s (%s %u %u)", c.watchdog, c.watchdog_sec, c.deadline_s);
	put("RAFLEET_TRIAL_WATCHDOG=none\nRAFLEET_TRIAL_WATCHDOG_SEC=5\nRAFLEET_TRIAL_DEADLINE=60\n");
	load(&c, why, sizeof(why));
	ok(!c.watchdog[0] && c.watchdog_sec == 5 && c.deadline_s == 60, "  none; the lowest bounds, bare seconds");
	put("# comment\n\n  \t\nRAFLEET_TRIAL_CMDLINE=panic=5  oops=panic\n");
	is_i64(load(&c, why, sizeof(why)), 0, "comments, blank lines and the setting: 0");
	is_str(c.cmdline, "panic=5  oops=panic", "  its value");
	put("RAFLEET_TRIAL_CMDLINE=\n");
	is_i64(load(&c, why, sizeof(why)), 0, "an empty value: 0");
	is_str(c.cmdline, "", "  no parameters");

	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "# x\nRAFLEET_TRIAL_PANIC=10\n", "trial.conf:2: RAFLEET_TRIAL_PANIC: not a setting" },
		{ "panic=10 oops=panic\n", "trial.conf:1: panic: not a setting" },
		{ "words\n", "trial.conf:1: not NAME=value: words" },
		{ "\n\n9X=1\n", "trial.conf:3: not NAME=value" },
		{ "RAFLEET_TRIAL_CMDLINE=panic=10 \"quiet\"\n", "trial.conf:1: RAFLEET_TRIAL_CMDLINE: '\"quiet\"' is not a kernel parameter" },
		{ "RAFLEET_TRIAL_CMDLINE=a=b\\c\n", "is not a kernel parameter" },
		{ "RAFLEET_TRIAL_CMDLINE=BOOT_IMAGE=/x\n", "BOOT_IMAGE is set by the boot loader or by rafleet" },
		{ "RAFLEET_TRIAL_CMDLINE=rafleet.trial=1\n", "rafleet.trial is set by the boot loader or by rafleet" },
		{ "RAFLEET_TRIAL_CMDLINE=panic=1 -- single\n", "'--' is not a kernel parameter" },
		{ "RAFLEET_TRIAL_CMDLINE==1\n", "'=1' is not a kernel parameter" },
		{ "RAFLEET_TRIAL_WATCHDOG=dev/watchdog\n", "RAFLEET_TRIAL_WATCHDOG=dev/watchdog: not a device path or none" },
		{ "RAFLEET_TRIAL_WATCHDOG=/dev/a b\n", "not a device path" },
		{ "RAFLEET_TRIAL_WATCHDOG_SEC=4\n", "not a duration of 5 s..10 min" },
		{ "RAFLEET_TRIAL_WATCHDOG_SEC=601s\n", "not a duration" },
		{ "RAFLEET_TRIAL_DEADLINE=59\n", "not a duration of 1 min..24 h" },
		{ "RAFLEET_TRIAL_DEADLINE=25h\n", "not a duration" },
		{ "RAFLEET_TRIAL_DEADLINE=45 min\n", "not a duration" },
		{ "RAFLEET_TRIAL_DEADLINE=45mins\n", "not a duration" },
		{ "RAFLEET_TRIAL_DEADLINE=99999999999999999999h\n", "not a duration" },
		{ "RAFLEET_HEALTH_UNITS=sshd\n", "RAFLEET_HEALTH_UNITS: 'sshd' is not a unit name" },
		{ "RAFLEET_HEALTH_UNITS=ssh.service sshd.\n", "'sshd.' is not a unit name" },
		{ "RAFLEET_HEALTH_UNITS=-x.service\n", "'-x.service' is not a unit name" },
		{ "RAFLEET_HEALTH_UNITS=a;b.service\n", "'a;b.service' is not a unit name" },
		{ "RAFLEET_HEALTH_UNITS=\"sshd.service\"\n", "is not a unit name" },
		{ "RAFLEET_HEALTH_TIMEOUT=4s\n", "RAFLEET_HEALTH_TIMEOUT=4s: not a duration of 5 s..1 h" },
		{ "RAFLEET_HEALTH_TIMEOUT=2h\n", "not a duration of 5 s..1 h" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(bad[i].text);
		ok(load(&c, why, sizeof(why)) == -EINVAL, "bad line %zu: -EINVAL", i);
		ok(strstr(why, bad[i].why) && !strncmp(why, TRIAL_CONF ":", strlen(TRIAL_CONF) + 1),
		   "  FILE:LINE and what: %s", why);
	}
	{
		char big[2048] = "RAFLEET_TRIAL_CMDLINE=";

		for (size_t n = strlen(big); n < sizeof(big) - 3; n += 2)
			strcat(big, "a ");
		strcat(big, "\n");
		put(big);
		is_i64(load(&c, why, sizeof(why)), -EINVAL, "a value longer than the buffer: -EINVAL");
		ok(strstr(why, "longer than") != NULL, "  says so: %s", why);
	}
	/* a directory where the file should be: a read error, said */
	fakefs_rm_tree(root);
	if (fakefs_put(root, "etc/rafleet/trial.conf/x", ""))
		diag("cannot make trial.conf a directory");
	is_i64(load(&c, why, sizeof(why)) < 0, 1, "trial.conf a directory: an error");
	ok(strstr(why, TRIAL_CONF) != NULL, "  names the file: %s", why);
	fakefs_rm_tree(root);
	fakefs_mkdir_p(root);
}

static void test_cmdline(void)
{
	char out[256];

	is_i64(trial_cmdline("BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda1 ro quiet panic=0",
			     "panic=10 oops=panic", "abc", out, sizeof(out)), 0, "a command line");
	is_str(out, "root=/dev/vda1 ro quiet panic=10 oops=panic rafleet.trial=abc",
	       "  BOOT_IMAGE dropped, panic=0 replaced, the trial's words and token last");
	trial_cmdline("root=/dev/vda1 rafleet.trial=old ro -- single x=1", "oops=panic", "t", out, sizeof(out));
	is_str(out, "root=/dev/vda1 ro oops=panic rafleet.trial=t -- single x=1",
	       "an old token dropped, the new words before '--', init's words kept after it");
	trial_cmdline("  quiet\n", "", "t", out, sizeof(out));
	is_str(out, "quiet rafleet.trial=t", "no parameters: the token alone; spaces and a newline trimmed");
	trial_cmdline("", "panic=10", "t", out, sizeof(out));
	is_str(out, "panic=10 rafleet.trial=t", "an empty base");
	trial_cmdline("panic oops=continue", "panic=10 oops", "t", out, sizeof(out));
	is_str(out, "panic=10 oops rafleet.trial=t", "a bare word and NAME=VALUE replace each other by name");
	trial_cmdline("panicky=1 xpanic=2", "panic=10", "t", out, sizeof(out));
	is_str(out, "panicky=1 xpanic=2 panic=10 rafleet.trial=t", "  only the same name, not a prefix or suffix");
	is_i64(trial_cmdline("root=/dev/vda1 ro quiet", "panic=10", "t", out, 20), -ENAMETOOLONG,
	       "a buffer too small: -ENAMETOOLONG");
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	setenv("RAFLEET_ROOT", root, 1);
	test_load();
	test_cmdline();
	fakefs_rm_tree(root);
	return tap_done();
}
