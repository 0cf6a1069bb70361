// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet status --prometheus: the exposition text of a known fake host
 * (exact sample lines, a header before each family's samples and only
 * then, the phase and verdict state sets with exactly one 1, label values
 * escaped and made UTF-8, no sample for what is not known), and the file:
 * written whole with mode 0644 whatever the umask, no temporary file
 * left, a name without .prom refused (exit 2), a file that cannot be
 * written exit 1 with nothing left.
 */
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmdrun.h"
#include "commands.h"
#include "fakefs.h"
#include "status/status.h"
#include "status/prom.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-status-prom-XXXXXX";
static char root[sizeof(tmp) + 8], procsys[sizeof(tmp) + 16], outdir[sizeof(tmp) + 8];

static void put(const char *dir, const char *rel, const char *content)
{
	if (fakefs_put(dir, rel, content))
		diag("cannot write %s/%s", dir, rel);
}

static const char state_doc[] =
	"{\"schema\": \"rafleet-state/1\", \"phase\": \"trial\",\n"
	" \"smoke\": {\"verdict\": \"pass\", \"time\": \"2026-11-30T19:00:00Z\", \"detail\": \"ok\"},\n"
	" \"decisions\": [{\"feature\": \"readahead_async_keep_half\", \"value\": 0,\n"
	"   \"reason\": \"canary REGRESS\", \"time\": \"2026-11-30T20:34:19Z\", \"evidence\": null},\n"
	"  {\"feature\": \"readahead_async_keep_half\", \"value\": 0,\n"
	"   \"reason\": \"by hand, twice\", \"time\": \"2026-11-30T21:00:00Z\", \"evidence\": null}],\n"
	" \"history\": [{\"time\": \"2026-11-30T18:00:00Z\", \"action\": \"trial-unjudged\",\n"
	"   \"detail\": \"the trial boot of 7.3.4-0.vanilla+virt ended without a verdict\", \"kernel\": \"7.3.4-1.rafleet+virt\"},\n"
	"  {\"time\": \"2026-11-30T18:30:00Z\", \"action\": \"trial-unjudged\",\n"
	"   \"detail\": \"again\", \"kernel\": \"7.3.4-1.rafleet+virt\"},\n"
	"  {\"time\": \"2026-11-30T18:40:00Z\", \"action\": \"stage\", \"detail\": \"x\", \"kernel\": \"7.3.4-1.rafleet+virt\"}]}\n";

static const char canary_doc[] =
	"{\"schema\": \"rafleet-canary/1\", \"feature\": \"readahead_async_keep_half\",\n"
	" \"aa\": false, \"pairs\": 12, \"verdict\": \"REGRESS\", \"workloads\": [\n"
	"  {\"scenario\": \"seq-read\", \"delta\": 0.045, \"metrics\": [\n"
	"    {\"name\": \"wall\", \"estimate\": 0.266, \"lo\": 0.17, \"hi\": 0.527}]},\n"
	"  {\"scenario\": \"mmap-read\", \"delta\": 0.03, \"metrics\": [\n"
	"    {\"name\": \"wall\", \"estimate\": -0.0125, \"lo\": null, \"hi\": null}]}],\n"
	" \"decision\": {\"action\": \"turn-off\", \"acted\": true, \"why\": \"x\"}}\n";

/*
 * The fake host: 5 of the 6 sysctls, one of them holding 2; sysctl.d
 * files, two with a quote, a backslash and a byte that is not UTF-8 in
 * their names; a trial in the rollout state with a decision and a smoke
 * pass (and keep_half's decision twice, by hand); a canary report of
 * keep_half.
 */
static void make_host(void)
{
	put(procsys, "vm/readahead_unbounded_large_folios", "1\n");
	put(procsys, "vm/readahead_async_two_windows", "1\n");
	put(procsys, "vm/readahead_async_keep_half", "0\n");
	put(procsys, "vm/readahead_populate_io_pages", "1\n");
	put(procsys, "vm/readahead_exec_mmap_miss_bypass", "2\n");
	put(root, "usr/lib/sysctl.d/50-rafleet.conf", "vm.readahead_* = 1\n");
	put(root, "etc/sysctl.d/90-\"q\\b.conf", "vm.readahead_async_keep_half = 0\n");
	put(root, "etc/sysctl.d/91-\xff.conf", "vm.readahead_populate_io_pages = 1\n");
	put(root, "var/lib/rafleet/state.json", state_doc);
	put(root, "var/lib/rafleet/canary/readahead_async_keep_half-20261130T204209Z.json",
	    canary_doc);
}

