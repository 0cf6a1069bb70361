// SPDX-License-Identifier: GPL-2.0
#include "host/bootloader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "host/bootloader_grub.h"
#include "host/efivar.h"
#include "lib/atomicfile.h"
#include "lib/envfile.h"
#include "lib/failpoint.h"
#include "lib/fileio.h"
#include "lib/parsenum.h"
#include "lib/rootdir.h"

/* ---- finding it ---- */

struct boot_conf {
	char loader[32], esp[PATH_MAX], xbootldr[PATH_MAX];
	unsigned int tries;
};

static int boot_conf_line(const char *name, const char *value, void *ctx,
			  char *why, size_t len)
{
	struct boot_conf *c = ctx;
	uint64_t v;

	if (!strcmp(name, "RAFLEET_BOOT_LOADER")) {
		if (strcmp(value, "auto") && strcmp(value, "systemd-boot") &&
		    strcmp(value, "grub") && strcmp(value, "grub-bls")) {
			snprintf(why, len, "RAFLEET_BOOT_LOADER=%s: auto, systemd-boot, grub or grub-bls",
				 value);
			return -EINVAL;
		}
		snprintf(c->loader, sizeof(c->loader), "%s", value);
	} else if (!strcmp(name, "RAFLEET_BOOT_ESP") || !strcmp(name, "RAFLEET_BOOT_XBOOTLDR")) {
		if (value[0] != '/' || strlen(value) >= sizeof(c->esp)) {
			snprintf(why, len, "%s=%s: an absolute path", name, value);
			return -EINVAL;
		}
		snprintf(name[13] == 'E' ? c->esp : c->xbootldr, sizeof(c->esp), "%s", value);
	} else if (!strcmp(name, "RAFLEET_BOOT_TRIES")) {
		if (parse_u64(value, 16, &v)) {
			snprintf(why, len, "RAFLEET_BOOT_TRIES=%s: 0 (no boot counting) to 16", value);
			return -EINVAL;
		}
		c->tries = (unsigned int)v;
	} else {
		snprintf(why, len, "%s: not a setting of this file", name);
		return -EINVAL;
	}
	return 0;
}

static bool is_dir(const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	return !root_path(rootdir_get(), path, full, sizeof(full)) &&
	       !stat(full, &st) && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	return !root_path(rootdir_get(), path, full, sizeof(full)) &&
	       !stat(full, &st) && S_ISREG(st.st_mode);
}

static bool is_test_root(void)
{
	return strcmp(rootdir_get(), "/") != 0;
}

/*
 * A mount point of its own (not the same device as its parent's), with
 * a vfat filesystem when @vfat: what bootctl takes for an ESP (it also
 * checks the partition's type, which needs udev: not here).  Under a
 * test root, where nothing can be mounted, the folder stands for it.
 */
static bool is_partition(const char *path, bool vfat)
{
	char parent[PATH_MAX];
	struct stat st, pst;
	struct statfs sf;

	if (is_test_root())
		return is_dir(path);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	snprintf(parent, sizeof(parent), "%s/..", path);
	if (stat(parent, &pst) || pst.st_dev == st.st_dev)
		return false;
	return !vfat || (!statfs(path, &sf) && sf.f_type == MSDOS_SUPER_MAGIC);
}

/* Does @part hold systemd-boot's files: loader/ (entries, loader.conf)? */
static bool has_loader_files(const char *part)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/loader", strcmp(part, "/") ? part : "");
	return is_dir(p);
}

/* The ESP (bootctl's order: /efi, /boot, /boot/efi) and XBOOTLDR. */
static void find_partitions(struct bootloader *bl, const struct boot_conf *c)
{
	static const char *const esps[] = { "/efi", "/boot", "/boot/efi", NULL };

	if (c->esp[0])
		snprintf(bl->esp, sizeof(bl->esp), "%s", c->esp);
	for (int i = 0; !bl->esp[0] && esps[i]; i++)
		if (is_partition(esps[i], true) && has_loader_files(esps[i]))
			snprintf(bl->esp, sizeof(bl->esp), "%s", esps[i]);
	if (c->xbootldr[0])
		snprintf(bl->xbootldr, sizeof(bl->xbootldr), "%s", c->xbootldr);
	else if (bl->esp[0] && strcmp(bl->esp, "/boot") && is_partition("/boot", false) &&
		 has_loader_files("/boot"))
		snprintf(bl->xbootldr, sizeof(bl->xbootldr), "/boot");
}

