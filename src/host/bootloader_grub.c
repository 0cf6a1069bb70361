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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/grubcfg.h"
#include "host/grubenv.h"
#include "lib/rootdir.h"

static void paths(const struct bootloader *bl, char *cfg, char *env, size_t len)
{
	snprintf(cfg, len, "%s/grub.cfg", bl->grub_dir);
	snprintf(env, len, "%s/grubenv", bl->grub_dir);
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
	err = grub_cfg_load(&c, cfg, why, sizeof(why));
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
	err = grub_cfg_load(&c, cfg, why, len);
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
		err = grub_cfg_load(&c, cfg, why, len);
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
	if (!err && !spec)
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
	free(v);
	if (err == -ENOENT || (!err && !v))
		return 0;
	return err ? err : grubenv_unset(env, "next_entry", why, len);
}