/* The metrics of the fake host, with the kernel release @release. */
static char *metrics(const char *release, size_t *warnings)
{
	struct status st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err = status_collect(&st, root);

	if (err) {
		diag("status_collect: %s", strerror(-err));
		status_free(&st);
		return NULL;
	}
	if (release)
		snprintf(st.release, sizeof(st.release), "%s", release);
	*warnings = st.warn.nr;
	f = open_memstream(&buf, &len);
	if (!f || status_prometheus(f, &st))
		diag("status_prometheus failed");
	if (f)
		fclose(f);
	status_free(&st);
	return buf;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* Lines that start with @prefix; *@ones of them end in " 1". */
static int count_lines(const char *text, const char *prefix, int *ones)
{
	int n = 0;

	*ones = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *end = strchr(p, '\n');

		if (strncmp(p, prefix, strlen(prefix)))
			continue;
		n++;
		if (end && end - p > 2 && !strncmp(end - 2, " 1", 2))
			(*ones)++;
	}
	return n;
}

static void line_is(const char *text, const char *line)
{
	ok(has_line(text, line), "  %s", line);
}

/*
 * Every line a comment or a sample of the exposition format, each
 * family's # HELP then # TYPE gauge once, before its samples, and its
 * samples together; false with what is wrong in @why.
 */
static bool well_formed(const char *text, char *why, size_t len)
{
	regex_t sample, help, type;
	char fam[128] = "", key[132], seen[8192] = " ", line[1024];
	bool good = true;
	int state = 0;	/* 0: a # HELP next, 1: its # TYPE, 2: a sample, 3: more */

	snprintf(why, len, "%s", "");

	regcomp(&sample, "^(rafleet_[a-z_]+)(\\{([a-z_]+=\"([^\"\\\\]|\\\\[\\\\\"n])*\",?)+\\})? -?[0-9.e+-]+$",
		REG_EXTENDED);
	regcomp(&help, "^# HELP (rafleet_[a-z_]+) [^\n]+$", REG_EXTENDED);
	regcomp(&type, "^# TYPE (rafleet_[a-z_]+) gauge$", REG_EXTENDED);
	for (const char *p = text; good && *p; ) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		regmatch_t m[2];
		char name[128];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (end ? 1 : 0);
		if (!end) {
			snprintf(why, len, "no newline after the last line");
			good = false;
		} else if (!regexec(&help, line, 2, m, 0)) {
			snprintf(name, sizeof(name), "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
				 line + m[1].rm_so);
			snprintf(key, sizeof(key), " %s ", name);
			if (state == 1 || state == 2 || strstr(seen, key)) {
				snprintf(why, len, "a second header of %s, or one without a sample", name);
				good = false;
			}
			strncat(seen, key + 1, sizeof(seen) - strlen(seen) - 1);
			snprintf(fam, sizeof(fam), "%s", name);
			state = 1;
		} else if (!regexec(&type, line, 2, m, 0)) {
			good = state == 1 && !strncmp(line + m[1].rm_so, fam, strlen(fam)) &&
			       (size_t)(m[1].rm_eo - m[1].rm_so) == strlen(fam);
			if (!good)
				snprintf(why, len, "a # TYPE not right after its # HELP: %.300s", line);
			state = 2;
		} else if (!regexec(&sample, line, 2, m, 0)) {
			good = state >= 2 && (size_t)(m[1].rm_eo - m[1].rm_so) == strlen(fam) &&
			       !strncmp(line + m[1].rm_so, fam, strlen(fam));
			if (!good)
				snprintf(why, len, "a sample outside its family: %.300s", line);
			state = 3;
		} else {
			snprintf(why, len, "not a line of the format: %.300s", line);
			good = false;
		}
	}
	if (good && state != 3) {
		snprintf(why, len, "the last family has no sample");
		good = false;
	}
	regfree(&sample);
	regfree(&help);
	regfree(&type);
	return good;
}