static void set_kind(struct bootloader *bl, enum bootloader_kind k)
{
	static const char *const names[] = {
		[BOOTLOADER_NONE] = "none",
		[BOOTLOADER_SDBOOT] = "systemd-boot",
		[BOOTLOADER_GRUB] = "grub",
		[BOOTLOADER_GRUB_BLS] = "grub-bls",
	};

	bl->kind = k;
	bl->name = names[k];
}

static bool grub_cfg_is_bls(const char *cfg)
{
	char full[PATH_MAX], line[512];
	bool bls = false;
	FILE *f;

	if (root_path(rootdir_get(), cfg, full, sizeof(full)))
		return false;
	f = fopen(full, "re");
	if (!f)
		return false;
	while (!bls && fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");

		bls = !strncmp(p, "blscfg", 6) && (p[6] == '\n' || p[6] == ' ' || !p[6]);
	}
	fclose(f);
	return bls;
}

int bootloader_detect(struct bootloader *bl, char *why, size_t len)
{
	struct boot_conf c = { .tries = BOOT_TRIES_DEFAULT };
	char info[128], w[256];
	int found = 0, err;

	memset(bl, 0, sizeof(*bl));
	set_kind(bl, BOOTLOADER_NONE);
	err = envfile_read(BOOT_CONF, boot_conf_line, &c, &found, why, len);
	if (err)
		return err;
	bl->tries = c.tries;
	bl->efi = efivar_available();
	if (c.loader[0] && strcmp(c.loader, "auto")) {
		snprintf(bl->chosen_by, sizeof(bl->chosen_by), "%s: RAFLEET_BOOT_LOADER=%s",
			 BOOT_CONF, c.loader);
		set_kind(bl, !strcmp(c.loader, "systemd-boot") ? BOOTLOADER_SDBOOT :
			     !strcmp(c.loader, "grub") ? BOOTLOADER_GRUB : BOOTLOADER_GRUB_BLS);
	} else if (bl->efi && !efivar_get_loader("LoaderInfo", info, sizeof(info), w, sizeof(w)) &&
		   !strncmp(info, "systemd-boot", 12)) {
		snprintf(bl->chosen_by, sizeof(bl->chosen_by), "EFI variable LoaderInfo: %s", info);
		set_kind(bl, BOOTLOADER_SDBOOT);
	} else if (is_file("/boot/grub2/grub.cfg") || is_file("/boot/grub/grub.cfg")) {
		const char *cfg = is_file("/boot/grub2/grub.cfg") ? "/boot/grub2/grub.cfg" :
								    "/boot/grub/grub.cfg";

		set_kind(bl, grub_cfg_is_bls(cfg) ? BOOTLOADER_GRUB_BLS : BOOTLOADER_GRUB);
		snprintf(bl->chosen_by, sizeof(bl->chosen_by), "%s%s", cfg,
			 bl->kind == BOOTLOADER_GRUB_BLS ? " (blscfg)" : "");
	}
	if (bl->kind == BOOTLOADER_GRUB || bl->kind == BOOTLOADER_GRUB_BLS) {
		snprintf(bl->grub_dir, sizeof(bl->grub_dir), "%s",
			 is_dir("/boot/grub2") ? "/boot/grub2" : "/boot/grub");
		return 0;
	}
	find_partitions(bl, &c);
	if (bl->kind == BOOTLOADER_NONE && (bl->esp[0] || has_loader_files("/boot"))) {
		set_kind(bl, BOOTLOADER_SDBOOT);
		snprintf(bl->chosen_by, sizeof(bl->chosen_by), "%s/loader%s",
			 bl->esp[0] ? bl->esp : "/boot", bl->esp[0] ? " on the ESP" :
			 " (no ESP: the files without the firmware's variables)");
	}
	if (bl->kind == BOOTLOADER_NONE) {
		snprintf(why, len, "no boot loader found: no systemd-boot (LoaderInfo, an ESP at /efi, /boot or /boot/efi, /boot/loader), no /boot/grub/grub.cfg or /boot/grub2/grub.cfg; %s can name one",
			 BOOT_CONF);
		return -ENOENT;
	}
	if (!bl->esp[0])
		snprintf(bl->esp, sizeof(bl->esp), "/boot");
	return 0;
}

