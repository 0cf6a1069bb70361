// SPDX-License-Identifier: GPL-2.0
#include "host/bootentry.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "lib/rootdir.h"

/*
 * A line as systemd-boot splits it: blanks around it, "#" comments, then
 * KEY, blanks, VALUE (quotes around all of VALUE removed).  False for a
 * line with no value.
 */
static bool split_line(char *line, char **key, char **value)
{
	char *end, *v;

	line += strspn(line, " \t");
	end = line + strcspn(line, "\r\n");
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	if (!*line || *line == '#')
		return false;
	v = line + strcspn(line, " \t");
	if (!*v)
		return false;
	*v++ = '\0';
	v += strspn(v, " \t");
	if (v[0] == '"' && end - v > 1 && end[-1] == '"') {
		v++;
		end[-1] = '\0';
	}
	*key = line;
	*value = v;
	return true;
}

static int set_str(char **dst, const char *val)
{
	char *s = strdup(val);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

static int add_options(struct boot_entry *e, const char *val)
{
	char *s;

	if (!e->options)
		return set_str(&e->options, val);
	if (asprintf(&s, "%s %s", e->options, val) < 0)
		return -ENOMEM;
	free(e->options);
	e->options = s;
	return 0;
}

static int add_initrd(struct boot_entry *e, const char *val)
{
	char **v = realloc(e->initrd, (e->nr_initrd + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	e->initrd = v;
	v[e->nr_initrd] = strdup(val);
	if (!v[e->nr_initrd])
		return -ENOMEM;
	e->nr_initrd++;
	return 0;
}

static int entry_line(struct boot_entry *e, const char *key, const char *val)
{
	static const struct {
		const char *key;
		size_t off;
	} strs[] = {
		{ "title", offsetof(struct boot_entry, title) },
		{ "version", offsetof(struct boot_entry, version) },
		{ "machine-id", offsetof(struct boot_entry, machine_id) },
		{ "sort-key", offsetof(struct boot_entry, sort_key) },
		{ "linux", offsetof(struct boot_entry, kernel) },
		{ "efi", offsetof(struct boot_entry, efi) },
	};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (!strcmp(key, strs[i].key))
			return set_str((char **)((char *)e + strs[i].off), val);
	if (!strcmp(key, "options"))
		return add_options(e, val);
	if (!strcmp(key, "initrd"))
		return add_initrd(e, val);
	return 0;	/* devicetree, architecture, ...: not ours to report */
}

/* @path under @root is a regular file */
static bool is_regular(const char *root, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	return !root_path(root, path, full, sizeof(full)) && !stat(full, &st) &&
	       S_ISREG(st.st_mode);
}

bool boot_entry_file(const char *root, const struct boot_entry *e,
		     const char *file, char *out, size_t len)
{
	const char *sep = file[0] == '/' ? "" : "/";
	const char *base = e->base && strcmp(e->base, "/") ? e->base : "";

	if ((size_t)snprintf(out, len, "%s%s%s", base, sep, file) < len &&
	    is_regular(root, out))
		return true;
	/* /boot a folder of the root filesystem: entries say /boot/... */
	if (!strcmp(base, "/boot") &&
	    (size_t)snprintf(out, len, "%s%s", sep, file) < len && is_regular(root, out))
		return true;
	out[0] = '\0';
	return false;
}

static void check_files(struct boot_entry *e, const char *root,
			struct warnings *w)
{
	const char *loader = e->kernel ? e->kernel : e->efi;
	char path[PATH_MAX];

	if (!loader) {
		warn_add(w, "%s: no linux line (nor efi): nothing to boot", e->file);
		return;
	}
	e->bootable = boot_entry_file(root, e, loader, path, sizeof(path));
	if (!e->bootable)
		warn_add(w, "%s: %s %s: no such file in %s", e->file,
			 e->kernel ? "linux" : "efi", loader, e->base);
	for (size_t i = 0; i < e->nr_initrd; i++)
		if (!boot_entry_file(root, e, e->initrd[i], path, sizeof(path)))
			warn_add(w, "%s: initrd %s: no such file in %s",
				 e->file, e->initrd[i], e->base);
}

/* "NAME+LEFT-DONE" or "NAME+LEFT": the counters, cut off the id. */
static void parse_tries(struct boot_entry *e)
{
	char *plus = strrchr(e->id, '+'), *end;
	long left, done = 0;

	e->tries_left = e->tries_done = -1;
	if (!plus || plus[1] < '0' || plus[1] > '9')
		return;
	left = strtol(plus + 1, &end, 10);
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return;
		done = strtol(end + 1, &end, 10);
	}
	if (*end || left > INT_MAX || done > INT_MAX)
		return;
	e->tries_left = (int)left;
	e->tries_done = (int)done;
	*plus = '\0';
}

static int entry_load(struct boot_entry *e, const char *root, const char *part,
		      const char *name, struct warnings *w)
{
	char real[PATH_MAX];
	char *line = NULL, *key, *val;
	size_t cap = 0;
	bool devnull;
	FILE *f;
	int err = 0;

	memset(e, 0, sizeof(*e));
	e->base = strdup(part);
	if (!e->base)
		return -ENOMEM;
	if (asprintf(&e->file, "%s/loader/entries/%s", strcmp(part, "/") ? part : "",
		     name) < 0) {
		e->file = NULL;
		return -ENOMEM;
	}
	e->id = strndup(name, strlen(name) - 5);
	if (!e->id)
		return -ENOMEM;
	parse_tries(e);
	if (root_resolve(root, e->file, real, sizeof(real), &devnull)) {
		warn_add(w, "%s: %s", e->file, strerror(ENAMETOOLONG));
		return 0;
	}
	if (devnull) {
		warn_add(w, "%s: masked (/dev/null): nothing to boot", e->file);
		return 0;
	}
	f = fopen(real, "re");
	if (!f) {
		warn_add(w, "%s: %s", e->file, strerror(errno));
		return 0;
	}
	while (!err && getline(&line, &cap, f) >= 0)
		if (split_line(line, &key, &val))
			err = entry_line(e, key, val);
	if (!err && ferror(f))
		warn_add(w, "%s: read error", e->file);
	free(line);
	fclose(f);
	if (!err)
		check_files(e, root, w);
	return err;
}

static void entry_free(struct boot_entry *e)
{
	free(e->id);
	free(e->file);
	free(e->base);
	free(e->title);
	free(e->version);
	free(e->machine_id);
	free(e->sort_key);
	free(e->kernel);
	free(e->efi);
	free(e->options);
	for (size_t i = 0; i < e->nr_initrd; i++)
		free(e->initrd[i]);
	free(e->initrd);
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_ver(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strverscmp(a, b);
}

/*
 * systemd-boot's menu order: entries with no tries left last; entries with
 * a sort-key first, by sort-key, machine-id, then newest version; then by
 * id, newest first; then more tries left, fewer tries done.
 */
static int menu_order(const void *pa, const void *pb)
{
	const struct boot_entry *a = pa, *b = pb;
	int r;

	r = (a->tries_left == 0) - (b->tries_left == 0);
	if (r)
		return r;
	r = (!a->sort_key) - (!b->sort_key);
	if (r)
		return r;
	if (a->sort_key) {
		r = strcmp(a->sort_key, b->sort_key);
		if (!r)
			r = cmp_str(a->machine_id, b->machine_id);
		if (!r)
			r = -cmp_ver(a->version, b->version);
		if (r)
			return r;
	}
	r = -cmp_ver(a->id, b->id);
	if (r || a->tries_left < 0 || b->tries_left < 0)
		return r;
	if (a->tries_left != b->tries_left)
		return a->tries_left > b->tries_left ? -1 : 1;
	return (a->tries_done > b->tries_done) - (a->tries_done < b->tries_done);
}

static bool is_entry_name(const char *name)
{
	size_t n = strlen(name);

	/* auto-*: systemd-boot keeps those names for its own entries */
	return name[0] != '.' && n > 5 && !strcasecmp(name + n - 5, ".conf") &&
	       strncmp(name, "auto-", 5);
}

static int load_entries(struct boot_loader *b, const char *root, const char *part,
			struct warnings *w)
{
	char dir[PATH_MAX], path[PATH_MAX], file[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err = 0;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/loader/entries",
			     strcmp(part, "/") ? part : "") >= sizeof(dir))
		return 0;
	d = root_opendir(root, dir, path, sizeof(path), w);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		struct boot_entry *e;
		struct stat st;

		if (!is_entry_name(de->d_name))
			continue;
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", path,
				     de->d_name) >= sizeof(file) ||
		    (!stat(file, &st) && S_ISDIR(st.st_mode)))
			continue;
		e = realloc(b->entries, (b->nr_entries + 1) * sizeof(*e));
		if (!e) {
			err = -ENOMEM;
			break;
		}
		b->entries = e;
		err = entry_load(&e[b->nr_entries], root, part, de->d_name, w);
		b->nr_entries++;	/* freed with the rest, even half-made */
	}
	closedir(d);
	return err;
}