/*
 * The rafleet_info line: a version (the Makefile's VERSION, which this
 * test is not built with) then @rest.
 */
static bool info_ok(const char *text, const char *rest)
{
	const char *p = strstr(text, "\nrafleet_info{version=\"");
	size_t n;

	if (!p)
		return false;
	p += strlen("\nrafleet_info{version=\"");
	n = strspn(p, "0123456789.");
	if (!n || strncmp(p + n, rest, strlen(rest)))
		diag("%.*s", (int)strcspn(p, "\n"), p);
	return n && !strncmp(p + n, rest, strlen(rest));
}

/* The checker above rejects what the collector would (or should) not take. */
static void test_checker(void)
{
	static const char good[] = "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_a{x=\"q\\\"\\n\"} 1\n";
	static const char *const bad[][2] = {
		{ "rafleet_a 1\n", "a sample before its header" },
		{ "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_a{x=\"q\"\"} 1\n", "a raw quote" },
		{ "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_a 1\n"
		  "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_a 2\n", "a family twice" },
		{ "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_b 1\n", "a sample of another family" },
		{ "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\n", "a family without samples" },
		{ "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_a NaN\n", "a NaN" },
		{ "# HELP rafleet_a A.\n# TYPE rafleet_a gauge\nrafleet_a 1", "no newline at the end" },
	};
	char why[512];

	ok(well_formed(good, why, sizeof(why)), "the checker takes a family with escaped labels (%s)", why);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(!well_formed(bad[i][0], why, sizeof(why)), "  and refuses %s: %s", bad[i][1], why);
}

