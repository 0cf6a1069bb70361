// SPDX-License-Identifier: GPL-2.0
#include "host/sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/atomicfile.h"
#include "lib/failpoint.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/jsonread.h"
#include "lib/statedir.h"
#include "lib/rootdir.h"

struct saved {
	char name[128];
	char path[PATH_MAX];
	char val[128];
	size_t len;
};

static struct saved saved[SYSCTL_MAX_SAVED];
static volatile sig_atomic_t nr_saved;
/* the write-ahead record of the saved values, once written (removed by restore) */
static char undo_path[PATH_MAX];
static pid_t saver;		/* whose they are */

int sysctl_path(const char *name, char *out, size_t len)
{
	char host[PATH_MAX];
	size_t n;

	if (!name || !*name || *name == '.' || strstr(name, "..") ||
	    strchr(name, '/') || name[strlen(name) - 1] == '.')
		return -EINVAL;
	for (const char *c = name; *c; c++)
		if (!(*c == '.' || *c == '_' || *c == '-' ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9')))
			return -EINVAL;
	n = snprintf(host, sizeof(host), "/proc/sys/%s", name);
	if (n >= sizeof(host))
		return -ENAMETOOLONG;
	for (char *p = host + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return host_path(host, out, len);
}

int sysctl_get(const char *name, char *val, size_t len)
{
	char path[PATH_MAX];
	int err = sysctl_path(name, path, sizeof(path));
	size_t n;

	if (!err)
		err = read_small_file(path, val, len);
	if (err)
		return err;
	n = strlen(val);
	if (n && val[n - 1] == '\n')
		val[n - 1] = '\0';
	return 0;
}

static int write_value(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

int sysctl_set(const char *name, const char *val)
{
	char path[PATH_MAX];
	int err = sysctl_path(name, path, sizeof(path));

	return err ? err : write_value(path, val, strlen(val));
}

/* A process's start time (field 22 of /proc/PID/stat), 0 if unknown. */
unsigned long long sysctl_writer_start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_small_file(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');	/* the command may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			 &t) != 1)
		return 0;
	return t;
}

static int undo_fill(FILE *f, const void *arg)
{
	struct json_writer w;
	char boot[64] = "";

	(void)arg;
	sysctl_get("kernel.random.boot_id", boot, sizeof(boot));
	json_init(&w, f, true);
	json_obj_begin(&w, NULL);
	json_str(&w, "schema", SYSCTL_UNDO_SCHEMA);
	json_i64(&w, "pid", getpid());
	json_u64(&w, "start_time", sysctl_writer_start_time(getpid()));
	json_str(&w, "boot_id", boot);
	json_arr_begin(&w, "saved");
	for (int i = 0; i < nr_saved; i++) {
		char val[sizeof(saved[i].val)];

		snprintf(val, sizeof(val), "%.*s", (int)saved[i].len - 1, saved[i].val);
		json_obj_begin(&w, NULL);
		json_str(&w, "sysctl", saved[i].name);
		json_str(&w, "value", val);
		json_obj_end(&w);
	}
	json_arr_end(&w);
	json_obj_end(&w);
	json_end(&w);
	return json_error(&w) ? -EIO : 0;
}

struct undo_entry {
	char sysctl[128];
	char value[128];
};

struct undo_doc {
	int64_t pid;
	uint64_t start;
	char boot[64];
	struct undo_entry e[SYSCTL_MAX_SAVED];
	size_t nr;
};

static const struct json_field entry_fields[] = {
	{ .key = "sysctl", .type = JF_STRING, JF_AT(struct undo_entry, sysctl),
	  .flags = JF_REQUIRED | JF_NONEMPTY },
	{ .key = "value", .type = JF_STRING, JF_AT(struct undo_entry, value),
	  .flags = JF_REQUIRED },
	{ 0 }
};

static int read_entry(struct json_read *rd, struct json_object *item, size_t i, void *ctx)
{
	struct undo_doc *d = ctx;

	if (i >= SYSCTL_MAX_SAVED)
		return json_read_bad(rd, "more than %d values", SYSCTL_MAX_SAVED);
	d->nr = i + 1;
	return json_read_object(rd, item, entry_fields, &d->e[i]);
}

static int read_saved(struct json_read *rd, struct json_object *v, void *member)
{
	return json_read_array(rd, v, read_entry, member);
}

static const struct json_field undo_fields[] = {
	{ .key = "pid", .type = JF_INT, JF_AT(struct undo_doc, pid),
	  .flags = JF_REQUIRED | JF_RANGE, .min = 1, .max = INT32_MAX },
	{ .key = "start_time", .type = JF_UINT, JF_AT(struct undo_doc, start) },
	{ .key = "boot_id", .type = JF_STRING, JF_AT(struct undo_doc, boot), .flags = JF_TRUNCATE },
	{ .key = "saved", .type = JF_ARRAY, .flags = JF_REQUIRED, .cb = read_saved },
	{ 0 }
};

/* The record at @path into @d: 0, -ENOENT, or another -errno (@why says what, if it can). */
static int undo_read(const char *path, struct undo_doc *d, char *why, size_t len)
{
	struct json_object *doc = NULL;
	struct json_read rd;
	int err;

	why[0] = '\0';
	memset(d, 0, sizeof(*d));
	json_read_init(&rd, why, len, NULL);
	err = json_read_file(&rd, path, SYSCTL_UNDO_MAX_BYTES, &doc);
	if (!err)
		err = json_read_object(&rd, doc, undo_fields, d);
	json_object_put(doc);
	return err;
}

static char busy_msg[PATH_MAX + 384];

/* Why the record at @path is not ours to write: busy_msg, for sysctl_saved_strerror() */
static void say_busy(const char *path)
{
	char why[256], boot[64] = "";
	struct undo_doc d;

	int err = undo_read(path, &d, why, sizeof(why));

	if (err == -ENOENT) {
		snprintf(busy_msg, sizeof(busy_msg), "another rafleet had sysctls changed (%s) and has just put them back: try again",
			 path);
		return;
	}
	if (err) {
		snprintf(busy_msg, sizeof(busy_msg), "%s: another rafleet's record of sysctls to put back, unreadable (%.120s): 'rafleet recover' says more",
			 path, why[0] ? why : "?");
		return;
	}
	sysctl_get("kernel.random.boot_id", boot, sizeof(boot));
	if (!strcmp(boot, d.boot) && d.start && sysctl_writer_start_time((pid_t)d.pid) == d.start)
		snprintf(busy_msg, sizeof(busy_msg), "another rafleet (pid %lld) has sysctls changed (%s): one at a time; wait for it to end",
			 (long long)d.pid, path);
	else
		snprintf(busy_msg, sizeof(busy_msg), "a rafleet (pid %lld) that no longer runs left sysctls changed (%s): 'rafleet recover' puts them back first",
			 (long long)d.pid, path);
}

/*
 * The record of every value saved so far, atomically, before a change.
 * The first one is made only where there is none (link(), not rename()):
 * another writer's record, or a killed one's not yet put back, is never
 * replaced (-EBUSY); later ones replace our own.
 */
static int undo_write(void)
{
	bool first = !undo_path[0];
	int err = 0;

	if (first) {
		err = statedir_ensure();
		if (!err)
			err = statedir_path(SYSCTL_UNDO_FILE, undo_path, sizeof(undo_path));
	}
	if (!err)
		err = first ? atomic_create_stream(undo_path, 0644, undo_fill, NULL)
			    : atomic_write_stream(undo_path, 0644, undo_fill, NULL);
	if (err == -EEXIST) {
		say_busy(undo_path);
		err = -EBUSY;
	}
	if (err && first)
		undo_path[0] = '\0';
	return err;
}

const char *sysctl_saved_strerror(int err)
{
	return err == -EBUSY && busy_msg[0] ? busy_msg : strerror(-err);
}

/*
 * A forked child has its parent's saved values and record: the parent's
 * to put back, not its own (getpid(): safe in a signal handler).
 */
static void forget_parents(void)
{
	pid_t me = getpid();

	if (saver == me)
		return;
	nr_saved = 0;
	undo_path[0] = '\0';
	saver = me;
}

int sysctl_set_saved(const char *name, const char *val)
{
	struct saved *s;
	int err;

	forget_parents();
	if (nr_saved >= SYSCTL_MAX_SAVED)
		return -ENOSPC;
	s = &saved[nr_saved];
	if ((size_t)snprintf(s->name, sizeof(s->name), "%s", name) >= sizeof(s->name))
		return -ENAMETOOLONG;
	err = sysctl_path(name, s->path, sizeof(s->path));
	if (!err)
		err = sysctl_get(name, s->val, sizeof(s->val) - 1);
	if (err)
		return err;
	s->len = strlen(s->val);
	s->val[s->len++] = '\n';
	nr_saved++;	/* saved before the write: a signal now restores it */
	/*
	 * And recorded on disk before it: a SIGKILL now is undone by
	 * recover.  A read-only state directory (an image, a guest's root)
	 * can record nothing, nor could recover: as before, SIGINT and
	 * SIGTERM restore.
	 */
	err = undo_write();
	if (err && err != -EROFS) {
		nr_saved--;
		return err;
	}
	failpoint("sysctl.after-undo-record");
	err = write_value(s->path, val, strlen(val));
	if (err)
		nr_saved--;	/* nothing changed */
	return err;
}

int sysctl_restore_all(void)
{
	int first = 0;

	forget_parents();
	while (nr_saved > 0) {
		struct saved *s = &saved[nr_saved - 1];
		int err = write_value(s->path, s->val, s->len);

		if (err && !first)
			first = err;
		nr_saved--;
	}
	/* every value back: the record goes (unlink: safe in a handler too) */
	if (!first && undo_path[0] && !unlink(undo_path))
		undo_path[0] = '\0';
	return first;
}

int sysctl_undo_recover(char *msg, size_t len)
{
	char path[PATH_MAX], boot[64] = "", err_buf[256];
	struct undo_doc d;
	int err, first = 0;
	size_t n = 0;

	msg[0] = '\0';
	err = statedir_path(SYSCTL_UNDO_FILE, path, sizeof(path));
	if (err)
		return err;
	err = undo_read(path, &d, err_buf, sizeof(err_buf));
	if (err == -ENOENT)
		return 0;
	if (err) {
		snprintf(msg, len, "%s: %s; not touching it (repair it or move it away)", path,
			 err_buf[0] ? err_buf : strerror(-err));
		return -EBADMSG;
	}
	sysctl_get("kernel.random.boot_id", boot, sizeof(boot));
	if (strcmp(boot, d.boot)) {
		/* a boot since: its sysctls are the boot's again */
		snprintf(msg, len, "%s: left by pid %lld in an earlier boot; this boot set the values afresh: removed",
			 path, (long long)d.pid);
		err = atomic_remove(path);
		return err ? err : 1;
	}
	if (d.start && sysctl_writer_start_time((pid_t)d.pid) == d.start)
		return -EBUSY;	/* its writer runs: it puts them back itself */
	/* newest first, as the writer would have */
	n = (size_t)snprintf(msg, len, "a rafleet (pid %lld) was killed with sysctls changed: put back",
			     (long long)d.pid);
	for (size_t i = d.nr; i-- > 0;) {
		err = sysctl_set(d.e[i].sysctl, d.e[i].value);
		if (err && !first)
			first = err;
		if (n < len)
			n += (size_t)snprintf(msg + n, len - n, " %s=%s%s", d.e[i].sysctl,
					      d.e[i].value, err ? " (failed)" : "");
	}
	if (first)
		return first;
	err = atomic_remove(path);
	return err ? err : 1;
}

static void on_signal(int sig)
{
	sysctl_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

void sysctl_restore_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