/* ---- systemd-boot ---- */

/* the menus on the ESP and XBOOTLDR, merged as systemd-boot merges them */
static int sdboot_load(const struct bootloader *bl, struct boot_loader *menu,
		       struct warnings *w)
{
	const char *parts[3] = { bl->esp, bl->xbootldr[0] ? bl->xbootldr : NULL, NULL };

	return boot_loader_load_parts(menu, rootdir_get(), parts, w);
}

/*
 * LoaderEntryDefault, which overrides loader.conf as in systemd-boot:
 * 0, with @var "" when it is not set or the boot has no EFI variables.
 */
static int sdboot_efi_default(const struct bootloader *bl, char *var, size_t vlen,
			      char *why, size_t len)
{
	int err = bl->efi ? efivar_get_loader("LoaderEntryDefault", var, vlen, why, len) :
			    -ENOENT;

	if (err == -ENOENT) {
		var[0] = '\0';
		return 0;
	}
	return err;
}

static int sdboot_menu(const struct bootloader *bl, struct boot_loader *menu,
		       struct warnings *w)
{
	char var[1024], why[256];
	int err;

	err = sdboot_load(bl, menu, w);
	if (err)
		return err;
	if (sdboot_efi_default(bl, var, sizeof(var), why, sizeof(why))) {
		warn_add(w, "%s", why);
	} else if (var[0]) {
		menu->default_entry = boot_loader_find(menu, var);
		if (!menu->default_entry)
			warn_add(w, "EFI variable LoaderEntryDefault=%s matches no bootable entry", var);
	}
	return 0;
}

static int sdboot_default(const struct bootloader *bl, struct boot_target *t,
			  char *why, size_t len)
{
	struct boot_loader m;
	struct warnings w = { 0 };
	char var[1024];
	int err;

	err = sdboot_load(bl, &m, &w);
	warn_free(&w);
	if (err)
		return err;
	err = sdboot_efi_default(bl, var, sizeof(var), why, len);
	if (err)
		goto out;
	if (var[0]) {
		m.default_entry = boot_loader_find(&m, var);
		snprintf(t->source, sizeof(t->source), "EFI variable LoaderEntryDefault=%s", var);
		if (!m.default_entry) {
			snprintf(why, len, "EFI variable LoaderEntryDefault=%s matches no bootable entry",
				 var);
			err = -ENOENT;
		}
	} else if (m.default_pattern && m.default_pattern[0] == '@') {
		snprintf(why, len, "%s: default %s: chosen from an EFI variable at boot, which %s",
			 m.conf, m.default_pattern,
			 bl->efi ? "is not supported here" : "this boot cannot read (no efivarfs)");
		err = -EOPNOTSUPP;
	} else if (m.default_pattern) {
		snprintf(t->source, sizeof(t->source), "%s: default %s", m.conf, m.default_pattern);
		if (!m.default_entry) {
			snprintf(why, len, "%s: default %s matches no bootable entry", m.conf,
				 m.default_pattern);
			err = -ENOENT;
		}
	} else {
		snprintf(t->source, sizeof(t->source), "%s: no default line: the first entry of the menu",
			 m.conf);
		t->implicit = true;
		if (!m.default_entry) {
			snprintf(why, len, "no bootable entry in %s/loader/entries%s%s", bl->esp,
				 bl->xbootldr[0] ? " or " : "", bl->xbootldr);
			err = -ENOENT;
		}
	}
	if (!err)
		boot_target_of(t, m.default_entry);
out:
	boot_loader_free(&m);
	return err;
}

