/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The systemd Boot Loader Interface's EFI variables, read, written and
 * deleted through efivarfs as `bootctl` does: LoaderEntryDefault,
 * LoaderEntryOneShot, LoaderEntrySelected, LoaderInfo, LoaderBootCountPath,
 * LoaderDevicePartUUID, all of vendor GUID EFIVAR_LOADER_GUID.
 *
 * Each is the file /sys/firmware/efi/efivars/NAME-GUID (under $RAFLEET_SYSFS
 * by host_path(); $RAFLEET_ROOT does not move /sys): 4 bytes of attributes,
 * little-endian, then the data, here an ASCII string in UTF-16LE with a
 * terminating NUL (read with or without it).  A write is one write() of
 * attributes and data, as efivarfs wants, with the attributes
 * EFIVAR_ATTR_NV_BS_RT; efivarfs replaces the variable whole or not at all.
 * Firmware refuses to change a variable's attributes, so of these only the
 * non-volatile ones the boot loader reads (LoaderEntryDefault,
 * LoaderEntryOneShot) can be written once the loader made them: the others
 * it sets volatile at each boot.
 *
 * efivarfs makes most variables immutable (chattr +i): the flag is cleared
 * before a variable is replaced or removed, and set back after a write.
 * A filesystem without the flag (tmpfs, ext4 in tests: ioctl ENOTTY,
 * EOPNOTSUPP, EINVAL, ENOSYS) has nothing to clear.
 *
 * Each function returns 0 or -errno and fills @why (@wlen bytes) with a
 * sentence naming the file and the problem; none prints.
 */
#ifndef RAFLEET_EFIVAR_H
#define RAFLEET_EFIVAR_H

#include <stdbool.h>
#include <stddef.h>

#define EFIVAR_LOADER_GUID	"4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define EFIVAR_DIR		"/sys/firmware/efi/efivars"

/* EFI_VARIABLE_NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
#define EFIVAR_ATTR_NV_BS_RT	0x7u

/* The longest variable name (letters, digits and '_'): -ENAMETOOLONG past it. */
#define EFIVAR_NAME_MAX		64

/* The longest value, in characters without the NUL: -E2BIG past it. */
#define EFIVAR_VALUE_MAX	1024

/* The efivarfs directory exists: an EFI boot with efivarfs mounted. */
bool efivar_available(void);

/*
 * The string variable @name of the loader's GUID into @out (@len bytes,
 * NUL-terminated).  0; -ENOENT if it is not set (no file, or an empty one:
 * efivarfs's uncommitted variable); -E2BIG if it does not fit in @out or
 * is longer than EFIVAR_VALUE_MAX; -EINVAL for a character that is not
 * ASCII (or a bad @name); -EBADMSG for a file that is not attributes and a
 * UTF-16 string (too short, odd length, a NUL before the end); another
 * -errno if it cannot be read.
 */
int efivar_get_loader(const char *name, char *out, size_t len, char *why, size_t wlen);

/*
 * Set @name to the ASCII string @value, creating or replacing it, then read
 * it back and compare (-EIO if it differs).  0; -EINVAL for a non-ASCII
 * @value or a bad @name; -ENAMETOOLONG, -E2BIG (more than EFIVAR_VALUE_MAX
 * characters); or the -errno of what failed.  Nothing is changed when the
 * write fails.  An empty @value is written as it is: to unset a variable,
 * delete it.
 */
int efivar_set_loader(const char *name, const char *value, char *why, size_t wlen);

/* Delete @name.  0, also when it was not set; or -errno. */
int efivar_del_loader(const char *name, char *why, size_t wlen);

#endif
