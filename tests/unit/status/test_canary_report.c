// SPDX-License-Identifier: GPL-2.0
/*
 * canary: pairs folded into log-ratios (counts with +1, unavailable
 * measurements), verdicts over workloads, corroboration by a clock-free
 * counter or a second workload, and the report's JSON and picture; the
 * report as `rafleet status` reads it back (status/canary.h).
 * Here in status/, above both: the writer (canary/) and the reader.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>

#include "canary/canary.h"
#include "canary/report.h"
#include "fakefs.h"
#include "status/canary.h"
#include "tap.h"

static struct canary_opts opts(int workloads)
{
	struct canary_opts o = { .feature = feature_find("readahead_async_keep_half"),
				 .nr_workloads = workloads };

	o.workload[0] = scenario_find("read-4k-then-512k");
	o.workload[1] = scenario_find("seq-read");
	o.path[0] = o.path[1] = "/data";
	o.delta[0] = o.delta[1] = 0.03;
	o.plan = (struct seqrule_plan){ .pairs_min = 4, .pairs_step = 2, .pairs_max = 12,
					.metrics = (unsigned int)workloads, .alpha = 0.02 };
	seqrule_plan(&o.plan, NULL);
	return o;
}

/* An arm of three runs, the slowest 2 % slower than the fastest. */
static struct canary_arm run(double ms, uint64_t reqs, uint64_t folios, bool block_ok)
{
	struct run_result r = { .wall_ns = (uint64_t)(ms * 1e6), .majflt = 0,
				.block_reads = reqs, .block_sectors = reqs * 256,
				.folios_total = folios };

	r.block.ok = block_ok;
	if (!block_ok)
		snprintf(r.block.reason, sizeof(r.block.reason), "no block device under the file");
	r.folios.ok = true;
	return (struct canary_arm){ .best = r, .slowest_ns = (uint64_t)(ms * 1.02e6), .runs = 3 };
}

/* Fill @n pairs: workload 0 B costs @slow0 more, workload 1 @slow1, noise ±1 %. */
static void fill(const struct canary_opts *o, struct canary_result *r, unsigned int n,
		 double slow0, double slow1, uint64_t reqs_on, bool block_ok)
{
	for (unsigned int i = 0; i < n; i++) {
		double noise = 1 + 0.01 * ((int)(i % 3) - 1);
		struct canary_arm a0 = run(100 * noise, 20, 50, block_ok);
		struct canary_arm b0 = run(100 * noise * (1 + slow0), reqs_on, 50, block_ok);
		struct canary_arm a1 = run(200 / noise, 20, 50, block_ok);
		struct canary_arm b1 = run(200 / noise * (1 + slow1), 20, 50, block_ok);

		canary_add_pair(r, 0, i, &a0, &b0);
		if (o->nr_workloads > 1)
			canary_add_pair(r, 1, i, &a1, &b1);
	}
}

