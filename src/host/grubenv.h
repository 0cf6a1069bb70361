/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GRUB's environment block, /boot/grub/grubenv (/boot/grub2/grubenv on
 * Fedora): where saved_entry (GRUB_DEFAULT=saved) and the one-shot
 * next_entry (grub-reboot) live.  Read here as GRUB reads it: the line
 * "# GRUB Environment Block", KEY=VALUE lines with a backslash before each
 * '\' and newline of a value, '#' padding to 1024 bytes.  Written only by
 * GRUB's own tool, grub-editenv (grub2-editenv; $RAFLEET_GRUB_EDITENV for
 * tests), which keeps the block's size, on a copy renamed over the block
 * (grub-editenv truncates and rewrites in place: a crash between left a
 * block GRUB cannot load); then fsynced and read back.
 */
#ifndef RAFLEET_GRUBENV_H
#define RAFLEET_GRUBENV_H

#include <stddef.h>

#define GRUBENV_DEBIAN "/boot/grub/grubenv"
#define GRUBENV_FEDORA "/boot/grub2/grubenv"

struct grubenv {
	char **keys, **values;	/* in the order of the block */
	size_t nr;
};

/*
 * Read the block @file (as the host sees it, under $RAFLEET_ROOT).  0;
 * -ENOENT if there is no such file; -EINVAL if it is not an environment
 * block (no "# GRUB Environment Block" line, a line with no '='); another
 * -errno.  @why names the file and the problem.  Free @env with
 * grubenv_free() whatever the result.
 */
int grubenv_load(struct grubenv *env, const char *file, char *why, size_t len);

/* The same for the @size bytes at @block, called @file in messages. */
int grubenv_parse(struct grubenv *env, const char *block, size_t size,
		  const char *file, char *why, size_t len);

void grubenv_free(struct grubenv *env);

/* @key's value (the last line of it, as GRUB's load_env); NULL if unset. */
const char *grubenv_find(const struct grubenv *env, const char *key);

/*
 * @key of the block @file, into a new string *@value (free() it), NULL
 * when the block does not set it.  0, or an error of grubenv_load().
 */
int grubenv_get(const char *file, const char *key, char **value, char *why,
		size_t len);

/*
 * `grub-editenv COPY set KEY=VALUE` on a copy of the block @file beside
 * it, fsynced and renamed over it (grub-editenv creates a missing block
 * itself), the directory fsynced, and @key read back.  After a crash the
 * block is the old or the new one; a crash before the rename may leave
 * the copy, FILE.rafleet-XXXXXX.
 * 0; -EINVAL for a key that is empty or holds '=' or a newline; -ENOENT
 * when there is no grub-editenv; -EIO when it failed or the block does
 * not read back @value; another -errno.  @why says what and where.
 */
int grubenv_set(const char *file, const char *key, const char *value,
		char *why, size_t len);

/* `grub-editenv FILE unset KEY`, the same way: @key reads back unset. */
int grubenv_unset(const char *file, const char *key, char *why, size_t len);

/*
 * The grub-editenv that grubenv_set() runs: $RAFLEET_GRUB_EDITENV, else
 * grub-editenv or grub2-editenv in /usr/bin, /usr/sbin, /bin or /sbin;
 * NULL if none.  It is run on a block under $RAFLEET_ROOT too: it touches
 * only the file it is given.
 */
const char *grubenv_editenv(void);

#endif
