// SPDX-License-Identifier: GPL-2.0
#include "host/kernelfind.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "host/bootentry.h"
#include "host/bootloader.h"
#include "lib/rootdir.h"

static bool is_file(const char *root, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	return !root_path(root, path, full, sizeof(full)) && !stat(full, &st) &&
	       S_ISREG(st.st_mode);
}

/* A file named PREFIX RELEASE SUFFIX. */
struct name_pattern {
	const char *prefix, *suffix;
};

/* The first of @pats that exists, with @rel put in. */
static bool first_of(const char *root, const struct name_pattern *pats,
		     const char *rel, char *out, size_t len)
{
	for (; pats->prefix; pats++) {
		if ((size_t)snprintf(out, len, "%s%s%s", pats->prefix, rel,
				     pats->suffix) < len && is_file(root, out))
			return true;
	}
	out[0] = '\0';
	return false;
}

static const struct boot_entry *entry_for(const struct boot_loader *b,
					  const char *release, const char *image)
{
	for (size_t i = 0; i < b->nr_entries; i++)
		if (b->entries[i].kernel && boot_entry_boots(&b->entries[i], release, image))
			return &b->entries[i];
	return NULL;
}

/*
 * The menu of the boot loader that boots the host; with none found, no
 * entries (the kernel is then looked for by its file names alone).
 */
static int load_menu(struct boot_loader *b)
{
	struct bootloader bl;
	struct warnings w = { 0 };
	char why[256];
	int err;

	if (bootloader_detect(&bl, why, sizeof(why))) {
		memset(b, 0, sizeof(*b));
		return 0;
	}
	err = bootloader_menu(&bl, b, &w);
	warn_free(&w);
	return err;
}

int kernel_find(const char *spec, struct kernel_files *k, char *why, size_t len)
{
	const char *root = rootdir_get();
	static const struct name_pattern images[] = {
		{ "/boot/vmlinuz-", "" },
		{ "/usr/lib/modules/", "/vmlinuz" },
		{ "/lib/modules/", "/vmlinuz" },
		{ NULL, NULL },
	};
	static const struct name_pattern initrds[] = {
		{ "/boot/initrd.img-", "" },	/* Debian */
		{ "/boot/initramfs-", ".img" },	/* Fedora */
		{ NULL, NULL },
	};
	const struct boot_entry *e;
	struct boot_loader b;
	bool is_path = strchr(spec, '/') != NULL;
	int err;

	memset(k, 0, sizeof(*k));
	err = load_menu(&b);
	if (err)
		return err;
	e = entry_for(&b, is_path ? NULL : spec, is_path ? spec : NULL);
	err = -ENOENT;
	if (is_path) {
		if (!is_file(root, spec)) {
			snprintf(why, len, "%s: no such kernel image", spec);
			goto out;
		}
		snprintf(k->image, sizeof(k->image), "%s", spec);
		if (e && e->version)
			snprintf(k->release, sizeof(k->release), "%s", e->version);
		else if (!kernel_image_release(spec, k->release, sizeof(k->release))) {
			snprintf(why, len, "%s: cannot tell its release from its name (vmlinuz-RELEASE) or a boot entry",
				 spec);
			goto out;
		}
	} else {
		snprintf(k->release, sizeof(k->release), "%s", spec);
		if (!(e && boot_entry_file(root, e, e->kernel, k->image, sizeof(k->image))) &&
		    !first_of(root, images, spec, k->image, sizeof(k->image))) {
			snprintf(why, len, "kernel %s: no boot entry of that version, no /boot/vmlinuz-%s, no /usr/lib/modules/%s/vmlinuz",
				 spec, spec, spec);
			goto out;
		}
	}
	if (e) {
		snprintf(k->entry, sizeof(k->entry), "%s", e->id);
		snprintf(k->options, sizeof(k->options), "%s", e->options ? e->options : "");
	}
	if (e && e->nr_initrd) {
		if (!boot_entry_file(root, e, e->initrd[0], k->initrd, sizeof(k->initrd))) {
			k->initrd[0] = '\0';
			snprintf(k->missing_initrd, sizeof(k->missing_initrd), "%s", e->initrd[0]);
		}
	} else {
		first_of(root, initrds, k->release, k->initrd, sizeof(k->initrd));
	}
	err = 0;
out:
	boot_loader_free(&b);
	return err;
}
