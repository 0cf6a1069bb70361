/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio as a workload: run a job file of fio/ on our file and fold the
 * numbers of its JSON output into our result.
 */
#ifndef RAFLEET_FIO_H
#define RAFLEET_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fio_result {
	bool ok;
	char reason[160];	/* why not, when !ok */
	char job[64];
	double read_bw_kib;	/* KiB/s */
	double read_iops;
	double clat_p99_ns;
	double usr_cpu, sys_cpu;	/* percent */
	uint64_t read_bytes;
	uint64_t majf, minf;
	int fadvise_hint;	/* -1: the job leaves fio's default (on) */
};

#define FIO_JOB_DIR "/usr/share/rafleet/fio"

/*
 * Where job file @job (a name, no '/') lives: $RAFLEET_FIO_DIR, else
 * FIO_JOB_DIR; never the current directory (a job file can run commands:
 * exec_prerun).  The file must be root's own (lib/trust.h).  0, -ENOENT,
 * -EINVAL for a name with a '/', or trust_open()'s -EPERM, -ELOOP.
 */
int fio_job_path(const char *job, char *out, size_t len);

/*
 * The fadvise_hint a job file sets: 0 (off), 1 (on), 2 (another value,
 * e.g. "random"), or -1 when it sets none and fio's default (on: it calls
 * POSIX_FADV_SEQUENTIAL/RANDOM itself) applies.  Negative errno on error.
 */
int fio_job_fadvise_hint(const char *path);

#define FIO_TIMEOUT_S 1800

/* Parse fio's --output-format=json output into @out. 0 or -EBADMSG. */
int fio_parse_json(const char *text, struct fio_result *out);

/*
 * Run fio on job @job with RAFLEET_FILE=@file and RAFLEET_SIZE=@size in
 * its environment (the job files use ${RAFLEET_FILE} and ${RAFLEET_SIZE}).
 * On failure, @out->ok is false and @out->reason says why; returns 0 if
 * fio ran and its output parsed, a negative errno otherwise.  A run
 * longer than FIO_TIMEOUT_S is killed (the shipped jobs take seconds; a
 * device that stops answering must not hold bench, or the smoke run
 * that waits on it, for ever).
 */
int fio_run(const char *job, const char *file, off_t size,
	    struct fio_result *out);

#endif
