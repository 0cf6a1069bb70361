// SPDX-License-Identifier: GPL-2.0
#include "bench/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/stats.h"

static void features_json(struct json_writer *w, const struct run_result *r)
{
	json_obj_begin(w, "sysctls");
	for (int i = 0; i < nr_features && i < 8; i++) {
		char key[64];

		snprintf(key, sizeof(key), "vm.%s", features[i].name);
		if (r->feature_state[i] >= 0)
			json_u64(w, key, r->feature_state[i]);
		else
			json_null(w, key);
	}
	json_obj_end(w);
}

static void folios_json(struct json_writer *w, const struct run_result *r)
{
	if (!r->folios.ok) {
		json_null_reason(w, "folios", r->folios.reason);
		return;
	}
	json_obj_begin(w, "folios");
	json_u64(w, "total", r->folios_total);
	json_obj_begin(w, "by_order");
	for (int o = 0; o < FOLIO_ORDERS; o++) {
		char key[16];

		if (!r->folios_by_order[o])
			continue;
		snprintf(key, sizeof(key), "%d", o);
		json_u64(w, key, r->folios_by_order[o]);
	}
	json_obj_end(w);
	json_obj_end(w);
}

static void ra_json(struct json_writer *w, const struct run_result *r)
{
	if (!r->ra.ok) {
		json_null_reason(w, "readahead_events", r->ra.reason);
		return;
	}
	json_obj_begin(w, "readahead_events");
	for (int i = 0; i < NR_RA_EVENTS; i++)
		json_u64(w, ra_event_names[i], r->ra_count[i]);
	json_obj_end(w);
}

static void block_json(struct json_writer *w, const struct run_result *r)
{
	if (!r->block.ok) {
		json_null_reason(w, "block", r->block.reason);
		return;
	}
	json_obj_begin(w, "block");
	json_str(w, "device", r->blockdev);
	json_u64(w, "read_requests", r->block_reads);
	json_u64(w, "read_bytes", r->block_sectors * 512);
	json_obj_end(w);
}

static void verify_json(struct json_writer *w, const struct run_result *r)
{
	if (!r->verify.ok) {
		json_null_reason(w, "verify", r->verify.reason);
		return;
	}
	json_obj_begin(w, "verify");
	json_boolean(w, "match", r->verified);
	json_str(w, "sha256_odirect", r->sha_direct);
	json_str(w, "sha256_mmap", r->sha_mmap);
	json_str(w, "sha256_read", r->sha_read[0] ? r->sha_read : NULL);
	json_obj_end(w);
}

static void fio_json(struct json_writer *w, const struct run_result *r)
{
	const struct fio_result *f = &r->fio;

	if (r->scenario->kind != SC_FIO)
		return;
	if (!f->ok) {
		json_null_reason(w, "fio", f->reason[0] ? f->reason : "fio did not run");
		return;
	}
	json_obj_begin(w, "fio");
	json_str(w, "job", f->job);
	json_double(w, "read_bw_kib", f->read_bw_kib);
	json_double(w, "read_iops", f->read_iops);
	json_double(w, "clat_p99_ns", f->clat_p99_ns);
	json_double(w, "usr_cpu", f->usr_cpu);
	json_double(w, "sys_cpu", f->sys_cpu);
	json_u64(w, "read_bytes", f->read_bytes);
	json_u64(w, "majf", f->majf);
	json_u64(w, "minf", f->minf);
	if (f->fadvise_hint < 0) {
		json_null(w, "fadvise_hint");
		json_str(w, "warning", "the job does not set fadvise_hint: fio's default calls posix_fadvise() itself, POSIX_FADV_RANDOM for random jobs, which turns readahead off");
	} else {
		json_i64(w, "fadvise_hint", f->fadvise_hint);
	}
	json_obj_end(w);
}

void report_run_json(struct json_writer *w, const struct run_result *r)
{
	json_obj_begin(w, NULL);
	features_json(w, r);
	json_str(w, "evict", r->evict);
	json_u64(w, "resident_pages_after_evict", r->resident_after_evict);
	json_i64(w, "status", r->status);
	json_u64(w, "bytes_read", r->bytes_read);
	json_u64(w, "calls", r->calls);
	json_u64(w, "wall_ns", r->wall_ns);
	json_u64(w, "user_ns", r->user_ns);
	json_u64(w, "sys_ns", r->sys_ns);
	json_u64(w, "minor_faults", r->minflt);
	json_u64(w, "major_faults", r->majflt);
	folios_json(w, r);
	ra_json(w, r);
	block_json(w, r);
	if (r->touch.ok) {
		json_obj_begin(w, "touch_mmap");
		json_u64(w, "minor_faults", r->touch_minflt);
		json_u64(w, "major_faults", r->touch_majflt);
		json_obj_end(w);
	} else {
		json_null_reason(w, "touch_mmap", r->touch.reason);
	}
	verify_json(w, r);
	fio_json(w, r);
	json_obj_end(w);
}

/* The numbers summarized over repeated runs. */
enum {
	MET_WALL, MET_USER, MET_SYS, MET_MINFLT, MET_MAJFLT, MET_FOLIOS,
	MET_FOLIOS_LARGE, MET_BLOCK_READS, MET_BLOCK_BYTES, MET_TOUCH_MINFLT,
	NR_METRICS
};

static const char *const metric_names[NR_METRICS] = {
	"wall_ns", "user_ns", "sys_ns", "minor_faults", "major_faults",
	"folios", "folios_order_above_0", "block_read_requests",
	"block_read_bytes", "touch_mmap_minor_faults",
};