/* loader.conf's "default": the last one, as systemd-boot reads it. */
static int load_default(struct boot_loader *b, const char *root, const char *esp,
			struct warnings *w)
{
	char real[PATH_MAX];
	char *line = NULL, *key, *val;
	size_t cap = 0;
	bool devnull;
	FILE *f;
	int err = 0;

	if (asprintf(&b->conf, "%s/loader/loader.conf", strcmp(esp, "/") ? esp : "") < 0) {
		b->conf = NULL;
		return -ENOMEM;
	}
	if (root_resolve(root, b->conf, real, sizeof(real), &devnull) ||
	    devnull)
		return 0;
	f = fopen(real, "re");
	if (!f) {
		if (errno != ENOENT && errno != ENOTDIR)
			warn_add(w, "%s: %s", b->conf, strerror(errno));
		return 0;
	}
	while (!err && getline(&line, &cap, f) >= 0)
		if (split_line(line, &key, &val) && !strcmp(key, "default"))
			err = set_str(&b->default_pattern, val);
	if (!err && ferror(f))
		warn_add(w, "%s: read error", b->conf);
	free(line);
	fclose(f);
	return err;
}

bool boot_pattern_matches(const char *pattern, const char *id)
{
	char conf[NAME_MAX + 1];

	if (!fnmatch(pattern, id, FNM_CASEFOLD))
		return true;
	snprintf(conf, sizeof(conf), "%s.conf", id);
	return !fnmatch(pattern, conf, FNM_CASEFOLD);
}