static void test_known_state(void)
{
	char why[512], want[128];
	size_t warnings = 0;
	char *text = metrics("7.3.4 \"x\\y\nz", &warnings);
	int n, ones;

	if (!ok(text != NULL, "the metrics of the fake host"))
		return;
	ok(well_formed(text, why, sizeof(why)), "every line a comment or a sample; # HELP, # TYPE gauge, then the family's samples (%s)",
	   why);
	ok(!strncmp(text, "# HELP rafleet_info ", 20), "rafleet_info first");
	ok(info_ok(text, "\",kernel=\"7.3.4 \\\"x\\\\y\\nz\"} 1\n"),
	   "  a version, and the kernel label's quote, backslash and newline escaped");
	ok(!strstr(text, "\"x\\y") && !strstr(text, "y\nz"), "  and never written raw");
	line_is(text, "rafleet_kernel_features_present 5");
	line_is(text, "rafleet_kernel_features_known 6");
	line_is(text, "rafleet_feature_enabled{feature=\"readahead_async_keep_half\"} 0");
	line_is(text, "rafleet_feature_enabled{feature=\"readahead_populate_io_pages\"} 1");
	n = count_lines(text, "rafleet_feature_enabled{", &ones);
	ok(n == 4 && ones == 3, "  four live samples: none for the absent sysctl nor the one holding 2 (%d)", n);
	ok(!strstr(text, "rafleet_feature_enabled{feature=\"readahead_exec_large_folio\"}") &&
	   !strstr(text, "rafleet_feature_enabled{feature=\"readahead_exec_mmap_miss_bypass\"}"),
	   "  exec_large_folio and exec_mmap_miss_bypass have none");
	line_is(text, "rafleet_feature_boot_value{feature=\"readahead_unbounded_large_folios\",source=\"/usr/lib/sysctl.d/50-rafleet.conf\"} 1");
	line_is(text, "rafleet_feature_boot_value{feature=\"readahead_async_keep_half\",source=\"/etc/sysctl.d/90-\\\"q\\\\b.conf\"} 0");
	line_is(text, "rafleet_feature_boot_value{feature=\"readahead_populate_io_pages\",source=\"/etc/sysctl.d/91-\xef\xbf\xbd.conf\"} 1");
	ok(!strchr(text, '\xff'), "  a byte that is not UTF-8 is U+FFFD, never written as it is");
	line_is(text, "rafleet_rollout_state_ok 1");
	n = count_lines(text, "rafleet_rollout_phase{", &ones);
	ok(n == 5 && ones == 1, "the phase state set: 5 samples, exactly one 1 (%d, %d)", n, ones);
	line_is(text, "rafleet_rollout_phase{phase=\"trial\"} 1");
	line_is(text, "rafleet_rollout_phase{phase=\"rolled-back\"} 0");
	line_is(text, "rafleet_rollout_pending 0");
	line_is(text, "rafleet_rollout_trial_unjudged_timestamp_seconds{kernel=\"7.3.4-1.rafleet+virt\"} 1796063400");
	ok(count_lines(text, "rafleet_rollout_trial_unjudged_timestamp_seconds{", &ones) == 1,
	   "  one sample: the latest trial that ended without a verdict");
	line_is(text, "rafleet_feature_decision{feature=\"readahead_async_keep_half\",value=\"0\"} 1");
	line_is(text, "rafleet_feature_decision_timestamp_seconds{feature=\"readahead_async_keep_half\"} 1796070859");
	ok(count_lines(text, "rafleet_feature_decision{", &ones) == 1 &&
	   count_lines(text, "rafleet_feature_decision_timestamp_seconds{", &ones) == 1,
	   "  a second decision of the same feature (a state edited by hand): one sample, the first's");
	line_is(text, "rafleet_smoke_pass 1");
	line_is(text, "rafleet_smoke_timestamp_seconds 1796065200");
	n = count_lines(text, "rafleet_canary_verdict{", &ones);
	ok(n == 3 && ones == 1, "the verdict state set: 3 samples, exactly one 1 (%d, %d)", n, ones);
	line_is(text, "rafleet_canary_verdict{feature=\"readahead_async_keep_half\",verdict=\"REGRESS\"} 1");
	line_is(text, "rafleet_canary_verdict{feature=\"readahead_async_keep_half\",verdict=\"PASS\"} 0");
	line_is(text, "rafleet_canary_decision{feature=\"readahead_async_keep_half\",action=\"turn-off\"} 1");
	line_is(text, "rafleet_canary_acted{feature=\"readahead_async_keep_half\"} 1");
	line_is(text, "rafleet_canary_aa{feature=\"readahead_async_keep_half\"} 0");
	line_is(text, "rafleet_canary_pairs{feature=\"readahead_async_keep_half\"} 12");
	line_is(text, "rafleet_canary_timestamp_seconds{feature=\"readahead_async_keep_half\"} 1796071329");
	line_is(text, "rafleet_canary_change_ratio{feature=\"readahead_async_keep_half\",scenario=\"seq-read\"} 0.266");
	line_is(text, "rafleet_canary_change_ratio{feature=\"readahead_async_keep_half\",scenario=\"mmap-read\"} -0.0125");
	line_is(text, "rafleet_canary_change_lo{feature=\"readahead_async_keep_half\",scenario=\"seq-read\"} 0.17");
	line_is(text, "rafleet_canary_change_hi{feature=\"readahead_async_keep_half\",scenario=\"seq-read\"} 0.527");
	line_is(text, "rafleet_canary_delta{feature=\"readahead_async_keep_half\",scenario=\"mmap-read\"} 0.03");
	n = count_lines(text, "rafleet_canary_change_lo{", &ones);
	ok(n == 1, "  no interval sample where the report has null (mmap-read): %d lo samples", n);
	snprintf(want, sizeof(want), "rafleet_status_warnings %zu", warnings);
	ok(warnings >= 2 && has_line(text, want), "rafleet_status_warnings counts the status's %zu warnings",
	   warnings);
	if (!text || !has_line(text, "rafleet_kernel_features_present 5"))
		diag("%s", text ? text : "");
	free(text);
}

