// SPDX-License-Identifier: GPL-2.0
/* The kernel rollout: stage, the trial boot, promote, rollback --kernel. */
#include "rollout/core.h"
#include "rollout/priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <sys/random.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "host/bootloader.h"
#include "lib/failpoint.h"
#include "lib/fileio.h"
#include "host/kernelfind.h"
#include "host/kexec.h"
#include "lib/rootdir.h"
#include "rollout/smoke_compare.h"
#include "rollout/smoke_conf.h"
#include "lib/statedir.h"
#include "lib/strbuf.h"
#include "rollout/trialconf.h"
#include "rollout/trialwatch.h"

#define BASELINE_TIMEOUT_S 1800

/* ---- what the boot says ---- */

static bool boot_changed(const char *then, const char *now)
{
	return then && *then && *now && strcmp(then, now);
}

/*
 * The trial entries of a one-shot trial, and the one-shot naming one, once
 * the trial has booted or will not; said on stderr.  Once it has booted a
 * failure is not fatal (an entry left over boots only if someone picks
 * it); before, a rollback fails on it (the one-shot would boot the trial).
 */
static int remove_trial_entries(char *why, size_t len)
{
	struct bootloader bl;
	unsigned int gone = 0;
	int err;

	if (bootloader_detect(&bl, why, len))
		return 0;	/* no boot loader: no entry of ours either */
	err = bootloader_remove_trials(&bl, &gone, why, len);
	if (err == -EROFS)
		/* a unit whose sandbox keeps /boot read-only (trial-watch,
		 * health, smoke): promote or the next boot removes it */
		fprintf(stderr, "rafleet: the one-shot trial's boot entry stays for now (%s): promote or the next boot removes it\n",
			why);
	else if (err)
		fprintf(stderr, "rafleet: the one-shot trial's boot entry: %s\n", why);
	else if (gone)
		fprintf(stderr, "rafleet: removed %u one-shot trial boot entr%s (%s)\n", gone,
			gone == 1 ? "y" : "ies", bl.name);
	return err;
}

/* The trial boots through the boot loader (stage --reboot), not by kexec. */
static bool by_boot_loader(const struct state_kernel *t)
{
	return t->boot && !strcmp(t->boot, "boot-loader");
}

/* No trial any more: back to idle, the trial's record gone. */
static int trial_over(struct rollout *r, const char *action, const char *detail)
{
	struct journal_fields jf = { .verdict = strcmp(action, "trial-unjudged") ? "ended" : "unjudged" };
	char release[256], why[512];
	int err;

	/* a copy: the trial's record goes now, the journal entry after */
	snprintf(release, sizeof(release), "%s", r->st.trial.release ? r->st.trial.release : "?");
	jf.kernel = release;
	if (by_boot_loader(&r->st.trial))
		remove_trial_entries(why, sizeof(why));
	r->st.phase = PHASE_IDLE;
	state_kernel_clear(&r->st.trial);
	state_verdicts_clear(&r->st);
	err = state_history_add(&r->st, action, detail, r->now.release);
	if (!err)
		err = rollout_save(r);
	if (!err)
		journal_log(LOG_WARNING, action, &jf, "%s", detail);
	fprintf(stderr, "rafleet: %s\n", detail);
	return err;
}

/* trial-watch's mark @name for the trial @token: its boot id and uptime. */
static bool read_mark(const char *name, const char *token, char *boot_id, size_t blen,
		      double *up)
{
	char path[PATH_MAX], text[512], tok[64], rel[256], id[64];

	if (statedir_path(name, path, sizeof(path)) ||
	    read_small_file(path, text, sizeof(text)))
		return false;
	if (sscanf(text, "%63s %255s %63s %lf", tok, rel, id, up) != 4 || strcmp(tok, token))
		return false;
	snprintf(boot_id, blen, "%s", id);
	return true;
}

static void remove_mark(const char *name)
{
	char path[PATH_MAX];

	if (!statedir_path(name, path, sizeof(path)))
		unlink(path);
}

