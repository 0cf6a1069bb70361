// SPDX-License-Identifier: GPL-2.0
#include "host/sysctld.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/rootdir.h"

/* In order of precedence: a file here hides the same name further down. */
static const char *const conf_dirs[] = {
	"/etc/sysctl.d",
	"/run/sysctl.d",
	"/usr/local/lib/sysctl.d",
	"/usr/lib/sysctl.d",
};

/* Read after every sysctl.d file. */
#define SYSCTL_CONF "/etc/sysctl.conf"

static char *strip(char *s)
{
	char *end;

	s += strspn(s, " \t\r\n");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		end--;
	*end = '\0';
	return s;
}

char *sysctld_normalize(char *key)
{
	char *p = strpbrk(key, "./"), *r, *w;

	if (p && *p == '.')
		for (; p; p = strpbrk(p + 1, "./"))
			*p = *p == '.' ? '/' : '.';
	for (r = w = key; *r; r++) {
		if (*r == '/' && (w == key || w[-1] == '/'))
			continue;
		*w++ = *r;
	}
	if (w > key && w[-1] == '/')
		w--;
	*w = '\0';
	return key;
}

static bool is_glob(const char *key)
{
	return strpbrk(key, "*?[") != NULL;
}

static const char *base(const char *path)
{
	return strrchr(path, '/') + 1;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int add_file(struct sysctld *s, const char *path, bool masked)
{
	struct sysctld_file *f;

	f = realloc(s->files, (s->nr_files + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	s->files = f;
	f[s->nr_files].path = strdup(path);
	if (!f[s->nr_files].path)
		return -ENOMEM;
	f[s->nr_files++].masked = masked;
	return 0;
}

static bool listed(const struct sysctld *s, const char *name)
{
	for (size_t i = 0; i < s->nr_files; i++)
		if (!strcmp(base(s->files[i].path), name))
			return true;
	return false;
}

/* Add @dir's *.conf files that no earlier directory had. */
static int list_dir(struct sysctld *s, const char *root, const char *dir,
		    struct warnings *w)
{
	char path[PATH_MAX], file[PATH_MAX], real[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err = 0;

	d = root_opendir(root, dir, path, sizeof(path), w);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		bool devnull;
		struct stat st;

		if (de->d_name[0] == '.' || n <= 5 ||
		    strcmp(de->d_name + n - 5, ".conf") || listed(s, de->d_name))
			continue;
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", dir,
				     de->d_name) >= sizeof(file) ||
		    root_resolve(root, file, real, sizeof(real), &devnull)) {
			warn_add(w, "%s: %s", file, strerror(ENAMETOOLONG));
			continue;
		}
		if (devnull) {
			err = add_file(s, file, true);
			continue;
		}
		if (stat(real, &st)) {
			/* a dangling symlink still takes the name; reading it warns */
			err = add_file(s, file, false);
			continue;
		}
		if (S_ISDIR(st.st_mode))
			continue;
		/* as systemd: a device node or an empty file is a mask too */
		err = add_file(s, file, S_ISCHR(st.st_mode) ||
			       (S_ISREG(st.st_mode) && !st.st_size));
	}
	closedir(d);
	return err;
}

static int by_name(const void *a, const void *b)
{
	const struct sysctld_file *fa = a, *fb = b;

	return strcmp(base(fa->path), base(fb->path));
}

static void setting_free(struct sysctld_setting *e)
{
	free(e->key);
	free(e->written);
	free(e->value);
}

/*
 * As systemd-sysctl keeps its ordered table: the same value again keeps
 * the setting where it is (we say the later file set it, the one an
 * operator would edit); another value removes it and adds it at the end.
 */
static int add_setting(struct sysctld *s, struct sysctld_setting *new)
{
	struct sysctld_setting *set;

	for (size_t i = 0; i < s->nr_set; i++) {
		struct sysctld_setting *e = &s->set[i];

		if (strcmp(e->key, new->key))
			continue;
		if (same(e->value, new->value)) {
			e->file = new->file;
			e->line = new->line;
			e->ignore_failure |= new->ignore_failure;
			setting_free(new);
			return 0;
		}
		setting_free(e);
		memmove(e, e + 1, (s->nr_set - i - 1) * sizeof(*e));
		s->nr_set--;
		break;
	}
	set = realloc(s->set, (s->nr_set + 1) * sizeof(*set));
	if (!set) {
		setting_free(new);
		return -ENOMEM;
	}
	s->set = set;
	set[s->nr_set++] = *new;
	return 0;
}

/* One line of @file, as systemd-sysctl reads it. */
static int parse_line(struct sysctld *s, char *line, const char *file,
		      unsigned int nr, struct warnings *w)
{
	struct sysctld_setting e = { .file = file, .line = nr };
	char *p = strip(line), *eq, *key;

	if (!*p || *p == '#' || *p == ';')
		return 0;
	eq = strchr(p, '=');
	if (eq) {
		*eq = '\0';
		e.ignore_failure = *p == '-';
		e.value = strdup(strip(eq + 1));
		if (!e.value)
			return -ENOMEM;
	} else if (*p != '-') {
		warn_add(w, "%s:%u: not an assignment, ignored: %s", file, nr, p);
		return 0;
	}
	if (*p == '-')
		p++;
	key = strip(p);
	e.written = strdup(key);
	e.key = strdup(key);
	if (!e.written || !e.key) {
		setting_free(&e);
		return -ENOMEM;
	}
	if (!*sysctld_normalize(e.key)) {
		warn_add(w, "%s:%u: no key, ignored", file, nr);
		setting_free(&e);
		return 0;
	}
	return add_setting(s, &e);
}

static int read_file(struct sysctld *s, const struct sysctld_file *f,
		     const char *root, struct warnings *w)
{
	char real[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	unsigned int nr = 0;
	bool devnull;
	FILE *fp;
	int err = 0;

	if (f->masked)
		return 0;
	if (root_resolve(root, f->path, real, sizeof(real), &devnull) || devnull)
		return 0;
	fp = fopen(real, "re");
	if (!fp) {
		warn_add(w, "%s: %s", f->path, strerror(errno));
		return 0;
	}
	while (!err && getline(&line, &cap, fp) >= 0)
		err = parse_line(s, line, f->path, ++nr, w);
	if (!err && ferror(fp))
		warn_add(w, "%s: read error after line %u", f->path, nr);
	free(line);
	fclose(fp);
	return err;
}

int sysctld_load(struct sysctld *s, const char *root, struct warnings *w)
{
	char real[PATH_MAX];
	struct stat st;
	bool devnull;
	int err = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; !err && i < sizeof(conf_dirs) / sizeof(conf_dirs[0]); i++)
		err = list_dir(s, root, conf_dirs[i], w);
	if (err)
		return err;
	if (s->nr_files)
		qsort(s->files, s->nr_files, sizeof(*s->files), by_name);
	if (!root_resolve(root, SYSCTL_CONF, real, sizeof(real), &devnull) &&
	    !devnull && (!stat(real, &st) || errno != ENOENT)) {
		err = add_file(s, SYSCTL_CONF, false);
		if (err)
			return err;
	}
	for (size_t i = 0; !err && i < s->nr_files; i++)
		err = read_file(s, &s->files[i], root, w);
	return err;
}

const struct sysctld_setting *sysctld_boot_value(const struct sysctld *s,
						 const char *name)
{
	const struct sysctld_setting *glob = NULL;
	char key[256];

	if ((size_t)snprintf(key, sizeof(key), "%s", name) >= sizeof(key))
		return NULL;
	sysctld_normalize(key);
	/* an explicit setting, or "-KEY", keeps every glob away */
	for (size_t i = 0; i < s->nr_set; i++)
		if (!strcmp(s->set[i].key, key))
			return s->set[i].value ? &s->set[i] : NULL;
	/* the globs are written in order: the last that matches wins */
	for (size_t i = 0; i < s->nr_set; i++) {
		const struct sysctld_setting *e = &s->set[i];

		if (e->value && is_glob(e->key) &&
		    !fnmatch(e->key, key, FNM_PATHNAME | FNM_PERIOD))
			glob = e;
	}
	return glob;
}

void sysctld_free(struct sysctld *s)
{
	for (size_t i = 0; i < s->nr_set; i++)
		setting_free(&s->set[i]);
	free(s->set);
	for (size_t i = 0; i < s->nr_files; i++)
		free(s->files[i].path);
	free(s->files);
	memset(s, 0, sizeof(*s));
}