static int sdboot_oneshot(const struct bootloader *bl, struct boot_target *t,
			  char *why, size_t len)
{
	struct boot_loader m;
	struct warnings w = { 0 };
	const struct boot_entry *e;
	int err;

	if (!bl->efi)
		return -ENOENT;
	err = efivar_get_loader("LoaderEntryOneShot", t->entry, sizeof(t->entry), why, len);
	if (err)
		return err;
	snprintf(t->source, sizeof(t->source), "EFI variable LoaderEntryOneShot=%s", t->entry);
	err = sdboot_menu(bl, &m, &w);
	warn_free(&w);
	if (err)
		return err;
	e = boot_loader_find(&m, t->entry);
	if (e)
		boot_target_of(t, e);
	else
		t->release[0] = '\0';
	boot_loader_free(&m);
	return 0;
}

/*
 * The boot counting suffix of an entry file: PARTITION/loader/entries/
 * ID.conf becomes ID+TRIES.conf, which systemd-boot counts down on each
 * boot and systemd-bless-boot renames back to ID.conf once the boot is
 * good (boot-complete.target).  Done before the default names it, so a
 * crash between leaves a counted entry that is not the default: harmless.
 */
static int sdboot_count(const struct bootloader *bl, const char *id, char *renamed,
			size_t rlen, char *why, size_t len)
{
	struct boot_loader m;
	struct warnings w = { 0 };
	const struct boot_entry *e = NULL;
	char from[PATH_MAX], to[PATH_MAX], rel[PATH_MAX];
	int err;

	renamed[0] = '\0';
	err = sdboot_load(bl, &m, &w);
	warn_free(&w);
	if (err)
		return err;
	for (size_t i = 0; i < m.nr_entries && !e; i++)
		if (!strcmp(m.entries[i].id, id))
			e = &m.entries[i];
	if (!e || e->tries_left >= 0)	/* gone, or counted already */
		goto out;
	if ((size_t)snprintf(rel, sizeof(rel), "%.*s+%u.conf", (int)(strlen(e->file) - 5),
			     e->file, bl->tries) >= sizeof(rel) ||
	    root_path(rootdir_get(), e->file, from, sizeof(from)) ||
	    root_path(rootdir_get(), rel, to, sizeof(to))) {
		snprintf(why, len, "%s: the path is too long", e->file);
		err = -ENAMETOOLONG;
		goto out;
	}
	if (rename(from, to))
		err = -errno;
	if (!err) {
		failpoint("boot-count.after-rename");
		err = fsync_dir_of(to);
	}
	if (err) {
		snprintf(why, len, "%s: cannot rename it to %s for boot counting: %s", e->file,
			 rel, strerror(-err));
		goto out;
	}
	snprintf(renamed, rlen, "%s", rel);
out:
	boot_loader_free(&m);
	return err;
}

static int sdboot_set_default(const struct bootloader *bl, const struct boot_target *t,
			      bool count, char *how, size_t hlen, char *why, size_t len)
{
	char var[1024], pattern[1100], conf[PATH_MAX + 32], vwhy[256], renamed[PATH_MAX];
	char done[256], counting[PATH_MAX + 32] = "";
	/* systemd-boot counts only where it runs: an EFI boot */
	bool counted = count && bl->tries > 0 && bl->efi;
	int err;

	/*
	 * A counted entry is ID+N-M.conf until blessed: a pattern that
	 * matches it by either name (and not another id with ID as prefix).
	 */
	snprintf(pattern, sizeof(pattern), counted ? "%s[.+]*" : "%s.conf", t->entry);
	if (counted) {
		err = sdboot_count(bl, t->entry, renamed, sizeof(renamed), why, len);
		if (err)
			return err;
		if (renamed[0])
			snprintf(counting, sizeof(counting), "; boot counting: %s", renamed);
	}
	if (!sdboot_efi_default(bl, var, sizeof(var), vwhy, sizeof(vwhy)) && var[0]) {
		/* the variable is what systemd-boot obeys: set it, not the file */
		err = efivar_set_loader("LoaderEntryDefault", pattern, why, len);
		if (!err)
			snprintf(how, hlen, "EFI variable LoaderEntryDefault=%s%s", pattern, counting);
		return err;
	}
	snprintf(conf, sizeof(conf), "%s/loader/loader.conf", strcmp(bl->esp, "/") ? bl->esp : "");
	err = loader_conf_set_default(conf, pattern, done, sizeof(done), why, len);
	if (!err)
		snprintf(how, hlen, "%s: default %s (%s)%s", conf, pattern, done, counting);
	return err;
}