/* The records in /sys/fs/pstore (ramoops, EFI): a crashed kernel's log. */
static int pstore_records(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (root_path(rootdir_get(), "/sys/fs/pstore", path, sizeof(path)) ||
	    !(d = opendir(path)))
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * A trial that ended without a verdict, with what shows how: trial-watch's
 * marks (its userspace ran until about then; its deadline passed) and the
 * pstore records.  The marks go once read.
 */
static void unjudged(struct rollout *r, char *out, size_t len)
{
	const struct state_kernel *t = &r->st.trial;
	char id[64] = "", id2[64];
	double alive = 0, dead = 0;
	bool ran = t->token && read_mark(TRIAL_ALIVE_FILE, t->token, id, sizeof(id), &alive);
	bool late = t->token && read_mark(TRIAL_DEADLINE_FILE, t->token, id2, sizeof(id2), &dead);
	int nr = pstore_records();
	struct strbuf o;

	sb_init(&o, out, len);
	sb_addf(&o, "the trial boot of %s ended without a verdict: ", t->release);
	if (late)
		sb_addf(&o, "it reached its deadline %.0f s after its kernel started, and was rebooted",
			dead);
	else if (ran)
		sb_addf(&o, "its userspace ran, last seen alive %.0f s after its kernel started (a panic, a hang or a reset after that)",
			alive);
	else
		sb_addf(&o, "nothing shows it reached userspace (its kernel failed early, or it never started)");
	if (ran || late)
		sb_addf(&o, "; its journal: journalctl -b %s", late ? id2 : id);
	if (nr)
		sb_addf(&o, "; %d record%s in /sys/fs/pstore (a crashed kernel's log)", nr,
			nr == 1 ? "" : "s");
	sb_addf(&o, "; this boot runs %s", r->now.release);
	remove_mark(TRIAL_ALIVE_FILE);
	remove_mark(TRIAL_DEADLINE_FILE);
}

int rollout_observe_boot(struct rollout *r)
{
	struct state *s = &r->st;
	struct state_kernel *t = &s->trial;
	struct journal_fields jf = { .kernel = t->release, .verdict = "started" };
	char detail[2048];
	int err;

	if (s->phase == PHASE_STAGED && running_is_trial(&r->now, t->release, t->token)) {
		/* a one-shot trial's entry has done its work: the boot is here */
		if (by_boot_loader(t))
			remove_trial_entries(detail, sizeof(detail));
		s->phase = PHASE_TRIAL;
		err = state_set(&t->trial_boot_id, r->now.boot_id);
		snprintf(detail, sizeof(detail), "trial boot of %s started (staged -> trial)",
			 t->release);
		err = err ? err : state_history_add(s, "trial", detail, r->now.release);
		if (!err)
			err = rollout_save(r);
		if (!err)
			journal_log(LOG_NOTICE, "trial", &jf, "%s", detail);
		return err;
	}
	if ((s->phase == PHASE_STAGED && boot_changed(t->staged_boot_id, r->now.boot_id)) ||
	    (s->phase == PHASE_TRIAL && !running_is_trial(&r->now, t->release, t->token) &&
	     !state_trial_judged(s))) {
		unjudged(r, detail, sizeof(detail));
		return trial_over(r, "trial-unjudged", detail);
	}
	if (s->phase == PHASE_TRIAL && !running_is_trial(&r->now, t->release, t->token)) {
		snprintf(detail, sizeof(detail), "trial boot of %s ended after its verdict (health %s, smoke %s), not promoted: this boot runs %s (trial -> idle)",
			 t->release, s->health.verdict ? s->health.verdict : "-",
			 s->smoke.verdict ? s->smoke.verdict : "-", r->now.release);
		return trial_over(r, "trial-ended", detail);
	}
	return 0;
}

/* ---- stage ---- */

static int make_token(char *out, size_t len)
{
	unsigned char raw[8];

	if (getrandom(raw, sizeof(raw), 0) != sizeof(raw))
		return -errno;
	for (size_t i = 0; i < sizeof(raw) && 2 * i + 2 < len; i++)
		snprintf(out + 2 * i, len - 2 * i, "%02x", raw[i]);
	return 0;
}

static int record_baseline(struct rollout *r, char *why, size_t len)
{
	struct smoke_config c;
	struct smoke_run *run;
	struct smoke_key key;
	char *json = NULL, stale[256] = "", hash[17];
	int err;

	err = smoke_config_load(&c, why, len);
	if (!err)
		err = smoke_key_of_config(&c, r->now.release, &key, why, len);
	if (err)
		return err;
	if (smoke_baseline_fresh(r->st.baseline, &key, stale, sizeof(stale)))
		return 0;	/* measured before, for this kernel and smoke.conf */
	run = malloc(sizeof(*run));
	if (!run)
		return -ENOMEM;
	smoke_key_hash(&key, hash);
	fprintf(stderr, "rafleet stage: measuring the baseline on %s with every feature off (key %s: %s; the one before: %s)\n",
		r->now.release, hash, c.scenarios, stale);
	err = smoke_bench(&c, true, BASELINE_TIMEOUT_S, &json, why, len);
	if (!err)
		err = smoke_parse(json, run, why, len);
	if (!err)
		err = atomic_write_file(r->st.baseline, json, strlen(json), 0644);
	if (err && !*why)
		snprintf(why, len, "%s: %s", r->st.baseline, strerror(-err));
	free(json);
	free(run);
	return err;
}

/* A stage that cannot go on: the trial forgotten, the failure recorded. */
static int stage_fail(struct rollout *r, const char *why, int err)
{
	state_kernel_clear(&r->st.trial);
	return rollout_fail(r, "stage", why, err);
}

/*
 * The trial entry of @t's kernel with its command line, made the boot
 * loader's one-shot: the next boot only, so any reset after it lands on
 * the default.  @how says what was done.
 */
static int trial_entry(const struct state_kernel *t, char *how, size_t hlen, char *why,
		       size_t len)
{
	struct bootloader bl;
	struct boot_target e;
	unsigned int gone;
	char set[PATH_MAX + 1200];
	int err;

	err = bootloader_detect(&bl, why, len);
	if (!err)	/* those of a stage before, interrupted */
		err = bootloader_remove_trials(&bl, &gone, why, len);
	if (!err)
		err = bootloader_add_trial(&bl, t->release, t->cmdline, t->token, &e, why, len);
	if (err)
		return err;
	err = bootloader_set_oneshot(&bl, &e, set, sizeof(set), why, len);
	if (err) {
		char rwhy[256];

		bootloader_remove_trials(&bl, &gone, rwhy, sizeof(rwhy));
		return err;
	}
	snprintf(how, hlen, "%s: entry %.1500s, %.1500s", bl.name, e.source, set);
	return 0;
}


static int stage_steps(struct rollout *r, bool baseline, bool exec, bool reboot)
{
	struct state_kernel *t = &r->st.trial;
	struct journal_fields jf = { .kernel = t->release, .verdict = "staged" };
	char why[512] = "", detail[1024];
	const char *how;
	int err;

	if (baseline) {
		err = rollout_step(r, "baseline");
		if (err)
			return err;
		err = record_baseline(r, why, sizeof(why));
		if (err)
			return stage_fail(r, why, err);
		failpoint("stage.after-baseline");
	}

	if (reboot) {
		char set[PATH_MAX + 1400];

		err = rollout_step(r, "trial-entry");
		if (err)
			return err;
		err = trial_entry(t, set, sizeof(set), why, sizeof(why));
		if (err)
			return stage_fail(r, why, err);
		failpoint("stage.after-trial-entry");
		snprintf(detail, sizeof(detail), "trial kernel %s is the next boot only (rafleet.trial=%s; %.600s); previous kernel %s",
			 t->release, t->token, set, r->st.previous.release);
	} else {
		err = rollout_step(r, "kexec-load");
		if (err)
			return err;
		err = kexec_load(t->image, t->initrd, t->cmdline, why, sizeof(why));
		if (err)
			return stage_fail(r, why, err);
		failpoint("stage.after-kexec-load");
		snprintf(detail, sizeof(detail), "trial kernel %s loaded for kexec (rafleet.trial=%s); previous kernel %s",
			 t->release, t->token, r->st.previous.release);
	}

	r->st.phase = PHASE_STAGED;
	err = state_set(&t->staged_boot_id, r->now.boot_id);
	if (err)
		return err;
	err = rollout_finish(r, LOG_NOTICE, "stage", &jf, detail);
	if (err || !exec)
		return err;
	failpoint("stage.after-mark");

	err = reboot ? host_reboot(&how, why, sizeof(why)) : kexec_exec(&how, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet stage: %s: %s; the trial kernel stays %s\n", how, why,
			reboot ? "the next boot" : "loaded");
		snprintf(detail, sizeof(detail), "%s failed: %s", how, why);
		rollout_record(r, "stage", detail);
	}
	return err;
}

