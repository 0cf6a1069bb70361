// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet status, the command: run on a fake root and a fake /proc/sys
 * (each run in a child, its output captured), its JSON parsed with json-c
 * and checked value by value; the table; the canaries; --help; bad
 * arguments exit 2 with a message and no report; a root that cannot be
 * read exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmdrun.h"
#include "commands.h"
#include "fakefs.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-status-XXXXXX";
static char root[sizeof(tmp) + 8], procsys[sizeof(tmp) + 16];

/* `rafleet status ARGS` (ARGS split at spaces) in a child. */
static void run(struct run *r, const char *args)
{
	cmdrun(r, tmp, cmd_status, "status", args);
}

static void put(const char *dir, const char *rel, const char *content)
{
	if (fakefs_put(dir, rel, content))
		diag("cannot write %s/%s", dir, rel);
}

/* o["a"]["b"]..., path split at dots; NULL if missing (or JSON null). */
static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok(buf, "."); k && o; k = strtok(NULL, "."))
		if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	return o;
}

static bool has_null(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && !v;
}

static const char *str(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : "(not a string)";
}

static int64_t num(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -999;
}

static int boolean(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_boolean) ? json_object_get_boolean(v) : -1;
}

static struct json_object *feature(struct json_object *doc, const char *name)
{
	struct json_object *arr = get(doc, "features");

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		struct json_object *f = json_object_array_get_idx(arr, i);

		if (!strcmp(str(f, "sysctl"), name))
			return f;
	}
	return NULL;
}

static bool warned(struct json_object *doc, const char *what)
{
	struct json_object *arr = get(doc, "warnings");

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++)
		if (strstr(json_object_get_string(json_object_array_get_idx(arr, i)), what))
			return true;
	return false;
}

/* The fake host: a rafleet kernel missing one sysctl, and its files. */
static void make_host(const char *release)
{
	char rel[256];

	put(procsys, "vm/readahead_unbounded_large_folios", "1\n");
	put(procsys, "vm/readahead_async_two_windows", "1\n");
	put(procsys, "vm/readahead_async_keep_half", "0\n");
	put(procsys, "vm/readahead_populate_io_pages", "1\n");
	put(procsys, "vm/readahead_exec_mmap_miss_bypass", "2\n");

	put(root, "usr/lib/sysctl.d/50-rafleet.conf", "vm.readahead_* = 1\n");
	put(root, "etc/sysctl.d/90-rafleet.conf",
	    "vm.readahead_async_keep_half = 0\n"
	    "vm/readahead_populate_io_pages = 1\n"
	    "vm.readahead_async_two_windows = 2\n");
	fakefs_symlink(root, "lib", "usr/lib");
	put(root, "usr/lib/modules/7.3.4-rafleet/vmlinuz", "k");
	snprintf(rel, sizeof(rel), "usr/lib/modules/%s/vmlinuz", release);
	put(root, rel, "k");
	put(root, "boot/vmlinuz-7.3.4-rafleet", "k");
	put(root, "boot/loader/entries/rafleet-7.3.4.conf",
	    "title Rafleet 7.3.4\nversion 7.3.4-rafleet\n"
	    "linux /vmlinuz-7.3.4-rafleet\noptions root=/dev/vda1 ro\n");
	put(root, "boot/loader/entries/broken.conf", "title broken\n");
	put(root, "boot/loader/loader.conf", "default rafleet-*\n");
}

