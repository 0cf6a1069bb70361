// SPDX-License-Identifier: GPL-2.0
/*
 * GRUB: Debian's (the menu of grub.cfg, whose "set default" is grubenv's
 * saved_entry when GRUB_DEFAULT=saved, as the rafleet package sets it) and
 * Fedora's with BLS entries (the menu made at boot by blscfg from
 * /boot/loader/entries, the default grubenv's saved_entry, an entry's id).
 * Both: the one-shot is grubenv's next_entry, which 00_header's block
 * boots once and clears.  Written with grub-editenv, as grub-set-default
 * and grub-reboot write it (they are scripts around it): saved_entry and
 * next_entry, nothing else.
 */
#include "host/bootloader_grub.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/grubcfg.h"
#include "host/grubenv.h"
#include "lib/atomicfile.h"
#include "lib/rootdir.h"
#include "lib/strbuf.h"

static void paths(const struct bootloader *bl, char *cfg, char *env, size_t len)
{
	snprintf(cfg, len, "%s/grub.cfg", bl->grub_dir);
	snprintf(env, len, "%s/grubenv", bl->grub_dir);
}

/*
 * Debian's menu as GRUB shows it: grub.cfg and, where it sources it
 * (rafleet's /etc/grub.d/42_rafleet, last of the menu), the one-shot
 * trial entry of GRUB_TRIAL_CFG.
 */