static int sdboot_set_oneshot(const struct bootloader *bl, const struct boot_target *t,
			      char *how, size_t hlen, char *why, size_t len)
{
	char value[1100];
	int err;

	if (!bl->efi) {
		snprintf(why, len, "systemd-boot takes a one-shot boot from the EFI variable LoaderEntryOneShot, and this boot has no efivarfs (not booted by UEFI?)");
		return -EOPNOTSUPP;
	}
	snprintf(value, sizeof(value), "%s.conf", t->entry);
	err = efivar_set_loader("LoaderEntryOneShot", value, why, len);
	if (!err)
		snprintf(how, hlen, "EFI variable LoaderEntryOneShot=%s", value);
	return err;
}

static int sdboot_clear_oneshot(const struct bootloader *bl, char *why, size_t len)
{
	return bl->efi ? efivar_del_loader("LoaderEntryOneShot", why, len) : 0;
}

/* ---- loader.conf on vfat ---- */

/*
 * @text, a file of "KEY value" lines (loader.conf, a BLS entry), with the
 * lines whose first word is one of @drop (NULL-ended) left out, @head
 * before the rest and @tail after it.  NULL on ENOMEM.
 */
static char *lines_replaced(const char *text, const char *const *drop, const char *head,
			    const char *tail)
{
	char *out = NULL, *copy = strdup(text), *line, *save;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	if (!f || !copy) {
		if (f)
			fclose(f);
		free(copy);
		free(out);
		return NULL;
	}
	fputs(head, f);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = line + strspn(line, " \t");
		size_t k = strcspn(p, " \t");
		bool keep = true;

		for (const char *const *d = drop; *d && keep; d++)
			keep = !(k == strlen(*d) && !strncmp(p, *d, k));
		if (keep)
			fprintf(f, "%s\n", line);
	}
	fputs(tail, f);
	free(copy);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * @text with its "default" lines and our padding (made anew by the caller)
 * dropped, and one "default" line for @pattern added.
 */
static char *conf_with_default(const char *text, const char *pattern)
{
	static const char *const drop[] = { "default", "#rafleet-pad:", NULL };
	char tail[1200];

	snprintf(tail, sizeof(tail), "default %s\n", pattern);
	return lines_replaced(text, drop, "", tail);
}

/* @text padded with a comment to exactly LOADER_CONF_SECTOR bytes. */
static bool pad_to_sector(const char *text, char *out)
{
	static const char tag[] = "#rafleet-pad: one sector, rewritten in place ";
	size_t n = strlen(text), fill;

	if (n + sizeof(tag) + 1 > LOADER_CONF_SECTOR)
		return false;
	memcpy(out, text, n);
	memcpy(out + n, tag, sizeof(tag) - 1);
	fill = LOADER_CONF_SECTOR - n - (sizeof(tag) - 1) - 1;
	memset(out + n + sizeof(tag) - 1, '#', fill);
	out[LOADER_CONF_SECTOR - 1] = '\n';
	return true;
}

int loader_conf_set_default(const char *path, const char *pattern, char *how,
			    size_t hlen, char *why, size_t len)
{
	char full[PATH_MAX], old[65536], sector[LOADER_CONF_SECTOR];
	char *text;
	ssize_t n = 0;
	int fd, err = 0;

	if (root_path(rootdir_get(), path, full, sizeof(full)))
		return -ENAMETOOLONG;
	fd = open(full, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT) {
		err = -errno;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return err;
	}
	if (fd >= 0) {
		n = pread(fd, old, sizeof(old) - 1, 0);
		if (n < 0 || (size_t)n == sizeof(old) - 1) {
			snprintf(why, len, "%s: %s", path, n < 0 ? strerror(errno) :
				 "larger than 64 KiB: not a loader.conf");
			close(fd);
			return n < 0 ? -EIO : -EFBIG;
		}
	}
	old[n] = '\0';
	/* a replacement a crash cut short (loader-conf.after-temp) */
	atomic_leftovers_remove(full, ".tmp.");
	text = conf_with_default(old, pattern);
	if (!text) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	if (!pad_to_sector(text, sector)) {
		/* does not fit a sector: a new file, renamed over the old */
		if (fd >= 0)
			close(fd);
		err = atomic_write_file_fp(full, text, strlen(text), 0644, "loader-conf");
		snprintf(how, hlen, "replaced by rename: longer than one sector");
	} else if (fd >= 0 && n == LOADER_CONF_SECTOR) {
		/* the one sector the file has, written over in place */
		ssize_t w = pwrite(fd, sector, sizeof(sector), 0);

		if (w != (ssize_t)sizeof(sector))
			err = w < 0 ? -errno : -EIO;	/* short: the disk is full? */
		if (!err) {
			failpoint("loader-conf.after-write");
			if (fsync(fd))
				err = -errno;
		}
		if (!err)
			failpoint("loader-conf.after-fsync");
		close(fd);
		snprintf(how, hlen, "one sector rewritten in place");
	} else {
		if (fd >= 0)
			close(fd);
		err = atomic_write_file_fp(full, sector, sizeof(sector), 0644, "loader-conf");
		snprintf(how, hlen, "replaced by rename: now one sector, rewritten in place from here on");
	}
	if (err)
		snprintf(why, len, "%s: %s", path, strerror(-err));
	free(text);
	return err;
}

