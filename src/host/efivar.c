// SPDX-License-Identifier: GPL-2.0
#include "host/efivar.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/rootdir.h"

/* The attributes, then the longest value and its NUL in UTF-16. */
#define EFIVAR_FILE_MAX (4 + 2 * (EFIVAR_VALUE_MAX + 1))

/* /sys/firmware/efi/efivars/NAME-GUID, as host_path() moves it, in @path. */
static int var_path(const char *name, char *path, size_t len, char *why, size_t wlen)
{
	char host[PATH_MAX];
	size_t n = name ? strlen(name) : 0;

	if (!n) {
		snprintf(why, wlen, "an EFI variable needs a name");
		return -EINVAL;
	}
	if (n > EFIVAR_NAME_MAX) {
		snprintf(why, wlen, "EFI variable %.16s...: a name of %zu characters, more than %d",
			 name, n, EFIVAR_NAME_MAX);
		return -ENAMETOOLONG;
	}
	for (const char *c = name; *c; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_')) {
			snprintf(why, wlen,
				 "'%s': not an EFI variable name (letters, digits and _ only)",
				 name);
			return -EINVAL;
		}
	}
	snprintf(host, sizeof(host), "%s/%s-%s", EFIVAR_DIR, name, EFIVAR_LOADER_GUID);
	if (host_path(host, path, len)) {
		snprintf(why, wlen, "%s: too long a path under $RAFLEET_SYSFS", host);
		return -ENAMETOOLONG;
	}
	return 0;
}

bool efivar_available(void)
{
	char path[PATH_MAX];
	struct stat st;

	return !host_path(EFIVAR_DIR, path, sizeof(path)) && !stat(path, &st) &&
	       S_ISDIR(st.st_mode);
}

/* What FS_IOC_[GS]ETFLAGS fail with on a filesystem without such flags. */
static bool no_flags(int err)
{
	return err == ENOTTY || err == EOPNOTSUPP || err == EINVAL || err == ENOSYS;
}

/* A variable whose immutable flag was cleared: its flags to put back. */
struct unlocked {
	int fd;			/* -1: nothing to put back */
	int flags;
};

/*
 * Clear FS_IMMUTABLE_FL of @path (chattr -i) if it has it, so that it can
 * be replaced or unlinked.  0 also when there is no @path or no such flag;
 * -errno with @why, nothing changed.
 */
static int unlock_var(const char *path, struct unlocked *u, char *why, size_t wlen)
{
	int fd, flags, cleared, err;

	u->fd = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT)
			return 0;
		snprintf(why, wlen, "%s: cannot open it: %s", path, strerror(err));
		return -err;
	}
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		err = errno;
		close(fd);
		if (no_flags(err))
			return 0;
		snprintf(why, wlen, "%s: cannot read its flags (FS_IOC_GETFLAGS): %s", path,
			 strerror(err));
		return -err;
	}
	if (!(flags & FS_IMMUTABLE_FL)) {
		close(fd);
		return 0;
	}
	cleared = flags & ~FS_IMMUTABLE_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &cleared) < 0) {
		err = errno;
		close(fd);
		if (no_flags(err))
			return 0;
		snprintf(why, wlen, "%s: cannot clear its immutable flag (chattr -i): %s", path,
			 strerror(err));
		return -err;
	}
	u->fd = fd;
	u->flags = flags;
	return 0;
}

/*
 * Set the immutable flag back, as bootctl does; at best, since the
 * variable is written (or not) by now and that is what the caller is told.
 */
static void relock_var(struct unlocked *u)
{
	if (u->fd < 0)
		return;
	(void)ioctl(u->fd, FS_IOC_SETFLAGS, &u->flags);
	close(u->fd);
	u->fd = -1;
}

/* The variable is gone: its flags with it. */
static void forget_var(struct unlocked *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
}

/*
 * All of @fd, up to @cap bytes, into @buf: the count or -errno.  Not
 * read_whole_fd() (lib/fileio.h): it refuses the NUL bytes of UTF-16.
 */