static void test_json(const char *release)
{
	struct json_object *doc, *f, *k, *e;
	struct run r;

	run(&r, "--json");
	is_i64(r.rc, 0, "--json on the fake host: exit 0, warnings and all");
	doc = json_tokener_parse(r.out);
	if (!ok(doc != NULL, "  its output is JSON")) {
		diag("%.300s", r.out);
		return;
	}
	is_str(str(doc, "schema"), "rafleet-status/1", "schema rafleet-status/1");
	is_str(str(doc, "root"), root, "root is $RAFLEET_ROOT");
	is_str(str(doc, "kernel.release"), release, "kernel.release is uname -r");
	is_i64(boolean(doc, "kernel.rafleet"), 0, "5 of 6 sysctls: not (all of) a rafleet kernel");
	is_i64(num(doc, "kernel.features_present"), 5, "  features_present 5");
	is_u64(json_object_array_length(get(doc, "features")), 6, "six features");

	f = feature(doc, "vm.readahead_unbounded_large_folios");
	ok(f && num(f, "live") == 1 && !strcmp(str(f, "seed"), "000"),
	   "unbounded_large_folios: live 1, seed 000");
	ok(f && !strcmp(str(f, "boot.source"), "file") && !strcmp(str(f, "boot.value"), "1") &&
	   !strcmp(str(f, "boot.file"), "/usr/lib/sysctl.d/50-rafleet.conf") &&
	   num(f, "boot.line") == 1 && !strcmp(str(f, "boot.key"), "vm.readahead_*"),
	   "  boot 1 from the glob on line 1 of /usr/lib/sysctl.d/50-rafleet.conf");
	f = feature(doc, "vm.readahead_async_keep_half");
	ok(f && num(f, "live") == 0 && !strcmp(str(f, "boot.value"), "0") &&
	   !strcmp(str(f, "boot.file"), "/etc/sysctl.d/90-rafleet.conf") && num(f, "boot.line") == 1,
	   "async_keep_half: live 0, boot 0 from /etc/sysctl.d/90-rafleet.conf:1 (explicit beats the glob)");
	f = feature(doc, "vm.readahead_populate_io_pages");
	ok(f && !strcmp(str(f, "boot.key"), "vm/readahead_populate_io_pages") && num(f, "boot.line") == 2,
	   "populate_io_pages: set by the slashed key on line 2");
	f = feature(doc, "vm.readahead_exec_large_folio");
	ok(f && has_null(f, "live") && !strcmp(str(f, "live_null_reason"), "absent"),
	   "exec_large_folio: live null, live_null_reason \"absent\"");
	ok(f && !strcmp(str(f, "boot.value"), "1"), "  its boot value is still the glob's 1");
	f = feature(doc, "vm.readahead_exec_mmap_miss_bypass");
	ok(f && has_null(f, "live") && strstr(str(f, "live_null_reason"), "other than 0 or 1"),
	   "exec_mmap_miss_bypass holding 2: live null with the reason");

	ok(warned(doc, "only 5 of the 6"), "a warning: only 5 of the 6 sysctls");
	ok(warned(doc, "vm.readahead_exec_mmap_miss_bypass: holds something other than 0 or 1"),
	   "a warning: the live value that is not 0 or 1");
	ok(warned(doc, "/etc/sysctl.d/90-rafleet.conf:3: vm.readahead_async_two_windows = '2'"),
	   "a warning: a boot value the kernel would refuse, with file and line");
	ok(warned(doc, "/boot/loader/entries/broken.conf: no linux line"),
	   "a warning: the entry without a linux line");

	k = get(doc, "kernels");
	ok(k && json_object_array_length(k) == 2, "two kernels installed");
	for (size_t i = 0; k && i < json_object_array_length(k); i++) {
		e = json_object_array_get_idx(k, i);
		if (!strcmp(str(e, "release"), "7.3.4-rafleet"))
			ok(boolean(e, "running") == 0 &&
			   !strcmp(str(e, "path"), "/usr/lib/modules/7.3.4-rafleet"),
			   "  7.3.4-rafleet in /usr/lib/modules, not running");
		else
			ok(!strcmp(str(e, "release"), release) && boolean(e, "running") == 1,
			   "  %s is the running one", release);
	}

	k = get(doc, "boot_entries");
	ok(k && json_object_array_length(k) == 2, "two boot entries");
	e = k ? json_object_array_get_idx(k, 0) : NULL;
	ok(e && !strcmp(str(e, "id"), "rafleet-7.3.4") && boolean(e, "default") == 1 &&
	   boolean(e, "bootable") == 1 && !strcmp(str(e, "linux"), "/vmlinuz-7.3.4-rafleet") &&
	   !strcmp(str(e, "options"), "root=/dev/vda1 ro") &&
	   !strcmp(str(e, "version"), "7.3.4-rafleet") && has_null(e, "efi"),
	   "  rafleet-7.3.4 first: the default, bootable, linux, options, version");
	e = k ? json_object_array_get_idx(k, 1) : NULL;
	ok(e && !strcmp(str(e, "id"), "broken") && boolean(e, "bootable") == 0 &&
	   has_null(e, "linux") && boolean(e, "default") == 0,
	   "  broken: not bootable, linux null");
	is_str(str(doc, "loader.default_pattern"), "rafleet-*", "loader.default_pattern");
	is_str(str(doc, "loader.default_entry"), "rafleet-7.3.4", "loader.default_entry");
	is_str(str(doc, "rollout.state.phase"), "idle", "rollout: no state file, a fresh idle state");
	ok(has_null(get(doc, "rollout"), "next") && has_null(get(doc, "rollout"), "error") &&
	   json_object_array_length(get(doc, "rollout.state.history")) == 0,
	   "  nothing next, no error, no history");
	is_str(r.err, "", "nothing on stderr");
	json_object_put(doc);
}