/* ---- the entry of a kernel ---- */

int bootloader_find(const struct bootloader *bl, const char *release,
		    const char *image, struct boot_target *t, char *why, size_t len)
{
	struct boot_loader m;
	struct warnings w = { 0 };
	const struct boot_entry *e = NULL;
	int err;

	memset(t, 0, sizeof(*t));
	/* Debian's GRUB: the stable id path, never the top-level "simple" one */
	if (bl->kind == BOOTLOADER_GRUB && release)
		return grub_find(bl, release, t, why, len);
	err = bootloader_menu(bl, &m, &w);
	warn_free(&w);
	if (err)
		return err;
	for (size_t i = 0; i < m.nr_entries && !e; i++)
		if (m.entries[i].bootable && boot_entry_boots(&m.entries[i], release, image))
			e = &m.entries[i];
	/* the kernel of a release that the entry does not name by version */
	for (size_t i = 0; i < m.nr_entries && !e && release; i++) {
		char rel[256];

		if (m.entries[i].bootable && !m.entries[i].version &&
		    boot_entry_release(&m.entries[i], rel, sizeof(rel)) && !strcmp(rel, release))
			e = &m.entries[i];
	}
	if (e) {
		boot_target_of(t, e);
		snprintf(t->source, sizeof(t->source), "%s", e->file ? e->file : bl->name);
	} else {
		snprintf(why, len, "%s: no bootable menu entry boots %s", bl->name,
			 release ? release : image);
		err = -ENOENT;
	}
	boot_loader_free(&m);
	return err;
}

/* ---- the backends ---- */

static bool is_grub(const struct bootloader *bl)
{
	return bl->kind == BOOTLOADER_GRUB || bl->kind == BOOTLOADER_GRUB_BLS;
}

int bootloader_menu(const struct bootloader *bl, struct boot_loader *menu,
		    struct warnings *w)
{
	if (is_grub(bl))
		return grub_menu(bl, menu, w);
	return sdboot_menu(bl, menu, w);
}

int bootloader_default(const struct bootloader *bl, struct boot_target *t,
		       char *why, size_t len)
{
	memset(t, 0, sizeof(*t));
	if (is_grub(bl))
		return grub_default(bl, t, why, len);
	return sdboot_default(bl, t, why, len);
}

int bootloader_oneshot(const struct bootloader *bl, struct boot_target *t,
		       char *why, size_t len)
{
	memset(t, 0, sizeof(*t));
	if (is_grub(bl))
		return grub_oneshot(bl, t, why, len);
	return sdboot_oneshot(bl, t, why, len);
}

int bootloader_set_default(const struct bootloader *bl, const struct boot_target *t,
			   bool count, char *how, size_t hlen, char *why, size_t len)
{
	if (is_grub(bl))
		return grub_set_default(bl, t, how, hlen, why, len);
	return sdboot_set_default(bl, t, count, how, hlen, why, len);
}

int bootloader_set_oneshot(const struct bootloader *bl, const struct boot_target *t,
			   char *how, size_t hlen, char *why, size_t len)
{
	if (is_grub(bl))
		return grub_set_oneshot(bl, t, how, hlen, why, len);
	return sdboot_set_oneshot(bl, t, how, hlen, why, len);
}

