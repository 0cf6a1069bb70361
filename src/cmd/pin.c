// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet pin-default: name the boot loader's default where it is only
 * the boot loader's fallback, so that installing a kernel cannot change
 * what boots.  Run by the packages before a kernel is installed (the
 * kernel-install plugin 05-rafleet-pin.install, /etc/kernel/preinst.d on
 * Debian) and by the rafleet package itself.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "host/bootloader.h"
#include "lib/atomicfile.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/options.h"

static const struct options_help pin_help = {
	"usage: rafleet pin-default [--save FILE | --restore FILE] [--json]\n"
	"\n"
	"Name the boot loader's effective default where nothing names it (the\n"
	"first entry of systemd-boot's menu, GRUB's entry 0: what a newly\n"
	"installed kernel would become): systemd-boot's loader.conf default line\n"
	"(the file made one sector, rewritten in place from then on), GRUB's\n"
	"saved_entry.  A default already named is left as it is.  Installing a\n"
	"kernel then never changes what boots; only 'rafleet promote' does.\n"
	"A tool that moves the default itself when a kernel is installed (grub2's\n"
	"UPDATEDEFAULT=yes on Fedora/RHEL) is undone by --save before the install\n"
	"and --restore after it (the kernel-install plugins 05- and 99-rafleet-pin).\n"
	"\n"
	"options:\n",
	15,
	"\n"
	"exit status: 0 the default is named (now or already), 1 no boot loader\n"
	"or default was found or it could not be written (Debian's GRUB needs\n"
	"GRUB_DEFAULT=saved: the rafleet package's /etc/default/grub.d/rafleet.cfg\n"
	"and update-grub), 2 bad arguments.  'man rafleet-pin-default'.\n"
};

/*
 * --restore: make the entry @file names (its first line; the boot loader
 * on the second) the default again if it is not, then remove @file.
 * A missing @file is nothing to do.  0 or -errno with @why.
 */
static int restore(const struct bootloader *bl, const char *file, struct boot_target *t,
		   bool *moved, char *how, size_t hlen, char *why, size_t len)
{
	char *text = NULL, *nl, *loader;
	int err;

	*moved = false;
	err = read_whole_file(file, 4096, &text, NULL);
	if (err == -ENOENT) {
		snprintf(how, hlen, "%s: nothing saved", file);
		return 0;
	}
	if (err) {
		snprintf(why, len, "%s: %s", file, strerror(-err));
		return err;
	}
	nl = strchr(text, '\n');
	loader = nl ? nl + 1 : NULL;
	if (loader)
		loader[strcspn(loader, "\n")] = '\0';
	if (!nl || nl == text || !loader || strcmp(loader, bl->name)) {
		snprintf(why, len, "%s: not a default saved by rafleet pin-default --save for %s",
			 file, bl->name);
		free(text);
		return -EINVAL;
	}
	*nl = '\0';
	err = bootloader_default(bl, t, why, len);
	if (err || strcmp(t->entry, text)) {
		snprintf(t->entry, sizeof(t->entry), "%s", text);
		err = bootloader_set_default(bl, t, false, how, hlen, why, len);
		*moved = !err;
	} else {
		snprintf(how, hlen, "the default is still the one saved: %s", text);
	}
	if (!err && unlink(file) && errno != ENOENT)
		err = -errno;
	free(text);
	return err;
}

static int save(const struct bootloader *bl, const struct boot_target *t, const char *file,
		char *why, size_t len)
{
	char text[1200];
	int n = snprintf(text, sizeof(text), "%s\n%s\n", t->entry, bl->name);
	int err = atomic_write_file(file, text, (size_t)n, 0600);

	if (err)
		snprintf(why, len, "%s: %s", file, strerror(-err));
	return err;
}

int cmd_pin(int argc, char **argv)
{
	bool json = false, pinned = false;
	const char *save_file = NULL, *restore_file = NULL;
	const struct option_spec spec[] = {
		OPT_STRING('s', "save", &save_file, "FILE",
			   "after naming the default, write it to FILE (05-rafleet-pin.install)"),
		OPT_STRING('r', "restore", &restore_file, "FILE",
			   "make the default FILE names the default again if something moved it\n"
			   "since --save, and remove FILE (99-rafleet-pin.install); no FILE:\n"
			   "nothing to do"),
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-pin/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	struct bootloader bl;
	struct boot_target t = { 0 };
	char how[8192] = "", why[1024] = "";
	struct json_writer w;
	int rc, ind, err;

	rc = options_run("pin-default", spec, &pin_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	if (save_file && restore_file) {
		fprintf(stderr, "rafleet pin-default: --save and --restore are two steps, not one\n");
		return EXIT_USAGE;
	}
	err = bootloader_detect(&bl, why, sizeof(why));
	if (!err && restore_file)
		err = restore(&bl, restore_file, &t, &pinned, how, sizeof(how), why, sizeof(why));
	else if (!err)
		err = bootloader_pin(&bl, &t, &pinned, how, sizeof(how), why, sizeof(why));
	if (!err && save_file)
		err = save(&bl, &t, save_file, why, sizeof(why));
	if (json) {
		json_init(&w, stdout, true);
		json_obj_begin(&w, NULL);
		json_str(&w, "schema", "rafleet-pin/1");
		json_str(&w, "boot_loader", bl.name);
		json_str(&w, "entry", t.entry[0] ? t.entry : NULL);
		json_str(&w, "release", t.release[0] ? t.release : NULL);
		json_boolean(&w, "pinned", pinned);
		json_str(&w, "how", err ? NULL : how);
		json_str(&w, "error", err ? why : NULL);
		json_obj_end(&w);
		json_end(&w);
	} else if (!err) {
		printf("%s: %s %s, %s\n%s\n", bl.name,
		       restore_file ? (pinned ? "restored" : "the default is") :
		       pinned ? "pinned" : "the default is named:",
		       t.entry, t.release[0] ? t.release : "an unknown kernel", how);
	}
	if (err) {
		fprintf(stderr, "rafleet pin-default: %s\n", why);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}
