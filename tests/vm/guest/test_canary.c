// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest: `rafleet calibrate` and `rafleet canary` on our kernel.
 *
 *   test_canary FILE AA_TRIALS INJECT_RA_KB [quick | INJECT_FILE RA_KB PER_S]
 *
 * 1. calibrate the two workloads of the async_keep_half canary;
 * 2. AA_TRIALS A/A canaries (the same setting in both arms): none may say
 *    REGRESS;
 * 3. seed 000's workloads, unbounded_large_folios off against on: PASS;
 * 4. a regression injected in one arm only: while
 *    vm.readahead_async_keep_half is 1, FILE's disk has read_ahead_kb
 *    INJECT_RA_KB (ra_inject: a child watches the sysctl and sets it).
 *    Or, with INJECT_FILE (make vm-canary-full, the throttled disk, where
 *    a request costs time): that disk has read_ahead_kb RA_KB in both
 *    arms, and while the feature is on io_inject reads PER_S times a
 *    second from it, taking that share of its requests (40 of 400: about
 *    +10 %).  read_ahead_kb alone cannot make a loss that small there
 *    (the window is a power of two: the requests halve or double); and on
 *    TCG's own virtio disk, which costs CPU per byte and nothing per
 *    request, a smaller read_ahead_kb costs system time but next to no
 *    wall time (64 MiB: 45.5 ms at 8192 KiB, 47 ms at 1024 or 256), so
 *    the canary, which judges wall time, rightly says PASS.
 *    `rafleet canary --act` must say REGRESS within the cap, turn
 *    the feature off and persist that in its own sysctl.d drop-in; then
 *    what a boot does, systemd-sysctl over the shipped defaults and the
 *    drop-in, must leave it off.
 *
 * 5. the guard: with the only feature on that could explain a change of
 *    the read request size being readahead_populate_io_pages, it learns
 *    a baseline of 30 windows in which a reader reads the file; then
 *    GUARD_QUIET_WINDOWS more windows of the same reads, judged with
 *    --act, must start no canary (no alarm: the guard's false alarms on
 *    the live guest); then INJECT_RA_KB on FILE's disk, tied to that
 *    feature, makes two windows in a row leave their band, an alarm; `rafleet
 *    guard --act` must name the feature, run its canary, which says
 *    REGRESS, and the feature ends off and persisted.
 *
 * quick: steps 1-3 and the guard's quiet windows only (make check; its
 * rollout-guest stage does 4 and 5 on a booted systemd host).
 *
 * rafleet, systemd-sysctl, ra_inject and this program are in /tests.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define FEATURE "readahead_async_keep_half"
#define WORKLOADS "-w seq-read -w read-4k-then-512k"
#define RA_PATH_MAX 256
#define DROPIN "/etc/sysctl.d/60-rafleet-" FEATURE ".conf"

/* Run @cmd (through sh); its standard output parsed as JSON, its status. */
static struct json_object *run_json(const char *cmd, int *status)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *out = open_memstream(&buf, &len);
	FILE *p = popen(cmd, "r");
	struct json_object *o;

	diag("$ %s", cmd);
	while (p && (n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, out);
	*status = p ? pclose(p) : -1;
	*status = *status >= 0 && WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	fclose(out);
	o = json_tokener_parse(buf);
	free(buf);
	return o;
}

static const char *str_at(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, k1, &v))
		return "";
	if (k2 && !json_object_object_get_ex(v, k2, &v))
		return "";
	return json_object_get_string(v);
}

static int int_at(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, k1, &v))
		return -1;
	if (k2 && !json_object_object_get_ex(v, k2, &v))
		return -1;
	return json_object_get_int(v);
}

/* The wall estimate (a change) of workload @w. */
static double wall_estimate(struct json_object *o, int w, double *lo, double *hi)
{
	struct json_object *wl, *ms, *m;

	*lo = *hi = 0;
	if (!o || !json_object_object_get_ex(o, "workloads", &wl))
		return 0;
	wl = json_object_array_get_idx(wl, w);
	if (!wl || !json_object_object_get_ex(wl, "metrics", &ms))
		return 0;
	m = json_object_array_get_idx(ms, 0);
	if (json_object_object_get_ex(m, "lo", &wl))
		*lo = json_object_get_double(wl);
	if (json_object_object_get_ex(m, "hi", &wl))
		*hi = json_object_get_double(wl);
	return json_object_object_get_ex(m, "estimate", &wl) ? json_object_get_double(wl) : 0;
}