static int set_kernel(struct state_kernel *k, const struct kernel_files *f,
		      const char *cmdline)
{
	state_kernel_clear(k);
	if (state_set(&k->release, f->release) ||
	    state_set(&k->image, f->image[0] ? f->image : NULL) ||
	    state_set(&k->initrd, f->initrd[0] ? f->initrd : NULL) ||
	    state_set(&k->cmdline, cmdline))
		return -ENOMEM;
	return 0;
}

/*
 * What stage checks before it changes anything: the trial's initramfs, and
 * that a reset of the trial comes back here (the boot loader's default is
 * the running kernel).  0, or -EINVAL with the refusal said.
 */
static int stage_checks(const struct rollout *r, const struct stage_opts *o,
			const struct trial_config *tc, const struct kernel_files *trial,
			struct bootloader *bl, struct boot_target *def)
{
	struct boot_target once;
	char why[512], dev[PATH_MAX];
	int err;

	if (tc->watchdog[0] && !o->no_watchdog &&
	    (root_path(rootdir_get(), tc->watchdog, dev, sizeof(dev)) || access(dev, W_OK))) {
		fprintf(stderr, "rafleet stage: no hardware watchdog at %s (RAFLEET_TRIAL_WATCHDOG of %s): a trial kernel that hangs hard would never come back; --no-watchdog to stage without one\n",
			tc->watchdog, TRIAL_CONF);
		return -ENODEV;
	}
	if (!tc->watchdog[0] || o->no_watchdog)
		fprintf(stderr, "rafleet stage: without a hardware watchdog: a trial kernel that hangs hard stays hung until someone resets the host\n");