/* The line of @text that starts with @start, blanks collapsed to one. */
static const char *row(const char *text, const char *start)
{
	static char buf[512];
	const char *p = strstr(text, start);
	size_t n = 0;

	if (!p)
		return "(no such row)";
	for (; *p && *p != '\n' && n < sizeof(buf) - 1; p++)
		if (*p != ' ' || (n && buf[n - 1] != ' '))
			buf[n++] = *p;
	buf[n] = '\0';
	return buf;
}

static void test_table(void)
{
	struct run r, j;

	run(&r, "");
	is_i64(r.rc, 0, "the table: exit 0");
	ok(strstr(r.out, "not all of rafleet (5 of 6 vm.readahead_* sysctls)") != NULL,
	   "  says 5 of 6 sysctls");
	is_str(row(r.out, "vm.readahead_exec_large_folio "),
	       "vm.readahead_exec_large_folio absent 1 /usr/lib/sysctl.d/50-rafleet.conf:1 (vm.readahead_*)",
	       "  a row: absent, boot 1, from the glob's file and line");
	is_str(row(r.out, "vm.readahead_async_keep_half "),
	       "vm.readahead_async_keep_half 0 0 /etc/sysctl.d/90-rafleet.conf:1",
	       "  a row: live 0, boot 0 from its explicit line");
	ok(strstr(r.out, "boot loader: systemd-boot (/boot/loader") != NULL,
	   "  names the boot loader and what found it");
	ok(strstr(r.out, "default entry: rafleet-7.3.4, ") &&
	   strstr(r.out, "(/boot/loader/loader.conf: default rafleet-*)"),
	   "  names the default entry and the pattern");
	ok(strstr(r.out, "one-shot next boot: none") != NULL, "  and that no one-shot is set");
	ok(strstr(r.out, "\nwarnings\n  ") != NULL, "  lists the warnings");
	if (!ok(strstr(r.out, "(not bootable)") != NULL, "  marks the broken entry"))
		diag("%s", r.out);
	run(&j, "-j");
	ok(j.rc == 0 && j.out[0] == '{', "-j is --json");
}

static void test_kernel_default(void)
{
	struct json_object *doc, *f;
	struct run r;
	char dir[sizeof(tmp) + 16];

	snprintf(dir, sizeof(dir), "%s/bare", tmp);
	fakefs_mkdir_p(dir);
	setenv("RAFLEET_ROOT", dir, 1);
	put(procsys, "vm/readahead_exec_large_folio", "1\n");
	put(procsys, "vm/readahead_exec_mmap_miss_bypass", "0\n");
	run(&r, "--json");
	doc = json_tokener_parse(r.out);
	is_i64(r.rc, 0, "an empty root: exit 0");
	ok(doc && boolean(doc, "kernel.rafleet") == 1 && num(doc, "kernel.features_present") == 6,
	   "  all six sysctls: a rafleet kernel");
	f = doc ? feature(doc, "vm.readahead_async_keep_half") : NULL;
	ok(f && !strcmp(str(f, "boot.source"), "kernel default") && has_null(get(f, "boot"), "value") &&
	   has_null(get(f, "boot"), "file") && has_null(get(f, "boot"), "line"),
	   "  no file sets it: boot source \"kernel default\", value, file and line null");
	ok(doc && json_object_array_length(get(doc, "kernels")) == 0 &&
	   json_object_array_length(get(doc, "boot_entries")) == 0 &&
	   json_object_array_length(get(doc, "canaries")) == 0 &&
	   has_null(get(doc, "loader"), "default_entry") &&
	   has_null(get(doc, "loader"), "default_pattern"),
	   "  no kernels, no entries, no default, no canaries");
	ok(strstr(r.out, "vm.readahead_exec_mmap_miss_bypass is 0 live but 1 at boot (the kernel's default)") &&
	   !strstr(r.out, "vm.readahead_exec_large_folio is"),
	   "  a warning for the live 0 that differs from the boot value, none for the 1");
	run(&r, "");
	ok(strstr(r.out, "boot loader: none found (no boot loader found") != NULL,
	   "  the table says no boot loader was found, and what was looked for");
	json_object_put(doc);
	setenv("RAFLEET_ROOT", root, 1);
}

