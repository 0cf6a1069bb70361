// SPDX-License-Identifier: GPL-2.0
/*
 * The canaries of rafleet status (status/canary.h): the latest report of
 * each feature by the TIME in its name, its verdict, pairs, decision and
 * each workload's wall time; pictures, temporary files and other names
 * left alone; a report that cannot be used is a warning (and no older one
 * is taken in its place); no directory is no canaries.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "status/canary.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-status-canary-XXXXXX";
static char dir[sizeof(tmp) + 16];

static void put(const char *rel, const char *content)
{
	if (fakefs_put(dir, rel, content))
		diag("cannot write %s/%s", dir, rel);
}

/*
 * A report as `rafleet canary --json` writes it, with two workloads:
 * seq-read (estimate @est, interval @lo..@hi as JSON text) and mmap-read
 * (unmeasured: estimate null, no interval), each beside other metrics.
 */
static void report(const char *name, const char *feature, const char *verdict,
		   int pairs, const char *action, const char *acted,
		   const char *est, const char *lo, const char *hi)
{
	char buf[4096];

	snprintf(buf, sizeof(buf),
		 "{\n  \"schema\": \"rafleet-canary/1\",\n  \"kernel\": \"7.3.4\",\n"
		 "  \"feature\": \"%s\",\n  \"aa\": false,\n  \"pairs\": %d,\n"
		 "  \"verdict\": \"%s\",\n  \"looks\": [],\n  \"workloads\": [ {\n"
		 "    \"scenario\": \"seq-read\", \"file\": \"/var/tmp/x\", \"delta\": 0.045,\n"
		 "    \"delta_source\": \"calibration\", \"metrics\": [\n"
		 "      { \"name\": \"majflt\", \"judged\": false, \"estimate\": 9 },\n"
		 "      { \"name\": \"wall\", \"judged\": true, \"estimate\": %s, \"lo\": %s,\n"
		 "        \"hi\": %s, \"level\": 0.9975, \"verdict\": \"%s\", \"pairs\": [] } ] },\n"
		 "  { \"scenario\": \"mmap-read\", \"file\": \"/var/tmp/x\", \"delta\": 0,\n"
		 "    \"delta_source\": \"floor\", \"metrics\": [\n"
		 "      { \"name\": \"wall\", \"estimate\": null, \"estimate_null_reason\": \"x\" } ] } ],\n"
		 "  \"corroboration\": { \"needed\": false, \"corroborated\": false, \"by\": null },\n"
		 "  \"decision\": { \"action\": \"%s\", \"acted\": %s, \"why\": \"because\" },\n"
		 "  \"svg\": null\n}\n",
		 feature, pairs, verdict, est, lo, hi, verdict, action, acted);
	put(name, buf);
}

static bool warned(const struct warnings *w, const char *what)
{
	for (size_t i = 0; i < w->nr; i++)
		if (strstr(w->msg[i], what))
			return true;
	return false;
}

static void test_no_dir(void)
{
	struct status_canary c[6];
	struct warnings w = { 0 };
	char path[sizeof(dir) + 16];
	size_t nr = 99;

	snprintf(path, sizeof(path), "%s/missing", dir);
	is_i64(status_canaries_load(path, c, &nr, &w), 0, "no canary directory: 0");
	ok(nr == 0 && w.nr == 0, "  no canaries, no warning (nr %zu, %zu warnings)", nr, w.nr);
	snprintf(path, sizeof(path), "%s/afile", dir);
	put("afile", "x");
	is_i64(status_canaries_load(path, c, &nr, &w), 0, "a file where the directory should be: 0");
	ok(nr == 0 && warned(&w, "afile: Not a directory: the canary reports cannot be read"),
	   "  no canaries, a warning that says so");
	warn_free(&w);
	remove(path);
}