/* What is not known has no sample, and no family header either. */
static void test_unknown_state(void)
{
	char path[sizeof(root) + 64], why[512];
	size_t warnings;
	char *text;
	int n, ones;

	put(root, "var/lib/rafleet/state.json", "{\"schema\": \"rafleet-state/9\"}\n");
	snprintf(path, sizeof(path), "%s/var/lib/rafleet/canary", root);
	fakefs_rm_tree(path);
	text = metrics(NULL, &warnings);
	if (!ok(text != NULL, "a state file of another schema, no canary reports"))
		return;
	ok(well_formed(text, why, sizeof(why)), "  still well formed (%s)", why);
	line_is(text, "rafleet_rollout_state_ok 0");
	n = count_lines(text, "rafleet_rollout_phase", &ones);
	ok(n == 0 && !strstr(text, "rafleet_smoke_") && !strstr(text, "rafleet_feature_decision"),
	   "  no phase (an idle default would lie), no smoke, no decision samples");
	ok(!strstr(text, "rafleet_canary_"), "  no canary family at all, not even its # HELP");
	free(text);

	put(root, "var/lib/rafleet/state.json", "{\"schema\": \"rafleet-state/1\", \"phase\": \"idle\"}\n");
	text = metrics(NULL, &warnings);
	n = text ? count_lines(text, "rafleet_rollout_phase{", &ones) : 0;
	ok(text && n == 5 && ones == 1 && has_line(text, "rafleet_rollout_phase{phase=\"idle\"} 1") &&
	   !strstr(text, "rafleet_smoke_pass") && !strstr(text, "rafleet_feature_decision"),
	   "idle, no smoke run yet: phase idle 1, no rafleet_smoke_pass, no decisions");
	free(text);
	put(root, "var/lib/rafleet/state.json", state_doc);
	put(root, "var/lib/rafleet/canary/readahead_async_keep_half-20261130T204209Z.json",
	    canary_doc);
}

static void test_path_ok(void)
{
	ok(status_prom_path_ok("node.prom") && status_prom_path_ok("/var/lib/node_exporter/rafleet.prom") &&
	   status_prom_path_ok("a.b.prom"), "x.prom, /dir/x.prom, a.b.prom are .prom files");
	ok(!status_prom_path_ok(".prom") && !status_prom_path_ok("/dir/.prom") &&
	   !status_prom_path_ok("x.prom/") && !status_prom_path_ok("x.prom.tmp") &&
	   !status_prom_path_ok("x.txt") && !status_prom_path_ok("") && !status_prom_path_ok("prom"),
	   ".prom, /dir/.prom, x.prom/, x.prom.tmp, x.txt, '' and prom are not");
}

/* `rafleet status ARGS` (ARGS split at spaces) in a child. */
static void run(struct run *r, const char *args)
{
	cmdrun(r, tmp, cmd_status, "status", args);
}

/* The names in @dir, sorted, joined by spaces. */
static const char *listing(const char *dir)
{
	static char buf[1024];
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 buf[0] ? " " : "", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return buf;
}