/* A canary report of @feature, verdict @verdict, seq-read's wall @est [@lo, @hi]. */
static void canary_report(const char *name, const char *feature, const char *verdict,
			  const char *est, const char *lo, const char *hi)
{
	char rel[256], doc[2048];

	snprintf(rel, sizeof(rel), "var/lib/rafleet/canary/%s", name);
	snprintf(doc, sizeof(doc),
		 "{\"schema\": \"rafleet-canary/1\", \"feature\": \"%s\", \"aa\": false,\n"
		 " \"pairs\": 10, \"verdict\": \"%s\", \"workloads\": [ {\"scenario\": \"seq-read\",\n"
		 " \"delta\": 0.05, \"metrics\": [ {\"name\": \"wall\", \"estimate\": %s, \"lo\": %s,\n"
		 " \"hi\": %s} ]} ], \"decision\": {\"action\": \"%s\", \"acted\": %s, \"why\": \"w\"}}\n",
		 feature, verdict, est, lo, hi, strcmp(verdict, "REGRESS") ? "keep" : "turn-off",
		 strcmp(verdict, "REGRESS") ? "false" : "true");
	put(root, rel, doc);
}

static void test_canaries(void)
{
	struct json_object *doc, *arr, *c, *w;
	char dir[sizeof(root) + 32];
	struct run r;

	canary_report("readahead_async_keep_half-20261130T100000Z.json", "readahead_async_keep_half",
		      "PASS", "0.01", "-0.02", "0.04");
	canary_report("readahead_async_keep_half-20261130T204209Z.json", "readahead_async_keep_half",
		      "REGRESS", "0.266", "0.17", "0.527");
	put(root, "var/lib/rafleet/canary/readahead_exec_large_folio-20261130T100000Z.json", "{\"sch");
	run(&r, "--json");
	doc = json_tokener_parse(r.out);
	is_i64(r.rc, 0, "canary reports, one of them corrupt: exit 0");
	arr = doc ? get(doc, "canaries") : NULL;
	ok(arr && json_object_array_length(arr) == 1, "  one canary: keep_half's (the corrupt one is not)");
	c = arr ? json_object_array_get_idx(arr, 0) : NULL;
	ok(c && !strcmp(str(c, "feature"), "readahead_async_keep_half") &&
	   !strcmp(str(c, "sysctl"), "vm.readahead_async_keep_half") &&
	   !strcmp(str(c, "verdict"), "REGRESS") && !strcmp(str(c, "time"), "2026-11-30T20:42:09Z") &&
	   num(c, "pairs") == 10 && boolean(c, "aa") == 0,
	   "  the later report: REGRESS at 2026-11-30T20:42:09Z, 10 pairs");
	ok(c && strstr(str(c, "report"), "/var/lib/rafleet/canary/readahead_async_keep_half-20261130T204209Z.json"),
	   "  its path: %s", c ? str(c, "report") : "");
	ok(c && !strcmp(str(c, "decision.action"), "turn-off") && boolean(c, "decision.acted") == 1,
	   "  decision turn-off, acted");
	w = c ? json_object_array_get_idx(get(c, "workloads"), 0) : NULL;
	ok(w && !strcmp(str(w, "scenario"), "seq-read") && !strcmp(str(w, "metric"), "wall") &&
	   json_object_get_double(get(w, "estimate")) == 0.266 &&
	   json_object_get_double(get(w, "lo")) == 0.17 && json_object_get_double(get(w, "hi")) == 0.527 &&
	   json_object_get_double(get(w, "delta")) == 0.05,
	   "  seq-read's wall: estimate 0.266 [0.17, 0.527], delta 0.05");
	ok(doc && warned(doc, "readahead_exec_large_folio-20261130T100000Z.json: not JSON"),
	   "  the corrupt report is a warning");
	json_object_put(doc);

	run(&r, "");
	is_str(row(r.out, "  vm.readahead_async_keep_half "),
	       "vm.readahead_async_keep_half REGRESS 10 pairs turn-off (done) 2026-11-30T20:42:09Z seq-read +26.6 % [+17.0, +52.7]",
	       "the table: verdict, pairs, decision, time, estimate and interval in %");
	ok(strstr(r.out, "the latest canary report of vm.readahead_exec_large_folio cannot be used") != NULL,
	   "  and the warning");
	snprintf(dir, sizeof(dir), "%s/var/lib/rafleet", root);
	fakefs_rm_tree(dir);
	run(&r, "");
	ok(strstr(r.out, "the latest report of each feature\n  none\n") != NULL,
	   "no canary directory: the table says none");
}

