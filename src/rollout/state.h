/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's rollout state: one file, STATEDIR/state.json (schema
 * rafleet-state/1, docs/state-json.md).  The phase of the kernel rollout,
 * the previous and the trial kernel, the baseline, the feature decisions,
 * the action in progress ("pending", written before its side effects and
 * cleared after them) and a history of what was done.
 *
 * Read by lib/jsonread.h tables; written with the lib/json.h writer into
 * memory, then with atomic_write_file(): the file holds the old state or
 * the new one.
 */
#ifndef RAFLEET_STATE_H
#define RAFLEET_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define STATE_SCHEMA "rafleet-state/1"
#define STATE_FILE "state.json"
#define STATE_HISTORY_MAX 200	/* the oldest entries are dropped */
#define STATE_MAX_BYTES (4 << 20)

enum rollout_phase {
	PHASE_IDLE,		/* no trial */
	PHASE_STAGED,		/* the trial kernel is loaded for kexec */
	PHASE_TRIAL,		/* running the trial kernel */
	PHASE_PROMOTED,		/* the trial kernel is the default entry */
	PHASE_ROLLED_BACK,	/* back (or on the way back) to the previous */
};

struct state_kernel {
	char *release;		/* NULL: none recorded (the rest is NULL too) */
	char *image, *initrd;	/* as the host sees them; initrd may be NULL */
	char *cmdline;		/* what kexec is given (--append) */
	char *token;		/* trial: rafleet.trial=TOKEN */
	char *boot;		/* trial: "kexec", or "boot-loader" (stage --reboot) */
	char *staged_boot_id;	/* trial: the boot that loaded it */
	char *trial_boot_id;	/* trial: the boot that ran it */
	/*
	 * previous: the boot loader's default when stage checked it (a BLS
	 * entry id, or GRUB's id path) and which boot loader said so
	 * ("systemd-boot", "grub", "grub-bls"), what a demotion or an
	 * interrupted promote restores.
	 */
	char *default_entry, *default_how;
};

struct state_decision {
	char *feature;		/* "readahead_async_keep_half" */
	int value;		/* what it is set to at boot, 0 */
	char *reason, *time, *evidence;	/* evidence may be NULL */
};

struct state_event {
	char *time;		/* RFC 3339, UTC */
	char *action, *detail;
	char *kernel;		/* the running release then */
};

struct state_pending {
	char *action;		/* NULL: nothing in progress */
	char *step;		/* the last step begun */
	char **args;
	size_t nr_args;
};

/* A verdict of the trial boot: its smoke run's, its health gate's. */
struct state_verdict {
	char *verdict;		/* "pass", "fail"; NULL: none yet */
	char *time, *detail;
};

struct state {
	enum rollout_phase phase;
	struct state_kernel previous, trial;
	char *baseline;		/* baseline file, NULL if none */
	struct state_verdict smoke;	/* rafleet smoke */
	struct state_verdict health;	/* rafleet health: the checks */
	struct state_decision *decisions;
	size_t nr_decisions;
	struct state_pending pending;
	struct state_event *history;	/* oldest first */
	size_t nr_history;
};

/* A fresh state: idle, nothing recorded. */
void state_init(struct state *s);
void state_free(struct state *s);

/*
 * Read @path into @s.  A missing file is a fresh state (0).  -EBADMSG if
 * it is not a rafleet-state/1 document (@why says what is wrong), another
 * -errno if it cannot be read; @s is then a fresh state.
 */
int state_load(struct state *s, const char *path, char *why, size_t len);

struct json_writer;
/*
 * The state as a JSON object under @key (NULL at top level or in an
 * array), with the last @max_history entries of its history.
 */
void state_json(struct json_writer *w, const char *key, const struct state *s,
		size_t max_history);

/* The whole state as a JSON document (pretty), to @f.  0 or -EIO. */
int state_write_json(FILE *f, const struct state *s);

/* Replace @path with @s, atomically.  0 or -errno. */
int state_save(const struct state *s, const char *path);

const char *state_phase_name(enum rollout_phase p);
/* -EINVAL for a name that is no phase */
int state_phase_parse(const char *name);

/* *@dst = a copy of @val (NULL stays NULL).  0 or -ENOMEM. */
int state_set(char **dst, const char *val);
void state_kernel_clear(struct state_kernel *k);

/* The decision for @feature, or NULL. */
struct state_decision *state_decision(const struct state *s, const char *feature);
/* Record (or replace) the decision for @feature, now. */
int state_decide(struct state *s, const char *feature, int value,
		 const char *reason, const char *evidence);
/* Forget it; 0 whether or not there was one. */
void state_undecide(struct state *s, const char *feature);

/* Append to the history (dropping the oldest past STATE_HISTORY_MAX). */
int state_history_add(struct state *s, const char *action, const char *detail,
		      const char *kernel);

int state_pending_set(struct state *s, const char *action, const char *step,
		      const char *const *args, size_t nr_args);
int state_pending_step(struct state *s, const char *step);
void state_pending_clear(struct state *s);

/* A trial's verdict, now: @verdict "pass" or "fail", @detail why. */
int state_verdict_set(struct state_verdict *v, const char *verdict, const char *detail);
void state_verdict_clear(struct state_verdict *v);
/* Both verdicts of a trial boot cleared: smoke and health. */
void state_verdicts_clear(struct state *s);
/* Both verdicts are "pass": what promotion needs. */
bool state_trial_passed(const struct state *s);
/* The trial has its verdict: one of the two failed, or both passed. */
bool state_trial_judged(const struct state *s);


#endif