static ssize_t read_all(int fd, unsigned char *buf, size_t cap)
{
	size_t used = 0;

	while (used < cap) {
		ssize_t n = read(fd, buf + used, cap - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		used += (size_t)n;
	}
	return (ssize_t)used;
}

/* The @n bytes of variable file @path, attributes then UTF-16LE, into @out. */
static int decode(const char *path, const unsigned char *buf, size_t n, char *out,
		  size_t len, char *why, size_t wlen)
{
	const unsigned char *data = buf + 4;
	size_t chars;

	if (n == 0) {
		snprintf(why, wlen, "%s: not set (an empty file: an uncommitted variable)", path);
		return -ENOENT;
	}
	if (n < 4) {
		snprintf(why, wlen, "%s: %zu bytes, fewer than its 4 bytes of attributes", path, n);
		return -EBADMSG;
	}
	if ((n - 4) % 2) {
		snprintf(why, wlen, "%s: %zu bytes of data, an odd count: not UTF-16", path, n - 4);
		return -EBADMSG;
	}
	chars = (n - 4) / 2;
	if (chars && !data[2 * (chars - 1)] && !data[2 * (chars - 1) + 1])
		chars--;	/* the terminating NUL, which may be left out */
	if (chars > EFIVAR_VALUE_MAX) {
		snprintf(why, wlen, "%s: a value of %zu characters, more than %d", path, chars,
			 EFIVAR_VALUE_MAX);
		return -E2BIG;
	}
	if (chars >= len) {
		snprintf(why, wlen, "%s: a value of %zu characters does not fit in %zu bytes",
			 path, chars, len);
		return -E2BIG;
	}
	for (size_t i = 0; i < chars; i++) {
		unsigned int u = data[2 * i] | (unsigned int)data[2 * i + 1] << 8;

		if (!u) {
			snprintf(why, wlen, "%s: a NUL at character %zu of %zu, before the end",
				 path, i + 1, chars);
			out[0] = '\0';
			return -EBADMSG;
		}
		if (u >= 0xd800 && u <= 0xdfff) {
			snprintf(why, wlen,
				 "%s: character %zu is 0x%04X, half of a UTF-16 surrogate pair "
				 "(beyond the BMP), not ASCII", path, i + 1, u);
			out[0] = '\0';
			return -EINVAL;
		}
		if (u > 0x7f) {
			snprintf(why, wlen, "%s: character %zu is U+%04X, not ASCII", path, i + 1,
				 u);
			out[0] = '\0';
			return -EINVAL;
		}
		out[i] = (char)u;
	}
	out[chars] = '\0';
	return 0;
}

int efivar_get_loader(const char *name, char *out, size_t len, char *why, size_t wlen)
{
	unsigned char buf[EFIVAR_FILE_MAX + 1];
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	if (len)
		out[0] = '\0';
	err = var_path(name, path, sizeof(path), why, wlen);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT)
			snprintf(why, wlen, "%s: not set (no such file)", path);
		else
			snprintf(why, wlen, "%s: cannot open it: %s", path, strerror(err));
		return -err;
	}
	n = read_all(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0) {
		snprintf(why, wlen, "%s: cannot read it: %s", path, strerror((int)-n));
		return (int)n;
	}
	if (n > EFIVAR_FILE_MAX) {
		snprintf(why, wlen, "%s: more than %d bytes, longer than a value of %d characters",
			 path, EFIVAR_FILE_MAX, EFIVAR_VALUE_MAX);
		return -E2BIG;
	}
	return decode(path, buf, (size_t)n, out, len, why, wlen);
}

/*
 * The value written is @size bytes, all of the file on efivarfs (which
 * replaces a variable whole); a plain filesystem (tests) keeps the end of
 * a longer old value: cut it off.  Not O_TRUNC: older efivarfs (fixed in
 * 2025) applied that to the inode's size, and a write failing after it left
 * the variable looking uncommitted (size 0) to readers that stat it, as
 * systemd does.
 */