static int debian_load(const struct bootloader *bl, struct grub_cfg *c, char *why, size_t len)
{
	char cfg[128], env[128], trial[128];

	paths(bl, cfg, env, sizeof(cfg));
	snprintf(trial, sizeof(trial), "%s/%s", bl->grub_dir, GRUB_TRIAL_CFG);
	return grub_cfg_load_sourcing(c, cfg, GRUB_TRIAL_CFG, trial, why, len);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A grub.cfg menuentry as a struct boot_entry (bootentry.h) of the menu. */
static int add_entry(struct boot_loader *m, const struct grub_entry *g, const char *cfg,
		     struct warnings *w)
{
	struct boot_entry *v = realloc(m->entries, (m->nr_entries + 1) * sizeof(*v)), *e;
	char path[4096];

	if (!v)
		return -ENOMEM;
	m->entries = v;
	e = &v[m->nr_entries++];
	memset(e, 0, sizeof(*e));
	e->tries_left = e->tries_done = -1;
	e->id = strdup(g->path);
	e->file = strdup(cfg);
	e->base = strdup("/boot");
	e->title = dup_or_null(g->title);
	e->version = g->version && g->version[0] ? strdup(g->version) : NULL;
	e->kernel = dup_or_null(g->kernel);
	e->options = dup_or_null(g->options);
	if (!e->id || !e->file || !e->base || (g->title && !e->title) ||
	    (g->kernel && !e->kernel) || (g->options && !e->options))
		return -ENOMEM;
	if (g->nr_initrd) {
		e->initrd = calloc(g->nr_initrd, sizeof(*e->initrd));
		if (!e->initrd)
			return -ENOMEM;
		for (size_t i = 0; i < g->nr_initrd; i++, e->nr_initrd++)
			if (!(e->initrd[i] = strdup(g->initrd[i])))
				return -ENOMEM;
	}
	e->bootable = e->kernel && boot_entry_file(rootdir_get(), e, e->kernel, path, sizeof(path));
	if (e->kernel && !e->bootable)
		warn_add(w, "%s: %s: linux %s: no such file in /boot or /", cfg, g->path, e->kernel);
	return 0;
}

/* The default string of Debian's grub.cfg, and what says so. */
static int debian_default_spec(const struct grub_cfg *c, const char *env, char **spec,
			       char *source, size_t slen, bool *implicit, char *why, size_t len)
{
	int err;

	*spec = NULL;
	*implicit = false;
	if (!c->default_saved) {
		*spec = dup_or_null(c->default_value);
		snprintf(source, slen, "%s: set default=\"%s\"", c->file,
			 c->default_value ? c->default_value : "0");
		/* GRUB_DEFAULT=0 (or unset): the newest kernel, whatever it is */
		*implicit = !c->default_value || !strcmp(c->default_value, "0");
		return c->default_value && !*spec ? -ENOMEM : 0;
	}
	err = grubenv_get(env, "saved_entry", spec, why, len);
	if (err == -ENOENT)
		err = 0;	/* no grubenv: GRUB boots entry 0 */
	if (!err)
		snprintf(source, slen, "%s: saved_entry=%s (GRUB_DEFAULT=saved)", env,
			 *spec ? *spec : "unset: entry 0");
	*implicit = !*spec;
	return err;
}

static int debian_target(const struct grub_cfg *c, const char *spec, struct boot_target *t,
			 char *why, size_t len)
{
	const struct grub_entry *e;
	int err = grub_cfg_resolve(c, spec, &e, why, len);

	if (err)
		return err;
	if (!e->kernel) {
		snprintf(why, len, "%s: the default %s is not a Linux entry", c->file,
			 spec ? spec : "0");
		return -ENOENT;
	}
	snprintf(t->entry, sizeof(t->entry), "%s", e->path);
	snprintf(t->release, sizeof(t->release), "%s", e->version ? e->version : "");
	return 0;
}

/* ---- Fedora: BLS entries ---- */

static int bls_menu(struct boot_loader *m, struct warnings *w)
{
	static const char *const parts[] = { "/boot", NULL };

	return boot_loader_load_parts(m, rootdir_get(), parts, w);
}

/* The BLS entry grubenv's @spec names (an id, or a title), or the first. */
static const struct boot_entry *bls_pick(const struct boot_loader *m, const char *spec)
{
	if (!spec || !*spec) {
		for (size_t i = 0; i < m->nr_entries; i++)
			if (m->entries[i].bootable)
				return &m->entries[i];
		return NULL;
	}
	for (size_t i = 0; i < m->nr_entries; i++)
		if (m->entries[i].bootable &&
		    (!strcmp(m->entries[i].id, spec) ||
		     (m->entries[i].title && !strcmp(m->entries[i].title, spec))))
			return &m->entries[i];
	return NULL;
}

/* ---- the backend ---- */

int grub_menu(const struct bootloader *bl, struct boot_loader *menu, struct warnings *w)
{
	char cfg[128], env[128], why[512], *spec = NULL, source[256];
	bool implicit;
	struct grub_cfg c;
	const struct grub_entry *def = NULL;
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	if (bl->kind == BOOTLOADER_GRUB_BLS) {
		err = bls_menu(menu, w);
		if (err)
			return err;
		err = grubenv_get(env, "saved_entry", &spec, why, sizeof(why));
		if (err && err != -ENOENT)
			warn_add(w, "%s", why);
		menu->default_entry = (struct boot_entry *)bls_pick(menu, spec);
		free(menu->default_pattern);	/* loader.conf's: not GRUB's */
		menu->default_pattern = spec;
		free(menu->conf);
		menu->conf = strdup(env);
		return menu->conf ? 0 : -ENOMEM;
	}
	memset(menu, 0, sizeof(*menu));
	err = debian_load(bl, &c, why, sizeof(why));
	if (err) {
		grub_cfg_free(&c);
		if (err == -ENOMEM)
			return err;
		warn_add(w, "%s", why);
		return 0;
	}
	for (size_t i = 0; !err && i < c.nr_bootable; i++)
		err = add_entry(menu, c.bootable[i], cfg, w);
	if (!err)
		err = debian_default_spec(&c, env, &spec, source, sizeof(source), &implicit, why,
					  sizeof(why));
	if (!err && !grub_cfg_resolve(&c, spec, &def, why, sizeof(why)))
		for (size_t i = 0; i < menu->nr_entries; i++)
			if (!strcmp(menu->entries[i].id, def->path))
				menu->default_entry = &menu->entries[i];
	if (err == -EINVAL || err == -EIO) {
		warn_add(w, "%s", why);
		err = 0;
	}
	menu->default_pattern = spec;
	menu->conf = strdup(cfg);
	grub_cfg_free(&c);
	return err ? err : menu->conf ? 0 : -ENOMEM;
}

int grub_find(const struct bootloader *bl, const char *release, struct boot_target *t,
	      char *why, size_t len)
{
	char cfg[128], env[128];
	const struct grub_entry *e;
	struct grub_cfg c;
	int err;

	if (bl->kind == BOOTLOADER_GRUB_BLS)
		return -ENOTSUP;
	paths(bl, cfg, env, sizeof(cfg));
	err = grub_cfg_load(&c, cfg, why, len);
	if (!err)
		err = grub_cfg_find_release(&c, release, &e, why, len);
	if (!err) {
		snprintf(t->entry, sizeof(t->entry), "%s", e->path);
		snprintf(t->release, sizeof(t->release), "%s", release);
		snprintf(t->source, sizeof(t->source), "%s", cfg);
	}
	grub_cfg_free(&c);
	return err;
}

/* @t from the entry GRUB boots for the default string @spec; -ENOENT if none */
static int resolve(const struct bootloader *bl, const char *spec, struct boot_target *t,
		   char *why, size_t len)
{
	char cfg[128], env[128];
	struct grub_cfg c;
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	if (bl->kind == BOOTLOADER_GRUB_BLS) {
		struct boot_loader m;
		struct warnings w = { 0 };
		const struct boot_entry *e;

		err = bls_menu(&m, &w);
		warn_free(&w);
		e = err ? NULL : bls_pick(&m, spec);
		if (e) {
			boot_target_of(t, e);
		} else if (!err) {
			snprintf(why, len, "%s: %s names no bootable entry of /boot/loader/entries",
				 env, spec ? spec : "(unset)");
			err = -ENOENT;
		}
		boot_loader_free(&m);
		return err;
	}
	err = debian_load(bl, &c, why, len);
	if (!err)
		err = debian_target(&c, spec, t, why, len);
	grub_cfg_free(&c);
	return err;
}

int grub_default(const struct bootloader *bl, struct boot_target *t, char *why, size_t len)
{
	char cfg[128], env[128], *spec = NULL;
	struct grub_cfg c;
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	if (bl->kind == BOOTLOADER_GRUB_BLS) {
		err = grubenv_get(env, "saved_entry", &spec, why, len);
		if (err == -ENOENT)
			err = 0;
		snprintf(t->source, sizeof(t->source), "%s: saved_entry=%s", env,
			 spec ? spec : "unset: the first entry");
		t->implicit = !spec;
	} else {
		err = debian_load(bl, &c, why, len);
		if (!err)
			err = debian_default_spec(&c, env, &spec, t->source, sizeof(t->source),
						  &t->implicit, why, len);
		grub_cfg_free(&c);
	}
	if (!err)
		err = resolve(bl, spec, t, why, len);
	free(spec);
	return err;
}

int grub_oneshot(const struct bootloader *bl, struct boot_target *t, char *why, size_t len)
{
	char cfg[128], env[128], *spec = NULL, rwhy[256];
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	err = grubenv_get(env, "next_entry", &spec, why, len);
	/* empty is unset: 00_header's "set next_entry=; save_env next_entry" */
	if (!err && (!spec || !*spec))
		err = -ENOENT;
	if (!err) {
		snprintf(t->source, sizeof(t->source), "%s: next_entry=%s", env, spec);
		snprintf(t->entry, sizeof(t->entry), "%s", spec);
		/* one that names nothing is still set: said, its kernel unknown */
		resolve(bl, spec, t, rwhy, sizeof(rwhy));
	}
	free(spec);
	return err;
}

/* Debian: GRUB_DEFAULT must be "saved", or saved_entry is not read. */
static int check_saved(const struct bootloader *bl, const char *cfg, char *why, size_t len)
{
	struct grub_cfg c;
	int err;

	if (bl->kind == BOOTLOADER_GRUB_BLS)
		return 0;
	err = grub_cfg_load(&c, cfg, why, len);
	if (!err && !c.default_saved) {
		snprintf(why, len, "%s: set default=\"%s\", not \"${saved_entry}\": GRUB_DEFAULT is not \"saved\", so grubenv's default would not be read; the rafleet package's /etc/default/grub.d/rafleet.cfg sets it (then update-grub)",
			 cfg, c.default_value ? c.default_value : "0");
		err = -EINVAL;
	}
	grub_cfg_free(&c);
	return err;
}

/* grubenv's @key (saved_entry, next_entry) set to @t's entry, as @tool does */
static int grub_set(const struct bootloader *bl, const char *key, const char *tool,
		    const struct boot_target *t, char *how, size_t hlen, char *why, size_t len)
{
	char cfg[128], env[128];
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	err = check_saved(bl, cfg, why, len);
	if (!err)
		err = grubenv_set(env, key, t->entry, why, len);
	if (!err)
		snprintf(how, hlen, "%s: %s=%s (grub-editenv, as %s)", env, key, t->entry, tool);
	return err;
}

int grub_set_default(const struct bootloader *bl, const struct boot_target *t,
		     char *how, size_t hlen, char *why, size_t len)
{
	return grub_set(bl, "saved_entry", "grub-set-default", t, how, hlen, why, len);
}

int grub_set_oneshot(const struct bootloader *bl, const struct boot_target *t,
		     char *how, size_t hlen, char *why, size_t len)
{
	return grub_set(bl, "next_entry", "grub-reboot", t, how, hlen, why, len);
}

int grub_clear_oneshot(const struct bootloader *bl, char *why, size_t len)
{
	char cfg[128], env[128], *v = NULL;
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	err = grubenv_get(env, "next_entry", &v, why, len);
	if (err == -ENOENT || (!err && (!v || !*v))) {
		free(v);
		return 0;
	}
	free(v);
	return err ? err : grubenv_unset(env, "next_entry", why, len);
}

/* ---- Debian: a one-shot trial entry ---- */

/* @w as one GRUB word: bare if it can be, else in '...' ('\'' for a '). */
static void grub_word(struct strbuf *o, const char *w)
{
	bool bare = *w;

	for (const char *p = w; *p && bare; p++)
		bare = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			      "_./=:,+-@%", *p) != NULL;
	if (bare) {
		sb_addf(o, "%s", w);
		return;
	}
	sb_addf(o, "'");
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			sb_addf(o, "'\\''");
		else
			sb_addf(o, "%c", *p);
	sb_addf(o, "'");
}