static int read_int(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf[0] ? atoi(buf) : -1;
}

static void write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, val, strlen(val)) < 0)
			perror(path);
		close(fd);
	}
}

/*
 * The queue attribute @knob of the disk that holds @file, into @path: from
 * its st_dev, /sys/dev/block/MAJ:MIN/queue (the test disks are whole disks).
 */
static void queue_path(const char *file, const char *knob, char *path, size_t len)
{
	struct stat st;

	if (stat(file, &st)) {
		snprintf(path, len, "/nonexistent (stat %s: %s)", file, strerror(errno));
		return;
	}
	snprintf(path, len, "/sys/dev/block/%u:%u/queue/%s", major(st.st_dev), minor(st.st_dev),
		 knob);
}

/* /dev/NAME of the disk that holds @file (its /sys/dev/block link's name) */
static void disk_of(const char *file, char *dev, size_t len)
{
	char link[64], target[256];
	struct stat st;
	ssize_t n;

	snprintf(dev, len, "/nonexistent");
	if (stat(file, &st))
		return;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	snprintf(dev, len, "/dev/%s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

/* The other injection (io_inject.c): @per_s reads a second while @feature is 1. */
static pid_t start_io_injector(const char *feature, const char *dev, const char *per_s)
{
	pid_t pid = fork();

	if (!pid) {
		execl("/tests/io_inject", "io_inject", feature, dev, per_s, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The injection (ra_inject.c): @ra_path follows @feature's sysctl. */
static pid_t start_injector(const char *feature, const char *ra_path, const char *on_kb,
			    const char *off_kb)
{
	pid_t pid = fork();

	if (!pid) {
		execl("/tests/ra_inject", "ra_inject", feature, ra_path, on_kb, off_kb,
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* A reader, for @secs seconds: the file from a cold cache, 128 KiB a read. */
static pid_t start_reader(const char *file, double secs)
{
	struct timespec t0, now;
	static char buf[128 << 10];
	pid_t pid = fork();

	if (pid)
		return pid;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int fd = open(file, O_RDONLY);

		if (fd < 0)
			_exit(1);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		while (read(fd, buf, sizeof(buf)) > 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - t0.tv_sec + (now.tv_nsec - t0.tv_nsec) / 1e9 > secs)
				_exit(0);
		}
		close(fd);
	}
}

static void write_file(const char *path, const char *content)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

#define GUARD_QUIET_WINDOWS 60
#define STR_(x) #x
#define STR(x) STR_(x)

static struct json_object *summary_of(struct json_object *o)
{
	struct json_object *s;

	return o && json_object_object_get_ex(o, "summary", &s) ? s : NULL;
}

static struct json_object *last_window(struct json_object *o)
{
	struct json_object *w;

	if (!o || !json_object_object_get_ex(o, "windows", &w) ||
	    !json_object_array_length(w))
		return NULL;
	return json_object_array_get_idx(w, json_object_array_length(w) - 1);
}

/*
 * The guard learns 30 windows of a reader, then judges
 * GUARD_QUIET_WINDOWS more of the same reads with --act: no alarm, no
 * canary may start.
 */
static void guard_quiet(const char *file)
{
	struct json_object *o;
	pid_t reader;
	int st;

	reader = start_reader(file, 32);
	o = run_json("/tests/rafleet guard --learn --window 1 --windows 30 --json", &st);
	waitpid(reader, NULL, 0);
	ok(st == 0 && o, "guard learned a baseline of 30 windows (exit %d)", st);
	if (o)
		json_object_put(o);

	reader = start_reader(file, GUARD_QUIET_WINDOWS + 2);
	o = run_json("/tests/rafleet guard --window 1 --windows " STR(GUARD_QUIET_WINDOWS)
		     " --act --json", &st);
	waitpid(reader, NULL, 0);
	diag("%d quiet windows: %s in band, %s out of band, %s alarms, %s canary runs",
	     GUARD_QUIET_WINDOWS, str_at(summary_of(o), "in band", NULL),
	     str_at(summary_of(o), "out of band", NULL), str_at(summary_of(o), "alarms", NULL),
	     str_at(summary_of(o), "canary_runs", NULL));
	ok(st == 0 && o && !strcmp(str_at(summary_of(o), "canary_runs", NULL), "0") &&
	   !strcmp(str_at(summary_of(o), "alarms", NULL), "0"),
	   "%d windows of the same reads with --act: no alarm, 0 canaries started (exit %d)",
	   GUARD_QUIET_WINDOWS, st);
	if (o)
		json_object_put(o);
}

static void guard_step(const char *file, const char *inject_kb, const char *off_kb)
{
	static const char *const off[] = { "readahead_unbounded_large_folios",
					   "readahead_async_two_windows",
					   "readahead_exec_large_folio" };
	struct json_object *o, *w, *v, *act = NULL;
	char cmd[512], path[256], ra_path[RA_PATH_MAX];
	pid_t inj, reader;
	int st;

	queue_path(file, "read_ahead_kb", ra_path, sizeof(ra_path));

	/* features off (live only) that could also explain the change */
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", off[i]);
		write_str(path, "0");
	}
	/* the canary the guard runs reads the test disk's file */
	snprintf(cmd, sizeof(cmd), "#!/bin/sh\nexec /tests/rafleet \"$@\" --file %s\n", file);
	write_file("/tmp/canary", cmd);
	chmod("/tmp/canary", 0755);
	setenv("RAFLEET_CANARY", "/tmp/canary", 1);

	guard_quiet(file);

	inj = start_injector("readahead_populate_io_pages", ra_path, inject_kb, off_kb);
	/* two windows: the guard acts on the second out of band in a row */
	reader = start_reader(file, 4.5);
	o = run_json("/tests/rafleet guard --window 2 --windows 2 --act --json", &st);
	waitpid(reader, NULL, 0);
	kill(inj, SIGKILL);
	waitpid(inj, NULL, 0);
	write_str(ra_path, off_kb);
	w = last_window(o);
	diag("guard window: %s, candidates %s", str_at(w, "verdict", NULL),
	     w && json_object_object_get_ex(w, "candidates", &v) ? json_object_to_json_string(v) : "none");
	ok(st == 3 && !strcmp(str_at(w, "verdict", NULL), "out of band") &&
	   json_object_object_get_ex(w, "alarm", &v) && json_object_get_boolean(v),
	   "with read_ahead_kb %s while populate_io_pages is on, two windows in a row are out of band: an alarm (exit %d)",
	   inject_kb, st);
	ok(w && json_object_object_get_ex(w, "alarm_candidates", &v) && json_object_array_length(v) == 1 &&
	   !strcmp(json_object_get_string(json_object_array_get_idx(v, 0)), "readahead_populate_io_pages"),
	   "the one feature on that can explain it is the candidate");
	/* its canary, found by name: the guard runs one for each candidate */
	for (size_t i = 0; w && json_object_object_get_ex(w, "actions", &v) &&
	     i < json_object_array_length(v); i++) {
		struct json_object *a = json_object_array_get_idx(v, i);

		diag("the guard's canary of %s: %s", str_at(a, "feature", NULL),
		     str_at(a, "decision", NULL));
		if (strstr(str_at(a, "feature", NULL), "readahead_populate_io_pages"))
			act = a;
	}
	ok(!strcmp(str_at(act, "decision", NULL), "REGRESS"), "the guard ran its canary: REGRESS");
	is_i64(read_int("/proc/sys/vm/readahead_populate_io_pages"), 0, "and the feature is off");
	ok(access("/etc/sysctl.d/60-rafleet-readahead_populate_io_pages.conf", F_OK) == 0,
	   "and persisted in its own drop-in");
	if (w && json_object_object_get_ex(w, "guard_cpu_pct", &v))
		diag("the guard's own CPU in that window: %.3f %% of one CPU", json_object_get_double(v));
	if (o)
		json_object_put(o);
}

int main(int argc, char **argv)
{
	const char *file = argc > 3 ? argv[1] : "/mnt/ext4/file64";
	int trials = argc > 3 ? atoi(argv[2]) : 2, st;
	const char *inject_kb = argc > 3 ? argv[3] : "128";
	bool quick = argc > 4 && !strcmp(argv[4], "quick");
	const char *inj_file = argc > 6 ? argv[4] : file;
	const char *inj_kb = argc > 6 ? argv[5] : inject_kb;
	const char *per_s = argc > 6 ? argv[6] : NULL;
	unsigned int aa_pass = 0, aa_unknown = 0, aa_regress = 0, aa_pairs = 0;
	char cmd[1024], off_kb[32], guard_off_kb[32], ra_path[RA_PATH_MAX];
	struct json_object *o;
	double lo, hi, est;
	pid_t inj;

	/* a host's identity and directories, as a real root has them */
	mkdir("/etc/sysctl.d", 0755);
	mkdir("/var", 0755);
	mkdir("/var/lib", 0755);
	write_file("/etc/machine-id", "5afe1ee7c0ffee0000000000000000a1\n");

	/* 1. calibrate */
	snprintf(cmd, sizeof(cmd), "/tests/rafleet calibrate " WORKLOADS " --file %s --json", file);
	o = run_json(cmd, &st);
	ok(st == 0 && o, "calibrate: exit 0 and JSON (exit %d)", st);
	if (o) {
		struct json_object *d;

		json_object_object_get_ex(o, "workloads", &d);
		for (size_t i = 0; d && i < json_object_array_length(d); i++) {
			struct json_object *e = json_object_array_get_idx(d, i);

			diag("calibrated %s: %d A/A pairs, noise %.2f %%, A/A %+.1f %% [%+.1f, %+.1f]; cap %d pairs (power %.0f %% to catch +5 %%)",
			     str_at(e, "scenario", NULL), int_at(e, "pairs", NULL),
			     json_object_get_double(json_object_object_get(e, "sigma")) * 100,
			     json_object_get_double(json_object_object_get(e, "estimate")) * 100,
			     json_object_get_double(json_object_object_get(e, "lo")) * 100,
			     json_object_get_double(json_object_object_get(e, "hi")) * 100,
			     int_at(e, "cap", NULL),
			     json_object_get_double(json_object_object_get(e, "power")) * 100);
		}
		ok(d && json_object_array_length(d) == 2, "two workloads calibrated");
		ok(json_object_get_double(json_object_object_get(o, "delta")) == 0.03,
		   "delta stays the policy, 3 %%");
		json_object_put(o);
	}

	/* 2. A/A */
	for (int t = 1; t <= trials; t++) {
		snprintf(cmd, sizeof(cmd),
			 "/tests/rafleet canary " FEATURE " --aa " WORKLOADS " --file %s --seed %d --json",
			 file, t * 1000);
		o = run_json(cmd, &st);
		est = wall_estimate(o, 0, &lo, &hi);
		diag("A/A trial %d: %s after %d pairs, seq-read %+.1f %% [%+.1f, %+.1f]", t,
		     str_at(o, "verdict", NULL), int_at(o, "pairs", NULL), est * 100, lo * 100, hi * 100);
		aa_regress += !strcmp(str_at(o, "verdict", NULL), "REGRESS");
		aa_pass += !strcmp(str_at(o, "verdict", NULL), "PASS");
		aa_unknown += !strcmp(str_at(o, "verdict", NULL), "UNKNOWN");
		aa_pairs += (unsigned int)int_at(o, "pairs", NULL);
		ok(o && (st == 0 || st == 4) && int_at(o, "arms", "A") == int_at(o, "arms", "B"),
		   "A/A trial %d: PASS or UNKNOWN (exit %d), both arms %d", t, st, int_at(o, "arms", "A"));
		if (o)
			json_object_put(o);
	}
	ok(aa_regress == 0, "A/A: %u trials, %u PASS, %u UNKNOWN, %u REGRESS, %u pairs in all",
	   trials, aa_pass, aa_unknown, aa_regress, aa_pairs);

	/* 3. a real improvement: seed 000's workloads */
	snprintf(cmd, sizeof(cmd), "/tests/rafleet canary readahead_unbounded_large_folios --file %s --json",
		 file);
	o = run_json(cmd, &st);
	est = wall_estimate(o, 0, &lo, &hi);
	diag("seed 000: %s after %d pairs, readahead-2m %+.1f %% [%+.1f, %+.1f]",
	     str_at(o, "verdict", NULL), int_at(o, "pairs", NULL), est * 100, lo * 100, hi * 100);
	ok(st == 0 && !strcmp(str_at(o, "verdict", NULL), "PASS"),
	   "seed 000's improvement is PASS (exit %d)", st);
	ok(!strcmp(str_at(o, "decision", "action"), "keep"), "and the feature is kept");
	if (o)
		json_object_put(o);
	if (quick) {
		guard_quiet(file);	/* the guard's false alarms, booted */
		return tap_done();
	}

	/* 4. the injected regression, in arm B only */
	queue_path(inj_file, "read_ahead_kb", ra_path, sizeof(ra_path));
	snprintf(off_kb, sizeof(off_kb), "%d", read_int(ra_path));
	if (per_s) {
		char dev[300];

		write_str(ra_path, inj_kb);
		ok(read_int(ra_path) == atoi(inj_kb), "the injection's disk: read_ahead_kb %s in both arms",
		   inj_kb);
		disk_of(inj_file, dev, sizeof(dev));
		inj = start_io_injector(FEATURE, dev, per_s);
	} else {
		inj = start_injector(FEATURE, ra_path, inj_kb, off_kb);
	}
	snprintf(cmd, sizeof(cmd), "/tests/rafleet canary " FEATURE " " WORKLOADS " --file %s --act --json",
		 inj_file);
	o = run_json(cmd, &st);
	kill(inj, SIGKILL);
	waitpid(inj, NULL, 0);
	write_str(ra_path, off_kb);
	est = wall_estimate(o, 0, &lo, &hi);
	if (per_s)
		diag("injected %s reads a second of its disk with the feature on (%s, read_ahead_kb %s): %s after %d pairs, seq-read %+.1f %% [%+.1f, %+.1f]",
		     per_s, inj_file, inj_kb, str_at(o, "verdict", NULL), int_at(o, "pairs", NULL),
		     est * 100, lo * 100, hi * 100);
	else
		diag("injected read_ahead_kb %s (from %s) with the feature on: %s after %d pairs, seq-read %+.1f %% [%+.1f, %+.1f]",
		     inj_kb, off_kb, str_at(o, "verdict", NULL), int_at(o, "pairs", NULL),
		     est * 100, lo * 100, hi * 100);
	est = wall_estimate(o, 1, &lo, &hi);
	diag("  read-4k-then-512k %+.1f %% [%+.1f, %+.1f]", est * 100, lo * 100, hi * 100);
	diag("  corroborated by: %s", str_at(o, "corroboration", "by"));
	ok(st == 3 && !strcmp(str_at(o, "verdict", NULL), "REGRESS"),
	   "the injected regression is REGRESS within the cap (exit %d)", st);
	ok(!strcmp(str_at(o, "corroboration", "corroborated"), "true"), "corroborated");
	ok(!strcmp(str_at(o, "decision", "action"), "turn-off") &&
	   !strcmp(str_at(o, "decision", "acted"), "true"), "and acted on: turned off");
	if (o)
		json_object_put(o);
	is_i64(read_int("/proc/sys/vm/" FEATURE), 0, "vm." FEATURE " is 0 now");
	ok(access(DROPIN, F_OK) == 0, "its drop-in " DROPIN " exists");

	/* what a boot does: the kernel's default 1, then systemd-sysctl */
	write_str("/proc/sys/vm/" FEATURE, "1");
	st = system("/tests/systemd-sysctl");
	is_i64(st, 0, "systemd-sysctl applies /usr/lib/sysctl.d and /etc/sysctl.d");
	is_i64(read_int("/proc/sys/vm/" FEATURE), 0, "after it, as after a reboot, the feature stays off");
	is_i64(read_int("/proc/sys/vm/readahead_async_two_windows"), 1,
	       "while the shipped defaults still turn the others on");
	snprintf(cmd, sizeof(cmd), "/tests/rafleet status --json");
	o = run_json(cmd, &st);
	ok(o && strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE), DROPIN) != NULL,
	   "rafleet status names the drop-in as the feature's boot value");
	if (o)
		json_object_put(o);

	/* 5. the guard, on FILE's disk */
	queue_path(file, "read_ahead_kb", ra_path, sizeof(ra_path));
	snprintf(guard_off_kb, sizeof(guard_off_kb), "%d", read_int(ra_path));
	guard_step(file, inject_kb, guard_off_kb);
	return tap_done();
}
