// SPDX-License-Identifier: GPL-2.0
#include "bench/fio.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/env.h"
#include "lib/fileio.h"
#include "lib/jsonread.h"
#include "lib/runcmd.h"
#include "lib/trust.h"

int fio_job_path(const char *job, char *out, size_t len)
{
	/* never the current directory: a job file can run commands */
	const char *dirs[] = { env_get(ENV_FIO_DIR), FIO_JOB_DIR };
	char why[8];

	if (!*job || strchr(job, '/'))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;

		if (!dirs[i] || !*dirs[i])
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], job) >= len)
			return -ENAMETOOLONG;
		fd = trust_open(out, O_RDONLY, why, sizeof(why));
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (fd != -ENOENT)
			return fd;
	}
	return -ENOENT;
}

int fio_job_fadvise_hint(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int hint = -1;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *v;

		while (isspace((unsigned char)*p))
			p++;
		if (strncmp(p, "fadvise_hint", 12))
			continue;
		v = strchr(p, '=');
		if (!v)
			continue;
		v++;
		while (isspace((unsigned char)*v))
			v++;
		hint = *v == '0' ? 0 : *v == '1' ? 1 : 2;
	}
	fclose(f);
	return hint;
}

/*
 * fio's numbers as json-c converts them (JF_COERCE: any type, NaN too),
 * each 0 when missing, as this reader always took them.
 */
#define FIO_NUM (JF_COERCE | JF_NONFINITE)

static const struct json_field pct_fields[] = {
	{ .key = "99.000000", .type = JF_DOUBLE, JF_AT(struct fio_result, clat_p99_ns),
	  .flags = FIO_NUM },
	{ 0 }
};

static const struct json_field clat_fields[] = {
	{ .key = "percentile", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE,
	  .sub = pct_fields },
	{ 0 }
};

static const struct json_field read_fields[] = {
	{ .key = "bw", .type = JF_DOUBLE, JF_AT(struct fio_result, read_bw_kib), .flags = FIO_NUM },
	{ .key = "iops", .type = JF_DOUBLE, JF_AT(struct fio_result, read_iops), .flags = FIO_NUM },
	{ .key = "io_bytes", .type = JF_UINT, JF_AT(struct fio_result, read_bytes),
	  .flags = FIO_NUM },
	{ .key = "clat_ns", .type = JF_OBJECT, .offset = 0, .flags = JF_LOOSE, .sub = clat_fields },
	{ 0 }
};

/* "read" must be there; not an object, it has nothing to read */
static int read_side(struct json_read *rd, struct json_object *v, void *member)
{
	if (!json_object_is_type(v, json_type_object))
		return 0;
	return json_read_object(rd, v, read_fields, member);
}

static const struct json_field job_fields[] = {
	{ .key = "read", .type = JF_ANY, .offset = 0, .flags = JF_REQUIRED | JF_NULLABLE,
	  .cb = read_side },
	{ .key = "usr_cpu", .type = JF_DOUBLE, JF_AT(struct fio_result, usr_cpu), .flags = FIO_NUM },
	{ .key = "sys_cpu", .type = JF_DOUBLE, JF_AT(struct fio_result, sys_cpu), .flags = FIO_NUM },
	{ .key = "majf", .type = JF_UINT, JF_AT(struct fio_result, majf), .flags = FIO_NUM },
	{ .key = "minf", .type = JF_UINT, JF_AT(struct fio_result, minf), .flags = FIO_NUM },
	{ 0 }
};

static const struct json_field output_fields[] = {
	{ .key = "jobs", .type = JF_ARRAY, .size = sizeof(struct json_object *),
	  .flags = JF_REQUIRED },
	{ 0 }
};

int fio_parse_json(const char *text, struct fio_result *out)
{
	const char *start = text ? strchr(text, '{') : NULL;
	struct json_object *root, *jobs;
	struct json_read rd;
	int err;

	if (!start)
		return -EBADMSG;
	json_read_init(&rd, NULL, 0, NULL);
	err = json_read_parse(&rd, start, &root);	/* fio may print notes first */
	if (err)
		return err;
	err = json_read_object(&rd, root, output_fields, &jobs);
	if (!err && json_object_array_length(jobs) < 1)
		err = -EBADMSG;
	if (!err) {
		out->read_bw_kib = out->read_iops = out->clat_p99_ns = 0;
		out->usr_cpu = out->sys_cpu = 0;
		out->read_bytes = out->majf = out->minf = 0;
		err = json_read_object(&rd, json_object_array_get_idx(jobs, 0), job_fields, out);
	}
	if (!err)
		out->ok = true;
	json_object_put(root);
	return err;
}

static void fail(struct fio_result *out, const char *why)
{
	out->ok = false;
	snprintf(out->reason, sizeof(out->reason), "%s", why);
}

int fio_run(const char *job, const char *file, off_t size,
	    struct fio_result *out)
{
	char path[512], env_file[PATH_MAX + 16], env_size[48];
	char *env[] = { env_file, env_size, NULL };
	char prog[PATH_MAX];
	char *argv[] = { prog, "--output-format=json", path, NULL };
	struct run_io io = { .in_fd = -1, .err_fd = -1, .env = env };
	char *text = NULL;
	int fd, status, err;

	memset(out, 0, sizeof(*out));
	snprintf(out->job, sizeof(out->job), "%s", job);
	err = fio_job_path(job, path, sizeof(path));
	if (err) {
		fail(out, err == -ENOENT ? "job file not found (" FIO_JOB_DIR ")" :
		     "job file refused: not root's own, or in a directory others can write");
		return err;
	}
	if (runcmd_find("fio", prog, sizeof(prog))) {
		fail(out, "fio is not installed");
		return -EIO;
	}
	out->fadvise_hint = fio_job_fadvise_hint(path);
	fd = memfd_create("fio-output", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	io.out_fd = fd;
	snprintf(env_file, sizeof(env_file), "RAFLEET_FILE=%s", file);
	snprintf(env_size, sizeof(env_size), "RAFLEET_SIZE=%lld", (long long)size);
	status = run_command_io(argv, &io, FIO_TIMEOUT_S);
	if (status < 0 && status != RUNCMD_TIMED_OUT) {
		close(fd);
		return status;
	}
	if (status) {
		close(fd);
		fail(out, status == 127 ? "fio is not installed" :
		     status == RUNCMD_TIMED_OUT ? "fio did not finish in time" : "fio failed");
		return -EIO;
	}
	err = lseek(fd, 0, SEEK_SET) ? -errno
				     : read_whole_fd(fd, JSON_FILE_MAX_BYTES, &text, NULL);
	close(fd);
	if (!err)
		err = fio_parse_json(text, out);
	if (err)
		fail(out, "fio's JSON output could not be read");
	free(text);
	return err;
}