static int cut_after(int fd, size_t size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size <= (off_t)size)
		return 0;
	return ftruncate(fd, (off_t)size) ? -errno : 0;
}

/* One write() of @size bytes, as efivarfs wants: 0 or -errno, and @why. */
static int write_var(const char *path, const unsigned char *buf, size_t size, char *why,
		     size_t wlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644), err = 0;
	ssize_t w;

	if (fd < 0) {
		err = errno;
		snprintf(why, wlen, "%s: cannot open it for writing: %s", path, strerror(err));
		return -err;
	}
	/* not write_full() (lib/fileio.h): a second write() would append */
	do
		w = write(fd, buf, size);
	while (w < 0 && errno == EINTR);
	if (w < 0) {
		err = -errno;
		snprintf(why, wlen, "%s: cannot write it: %s", path, strerror(-err));
	} else if ((size_t)w != size) {
		err = -EIO;
		snprintf(why, wlen, "%s: wrote %zd of %zu bytes", path, w, size);
	} else if ((err = cut_after(fd, size))) {
		snprintf(why, wlen, "%s: cannot cut it to %zu bytes: %s", path, size,
			 strerror(-err));
	}
	if (close(fd) && errno != EINTR && !err) {
		err = -errno;
		snprintf(why, wlen, "%s: cannot write it: %s", path, strerror(-err));
	}
	return err;
}

int efivar_set_loader(const char *name, const char *value, char *why, size_t wlen)
{
	unsigned char buf[EFIVAR_FILE_MAX];
	char path[PATH_MAX], back[EFIVAR_VALUE_MAX + 1], sub[512];
	size_t n, size;
	struct unlocked u;
	int err;

	err = var_path(name, path, sizeof(path), why, wlen);
	if (err)
		return err;
	n = strlen(value);
	if (n > EFIVAR_VALUE_MAX) {
		snprintf(why, wlen, "%s: a value of %zu characters, more than %d", path, n,
			 EFIVAR_VALUE_MAX);
		return -E2BIG;
	}
	buf[0] = EFIVAR_ATTR_NV_BS_RT & 0xff;
	buf[1] = (EFIVAR_ATTR_NV_BS_RT >> 8) & 0xff;
	buf[2] = (EFIVAR_ATTR_NV_BS_RT >> 16) & 0xff;
	buf[3] = (EFIVAR_ATTR_NV_BS_RT >> 24) & 0xff;
	for (size_t i = 0; i <= n; i++) {
		unsigned char c = (unsigned char)value[i];

		if (c > 0x7f) {
			snprintf(why, wlen, "%s: byte %zu of the value is 0x%02x, not ASCII",
				 path, i + 1, c);
			return -EINVAL;
		}
		buf[4 + 2 * i] = c;
		buf[4 + 2 * i + 1] = 0;
	}
	size = 4 + 2 * (n + 1);

	err = unlock_var(path, &u, why, wlen);
	if (err)
		return err;
	err = write_var(path, buf, size, why, wlen);
	relock_var(&u);
	if (err)
		return err;

	err = efivar_get_loader(name, back, sizeof(back), sub, sizeof(sub));
	if (err) {
		snprintf(why, wlen, "written, but reading it back: %s", sub);
		return err;
	}
	if (strcmp(back, value)) {
		snprintf(why, wlen, "%s: written as '%s', reads back as '%s'", path, value, back);
		return -EIO;
	}
	return 0;
}

int efivar_del_loader(const char *name, char *why, size_t wlen)
{
	char path[PATH_MAX];
	struct unlocked u;
	int err;

	err = var_path(name, path, sizeof(path), why, wlen);
	if (!err)
		err = unlock_var(path, &u, why, wlen);
	if (err)
		return err;
	if (!unlink(path) || errno == ENOENT) {
		forget_var(&u);
		return 0;
	}
	err = -errno;
	snprintf(why, wlen, "%s: cannot delete it: %s", path, strerror(-err));
	relock_var(&u);
	return err;
}