static void test_args(void)
{
	char file[sizeof(tmp) + 8];
	struct run r;

	run(&r, "--help");
	ok(r.rc == 0 && strstr(r.out, "usage: rafleet status"), "--help: usage, exit 0");
	run(&r, "-h");
	ok(r.rc == 0 && strstr(r.out, "usage: rafleet status"), "-h: usage, exit 0");
	run(&r, "--frob");
	ok(r.rc == 2 && strstr(r.err, "unknown option '--frob'") && !r.out[0],
	   "--frob: exit 2, named on stderr, no report (exit %d, '%s')", r.rc, r.err);
	run(&r, "-x");
	ok(r.rc == 2 && strstr(r.err, "unknown option '-x'") && !r.out[0],
	   "-x: exit 2, named on stderr (exit %d)", r.rc);
	run(&r, "-jx");
	ok(r.rc == 2 && strstr(r.err, "'-x'"), "-jx: exit 2, -x named (exit %d)", r.rc);
	run(&r, "--json=yes");
	ok(r.rc == 2 && strstr(r.err, "'--json=yes'"), "--json=yes: exit 2 (exit %d)", r.rc);
	run(&r, "extra");
	ok(r.rc == 2 && strstr(r.err, "takes no arguments, not 'extra'") && !r.out[0],
	   "an argument: exit 2 (exit %d)", r.rc);

	snprintf(file, sizeof(file), "%s/missing", tmp);
	setenv("RAFLEET_ROOT", file, 1);
	run(&r, "--json");
	ok(r.rc == 1 && strstr(r.err, "cannot read the root") && !r.out[0],
	   "a root that does not exist: exit 1, said on stderr, no report (exit %d, '%s')", r.rc, r.err);
	snprintf(file, sizeof(file), "%s/out", tmp);
	setenv("RAFLEET_ROOT", file, 1);
	run(&r, "");
	ok(r.rc == 1 && strstr(r.err, "Not a directory"), "a root that is a file: exit 1 (exit %d)", r.rc);
	setenv("RAFLEET_ROOT", root, 1);
}

int main(void)
{
	struct utsname u;

	if (!ok(mkdtemp(tmp) != NULL, "temp dir") || !ok(!uname(&u), "uname"))
		return tap_done();
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(procsys, sizeof(procsys), "%s/procsys", tmp);
	fakefs_mkdir_p(root);
	setenv("RAFLEET_ROOT", root, 1);
	setenv("RAFLEET_PROCSYS", procsys, 1);
	setenv("RAFLEET_SYSFS", "/nonexistent-rafleet-sysfs", 1);	/* no EFI: not the host's */
	make_host(u.release);

	test_args();
	test_json(u.release);
	test_table();
	test_canaries();
	test_kernel_default();
	fakefs_rm_tree(tmp);
	return tap_done();
}