/* @cmdline's words (split at blanks), each a GRUB word after a space */
static void grub_words(struct strbuf *o, const char *cmdline)
{
	const char *p = cmdline, *w;
	char word[4096];
	size_t n;

	while (word_next(&p, " \t", &w, &n)) {
		if (n >= sizeof(word)) {
			o->cut = true;
			return;
		}
		snprintf(word, sizeof(word), "%.*s", (int)n, w);
		sb_addf(o, " ");
		grub_word(o, word);
	}
}

/* Line @n (1-based) of @text: its start and length, or NULL. */
static const char *line_at(const char *text, unsigned int n, size_t *len)
{
	const char *p = text;

	for (unsigned int i = 1; i < n && p; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || !*p)
		return NULL;
	*len = strcspn(p, "\n");
	return p;
}

static bool is_linux_cmd(const char *line, size_t n)
{
	static const char *const cmds[] = { "linux", "linuxefi", "linux16", NULL };
	size_t b = strspn(line, " \t");

	for (int i = 0; cmds[i]; i++) {
		size_t l = strlen(cmds[i]);

		if (b + l < n && !strncmp(line + b, cmds[i], l) &&
		    (line[b + l] == ' ' || line[b + l] == '\t'))
			return true;
	}
	return false;
}

/*
 * The trial entry's text: the block of @e in @text (grub.cfg), its own
 * lines between the menuentry line and its '}', under a menuentry of its
 * own whose id is @id, its linux line the kernel's with @cmdline.
 */