static uint64_t large_folios(const struct run_result *r)
{
	uint64_t n = 0;

	for (int o = 1; o < FOLIO_ORDERS; o++)
		n += r->folios_by_order[o];
	return n;
}

/* Metric @m of run @r, if that run could measure it. */
static bool metric_get(const struct run_result *r, int m, double *v)
{
	switch (m) {
	case MET_WALL: *v = r->wall_ns; return true;
	case MET_USER: *v = r->user_ns; return true;
	case MET_SYS: *v = r->sys_ns; return true;
	case MET_MINFLT: *v = r->minflt; return true;
	case MET_MAJFLT: *v = r->majflt; return true;
	case MET_FOLIOS: *v = r->folios_total; return r->folios.ok;
	case MET_FOLIOS_LARGE: *v = large_folios(r); return r->folios.ok;
	case MET_BLOCK_READS: *v = r->block_reads; return r->block.ok;
	case MET_BLOCK_BYTES: *v = r->block_sectors * 512.0; return r->block.ok;
	case MET_TOUCH_MINFLT: *v = r->touch_minflt; return r->touch.ok;
	}
	return false;
}

static void summary_json(struct json_writer *w, const struct run_result *runs,
			 unsigned int n)
{
	double *v = calloc(n ? n : 1, sizeof(*v));

	json_obj_begin(w, "summary");
	json_u64(w, "runs", n);
	for (int m = 0; m < NR_METRICS && v; m++) {
		unsigned int k = 0;
		struct summary sum;

		for (unsigned int i = 0; i < n; i++)
			if (metric_get(&runs[i], m, &v[k]))
				k++;
		if (!k) {
			json_null_reason(w, metric_names[m], "not measured in any run");
			continue;
		}
		sum = summarize(v, k);
		json_obj_begin(w, metric_names[m]);
		json_double(w, "median", sum.median);
		json_double(w, "min", sum.min);
		json_double(w, "max", sum.max);
		json_u64(w, "n", sum.n);
		json_obj_end(w);
	}
	json_obj_end(w);
	free(v);
}

void report_scenario_json(struct json_writer *w, const struct scenario *s,
			  const char *path, int64_t size,
			  const struct run_result *runs, unsigned int n)
{
	json_obj_begin(w, NULL);
	json_str(w, "scenario", s->name);
	json_str(w, "seed", s->seed);
	json_str(w, "workload", s->desc);
	json_str(w, "file", path);
	json_i64(w, "size", size);
	json_arr_begin(w, "runs");
	for (unsigned int i = 0; i < n; i++)
		report_run_json(w, &runs[i]);
	json_arr_end(w);
	summary_json(w, runs, n);
	json_obj_end(w);
}
void report_table_header(FILE *f)
{
	fprintf(f, "%-24s %8s %10s %10s %10s %10s %8s %8s %9s %7s\n",
		"scenario", "feature", "folios", "order>0", "blk_reads",
		"MiB_read", "touchflt", "majflt", "wall_ms", "verify");
}

static void cell_u64(FILE *f, int width, bool ok, uint64_t v)
{
	if (ok)
		fprintf(f, " %*" PRIu64, width, v);
	else
		fprintf(f, " %*s", width, "n/a");
}

void report_table_row(FILE *f, const struct run_result *r)
{
	char state[16];
	uint64_t large = 0;
	int first = r->feature_state[0];

	for (int o = 1; o < FOLIO_ORDERS; o++)
		large += r->folios_by_order[o];
	/* the feature column shows the seed's own sysctl when it exists */
	snprintf(state, sizeof(state), "%s", first < 0 ? "-" : first ? "on" : "off");
	for (int i = 0; i < nr_features; i++)
		if (!strncmp(features[i].seed, r->scenario->seed, 3) &&
		    r->feature_state[i] >= 0) {
			snprintf(state, sizeof(state), "%s",
				 r->feature_state[i] ? "on" : "off");
			break;
		}
	fprintf(f, "%-24s %8s", r->scenario->name, state);
	cell_u64(f, 10, r->folios.ok, r->folios_total);
	cell_u64(f, 10, r->folios.ok, large);
	cell_u64(f, 10, r->block.ok, r->block_reads);
	cell_u64(f, 10, r->block.ok, r->block_sectors * 512 >> 20);
	cell_u64(f, 8, r->touch.ok, r->touch_minflt);
	fprintf(f, " %8" PRIu64 " %9.1f %7s\n", r->majflt, r->wall_ns / 1e6,
		!r->verify.ok ? "-" : r->verified ? "ok" : "BAD");
}

void report_scenario_table(FILE *f, const struct run_result *runs,
			   unsigned int n)
{
	double *v;

	for (unsigned int i = 0; i < n; i++)
		report_table_row(f, &runs[i]);
	if (n < 2)
		return;
	v = calloc(n, sizeof(*v));
	if (!v)
		return;
	fprintf(f, "%-24s %8s", "  median of runs", "");
	for (int m = MET_FOLIOS; m <= MET_TOUCH_MINFLT; m++) {
		unsigned int k = 0;

		int width = m == MET_TOUCH_MINFLT ? 8 : 10;
		double scale = m == MET_BLOCK_BYTES ? 1.0 / (1 << 20) : 1.0;

		for (unsigned int i = 0; i < n; i++)
			if (metric_get(&runs[i], m, &v[k]))
				k++;
		if (k)
			fprintf(f, " %*.0f", width, summarize(v, k).median * scale);
		else
			fprintf(f, " %*s", width, "n/a");
	}
	for (unsigned int i = 0; i < n; i++)
		v[i] = runs[i].wall_ns / 1e6;
	fprintf(f, " %8s %9.1f\n", "", summarize(v, n).median);
	free(v);
}