	if (trial->missing_initrd[0]) {
		fprintf(stderr, "rafleet stage: the boot entry %s of %s names the initramfs %s, which is not there\n",
			trial->entry, trial->release, trial->missing_initrd);
		return -ENOENT;
	}
	if (!trial->initrd[0] && !o->no_initrd) {
		fprintf(stderr, "rafleet stage: no initramfs for %s (no initrd in its boot entry, no /boot/initrd.img-%s, no /boot/initramfs-%s.img); --no-initrd if it boots without one\n",
			trial->release, trial->release, trial->release);
		return -ENOENT;
	}
	if (trial->initrd[0] && o->no_initrd) {
		fprintf(stderr, "rafleet stage: --no-initrd, but %s has the initramfs %s\n",
			trial->release, trial->initrd);
		return -EINVAL;
	}
	if (trial->initrd[0] && !strstr(trial->initrd, trial->release)) {
		fprintf(stderr, "rafleet stage: the initramfs %s is not named for %s: not the trial kernel's own\n",
			trial->initrd, trial->release);
		return -EINVAL;
	}
	err = bootloader_detect(bl, why, sizeof(why));
	if (!err)
		err = bootloader_default(bl, def, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet stage: cannot tell what the next boot boots: %s; a failed trial comes back to the default entry, so it must be known\n",
			why);
		return err == -ENOENT || err == -EOPNOTSUPP ? -EINVAL : err;
	}
	if (strcmp(def->release, r->now.release)) {
		fprintf(stderr, "rafleet stage: the default boot entry (%s, by %s: %s) boots %s, not the running kernel %s: a failed trial would not come back to this kernel; make it the default first\n",
			def->entry, bl->name, def->source,
			*def->release ? def->release : "an unknown kernel", r->now.release);
		return -EINVAL;
	}
	err = bootloader_oneshot(bl, &once, why, sizeof(why));
	if (!err && strcmp(once.release, r->now.release)) {
		fprintf(stderr, "rafleet stage: a one-shot next boot is set (%s, by %s: %s), booting %s: a failed trial's reset would boot it, not this kernel; clear it first\n",
			once.entry, bl->name, once.source,
			*once.release ? once.release : "an unknown kernel");
		return -EINVAL;
	}
	if (err && err != -ENOENT) {
		fprintf(stderr, "rafleet stage: cannot tell whether a one-shot next boot is set: %s\n", why);
		return err;
	}
	return 0;
}