static void test_latest_wins(void)
{
	struct status_canary c[6];
	struct warnings w = { 0 };
	size_t nr = 0;

	report("readahead_async_keep_half-20261130T100000Z.json", "readahead_async_keep_half",
	       "PASS", 4, "keep", "false", "0.01", "-0.02", "0.03");
	report("readahead_async_keep_half-20261201T090000Z.json", "readahead_async_keep_half",
	       "REGRESS", 12, "turn-off", "true", "0.266", "0.17", "0.527");
	report("readahead_async_keep_half-20261130T204209Z.json", "readahead_async_keep_half",
	       "UNKNOWN", 8, "none", "false", "0", "-0.1", "0.1");
	/* names that are no report: never the latest, never read */
	put("readahead_async_keep_half-20261231T000000Z.svg", "<svg/>");
	put("readahead_async_keep_half-20261231T000000Z.json.tmp.AbC123", "{");
	put("readahead_async_keep_half-latest.json", "{");
	put("readahead_nonexistent-20261231T000000Z.json", "{");
	put("vm.readahead_async_keep_half-20261231T000000Z.json", "{");
	put("readahead_async_keep_half-20261231T0000000.json", "{");
	report("readahead_unbounded_large_folios-20261129T000000Z.json",
	       "readahead_unbounded_large_folios", "PASS", 6, "keep", "false", "-0.05", "null", "null");

	is_i64(status_canaries_load(dir, c, &nr, &w), 0, "three reports of keep_half and one of 000: 0");
	is_u64(nr, 2, "  two features have a canary");
	ok(w.nr == 0, "  no warnings: the picture, a temporary file and other names are left alone (%zu: %s)",
	   w.nr, w.nr ? w.msg[0] : "");
	if (nr != 2)
		return;
	is_str(c[0].f->name, "readahead_unbounded_large_folios", "  in feature order: 000 first");
	is_str(c[1].f->name, "readahead_async_keep_half", "  then 002");
	is_str(c[1].verdict, "REGRESS", "  the report with the latest TIME wins, not the last read or written");
	is_str(c[1].time, "2026-12-01T09:00:00Z", "  its time, from the name, as RFC 3339");
	is_i64(c[1].when, 1796115600, "  and in seconds");
	ok(strstr(c[1].path, "/readahead_async_keep_half-20261201T090000Z.json") &&
	   !strncmp(c[1].path, dir, strlen(dir)), "  its path: %s", c[1].path);
	ok(c[1].pairs == 12 && !strcmp(c[1].action, "turn-off") && c[1].acted && !c[1].aa,
	   "  12 pairs, decision turn-off, acted");
	is_i64(c[1].nr_workloads, 2, "  two workloads");
	is_str(c[1].w[0].scenario, "seq-read", "  the first: seq-read");
	ok(c[1].w[0].estimate == 0.266 && c[1].w[0].lo == 0.17 && c[1].w[0].hi == 0.527 &&
	   c[1].w[0].delta == 0.045, "  its wall estimate, interval and delta (not majflt's 9)");
	ok(!strcmp(c[1].w[1].scenario, "mmap-read") && isnan(c[1].w[1].estimate) &&
	   isnan(c[1].w[1].lo) && isnan(c[1].w[1].hi) && c[1].w[1].delta == 0,
	   "  the second unmeasured: estimate and interval NaN, delta 0 (an integer in JSON)");
	ok(c[0].w[0].estimate == -0.05 && isnan(c[0].w[0].lo) && isnan(c[0].w[0].hi),
	   "  000: an estimate whose interval is null");
	warn_free(&w);
}

static void test_corrupt_latest(void)
{
	struct status_canary c[6];
	struct warnings w = { 0 };
	char path[sizeof(dir) + 64];
	size_t nr = 0;

	report("readahead_exec_large_folio-20261130T100000Z.json", "readahead_exec_large_folio",
	       "PASS", 4, "keep", "false", "0.01", "-0.02", "0.03");
	put("readahead_exec_large_folio-20261130T110000Z.json", "{\"schema\": \"rafleet-canary/1\", \"verd");
	is_i64(status_canaries_load(dir, c, &nr, &w), 0, "a corrupt latest report: still 0");
	ok(warned(&w, "readahead_exec_large_folio-20261130T110000Z.json: not JSON") &&
	   warned(&w, "the latest canary report of vm.readahead_exec_large_folio cannot be used"),
	   "  a warning names the file, what is wrong and the feature");
	ok(nr == 2 && strcmp(c[nr - 1].f->name, "readahead_exec_large_folio"),
	   "  the feature has no canary: the older report is not shown as the current one");
	warn_free(&w);

	snprintf(path, sizeof(path), "%s/readahead_exec_large_folio-20261130T110000Z.json", dir);
	remove(path);
	nr = 0;
	is_i64(status_canaries_load(dir, c, &nr, &w), 0, "the corrupt one gone");
	ok(nr == 3 && !strcmp(c[2].f->name, "readahead_exec_large_folio") &&
	   !strcmp(c[2].time, "2026-11-30T10:00:00Z") && w.nr == 0,
	   "  the older report is the latest again, no warning");
	warn_free(&w);
}