static void test_file(void)
{
	static struct run r, s;
	char path[sizeof(outdir) + 64], args[sizeof(path) + 32], content[65536];
	struct stat sb;
	mode_t old;

	run(&s, "--prometheus");
	ok(s.rc == 0 && !strncmp(s.out, "# HELP rafleet_info ", 20) && !s.err[0],
	   "--prometheus: the metrics on stdout, exit 0 (exit %d, '%s')", s.rc, s.err);
	ok(strstr(s.out, "\nrafleet_canary_pairs{feature=\"readahead_async_keep_half\"} 12\n") != NULL,
	   "  with the canary's samples");

	snprintf(path, sizeof(path), "%s/rafleet.prom", outdir);
	put(outdir, "rafleet.prom", "old, half\n");
	chmod(path, 0600);
	snprintf(args, sizeof(args), "--prometheus=%s", path);
	old = umask(077);
	run(&r, args);
	umask(old);
	ok(r.rc == 0 && !r.out[0] && !r.err[0], "--prometheus=DIR/rafleet.prom: exit 0, nothing printed (exit %d, '%s')",
	   r.rc, r.err);
	slurp(path, content, sizeof(content));
	ok(!strcmp(content, s.out), "  the file holds what stdout got, the old content replaced");
	if (stat(path, &sb))
		sb.st_mode = 0;
	ok((sb.st_mode & 07777) == 0644, "  mode 0644 under umask 077, from a file of mode 0600 (%o)",
	   sb.st_mode & 07777);
	is_str(listing(outdir), "rafleet.prom", "  no temporary file left beside it");

	snprintf(args, sizeof(args), "--prometheus=%s/rafleet.txt", outdir);
	run(&r, args);
	ok(r.rc == 2 && strstr(r.err, "must end in .prom") && !r.out[0],
	   "--prometheus=DIR/rafleet.txt: exit 2, said on stderr (exit %d, '%s')", r.rc, r.err);
	is_str(listing(outdir), "rafleet.prom", "  and no file written");
	snprintf(args, sizeof(args), "--prometheus=%s/.prom", outdir);
	run(&r, args);
	ok(r.rc == 2, "--prometheus=DIR/.prom: exit 2 (exit %d)", r.rc);
	run(&r, "--prometheus=");
	ok(r.rc == 2 && strstr(r.err, "must end in .prom"), "--prometheus= (no name): exit 2 (exit %d)", r.rc);
	snprintf(args, sizeof(args), "--prometheus %s", path);
	run(&r, args);
	ok(r.rc == 2 && strstr(r.err, "takes no arguments") && strstr(r.err, "--prometheus=FILE"),
	   "--prometheus FILE (a space): exit 2, the message says --prometheus=FILE ('%s')", r.err);
	run(&r, "--json --prometheus");
	ok(r.rc == 2 && strstr(r.err, "not both") && !r.out[0], "--json --prometheus: exit 2 (exit %d)", r.rc);
	run(&r, "-p");
	ok(r.rc == 2 && strstr(r.err, "unknown option '-p'"), "-p is no option (exit %d)", r.rc);

	snprintf(args, sizeof(args), "--prometheus=%s/missing/rafleet.prom", outdir);
	run(&r, args);
	ok(r.rc == 1 && strstr(r.err, "cannot write") && strstr(r.err, "No such file or directory") &&
	   !r.out[0], "a directory that is not there: exit 1, said on stderr ('%s')", r.err);
	snprintf(path, sizeof(path), "%s/isdir.prom", outdir);
	fakefs_mkdir_p(path);
	snprintf(args, sizeof(args), "--prometheus=%s", path);
	run(&r, args);
	ok(r.rc == 1 && strstr(r.err, "cannot write"), "a directory in FILE's place: exit 1 ('%s')", r.err);
	is_str(listing(outdir), "isdir.prom rafleet.prom", "  the temporary file it wrote first is gone");
	rmdir(path);
	if (geteuid()) {	/* root writes to a directory of mode 0555 */
		chmod(outdir, 0555);
		snprintf(args, sizeof(args), "--prometheus=%s/new.prom", outdir);
		run(&r, args);
		chmod(outdir, 0755);
		ok(r.rc == 1 && strstr(r.err, "Permission denied"),
		   "a directory it may not write to: exit 1 ('%s')", r.err);
		is_str(listing(outdir), "rafleet.prom", "  nothing left in it");
	}

	snprintf(path, sizeof(path), "%s/missing", tmp);
	setenv("RAFLEET_ROOT", path, 1);
	snprintf(args, sizeof(args), "--prometheus=%s/rafleet.prom", outdir);
	run(&r, args);
	setenv("RAFLEET_ROOT", root, 1);
	slurp(strchr(args, '=') + 1, content, sizeof(content));
	ok(r.rc == 1 && strstr(r.err, "cannot read the root") && !strcmp(content, s.out),
	   "a root that cannot be read: exit 1, the file as it was (exit %d)", r.rc);
}

int main(void)
{
	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(procsys, sizeof(procsys), "%s/procsys", tmp);
	snprintf(outdir, sizeof(outdir), "%s/node", tmp);
	fakefs_mkdir_p(root);
	fakefs_mkdir_p(outdir);
	setenv("RAFLEET_ROOT", root, 1);
	setenv("RAFLEET_PROCSYS", procsys, 1);
	unsetenv("RAFLEET_STATE_DIR");
	make_host();

	test_checker();
	test_known_state();
	test_unknown_state();
	test_path_ok();
	test_file();
	fakefs_rm_tree(tmp);
	return tap_done();
}