int rollout_stage(struct rollout *r, const struct stage_opts *o)
{
	struct state *s = &r->st;
	struct kernel_files trial, prev;
	struct trial_config tc;
	struct bootloader bl;
	struct boot_target def;
	char why[512], base[4096], cmdline[4200], token[24], path[PATH_MAX];
	const char *args[3];
	int err;

	if (s->phase == PHASE_STAGED || s->phase == PHASE_TRIAL) {
		fprintf(stderr, "rafleet stage: a trial of %s is already %s; 'rafleet promote' or 'rafleet rollback --kernel' first\n",
			s->trial.release, s->phase == PHASE_STAGED ? "staged" : "running");
		return -EALREADY;
	}
	err = trial_config_load(&tc, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet stage: %s\n", why);
		return err;
	}
	err = kernel_find(o->kernel, &trial, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet stage: %s\n", why);
		return err;
	}
	if (!strcmp(trial.release, r->now.release) && !o->allow_running) {
		fprintf(stderr, "rafleet stage: %s is the running kernel (--allow-running stages it again: an A/A trial)\n",
			trial.release);
		return -EINVAL;
	}
	err = stage_checks(r, o, &tc, &trial, &bl, &def);
	if (err)
		return err;
	if (kernel_find(r->now.release, &prev, why, sizeof(why))) {
		fprintf(stderr, "rafleet stage: the running kernel's files: %s; a kernel rollback will reboot instead of kexec\n",
			why);
		snprintf(prev.release, sizeof(prev.release), "%s", r->now.release);
		prev.image[0] = prev.initrd[0] = '\0';
	}
	/* the trial boots its own entry's options: what a promotion keeps */
	err = running_kexec_cmdline(r->now.cmdline, base, sizeof(base));
	if (!err)
		err = make_token(token, sizeof(token));
	if (!err)
		err = trial_cmdline(trial.options[0] ? trial.options : base, tc.cmdline,
				    token, cmdline, sizeof(cmdline));
	if (err) {
		fprintf(stderr, "rafleet stage: the command line: %s\n", strerror(-err));
		return err;
	}
	err = set_kernel(&s->previous, &prev, base);
	if (!err)
		err = state_set(&s->previous.default_entry, def.entry);
	if (!err)
		err = state_set(&s->previous.default_how, bl.name);
	if (!err)
		err = set_kernel(&s->trial, &trial, cmdline);
	if (!err)
		err = state_set(&s->trial.token, token);
	if (!err)
		err = state_set(&s->trial.boot, o->reboot ? "boot-loader" : "kexec");
	if (!err && o->baseline) {
		snprintf(why, sizeof(why), "baseline-%s.json", r->now.release);
		err = statedir_path(why, path, sizeof(path));
		if (!err)
			err = state_set(&s->baseline, path);
	}
	if (err)
		return err;
	state_verdicts_clear(s);
	args[0] = trial.release;
	args[1] = o->baseline ? "baseline" : "no-baseline";
	args[2] = o->reboot ? "reboot" : "kexec";
	err = rollout_begin(r, "stage", args, 3);
	if (err)
		return err;
	failpoint("stage.after-intent");
	return stage_steps(r, o->baseline, o->exec, o->reboot);
}

