// SPDX-License-Identifier: GPL-2.0
#include "host/bootdefault.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "host/bootentry.h"
#include "host/kernelfind.h"
#include "lib/env.h"
#include "lib/rootdir.h"
#include "lib/runcmd.h"

#define GRUBBY_TIMEOUT_S 120

static const char *find_grubby(void)
{
	static const char *const paths[] = { "/usr/sbin/grubby", "/sbin/grubby", NULL };
	const char *env = env_get(ENV_GRUBBY);

	if (env)
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

/* grubby --default-kernel: the image path it prints. */
static int grubby_default(const char *grubby, struct boot_default *d, char *why,
			  size_t len)
{
	char *argv[] = { (char *)grubby, "--default-kernel", NULL };
	char res[64];
	FILE *f = tmpfile();
	size_t n;
	int rc;

	if (!f)
		return -errno;
	rc = run_command(argv, fileno(f), GRUBBY_TIMEOUT_S);
	rewind(f);
	n = fread(d->entry, 1, sizeof(d->entry) - 1, f);
	fclose(f);
	d->entry[n] = '\0';
	d->entry[strcspn(d->entry, "\n")] = '\0';
	if (rc || d->entry[0] != '/') {
		snprintf(why, len, "%s --default-kernel: %s", grubby,
			 rc ? run_command_result(rc, res, sizeof(res)) : "no image path printed");
		return rc ? -EIO : -ENOENT;
	}
	if (!kernel_image_release(d->entry, d->release, sizeof(d->release)))
		d->release[0] = '\0';
	return 0;
}

int boot_default_get(struct boot_default *d, char *why, size_t len)
{
	const char *grubby = find_grubby();
	const struct boot_entry *e = NULL;
	struct boot_loader b;
	struct warnings w = { 0 };
	int err;

	memset(d, 0, sizeof(*d));
	if (grubby) {
		snprintf(d->how, sizeof(d->how), "grubby");
		return grubby_default(grubby, d, why, len);
	}
	snprintf(d->how, sizeof(d->how), "%s", BOOT_LOADER_CONF);
	err = boot_loader_load(&b, rootdir_get(), &w);
	warn_free(&w);
	if (err)
		return err;
	if (b.default_pattern && b.default_pattern[0] == '@') {
		snprintf(why, len, "%s: default %s: an EFI variable chooses the default, and it is not read here",
			 BOOT_LOADER_CONF, b.default_pattern);
		err = -EOPNOTSUPP;
	} else if (!(e = b.default_entry)) {
		if (b.default_pattern)
			snprintf(why, len, "%s: default %s matches no bootable entry of %s",
				 BOOT_LOADER_CONF, b.default_pattern, BOOT_ENTRIES_DIR);
		else
			snprintf(why, len, "no grubby, and no bootable entry in %s", BOOT_ENTRIES_DIR);
		err = -ENOENT;
	}
	if (e) {
		snprintf(d->entry, sizeof(d->entry), "%s", e->id);
		if (e->version)
			snprintf(d->release, sizeof(d->release), "%s", e->version);
		else if (!e->kernel ||
			 !kernel_image_release(e->kernel, d->release, sizeof(d->release)))
			d->release[0] = '\0';
	}
	boot_loader_free(&b);
	return err;
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

/* Rewrite loader.conf's default lines to name the entry @id. */
static int write_loader_default(const char *id, char *why, size_t len)
{
	char path[PATH_MAX], old[65536], *text;
	int err;

	err = root_path(rootdir_get(), BOOT_LOADER_CONF, path, sizeof(path));
	if (err)
		return err;
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
			return err;
	}
	text = new_loader_conf(old, id);
	if (!text)
		return -ENOMEM;
	err = atomic_write_file(path, text, strlen(text), 0644);
	if (err)
		snprintf(why, len, "%s: %s", BOOT_LOADER_CONF, strerror(-err));
	free(text);
	return err;
}

static int with_loader_conf(const char *release, const char *image, char *why,
			    size_t len)
{
	struct boot_loader b;
	struct warnings w = { 0 };
	const struct boot_entry *e = NULL;
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
	} else {
		err = write_loader_default(e->id, why, len);
	}
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

int boot_default_restore(const struct boot_default *d, char *why, size_t len)
{
	const char *grubby = find_grubby();

	if (!d->entry[0]) {
		snprintf(why, len, "no default entry recorded");
		return -ENOENT;
	}
	if (!strcmp(d->how, "grubby")) {
		if (!grubby) {
			snprintf(why, len, "the default %s was grubby's, and grubby is gone", d->entry);
			return -ENOENT;
		}
		return with_grubby(grubby, d->entry, why, len);
	}
	if (grubby) {
		snprintf(why, len, "the default %s was loader.conf's, and grubby manages this host now",
			 d->entry);
		return -EINVAL;
	}
	return write_loader_default(d->entry, why, len);
}