/* status_canary_read() of @text: its error and why. */
static int read_text(const char *text, char *why, size_t len)
{
	struct status_canary c;
	char path[sizeof(dir) + 16];

	put("bad/r.json", text);
	snprintf(path, sizeof(path), "%s/bad/r.json", dir);
	return status_canary_read(path, &features[2], &c, why, len);
}

static void bad(const char *text, const char *want, const char *name)
{
	char why[256];
	int err = read_text(text, why, sizeof(why));

	if (!ok(err == -EBADMSG && strstr(why, want), "%s: -EBADMSG, '%s'", name, want))
		diag("got %d, '%s'", err, why);
}

static void test_bad_reports(void)
{
	const char *good_head = "{\"schema\": \"rafleet-canary/1\", \"feature\": \"readahead_async_keep_half\"";
	char doc[2048];
	struct status_canary c;
	char why[256], path[sizeof(dir) + 32];

	bad("", "empty", "an empty file");
	bad("[1, 2]", "not a JSON object", "an array");
	bad("{\"schema\": \"rafleet-canary/3\"}", "schema is 'rafleet-canary/3', not 'rafleet-canary/2'",
	    "another schema (a report of /1, before the sequential plan, is still read)");
	bad("{\"feature\": \"x\"}", "schema is missing", "no schema");
	bad("{\"schema\": \"rafleet-canary/1\", \"feature\": \"readahead_exec_large_folio\"}",
	    "its feature is 'readahead_exec_large_folio', not 'readahead_async_keep_half'",
	    "a report of another feature than its name says");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"FINE\"}", good_head);
	bad(doc, "verdict is none of PASS, REGRESS, UNKNOWN", "a verdict that is none");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": -1}", good_head);
	bad(doc, "pairs is not a count", "negative pairs");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"explode\", \"acted\": false}}", good_head);
	bad(doc, "decision.action is none of keep, turn-off, none", "an unknown action");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"keep\", \"acted\": 1}}", good_head);
	bad(doc, "decision.acted is not true or false", "acted not a boolean");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"keep\", \"acted\": false}, \"workloads\": [ "
		 "{\"scenario\": \"seq-read\", \"delta\": 0.03, \"metrics\": [ {\"name\": \"majflt\", \"estimate\": 1} ]} ]}",
		 good_head);
	bad(doc, "workloads[0] has no wall metric", "a workload without its wall metric");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"keep\", \"acted\": false}, \"workloads\": [ "
		 "{\"scenario\": \"seq-read\", \"delta\": 0.03, \"metrics\": [ {\"name\": \"wall\", \"estimate\": \"big\"} ]} ]}",
		 good_head);
	bad(doc, "workloads[0]: the wall estimate or its interval is not a number", "a string estimate");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"keep\", \"acted\": false}, \"workloads\": [ {}, {}, {}, {}, {} ]}",
		 good_head);
	bad(doc, "5 workloads, a canary runs at most 4", "five workloads");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"keep\", \"acted\": false}, \"workloads\": [ {\"delta\": 1} ]}",
		 good_head);
	bad(doc, "workloads[0].scenario is not a scenario name", "a workload without a scenario");
	snprintf(doc, sizeof(doc), "%s, \"verdict\": \"PASS\", \"pairs\": 4, "
		 "\"decision\": {\"action\": \"keep\", \"acted\": false}, \"workloads\": [ "
		 "{\"scenario\": \"seq-read\", \"delta\": 0.03, \"metrics\": [ {\"name\": \"wall\", \"estimate\": 0} ]}, "
		 "{\"scenario\": \"seq-read\", \"delta\": 0.03, \"metrics\": [ {\"name\": \"wall\", \"estimate\": 0} ]} ]}",
		 good_head);
	bad(doc, "workloads[1]: scenario 'seq-read' twice", "a scenario twice (the canary refuses it)");

	snprintf(path, sizeof(path), "%s/bad/none.json", dir);
	is_i64(status_canary_read(path, &features[2], &c, why, sizeof(why)), -ENOENT,
	       "a report that is not there: -ENOENT");
}

int main(void)
{
	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	snprintf(dir, sizeof(dir), "%s/canary", tmp);
	fakefs_mkdir_p(dir);

	test_no_dir();
	test_latest_wins();
	test_corrupt_latest();
	test_bad_reports();
	fakefs_rm_tree(tmp);
	return tap_done();
}
