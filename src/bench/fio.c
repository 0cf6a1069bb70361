// SPDX-License-Identifier: GPL-2.0
#include "bench/fio.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/env.h"
#include "lib/runcmd.h"

int fio_job_path(const char *job, char *out, size_t len)
{
	const char *dirs[] = { env_get(ENV_FIO_DIR), "/usr/share/rafleet/fio",
			       "fio" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (!dirs[i] || !*dirs[i])
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], job) >= len)
			return -ENAMETOOLONG;
		if (!access(out, R_OK))
			return 0;
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

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

int fio_parse_json(const char *text, struct fio_result *out)
{
	const char *start = text ? strchr(text, '{') : NULL;
	struct json_object *root, *jobs, *job, *rd, *clat, *pct, *p99;
	int err = -EBADMSG;

	if (!start)
		return -EBADMSG;
	root = json_tokener_parse(start);	/* fio may print notes first */
	if (!root)
		return -EBADMSG;
	if (!json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array) ||
	    json_object_array_length(jobs) < 1)
		goto out;
	job = json_object_array_get_idx(jobs, 0);
	if (!json_object_object_get_ex(job, "read", &rd))
		goto out;
	out->read_bw_kib = num(rd, "bw");
	out->read_iops = num(rd, "iops");
	out->read_bytes = (uint64_t)num(rd, "io_bytes");
	out->clat_p99_ns = 0;
	if (json_object_object_get_ex(rd, "clat_ns", &clat) &&
	    json_object_object_get_ex(clat, "percentile", &pct) &&
	    json_object_object_get_ex(pct, "99.000000", &p99))
		out->clat_p99_ns = json_object_get_double(p99);
	out->usr_cpu = num(job, "usr_cpu");
	out->sys_cpu = num(job, "sys_cpu");
	out->majf = (uint64_t)num(job, "majf");
	out->minf = (uint64_t)num(job, "minf");
	out->ok = true;
	err = 0;
out:
	json_object_put(root);
	return err;
}

static int read_fd_all(int fd, char **text)
{
	struct stat st;
	char *buf;
	ssize_t n;

	if (fstat(fd, &st))
		return -errno;
	buf = malloc(st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	n = pread(fd, buf, st.st_size, 0);
	if (n < 0) {
		free(buf);
		return -errno;
	}
	buf[n] = '\0';
	*text = buf;
	return 0;
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
	char *argv[] = { "fio", "--output-format=json", path, NULL };
	struct run_io io = { .in_fd = -1, .err_fd = -1, .env = env };
	char *text = NULL;
	int fd, status, err;

	memset(out, 0, sizeof(*out));
	snprintf(out->job, sizeof(out->job), "%s", job);
	err = fio_job_path(job, path, sizeof(path));
	if (err) {
		fail(out, "job file not found (RAFLEET_FIO_DIR, /usr/share/rafleet/fio, ./fio)");
		return err;
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
	err = read_fd_all(fd, &text);
	close(fd);
	if (!err)
		err = fio_parse_json(text, out);
	if (err)
		fail(out, "fio's JSON output could not be read");
	free(text);
	return err;
}
