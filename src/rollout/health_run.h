/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The health gate of a trial boot, greenboot's required.d/wanted.d: two
 * directories of check programs, each run with a time limit; every
 * required check must pass for the trial to pass, a wanted one is only
 * recorded.  man rafleet-health.
 *
 * The checks of a kind are the files of HEALTH_ETC_DIR/KIND.d and
 * HEALTH_LIB_DIR/KIND.d (under $RAFLEET_ROOT), by name in byte order; a
 * name in /etc replaces the same name in /usr/lib, and one that is a
 * symlink to /dev/null (or an empty file) masks it.  Names that begin
 * with '.' or end in '~' or a package manager's leftovers (.rpmnew,
 * .rpmsave, .dpkg-*) are not checks.
 *
 * A check passes when it exits 0 within its limit, its output (standard
 * output and error together, at most HEALTH_OUTPUT_MAX bytes) being text.
 * Every other end is a verdict of its own, and none is a silent pass: a
 * file that cannot be run, a check that hangs, is killed, or prints
 * something that is not text.
 *
 * Only what no other user could have written is run, or believed as a
 * mask (lib/trust.h, trust_path()): the check's file, every directory
 * above it and every symlink on the way.  Another's is "untrusted", not
 * run.  A directory of checks another user could write (even a sticky
 * one: a name added there is a check) is untrusted whole: an entry of its
 * own, named by its path, and each name in it, none run; a required.d
 * one fails the gate even when empty (a check may have been taken out).
 */
#ifndef RAFLEET_HEALTH_H
#define RAFLEET_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#define HEALTH_ETC_DIR "/etc/rafleet/health"
#define HEALTH_LIB_DIR "/usr/lib/rafleet/health"
#define HEALTH_OUTPUT_MAX 65536	/* more is a bad-output verdict */
#define HEALTH_CHECKS_MAX 64	/* per kind; more is an error */

enum health_kind { HEALTH_REQUIRED, HEALTH_WANTED };

enum health_verdict {
	HV_PASS,		/* exit 0, its output text */
	HV_FAIL,		/* exit 1..255 */
	HV_TIMEOUT,		/* past its limit: killed, with its group */
	HV_KILLED,		/* a signal ended it */
	HV_NOT_EXECUTABLE,	/* not a regular file with an x bit */
	HV_BAD_OUTPUT,		/* exit 0, but not text, or too much */
	HV_ERROR,		/* it could not be started (fork, a file) */
	HV_MASKED,		/* /dev/null or empty in /etc: not run */
	HV_UNTRUSTED,		/* another user could have written it: not run */
};

struct health_check {
	char name[128];		/* the file's name: "10-network" */
	char path[320];		/* as the host sees it */
	enum health_kind kind;
	enum health_verdict verdict;
	int status;		/* exit status, signal; -1 where none */
	double seconds;
	char summary[512];	/* the output's last line, or what went wrong */
	char output[2048];	/* the output's end, as text */
};

struct health_report {
	struct health_check checks[2 * HEALTH_CHECKS_MAX];
	size_t nr;
	unsigned int timeout_s;	/* each check's */
	bool pass;		/* every required check passed */
	size_t required, required_failed, wanted_failed;
	char detail[1024];	/* the verdict in a sentence */
};

const char *health_kind_name(enum health_kind k);
const char *health_verdict_name(enum health_verdict v);

/*
 * Find the checks and run them, required first, each for at most
 * @timeout_s seconds with RAFLEET_CHECK_KIND, RAFLEET_CHECK_TIMEOUT and
 * RAFLEET_TRIAL_KERNEL (@kernel, may be NULL) in its environment.  0 with
 * @rep filled in (rep->pass the verdict), or -errno when the checks could
 * not be listed (@why says which directory and why).
 */
int health_run(unsigned int timeout_s, const char *kernel, struct health_report *rep,
	       char *why, size_t len);

/*
 * Is @buf (@n bytes) text: UTF-8, no NUL and no control character but
 * tab, newline and carriage return?  If not, @why says where.
 */
bool health_is_text(const char *buf, size_t n, char *why, size_t len);

#endif