int bootloader_pin(const struct bootloader *bl, struct boot_target *t, bool *pinned,
		   char *how, size_t hlen, char *why, size_t len)
{
	int err;

	*pinned = false;
	err = bootloader_default(bl, t, why, len);
	if (err)
		return err;
	if (!t->implicit) {
		snprintf(how, hlen, "named already: %s", t->source);
		return 0;
	}
	/*
	 * GRUB's entry 0 is the "simple" entry, which update-grub gives to
	 * the newest kernel: pin the kernel's own entry, by its stable path.
	 */
	if (bl->kind == BOOTLOADER_GRUB && t->release[0]) {
		struct boot_target k;

		err = bootloader_find(bl, t->release, NULL, &k, why, len);
		if (err)
			return err;
		snprintf(t->entry, sizeof(t->entry), "%s", k.entry);
	}
	err = bootloader_set_default(bl, t, false, how, hlen, why, len);
	*pinned = !err;
	return err;
}

int bootloader_clear_oneshot(const struct bootloader *bl, char *why, size_t len)
{
	if (is_grub(bl))
		return grub_clear_oneshot(bl, why, len);
	return sdboot_clear_oneshot(bl, why, len);
}

/* ---- one-shot trial entries ---- */

/* Where BLS entries live: the ESP and XBOOTLDR, or grub-bls's /boot. */
static size_t entry_parts(const struct bootloader *bl, const char *parts[2])
{
	size_t n = 0;

	if (bl->kind == BOOTLOADER_GRUB)
		return 0;	/* Debian's: no entry files (grub_remove_trials) */
	if (bl->kind == BOOTLOADER_GRUB_BLS) {
		parts[n++] = "/boot";
		return n;
	}
	parts[n++] = bl->esp;
	if (bl->xbootldr[0])
		parts[n++] = bl->xbootldr;
	return n;
}

/* @text, an entry file, with its title and options lines made a trial's */
static char *trial_entry_text(const char *text, const char *release, const char *cmdline)
{
	static const char *const drop[] = { "title", "options", NULL };
	char *head = NULL, *tail = NULL, *out = NULL;

	if (asprintf(&head, "# rafleet: a one-shot trial boot of %s, removed once it has booted\n"
		     "title rafleet trial of %s (the next boot only)\n", release, release) >= 0 &&
	    asprintf(&tail, "options %s\n", cmdline) >= 0)
		out = lines_replaced(text, drop, head, tail);
	free(head);
	free(tail);
	return out;
}

/*
 * The trial entry @t just written at @dst (a host path) must not have become
 * what boots without a one-shot: -EINVAL (or bootloader_default()'s error),
 * the entry removed and @why saying so, when the default is no longer
 * @before; else 0.
 */
static int trial_keeps_default(const struct bootloader *bl, const struct boot_target *before,
			       const struct boot_target *t, const char *dst, char *why, size_t len)
{
	struct boot_target after;
	int err = bootloader_default(bl, &after, why, len);

	if (!err && (strcmp(after.entry, before->entry) || strcmp(after.release, before->release))) {
		snprintf(why, len, "adding %s made it the default (%s: %s): the default must be named first (rafleet pin-default)",
			 t->source, bl->name, after.source);
		err = -EINVAL;
	}
	if (err) {
		unlink(dst);
		fsync_dir_of(dst);
	}
	return err;
}