int rollout_resume_stage(struct rollout *r)
{
	struct state *s = &r->st;
	char why[512];

	if (!s->trial.release || !s->previous.release ||
	    strcmp(s->previous.release, r->now.release)) {
		snprintf(why, sizeof(why), "abandoned: this boot runs %s, not the kernel it was staged from (%s)",
			 r->now.release, s->previous.release ? s->previous.release : "?");
		return stage_fail(r, why, 0);
	}
	return stage_steps(r, s->pending.nr_args > 1 &&
			   !strcmp(s->pending.args[1], "baseline"), false,
			   by_boot_loader(&s->trial));
}

/* ---- the previous default entry ---- */

/*
 * Make the default entry stage recorded the default again, by the same
 * boot loader.
 */
static int restore_default(struct rollout *r, char *why, size_t len)
{
	const struct state_kernel *p = &r->st.previous;
	struct bootloader bl;
	struct boot_target t = { 0 };
	char how[PATH_MAX + 1200];
	int err;

	if (!p->default_entry || !p->default_how) {
		snprintf(why, len, "no default entry was recorded when %s was staged",
			 r->st.trial.release ? r->st.trial.release : "the trial kernel");
		return -ENOENT;
	}
	err = bootloader_detect(&bl, why, len);
	if (err)
		return err;
	if (strcmp(bl.name, p->default_how)) {
		snprintf(why, len, "the default %s was %s's, and %s boots this host now",
			 p->default_entry, p->default_how, bl.name);
		return -EINVAL;
	}
	snprintf(t.entry, sizeof(t.entry), "%s", p->default_entry);
	snprintf(t.release, sizeof(t.release), "%s", p->release ? p->release : "");
	return bootloader_set_default(&bl, &t, false, how, sizeof(how), why, len);
}

/* ---- promote ---- */

static int promote_steps(struct rollout *r)
{
	struct state_kernel *t = &r->st.trial;
	struct journal_fields jf = { .kernel = t->release, .verdict = "promoted" };
	char why[512] = "", how[PATH_MAX + 1200], detail[PATH_MAX + 1500];
	struct bootloader bl;
	struct boot_target target;
	int err;

	err = rollout_step(r, "default-entry");
	if (err)
		return err;
	err = bootloader_detect(&bl, why, sizeof(why));
	if (!err)
		err = bootloader_find(&bl, t->release, t->image, &target, why, sizeof(why));
	if (!err)
		err = bootloader_set_default(&bl, &target, true, how, sizeof(how), why,
					     sizeof(why));
	if (err)
		return rollout_fail(r, "promote", why, err);
	failpoint("promote.after-default-entry");
	/*
	 * A one-shot trial's entry is removed when the trial boot is first
	 * recorded; that is rafleet-trial-watch.service, whose /boot is read
	 * only.  Promote may write /boot: what is left goes now (not fatal:
	 * the default is moved, and a leftover entry boots only if picked).
	 */
	if (by_boot_loader(t))
		remove_trial_entries(why, sizeof(why));

	r->st.phase = PHASE_PROMOTED;
	snprintf(detail, sizeof(detail), "%s is the default boot entry now (%s)",
		 t->release, how);
	return rollout_finish(r, LOG_NOTICE, "promote", &jf, detail);
}

int rollout_promote(struct rollout *r)
{
	struct state *s = &r->st;
	const char *args[1];
	int err;

	if (s->phase != PHASE_TRIAL) {
		fprintf(stderr, "rafleet promote: nothing to promote: the phase is %s (promote runs on the trial boot, after 'rafleet smoke' passed)\n",
			state_phase_name(s->phase));
		return -EINVAL;
	}
	if (!state_trial_passed(s)) {
		const struct state_verdict *v = s->health.verdict && !strcmp(s->health.verdict, "pass") ?
						&s->smoke : &s->health;

		fprintf(stderr, "rafleet promote: %s of %s has %s; promotion needs a pass of 'rafleet health' and of 'rafleet smoke'\n",
			v == &s->smoke ? "the smoke run" : "the health gate", s->trial.release,
			v->verdict ? "failed" : "not been done");
		return -EINVAL;
	}
	args[0] = s->trial.release;
	err = rollout_begin(r, "promote", args, 1);
	if (err)
		return err;
	failpoint("promote.after-intent");
	return promote_steps(r);
}

