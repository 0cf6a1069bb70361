// SPDX-License-Identifier: GPL-2.0
#include "report.h"

#include <inttypes.h>
#include <string.h>

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
	json_bool(w, "match", r->verified);
	json_str(w, "sha256_odirect", r->sha_direct);
	json_str(w, "sha256_mmap", r->sha_mmap);
	json_str(w, "sha256_read", r->sha_read[0] ? r->sha_read : NULL);
	json_obj_end(w);
}

void report_run_json(struct json_writer *w, const struct run_result *r)
{
	json_obj_begin(w, NULL);
	json_str(w, "scenario", r->scenario->name);
	json_str(w, "seed", r->scenario->seed);
	features_json(w, r);
	json_str(w, "evict", r->evict);
	json_u64(w, "resident_pages_after_evict", r->resident_after_evict);
	json_i64(w, "status", r->status);
	json_u64(w, "bytes_read", r->bytes_read);
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
