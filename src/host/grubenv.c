// SPDX-License-Identifier: GPL-2.0
/*
 * GRUB's environment block, read as grub-core/lib/envblk.c reads it and
 * written by grub-editenv.
 */
#include "host/grubenv.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/env.h"
#include "lib/failpoint.h"
#include "lib/fileio.h"
#include "lib/rootdir.h"
#include "lib/runcmd.h"

#define GRUBENV_SIGNATURE	"# GRUB Environment Block\n"
#define GRUBENV_MAX		(1u << 20)
#define EDITENV_TIMEOUT_S	60

/* The start of the next line; a backslash escapes the byte after it. */
static const char *next_line(const char *p, const char *pend)
{
	while (p < pend) {
		if (*p == '\\')
			p += 2;
		else if (*p == '\n')
			break;
		else
			p++;
	}
	return p + 1;
}

static int add_var(struct grubenv *env, const char *name, size_t nlen,
		   const char *val, const char *vend)
{
	char **k = realloc(env->keys, (env->nr + 1) * sizeof(*k));
	char **v;
	char *s;

	if (!k)
		return -ENOMEM;
	env->keys = k;
	v = realloc(env->values, (env->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	env->values = v;
	k[env->nr] = strndup(name, nlen);
	v[env->nr] = s = malloc((size_t)(vend - val) + 1);
	env->nr++;		/* freed with the rest, even half-made */
	if (!k[env->nr - 1] || !s)
		return -ENOMEM;
	for (; val < vend; val++) {
		if (*val == '\\')
			val++;
		*s++ = *val;
	}
	*s = '\0';
	return 0;
}

int grubenv_parse(struct grubenv *env, const char *block, size_t size,
		  const char *file, char *why, size_t len)
{
	const size_t siglen = strlen(GRUBENV_SIGNATURE);
	const char *p = block + siglen, *pend = block + size;
	unsigned int line = 2;

	memset(env, 0, sizeof(*env));
	if (size < siglen || memcmp(block, GRUBENV_SIGNATURE, siglen)) {
		snprintf(why, len, "%s: not a GRUB environment block: it does not start with the line \"# GRUB Environment Block\"",
			 file);
		return -EINVAL;
	}
	while (p < pend) {
		const char *next = next_line(p, pend);

		if (*p != '#') {
			const char *name = p, *eq = p, *val;
			int err;

			while (eq < pend && *eq != '=' && *eq != '\n')
				eq++;
			if (eq >= pend || *eq != '=' || eq == name) {
				snprintf(why, len, "%s:%u: a line that is not KEY=VALUE in the environment block",
					 file, line);
				return -EINVAL;
			}
			val = eq + 1;
			if (next > pend) {
				snprintf(why, len, "%s:%u: the variable %.*s runs to the end of the block: no newline ends it",
					 file, line, (int)(eq - name), name);
				return -EINVAL;
			}
			err = add_var(env, name, (size_t)(eq - name), val, next - 1);
			if (err) {
				snprintf(why, len, "%s: %s", file, strerror(-err));
				return err;
			}
		}
		for (; p < next && p < pend; p++)
			line += *p == '\n';
	}
	return 0;
}

int grubenv_load(struct grubenv *env, const char *file, char *why, size_t len)
{
	char path[PATH_MAX];
	char *text = NULL;
	size_t n;
	int err;

	memset(env, 0, sizeof(*env));
	err = root_path(rootdir_get(), file, path, sizeof(path));
	if (!err)
		err = read_whole_file(path, GRUBENV_MAX, &text, &n);
	if (err == -EFBIG) {
		snprintf(why, len, "%s: larger than %u bytes: not a GRUB environment block",
			 file, GRUBENV_MAX);
		return -EINVAL;
	}
	if (err == -EBADMSG) {
		snprintf(why, len, "%s: holds a NUL byte: not a GRUB environment block", file);
		return -EINVAL;
	}
	if (err) {
		snprintf(why, len, "%s: %s", file, strerror(-err));
		return err;
	}
	err = grubenv_parse(env, text, n, file, why, len);
	free(text);
	return err;
}

void grubenv_free(struct grubenv *env)
{
	for (size_t i = 0; i < env->nr; i++) {
		free(env->keys[i]);
		free(env->values[i]);
	}
	free(env->keys);
	free(env->values);
	memset(env, 0, sizeof(*env));
}

const char *grubenv_find(const struct grubenv *env, const char *key)
{
	const char *v = NULL;

	for (size_t i = 0; i < env->nr; i++)
		if (!strcmp(env->keys[i], key))
			v = env->values[i];
	return v;
}

int grubenv_get(const char *file, const char *key, char **value, char *why,
		size_t len)
{
	struct grubenv env;
	const char *v;
	int err;

	*value = NULL;
	err = grubenv_load(&env, file, why, len);
	if (!err && (v = grubenv_find(&env, key)) && !(*value = strdup(v))) {
		snprintf(why, len, "%s: %s", file, strerror(ENOMEM));
		err = -ENOMEM;
	}
	grubenv_free(&env);
	return err;
}

const char *grubenv_editenv(void)
{
	static char found[PATH_MAX];
	const char *env = env_get(ENV_GRUB_EDITENV);

	if (env)
		return env;
	if (!runcmd_find("grub-editenv", found, sizeof(found)) ||
	    !runcmd_find("grub2-editenv", found, sizeof(found)))
		return found;
	return NULL;
}

/*
 * grub-editenv rewrites the block in place: it truncates the file and
 * writes it anew (fopen "wb", then fsync).  A crash between the two leaves
 * an empty or short file, which GRUB cannot load, and with
 * GRUB_DEFAULT=saved it then boots the first entry: on Debian the newest
 * kernel, the one on trial.  So it is run on a copy in the same directory
 * (where a symlink leads), and the copy, fsynced, is renamed over the
 * block: after a crash the block is the old one or the new one.  (On vfat,
 * the ESP of an old Fedora, the rename is the best there is: no journal.)
 * A missing block is made by grub-editenv itself, which writes a new one
 * to FILE.new and renames it.  Failpoints grubenv.after-temp (the copy
 * edited and fsynced) and grubenv.after-rename (its directory not yet).
 */
/* `PROG TARGET OP ARG`: 0, or -EIO and @why with its exit */
static int run_editenv(const char *prog, const char *target, const char *op, const char *arg,
		       char *why, size_t len)
{
	char *argv[] = { (char *)prog, (char *)target, (char *)op, (char *)arg, NULL };
	char res[64];
	int rc = run_command(argv, -1, EDITENV_TIMEOUT_S);

	if (!rc)
		return 0;
	snprintf(why, len, "%s %s %s %s: %s", prog, target, op, arg,
		 run_command_result(rc, res, sizeof(res)));
	return -EIO;
}

static int edit_copy(const char *prog, const char *real, const char *file, const char *op,
		     const char *arg, char *why, size_t len)
{
	char tmp[PATH_MAX], *old = NULL;
	const char *what;
	struct stat st;
	size_t n = 0;
	int fd, err;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.rafleet-XXXXXX", real) >= sizeof(tmp)) {
		snprintf(why, len, "%s: %s", file, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	/* the copy of an edit a crash cut short (grubenv.after-temp) */
	atomic_leftovers_remove(real, ".rafleet-");
	what = "read";
	err = read_whole_file(real, GRUBENV_MAX, &old, &n);
	if (!err && stat(real, &st))
		err = -errno;
	if (!err) {
		what = "a copy beside it";
		fd = mkstemp(tmp);
		if (fd < 0) {
			err = -errno;
		} else {
			err = write_full(fd, old, n);
			if (!err && fchmod(fd, st.st_mode & 07777))
				err = -errno;
			/* its owner too (vfat has none to set: EPERM) */
			if (!err && fchown(fd, st.st_uid, st.st_gid) && errno != EPERM)
				err = -errno;
			if (close(fd) && !err)
				err = -errno;
			if (err)
				unlink(tmp);
		}
	}
	free(old);
	if (err) {
		snprintf(why, len, "%s: %s: %s", file, what, strerror(-err));
		return err;
	}
	err = run_editenv(prog, tmp, op, arg, why, len);
	if (err) {
		unlink(tmp);
		return err;
	}
	what = "fsync of the edited copy";
	err = fsync_path(tmp);
	if (!err) {
		failpoint("grubenv.after-temp");
		what = "rename of the edited copy over it";
		if (rename(tmp, real))
			err = -errno;
	}
	if (err) {
		unlink(tmp);
		snprintf(why, len, "%s: %s: %s", file, what, strerror(-err));
		return err;
	}
	failpoint("grubenv.after-rename");
	err = fsync_dir_of(real);
	if (err)
		snprintf(why, len, "%s: fsync of its directory: %s", file, strerror(-err));
	return err;
}

/* grub-editenv makes a missing block itself (FILE.new, renamed); synced. */
static int edit_new(const char *prog, const char *real, const char *file, const char *op,
		    const char *arg, char *why, size_t len)
{
	int err = run_editenv(prog, real, op, arg, why, len);

	if (err)
		return err;
	err = fsync_path(real);
	if (!err)
		err = fsync_dir_of(real);
	if (err)
		snprintf(why, len, "%s: fsync after grub-editenv: %s", file, strerror(-err));
	return err;
}

/* Run the tool for @file with @op @arg (crash-safe, above), read back into @env. */
static int editenv(const char *file, const char *op, const char *arg,
		   struct grubenv *env, char *why, size_t len)
{
	const char *prog = grubenv_editenv();
	char path[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int err;

	memset(env, 0, sizeof(*env));
	if (!prog) {
		snprintf(why, len, "%s: no grub-editenv or grub2-editenv in /usr/bin, /usr/sbin, /bin or /sbin (nor $%s)",
			 file, env_name(ENV_GRUB_EDITENV));
		return -ENOENT;
	}
	if (root_path(rootdir_get(), file, path, sizeof(path))) {
		snprintf(why, len, "%s: %s", file, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	/* the block where a symlink leads (Fedora's on the ESP, once) */
	if (realpath(path, real)) {
		err = edit_copy(prog, real, file, op, arg, why, len);
	} else if (errno == ENOENT && lstat(path, &st) && errno == ENOENT) {
		err = edit_new(prog, path, file, op, arg, why, len);
	} else if (errno == ENOENT) {
		/* a symlink to nothing: GRUB reads the block it names, not one here */
		snprintf(why, len, "%s: a symlink to a block that is not there (its filesystem not mounted?); not writing one in its place",
			 file);
		err = -ENOENT;
	} else {
		err = -errno;
		snprintf(why, len, "%s: %s", file, strerror(errno));
	}
	if (!err)
		err = grubenv_load(env, file, why, len);
	return err;
}

static int check_key(const char *file, const char *key, char *why, size_t len)
{
	if (*key && !strpbrk(key, "=\n"))
		return 0;
	snprintf(why, len, "%s: '%s' cannot be a variable of the environment block (empty, or a '=' or newline in it)",
		 file, key);
	return -EINVAL;
}

int grubenv_set(const char *file, const char *key, const char *value,
		char *why, size_t len)
{
	struct grubenv env;
	const char *got;
	char *arg;
	int err;

	err = check_key(file, key, why, len);
	if (err)
		return err;
	if (asprintf(&arg, "%s=%s", key, value) < 0) {
		snprintf(why, len, "%s: %s", file, strerror(ENOMEM));
		return -ENOMEM;
	}
	err = editenv(file, "set", arg, &env, why, len);
	free(arg);
	if (!err) {
		got = grubenv_find(&env, key);
		if (!got || strcmp(got, value)) {
			snprintf(why, len, "%s: grub-editenv set %s='%s', but it reads back %s%s%s",
				 file, key, value, got ? "as '" : "unset",
				 got ? got : "", got ? "'" : "");
			err = -EIO;
		}
	}
	grubenv_free(&env);
	return err;
}

int grubenv_unset(const char *file, const char *key, char *why, size_t len)
{
	struct grubenv env;
	const char *got;
	int err;

	err = check_key(file, key, why, len);
	if (err)
		return err;
	err = editenv(file, "unset", key, &env, why, len);
	if (!err && (got = grubenv_find(&env, key))) {
		snprintf(why, len, "%s: grub-editenv unset %s, but it reads back as '%s'",
			 file, key, got);
		err = -EIO;
	}
	grubenv_free(&env);
	return err;
}