/*
 * A promote is finished only on the trial boot it began on.  Any other
 * boot (the trial crashed or was reset mid-promote) puts the default entry
 * back: a kernel that died before its promotion was recorded is not made
 * the default by the next boot.
 */
int rollout_resume_promote(struct rollout *r)
{
	const struct state_kernel *t = &r->st.trial;
	char why[512] = "", detail[1024];
	int err;

	if (r->st.phase == PHASE_TRIAL && running_is_trial(&r->now, t->release, t->token))
		return promote_steps(r);
	err = restore_default(r, why, sizeof(why));
	if (err) {
		snprintf(detail, sizeof(detail), "abandoned: the trial boot of %s ended mid-promote, and the default entry could not be put back: %s",
			 t->release ? t->release : "?", why);
		return rollout_fail(r, "promote", detail, err);
	}
	r->runs_unjudged = t->release && !strcmp(t->release, r->now.release);
	snprintf(detail, sizeof(detail), "abandoned: the trial boot of %s ended mid-promote (this boot runs %s%s); the default entry is %s again",
		 t->release ? t->release : "?", r->now.release,
		 r->runs_unjudged ? ", booted by the default that promote had moved: never judged" : "",
		 r->st.previous.default_entry);
	return rollout_fail(r, "promote", detail, 0);
}

/* ---- rollback --kernel ---- */

/* A staged trial that never ran: unload it. */
static int unload_steps(struct rollout *r, const char *reason)
{
	struct journal_fields jf = { .kernel = r->st.trial.release, .reason = reason,
				     .verdict = "unloaded" };
	bool entry = by_boot_loader(&r->st.trial);
	char why[512] = "", detail[1024];
	int err;

	/* a one-shot trial: its entry and the one-shot; nothing was loaded */
	err = rollout_step(r, entry ? "trial-entry-remove" : "kexec-unload");
	if (err)
		return err;
	err = entry ? remove_trial_entries(why, sizeof(why)) : kexec_unload(why, sizeof(why));
	if (err)
		return rollout_fail(r, "kernel-rollback", why, err);
	failpoint("kernel-rollback.after-kexec-unload");
	r->st.phase = PHASE_ROLLED_BACK;
	snprintf(detail, sizeof(detail), "staged trial of %s %s before it ran: %s",
		 r->st.trial.release, entry ? "taken off the next boot" : "unloaded", reason);
	return rollout_finish(r, LOG_WARNING, "kernel-rollback", &jf, detail);
}

int rollout_trial_failed(struct rollout *r, const char *action, const char *detail,
			 const char *reason, struct journal_fields *jf, const char *fp, bool exec)
{
	const char *args[1] = { reason };
	int err = state_history_add(&r->st, action, detail, r->now.release);

	if (!err)
		err = state_pending_set(&r->st, "kernel-rollback", "intent", args, 1);
	if (!err)
		err = rollout_save(r);
	if (err)
		return err;
	journal_log(LOG_ERR, action, jf, "%s", detail);
	failpoint(fp);
	return rollout_kernel_back_steps(r, reason, exec);
}