/*
 * The first bootable entry of the menu that the pattern selects, as
 * systemd-boot; with no default line, the first bootable entry of the menu,
 * which systemd-boot boots then.
 */
static void select_default(struct boot_loader *b, struct warnings *w)
{
	const char *p = b->default_pattern;

	if (!p) {
		for (size_t i = 0; i < b->nr_entries && !b->default_entry; i++)
			if (b->entries[i].bootable)
				b->default_entry = &b->entries[i];
		return;
	}
	if (p[0] == '@') {
		warn_add(w, "%s: default %s: chosen from an EFI variable at boot, not known from files",
			 b->conf, p);
		return;
	}
	b->default_entry = boot_loader_find(b, p);
	if (!b->default_entry)
		warn_add(w, "%s: default %s matches no bootable entry", b->conf, p);
}

struct boot_entry *boot_loader_find(const struct boot_loader *b, const char *pattern)
{
	for (size_t i = 0; i < b->nr_entries; i++)
		if (b->entries[i].bootable &&
		    boot_pattern_matches(pattern, b->entries[i].id))
			return &b->entries[i];
	return NULL;
}

int boot_loader_load_parts(struct boot_loader *b, const char *root,
			   const char *const *parts, struct warnings *w)
{
	int err = 0;

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; !err && parts[i]; i++)
		err = load_entries(b, root, parts[i], w);
	if (!err && b->nr_entries)
		qsort(b->entries, b->nr_entries, sizeof(*b->entries), menu_order);
	if (!err && parts[0])
		err = load_default(b, root, parts[0], w);
	if (!err)
		select_default(b, w);
	return err;
}

int boot_loader_load(struct boot_loader *b, const char *root,
		     struct warnings *w)
{
	static const char *const parts[] = { "/boot", NULL };

	return boot_loader_load_parts(b, root, parts, w);
}

void boot_loader_free(struct boot_loader *b)
{
	for (size_t i = 0; i < b->nr_entries; i++)
		entry_free(&b->entries[i]);
	free(b->entries);
	free(b->default_pattern);
	free(b->conf);
	memset(b, 0, sizeof(*b));
}

/* The release in an image's name: vmlinuz-REL, or .../modules/REL/vmlinuz. */
bool kernel_image_release(const char *image, char *out, size_t len)
{
	const char *base = strrchr(image, '/') ? strrchr(image, '/') + 1 : image;
	const char *mod = strstr(image, "/modules/");

	if (!strncmp(base, "vmlinuz-", 8) && base[8])
		return (size_t)snprintf(out, len, "%s", base + 8) < len;
	if (mod && !strcmp(base, "vmlinuz")) {
		mod += strlen("/modules/");
		return (size_t)snprintf(out, len, "%.*s", (int)(base - 1 - mod), mod) < len &&
		       *out;
	}
	return false;
}

bool boot_entry_release(const struct boot_entry *e, char *out, size_t len)
{
	if (e->version && (size_t)snprintf(out, len, "%s", e->version) < len)
		return true;
	if (!e->version && e->kernel && kernel_image_release(e->kernel, out, len))
		return true;
	if (len)
		out[0] = '\0';
	return false;
}

bool boot_entry_boots(const struct boot_entry *e, const char *release, const char *image)
{
	char path[PATH_MAX];
	const char *base = e->base && strcmp(e->base, "/") ? e->base : "";

	if (!strncmp(e->id, BOOT_TRIAL_PREFIX, strlen(BOOT_TRIAL_PREFIX)))
		return false;
	if (release && e->version && !strcmp(e->version, release))
		return true;
	if (!image || !e->kernel)
		return false;
	return !strcmp(e->kernel, image) ||
	       ((size_t)snprintf(path, sizeof(path), "%s%s", base, e->kernel) < sizeof(path) &&
		!strcmp(path, image)) ||
	       ((size_t)snprintf(path, sizeof(path), "/boot%s", e->kernel) < sizeof(path) &&
		!strcmp(path, image));
}
