/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GRUB 2's grub.cfg as grub-mkconfig writes it (Debian's update-grub,
 * Fedora's grub2-mkconfig): its menu as a tree of menuentry and submenu
 * blocks, read with GRUB's own quoting ('single', "double" with its
 * backslash escapes, bare words with \, # comments), each entry's linux
 * and initrd lines, and the "set default" that 00_header writes.  A
 * default string (GRUB_DEFAULT, saved_entry, next_entry) is resolved to
 * the entry GRUB's menu code boots: "N", "A>B>...", an id or a title.
 */
#ifndef RAFLEET_GRUBCFG_H
#define RAFLEET_GRUBCFG_H

#include <stdbool.h>
#include <stddef.h>

#define GRUB_CFG_DEBIAN "/boot/grub/grub.cfg"
#define GRUB_CFG_FEDORA "/boot/grub2/grub.cfg"

struct grub_entry {
	char *title;		/* the first argument of menuentry/submenu */
	char *id;		/* --id or $menuentry_id_option's; NULL if none */
	/*
	 * The ids from the top of the menu down to this entry joined by '>',
	 * a title where an entry has no id, a '>' in either written ">>":
	 * what grub-set-default and grub-reboot take, and what still names
	 * the entry after grub.cfg is regenerated and the indexes move.
	 */
	char *path;
	bool submenu;
	/* a submenu's entries, in menu order */
	struct grub_entry *children;
	size_t nr_children;
	/*
	 * A menuentry's, the names of struct boot_entry's, from its first
	 * linux/linux16/linuxefi line and first initrd/initrd16/initrdefi
	 * line (an if/else with two is read as its first branch):
	 */
	char *version;		/* release: vmlinuz-RELEASE (vmlinux-), else "" */
	char *kernel;		/* the linux line's path; NULL if none */
	/*
	 * The rest of the linux line, "" if none: its words as GRUB passes
	 * them, by one space, a word with a space in double quotes, a
	 * $variable as written (its value is known only at boot).
	 */
	char *options;
	char **initrd;		/* the initrd line's paths */
	size_t nr_initrd;
	/*
	 * A recovery entry: an id with "-recovery-", a title with "recovery
	 * mode", or options with single, recovery, emergency, rescue,
	 * systemd.unit=rescue.target or =emergency.target.
	 */
	bool recovery;
	unsigned int line;	/* where its block starts in grub.cfg */
	unsigned int end_line;	/* the line of the '}' that closes it */
};

struct grub_cfg {
	char *file;		/* as given: "/boot/grub/grub.cfg" */
	struct grub_entry *entries;	/* the top level of the menu */
	size_t nr_entries;
	/*
	 * The menuentries that load a Linux kernel (a linux line), depth
	 * first in menu order: pointers into the tree above.
	 */
	struct grub_entry **bootable;
	size_t nr_bootable;
	/*
	 * The default of 00_header: the first "set default=..." at the top
	 * level that is not the one-shot "${next_entry}".  default_saved when
	 * it is "${saved_entry}" (GRUB_DEFAULT=saved: the grubenv decides),
	 * else default_value is its text ("0", an id path); both unset when
	 * grub.cfg sets no default (GRUB boots entry 0).  Later conditional
	 * assignments (Fedora's boot counting "set default=1", the title
	 * correction of an old GRUB_DEFAULT) are not followed.
	 */
	bool default_saved;
	char *default_value;
	bool next_entry;	/* has the next_entry block grub-reboot needs */
	/*
	 * It runs blscfg (Fedora): its menu is made at boot from
	 * /boot/loader/entries, so it has no menuentry of its own for those.
	 */
	bool blscfg;
	/*
	 * grub_cfg_load_sourcing(): the file's text names the file it
	 * sources at boot, so its entries are in this menu (after the file's
	 * own) if it exists.
	 */
	bool sources;
};

/*
 * Read @file (as the host sees it, under $RAFLEET_ROOT) into @c.  0;
 * -ENOENT if there is no such file; -EINVAL if GRUB could not parse it (a
 * quote not closed, a '}' too many, a block not closed or empty, a '$'
 * naming no variable); another -errno.  @why names the file (and line)
 * and the problem.  On an error @c is left empty; grub_cfg_free() it
 * whatever the result.
 */
int grub_cfg_load(struct grub_cfg *c, const char *file, char *why, size_t len);

/*
 * grub_cfg_load() of @file, and, when its text holds @hook (the name of a
 * file that it sources at boot, as an /etc/grub.d script put it there) and
 * the file @more exists, @more's text read as if it followed @file's: the
 * menu GRUB shows once it has sourced @more, its entries last.  Sets
 * c->sources when the hook is there.  @more's errors are @file's.
 */
int grub_cfg_load_sourcing(struct grub_cfg *c, const char *file, const char *hook,
			   const char *more, char *why, size_t len);

/* @file's text (as the host sees it) into *@text (free it); -errno, @why */
int grub_cfg_read(const char *file, char **text, char *why, size_t len);

/* The same for the text @cfg, called @file in messages. */
int grub_cfg_parse(struct grub_cfg *c, const char *cfg, const char *file,
		   char *why, size_t len);

void grub_cfg_free(struct grub_cfg *c);

/*
 * The menuentry GRUB boots for the default string @spec, as its menu code
 * reads it: at each level a number is an index into that menu (GRUB's
 * strtoul: "0x1" and "010" too), anything else the first entry whose title
 * or id is the text up to a single '>' (">>" is a '>' of the name); the
 * rest after that '>' is the default of the submenu chosen, and a submenu
 * with nothing left boots its entry 0.  @spec NULL or "" is entry 0.
 * 0 and *@out (its path is the stable name); -ENOENT when @spec names no
 * entry, an index past the end, or an empty menu (where GRUB falls back to
 * the first entry, or to no menu at all), @why saying which part.
 */
int grub_cfg_resolve(const struct grub_cfg *c, const char *spec,
		     const struct grub_entry **out, char *why, size_t len);

/*
 * The entry that boots @release and is not a recovery entry: the one in a
 * submenu with an "-advanced-" id first (Debian's "Advanced options"
 * entry: its path gnulinux-advanced-UUID>gnulinux-RELEASE-advanced-UUID
 * survives a regenerated grub.cfg, where the top-level "simple" entry
 * moves to the newest kernel), else another in a submenu, else one at the
 * top level with an "-advanced-" id (GRUB_DISABLE_SUBMENU=true), else the
 * first at the top level.  0 and *@out; -ENOENT with @why if there is none.
 */
int grub_cfg_find_release(const struct grub_cfg *c, const char *release,
			  const struct grub_entry **out, char *why, size_t len);

/*
 * The bootable entries (c->bootable) in menu order, each with its path.
 * 0; -ENOENT when there are none, @why saying so (and that blscfg makes
 * the menu at boot, when it does).
 */
int grub_cfg_list(const struct grub_cfg *c, struct grub_entry *const **list,
		  size_t *nr, char *why, size_t len);

#endif