int rollout_kernel_back_steps(struct rollout *r, const char *reason, bool exec)
{
	struct state_kernel *p = &r->st.previous;
	struct journal_fields jf = { .kernel = r->st.trial.release, .reason = reason,
				     .verdict = "rolled-back" };
	char why[512] = "", detail[1536];
	const char *how;
	bool by_kexec = false;
	int err;

	err = rollout_step(r, "kexec-load");
	if (err)
		return err;
	if (p->image) {
		err = kexec_load(p->image, p->initrd, p->cmdline, why, sizeof(why));
		by_kexec = !err;
		if (err)
			fprintf(stderr, "rafleet rollback: %s; rebooting into the default entry instead\n",
				why);
	}
	failpoint("kernel-rollback.after-kexec-load");

	r->st.phase = PHASE_ROLLED_BACK;
	snprintf(detail, sizeof(detail), "rolling back from %s to %s by %s: %s",
		 r->st.trial.release, p->release ? p->release : "the default entry",
		 by_kexec ? "kexec" : "reboot (the default entry)", reason);
	err = rollout_finish(r, LOG_WARNING, "kernel-rollback", &jf, detail);
	if (err || !exec)
		return err;
	failpoint("kernel-rollback.after-mark");

	err = by_kexec ? kexec_exec(&how, why, sizeof(why)) :
			 host_reboot(&how, why, sizeof(why));
	if (err) {
		fprintf(stderr, "rafleet rollback: %s: %s\n", how, why);
		snprintf(detail, sizeof(detail), "%s failed: %s", how, why);
		rollout_record(r, "kernel-rollback", detail);
	}
	return err;
}

/*
 * A promoted kernel demoted: the default entry stage recorded is the
 * default again, then the previous kernel is started as a rollback does
 * (unless this boot already runs it).
 */
static int demote_steps(struct rollout *r, const char *reason, bool exec)
{
	struct journal_fields jf = { .kernel = r->st.trial.release, .reason = reason,
				     .verdict = "demoted" };
	char why[512] = "", detail[1536];
	int err;

	err = rollout_step(r, "default-entry");
	if (err)
		return err;
	err = restore_default(r, why, sizeof(why));
	if (err)
		return rollout_fail(r, "kernel-rollback", why, err);
	failpoint("kernel-rollback.after-default-entry");
	if (strcmp(r->now.release, r->st.previous.release))
		return rollout_kernel_back_steps(r, reason, exec);
	r->st.phase = PHASE_ROLLED_BACK;
	snprintf(detail, sizeof(detail), "%s demoted: %s (this boot runs it) is the default entry again (%s): %s",
		 r->st.trial.release, r->st.previous.release, r->st.previous.default_entry, reason);
	return rollout_finish(r, LOG_WARNING, "kernel-rollback", &jf, detail);
}

int rollout_kernel_back(struct rollout *r, const char *reason, bool exec)
{
	struct state *s = &r->st;
	const char *args[] = { reason };
	int err;

	if (s->phase != PHASE_TRIAL && s->phase != PHASE_STAGED && s->phase != PHASE_PROMOTED) {
		fprintf(stderr, "rafleet rollback: no trial or promoted kernel to roll back from: the phase is %s\n",
			state_phase_name(s->phase));
		return -EINVAL;
	}
	if (s->phase == PHASE_PROMOTED && (!s->previous.default_entry || !s->previous.release)) {
		fprintf(stderr, "rafleet rollback: %s was promoted without a record of the default entry before it; make the previous kernel the default by hand\n",
			s->trial.release);
		return -EINVAL;
	}
	err = rollout_begin(r, "kernel-rollback", args, 1);
	if (err)
		return err;
	failpoint("kernel-rollback.after-intent");
	if (s->phase == PHASE_STAGED)
		return unload_steps(r, reason);
	if (s->phase == PHASE_PROMOTED)
		return demote_steps(r, reason, exec);
	return rollout_kernel_back_steps(r, reason, exec);
}

int rollout_resume_kernel_back(struct rollout *r)
{
	const char *reason = r->st.pending.nr_args ? r->st.pending.args[0] : "?";
	char copy[512];

	snprintf(copy, sizeof(copy), "%s", reason);	/* pending goes away */
	if (r->st.phase == PHASE_STAGED)
		return unload_steps(r, copy);
	if (r->st.phase == PHASE_TRIAL)
		return rollout_kernel_back_steps(r, copy, false);
	if (r->st.phase == PHASE_PROMOTED)
		return demote_steps(r, copy, false);
	return rollout_fail(r, "kernel-rollback", "abandoned: no trial any more", 0);
}