int main(void)
{
	struct canary_opts o1 = opts(1), o2 = opts(2);
	static struct canary_result r;
	struct canary_decision d = { .action = "none", .delta_source = { "floor", "floor" } };
	struct json_object *root, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* the fold: ln(on/off) for time, ln((on+1)/(off+1)) for counts */
	struct canary_arm a = run(100, 0, 9, true), b = run(125, 3, 19, true);

	canary_add_pair(&r, 0, 0, &a, &b);
	ok(fabs(r.s[0][CM_WALL].d[0] - log(1.25)) < 1e-12, "wall: ln(125/100)");
	ok(fabs(r.s[0][CM_BLOCK_READS].d[0] - log(4.0)) < 1e-12, "requests 0 -> 3: ln(4/1)");
	ok(fabs(r.s[0][CM_FOLIOS].d[0] - log(2.0)) < 1e-12, "folios 9 -> 19: ln(20/10)");
	ok(r.s[0][CM_MAJFLT].d[0] == 0, "no major faults on either side: a ratio of 1");
	ok(fabs(r.s[0][CM_SPREAD].d[0]) < 1e-12 && fabs(r.s[0][CM_SPREAD].on[0] - log(1.02)) < 1e-12,
	   "spread: ln(slowest/fastest) of each arm, their difference");
	a = run(100, 0, 9, false);
	canary_add_pair(&r, 0, 1, &a, &b);
	ok(!r.s[0][CM_BLOCK_READS].available && !r.s[0][CM_DEVICE_BYTES].available,
	   "a pair without the block counts makes them unavailable");
	is_str(r.s[0][CM_BLOCK_READS].reason, "no block device under the file", "with the reason");
	ok(r.s[0][CM_WALL].available, "the wall time stays available");

	/* +20 % with 30 % more requests: REGRESS, corroborated by the counter */
	memset(&r, 0, sizeof(r));
	fill(&o1, &r, 10, 0.20, 0, 26, true);
	canary_judge(&o1, &r, 10);
	is_str(verdict_name(r.verdict), "REGRESS", "+20 %% at 10 pairs: REGRESS");
	ok(r.corroborated, "corroborated: %s", r.corroboration);
	ok(strstr(r.corroboration, "block_reads") != NULL, "by the block requests");
	is_u64(r.nr_looks, 1, "one look recorded");

	/* +20 % and the counters unchanged: REGRESS, not corroborated */
	memset(&r, 0, sizeof(r));
	fill(&o1, &r, 10, 0.20, 0, 20, true);
	canary_judge(&o1, &r, 10);
	ok(r.verdict == VERDICT_REGRESS && !r.corroborated,
	   "counters unchanged, one workload: not corroborated (%s)", r.corroboration);

	/* two workloads both slower: the second corroborates the first */
	memset(&r, 0, sizeof(r));
	fill(&o2, &r, 10, 0.20, 0.08, 20, true);
	canary_judge(&o2, &r, 10);
	ok(r.verdict == VERDICT_REGRESS && r.corroborated &&
	   strstr(r.corroboration, "seq-read wall") != NULL,
	   "a second workload slower too corroborates: %s", r.corroboration);

	/* two workloads, one slower and one faster: not corroborated */
	memset(&r, 0, sizeof(r));
	fill(&o2, &r, 10, 0.20, -0.10, 20, true);
	canary_judge(&o2, &r, 10);
	ok(r.verdict == VERDICT_REGRESS && !r.corroborated,
	   "the other workload faster does not corroborate");

	/* unchanged: PASS at 10 pairs */
	memset(&r, 0, sizeof(r));
	fill(&o2, &r, 10, 0, 0, 20, true);
	canary_judge(&o2, &r, 10);
	is_str(verdict_name(r.verdict), "PASS", "no change, noise 1 %%: PASS at 10 pairs");
	is_str(effect_name(r.s[0][CM_WALL].v.effect), "within", "within +-delta");
	ok(r.corroboration[0] == '\0', "a PASS needs no corroboration");

	/* faster: PASS, better */
	memset(&r, 0, sizeof(r));
	fill(&o1, &r, 10, -0.25, 0, 12, true);
	canary_judge(&o1, &r, 10);
	ok(r.verdict == VERDICT_PASS && r.s[0][CM_WALL].v.effect == EFFECT_BETTER,
	   "-25 %%: PASS, better");

	/* 6 pairs: no test spends so little, so no look */
	ok(!seqrule_is_look(&o1.plan, 6) && seqrule_is_look(&o1.plan, 8),
	   "at alpha 2 %% the first look is at 8 pairs, none at 6");

	/* runs that spread more with B: erratic */
	memset(&r, 0, sizeof(r));
	for (unsigned int i = 0; i < 10; i++) {
		struct canary_arm a0 = run(100, 20, 50, true), b0 = run(100, 20, 50, true);

		b0.slowest_ns = (uint64_t)((1.20 + 0.01 * (i % 3)) * 1e8);
		canary_add_pair(&r, 0, i, &a0, &b0);
	}
	canary_judge(&o1, &r, 10);
	ok(r.erratic && strstr(r.erratic_why, "spread") != NULL,
	   "arm B's runs spread 20 points more: erratic (%s)", r.erratic_why);
	is_str(verdict_name(r.verdict), "PASS", "  while its best times PASS");

	/* the report: JSON that parses, with the numbers; an SVG */
	memset(&r, 0, sizeof(r));
	fill(&o2, &r, 10, 0.20, 0.08, 26, true);
	canary_judge(&o2, &r, 10);
	r.arm[1] = 1;
	snprintf(d.why, sizeof(d.why), "test");
	f = open_memstream(&buf, &len);
	canary_report_json(f, &o2, &r, &d);
	fclose(f);
	root = json_tokener_parse(buf);
	ok(root != NULL, "the JSON report parses");
	ok(root && json_object_object_get_ex(root, "verdict", &v) &&
	   !strcmp(json_object_get_string(v), "REGRESS"), "verdict REGRESS in the JSON");
	ok(root && json_object_object_get_ex(root, "workloads", &v) &&
	   json_object_array_length(v) == 2, "two workloads in the JSON");
	if (root) {
		struct json_object *wl = json_object_array_get_idx(v, 0), *ms, *m0, *est, *pairs;

		double e = NAN;

		json_object_object_get_ex(wl, "metrics", &ms);
		m0 = json_object_array_get_idx(ms, 0);
		if (json_object_object_get_ex(m0, "estimate", &est))
			e = json_object_get_double(est);
		ok(fabs(e - 0.20) < 0.02, "wall estimate +20 %% (%.4f)", e);
		ok(json_object_object_get_ex(m0, "pairs", &pairs) &&
		   json_object_array_length(pairs) == 10, "its 10 pairs");
		json_object_put(root);
	}
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	canary_report_svg(f, &o2, &r);
	fclose(f);
	ok(!strncmp(buf, "<?xml", 5) && strstr(buf, "</svg>") != NULL, "the picture is an SVG document");
	ok(strstr(buf, "read-4k-then-512k, wall REGRESS") != NULL, "with a titled panel per workload");
	{
		size_t circles = 0;

		for (char *p = buf; (p = strstr(p, "<circle")); p++)
			circles++;
		is_u64(circles, 20, "a dot per pair and workload (20)");
	}
	free(buf);

	/* what the canary writes is what status reads */
	{
		char dir[] = "/tmp/rafleet-canary-report-XXXXXX";
		struct status_canary c[6];
		struct warnings w = { 0 };
		size_t nr = 0;

		d.action = "turn-off";
		d.acted = true;
		buf = NULL;
		f = open_memstream(&buf, &len);
		canary_report_json(f, &o2, &r, &d);
		fclose(f);
		if (mkdtemp(dir))
			fakefs_put(dir, "readahead_async_keep_half-20261130T204209Z.json", buf);
		ok(!status_canaries_load(dir, c, &nr, &w) && nr == 1 && !w.nr,
		   "status reads the canary's report back, no warning (%s)", w.nr ? w.msg[0] : "");
		ok(nr == 1 && !strcmp(c[0].verdict, "REGRESS") && c[0].pairs == 10 &&
		   !strcmp(c[0].action, "turn-off") && c[0].acted && c[0].nr_workloads == 2,
		   "  REGRESS, 10 pairs, turn-off acted, two workloads");
		ok(nr == 1 && !strcmp(c[0].w[0].scenario, "read-4k-then-512k") &&
		   c[0].w[0].estimate == expm1(r.s[0][CM_WALL].v.hl.estimate) &&
		   c[0].w[0].lo == expm1(r.s[0][CM_WALL].v.hl.lo) &&
		   c[0].w[0].delta == 0.03,
		   "  the first workload's wall estimate and interval, exactly as written");
		warn_free(&w);
		free(buf);
		fakefs_rm_tree(dir);
	}
	ok(canary_default_workloads(feature_find("readahead_unbounded_large_folios")) != NULL,
	   "every feature has default workloads");
	for (int i = 0; i < nr_features; i++) {
		const char *const *n = canary_default_workloads(&features[i]);
		bool all = n != NULL;

		for (; n && *n; n++)
			all &= scenario_find(*n) != NULL;
		ok(all, "%s: its default workloads exist", features[i].name);
	}
	return tap_done();
}