int bootloader_add_trial(const struct bootloader *bl, const char *release,
			 const char *cmdline, const char *token, struct boot_target *t,
			 char *why, size_t len)
{
	struct boot_target k, before;
	char src[PATH_MAX], dst[PATH_MAX], rel[PATH_MAX], text[16384], *out;
	const char *slash;
	int err;

	memset(t, 0, sizeof(*t));
	if (bl->kind != BOOTLOADER_SDBOOT && bl->kind != BOOTLOADER_GRUB_BLS &&
	    bl->kind != BOOTLOADER_GRUB) {
		snprintf(why, len, "%s: a one-shot trial boot needs a boot loader rafleet can give an entry for the trial's command line (systemd-boot, grub, grub-bls); stage without --reboot (kexec)",
			 bl->name);
		return -EOPNOTSUPP;
	}
	err = bootloader_default(bl, &before, why, len);
	if (!err && bl->kind == BOOTLOADER_GRUB) {
		err = grub_add_trial(bl, release, cmdline, token, t, why, len);
		if (!err)
			err = root_path(rootdir_get(), t->source, dst, sizeof(dst));
		return err ? err : trial_keeps_default(bl, &before, t, dst, why, len);
	}
	if (!err)
		err = bootloader_find(bl, release, NULL, &k, why, len);
	if (err)
		return err;
	/* k.source is the kernel's entry file, as the host sees it */
	slash = strrchr(k.source, '/');
	if (!slash || strncmp(k.source + strlen(k.source) - 5, ".conf", 5)) {
		snprintf(why, len, "%s: the entry of %s is not a BLS entry file", k.source, release);
		return -EINVAL;
	}
	if ((size_t)snprintf(rel, sizeof(rel), "%.*s/%s%s.conf", (int)(slash - k.source), k.source,
			     BOOT_TRIAL_PREFIX, token) >= sizeof(rel) ||
	    root_path(rootdir_get(), k.source, src, sizeof(src)) ||
	    root_path(rootdir_get(), rel, dst, sizeof(dst))) {
		snprintf(why, len, "%s: the path is too long", k.source);
		return -ENAMETOOLONG;
	}
	err = read_small_file(src, text, sizeof(text));
	if (err) {
		snprintf(why, len, "%s: %s", k.source, strerror(-err));
		return err;
	}
	out = trial_entry_text(text, release, cmdline);
	if (!out)
		return -ENOMEM;
	err = atomic_write_file(dst, out, strlen(out), 0644);
	free(out);
	if (err) {
		snprintf(why, len, "%s: %s", rel, strerror(-err));
		return err;
	}
	snprintf(t->entry, sizeof(t->entry), "%s%s", BOOT_TRIAL_PREFIX, token);
	snprintf(t->release, sizeof(t->release), "%s", release);
	snprintf(t->source, sizeof(t->source), "%s", rel);
	return trial_keeps_default(bl, &before, t, dst, why, len);
}

int bootloader_remove_trials(const struct bootloader *bl, unsigned int *removed,
			     char *why, size_t len)
{
	const char *parts[2];
	size_t n = entry_parts(bl, parts);
	struct boot_target once;
	char owhy[256];
	int err = 0;

	*removed = 0;
	if (bl->kind == BOOTLOADER_GRUB)
		err = grub_remove_trials(bl, removed, why, len);
	else if (bl->kind != BOOTLOADER_SDBOOT && bl->kind != BOOTLOADER_GRUB_BLS)
		return 0;
	for (size_t i = 0; i < n && !err; i++) {
		char rel[PATH_MAX], dir[PATH_MAX], file[PATH_MAX + 256];
		unsigned int here = 0;
		struct dirent *de;
		DIR *d;

		if ((size_t)snprintf(rel, sizeof(rel), "%s/loader/entries",
				     strcmp(parts[i], "/") ? parts[i] : "") >= sizeof(rel) ||
		    root_path(rootdir_get(), rel, dir, sizeof(dir)))
			continue;
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);

			if (strncmp(de->d_name, BOOT_TRIAL_PREFIX, strlen(BOOT_TRIAL_PREFIX)) ||
			    l < 5 || strcmp(de->d_name + l - 5, ".conf"))
				continue;
			snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
			if (unlink(file) && errno != ENOENT) {
				err = -errno;
				snprintf(why, len, "%s/%s: %s", rel, de->d_name, strerror(errno));
				break;
			}
			here++;
		}
		closedir(d);
		if (here)
			fsync_dir_of(file);
		*removed += here;
	}
	if (err)
		return err;
	/* a one-shot that names a trial entry would boot nothing now */
	if (!bootloader_oneshot(bl, &once, owhy, sizeof(owhy)) &&
	    !strncmp(once.entry, BOOT_TRIAL_PREFIX, strlen(BOOT_TRIAL_PREFIX)))
		err = bootloader_clear_oneshot(bl, why, len);
	return err;
}