static int trial_text(const char *text, const struct grub_entry *e, const char *release,
		      const char *id, const char *cmdline, char **out, char *why, size_t len)
{
	size_t cap = strlen(text) + strlen(cmdline) * 2 + 1024, n;
	struct strbuf o;
	const char *l;
	bool linux_done = false;
	char *buf = malloc(cap), title[512];

	if (!buf)
		return -ENOMEM;
	sb_init(&o, buf, cap);
	l = line_at(text, e->line, &n);
	if (!l || !n || l[n - 1] != '{' || e->end_line <= e->line + 1) {
		snprintf(why, len, "grub.cfg:%u: the entry of %s is not a block of lines (\"menuentry ... {\" to \"}\") to copy",
			 e->line, release);
		free(buf);
		return -EINVAL;
	}
	sb_addf(&o, "# rafleet: a one-shot trial boot of %s (rafleet stage --reboot), removed once it has booted\n"
		"# its lines are those of the entry \"%s\" of grub.cfg\n", release, e->path);
	snprintf(title, sizeof(title), "rafleet trial of %s (the next boot only)", release);
	sb_addf(&o, "menuentry ");
	grub_word(&o, title);
	sb_addf(&o, " --id ");
	grub_word(&o, id);
	sb_addf(&o, " {\n");
	/* the block's own lines, one after the other from the one after it */
	l = line_at(text, e->line + 1, &n);
	for (unsigned int i = e->line + 1; l && i < e->end_line;
	     i++, l = l[n] ? line_at(l + n + 1, 1, &n) : NULL) {
		if (!linux_done && is_linux_cmd(l, n)) {
			size_t b = strspn(l, " \t"), c = strcspn(l + b, " \t");

			sb_addf(&o, "%.*s ", (int)(b + c), l);
			grub_word(&o, e->kernel);
			grub_words(&o, cmdline);
			sb_addf(&o, "\n");
			linux_done = true;
			continue;
		}
		sb_addf(&o, "%.*s\n", (int)n, l);
	}
	sb_addf(&o, "}\n");
	if (!linux_done || o.cut) {
		snprintf(why, len, "grub.cfg:%u: the entry of %s has %s", e->line, release,
			 linux_done ? "more text than a trial entry holds" : "no linux line between its braces");
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

int grub_add_trial(const struct bootloader *bl, const char *release, const char *cmdline,
		   const char *token, struct boot_target *t, char *why, size_t len)
{
	char cfg[128], env[128], rel[160], path[PATH_MAX], id[128], *text = NULL, *out = NULL;
	const struct grub_entry *e;
	struct grub_cfg c;
	int err;

	paths(bl, cfg, env, sizeof(cfg));
	snprintf(rel, sizeof(rel), "%s/%s", bl->grub_dir, GRUB_TRIAL_CFG);
	snprintf(id, sizeof(id), "%s%s", BOOT_TRIAL_PREFIX, token);
	err = grub_cfg_read(cfg, &text, why, len);
	if (err)
		return err;
	err = grub_cfg_parse(&c, text, cfg, why, len);
	if (!err && !strstr(text, GRUB_TRIAL_CFG)) {
		snprintf(why, len, "%s does not source %s: rafleet's /etc/grub.d/42_rafleet is not in it yet (update-grub), so GRUB would not see a trial entry; stage without --reboot (kexec)",
			 cfg, rel);
		err = -EOPNOTSUPP;
	}
	if (!err)
		err = grub_cfg_find_release(&c, release, &e, why, len);
	if (!err)
		err = trial_text(text, e, release, id, cmdline, &out, why, len);
	grub_cfg_free(&c);
	free(text);
	if (!err)
		err = root_path(rootdir_get(), rel, path, sizeof(path));
	if (!err) {
		err = atomic_write_file(path, out, strlen(out), 0644);
		if (err)
			snprintf(why, len, "%s: %s", rel, strerror(-err));
	}
	free(out);
	if (err)
		return err;
	snprintf(t->entry, sizeof(t->entry), "%s", id);
	snprintf(t->release, sizeof(t->release), "%s", release);
	snprintf(t->source, sizeof(t->source), "%s", rel);
	return 0;
}

int grub_remove_trials(const struct bootloader *bl, unsigned int *removed, char *why, size_t len)
{
	char rel[160], path[PATH_MAX];

	*removed = 0;
	if (bl->kind != BOOTLOADER_GRUB)
		return 0;
	snprintf(rel, sizeof(rel), "%s/%s", bl->grub_dir, GRUB_TRIAL_CFG);
	if (root_path(rootdir_get(), rel, path, sizeof(path)))
		return 0;
	if (unlink(path)) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, len, "%s: %s", rel, strerror(errno));
		return -errno;
	}
	fsync_dir_of(path);
	*removed = 1;
	return 0;
}
