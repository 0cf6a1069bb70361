// SPDX-License-Identifier: GPL-2.0
#include "bootdefault.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "bootentry.h"
#include "rootdir.h"
#include "runcmd.h"

#define GRUBBY_TIMEOUT_S 120

static const char *find_grubby(void)
{
	static const char *const paths[] = { "/usr/sbin/grubby", "/sbin/grubby", NULL };
	const char *env = getenv("RAFLEET_GRUBBY");

	if (env && *env)
		return env;
	if (strcmp(rootdir_get(), "/"))
		return NULL;	/* a test root: not this machine's grubby */
	for (int i = 0; paths[i]; i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

static int with_grubby(const char *grubby, const char *image, char *why, size_t len)
{
	char opt[PATH_MAX + 16], res[64];
	char *argv[] = { (char *)grubby, opt, NULL };
	int rc;

	snprintf(opt, sizeof(opt), "--set-default=%s", image);
	rc = run_command(argv, -1, GRUBBY_TIMEOUT_S);
	if (!rc)
		return 0;
	snprintf(why, len, "%s --set-default=%s: %s", grubby, image,
		 run_command_result(rc, res, sizeof(res)));
	return -EIO;
}

static bool entry_boots(const struct boot_entry *e, const char *release,
			const char *image)
{
	char path[PATH_MAX];

	if (e->version && !strcmp(e->version, release))
		return true;
	if (!e->kernel)
		return false;
	snprintf(path, sizeof(path), "/boot%s", e->kernel);
	return !strcmp(e->kernel, image) || !strcmp(path, image);
}

/* @text with its "default" lines replaced by one naming @id. */
static char *new_loader_conf(const char *text, const char *id)
{
	char *out = NULL, *copy = strdup(text ? text : ""), *line, *save;
	size_t len = 0;
	bool done = false;
	FILE *f = open_memstream(&out, &len);

	if (!f || !copy) {
		if (f)
			fclose(f);
		free(copy);
		free(out);
		return NULL;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = line + strspn(line, " \t");

		if (!strncmp(p, "default", 7) && (p[7] == ' ' || p[7] == '\t')) {
			if (!done)
				fprintf(f, "default %s.conf\n", id);
			done = true;
			continue;
		}
		fprintf(f, "%s\n", line);
	}
	if (!done)
		fprintf(f, "default %s.conf\n", id);
	free(copy);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static int with_loader_conf(const char *release, const char *image, char *why,
			    size_t len)
{
	struct boot_loader b;
	struct warnings w = { 0 };
	const struct boot_entry *e = NULL;
	char path[PATH_MAX], old[65536], *text;
	int err;

	err = boot_loader_load(&b, rootdir_get(), &w);
	warn_free(&w);
	if (err)
		return err;
	for (size_t i = 0; i < b.nr_entries && !e; i++)
		if (entry_boots(&b.entries[i], release, image))
			e = &b.entries[i];
	if (!e) {
		snprintf(why, len, "no boot loader configuration was found for %s: no grubby, and no entry of that version in %s",
			 release, BOOT_ENTRIES_DIR);
		err = -ENOENT;
		goto out;
	}
	err = root_path(rootdir_get(), BOOT_LOADER_CONF, path, sizeof(path));
	if (err)
		goto out;
	old[0] = '\0';
	if (access(path, F_OK) == 0) {
		FILE *f = fopen(path, "re");
		size_t n = f ? fread(old, 1, sizeof(old) - 1, f) : 0;

		if (!f || ferror(f)) {
			snprintf(why, len, "%s: cannot read it", BOOT_LOADER_CONF);
			err = -EIO;
		} else if (n == sizeof(old) - 1) {
			snprintf(why, len, "%s: larger than %zu bytes, not rewritten",
				 BOOT_LOADER_CONF, sizeof(old) - 1);
			err = -EFBIG;
		}
		if (f)
			fclose(f);
		old[n] = '\0';
		if (err)
			goto out;
	}
	text = new_loader_conf(old, e->id);
	if (!text) {
		err = -ENOMEM;
		goto out;
	}
	err = atomic_write_file(path, text, strlen(text), 0644);
	if (err)
		snprintf(why, len, "%s: %s", BOOT_LOADER_CONF, strerror(-err));
	free(text);
out:
	boot_loader_free(&b);
	return err;
}

int boot_default_set(const char *release, const char *image, char *how,
		     size_t hlen, char *why, size_t len)
{
	const char *grubby = find_grubby();

	if (grubby) {
		snprintf(how, hlen, "grubby --set-default=%s", image);
		return with_grubby(grubby, image, why, len);
	}
	snprintf(how, hlen, "%s", BOOT_LOADER_CONF);
	return with_loader_conf(release, image, why, len);
}
