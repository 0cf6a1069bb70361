// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/tune/state.c: the record of the values `rafleet tune`
 * changed round-trips; records of another boot are dropped; a record is
 * about one disk (its diskseq); files that are no tune state are refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fakefs.h"
#include "tap.h"
#include "tune/state.h"

static char tmpdir[] = "/tmp/rafleet-test-tune-state.XXXXXX";

static struct tune_dev disk(const char *name, uint64_t ra, bool seq, uint64_t diskseq)
{
	struct tune_dev d;

	memset(&d, 0, sizeof(d));
	snprintf(d.disk.name, sizeof(d.disk.name), "%s", name);
	d.ra_kb = ra;
	d.have_diskseq = seq;
	d.diskseq = diskseq;
	return d;
}

int main(void)
{
	struct tune_state s, back;
	struct tune_dev vda, sda, vda2;
	struct tune_saved *e;
	char path[PATH_MAX], err[PATH_MAX + 128];
	int ret;

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/tune.json", tmpdir);

	ret = tune_state_load(path, "boot-a", &s, err, sizeof(err));
	ok(!ret && s.nr == 0 && !strcmp(s.boot_id, "boot-a"),
	   "no file: an empty state of this boot");

	vda = disk("vda", 128, true, 9);
	sda = disk("sda", 256, false, 0);
	is_i64(tune_state_record(&s, &vda, 4096, "/etc/rafleet/tune.conf:3", 1000), 0,
	       "record vda");
	is_i64(tune_state_record(&s, &sda, 8192, "/etc/rafleet/tune.conf:4", 1001), 0,
	       "record sda (no diskseq)");
	is_i64(tune_state_save(path, &s), 0, "save");
	ok(access(path, F_OK) == 0, "  the file is there");

	ret = tune_state_load(path, "boot-a", &back, err, sizeof(err));
	is_i64(ret, 0, "load it in the same boot");
	is_u64(back.nr, 2, "  two records");
	e = tune_state_find(&back, "vda");
	ok(e && e->old_kb == 128 && e->set_kb == 4096 && e->have_diskseq &&
	   e->diskseq == 9 && e->time == 1000 &&
	   !strcmp(e->rule, "/etc/rafleet/tune.conf:3"),
	   "  vda: old 128, set 4096, diskseq 9, time, rule");
	e = tune_state_find(&back, "sda");
	ok(e && e->old_kb == 256 && !e->have_diskseq, "  sda: old 256, no diskseq");
	ok(!tune_state_find(&back, "sdb"), "  no record of sdb");

	ok(tune_saved_is(tune_state_find(&back, "vda"), &vda), "the record is about vda as it is");
	vda2 = disk("vda", 128, true, 10);
	ok(!tune_saved_is(tune_state_find(&back, "vda"), &vda2),
	   "  not about another disk named vda (diskseq 10)");
	ok(tune_saved_is(tune_state_find(&back, "sda"), &sda),
	   "sda without diskseq: the record and the disk match");

	/* re-recording a replaced disk takes its value anew, in place */
	vda2.ra_kb = 512;
	is_i64(tune_state_record(&back, &vda2, 4096, "/etc/rafleet/tune.conf:3", 2000), 0,
	       "record the new vda");
	e = tune_state_find(&back, "vda");
	ok(back.nr == 2 && e && e->old_kb == 512 && e->diskseq == 10,
	   "  replaces the old record: old 512, diskseq 10, still two records");

	tune_state_remove(&back, tune_state_find(&back, "vda"));
	ok(back.nr == 1 && !tune_state_find(&back, "vda") && tune_state_find(&back, "sda"),
	   "remove vda: sda is left");
	tune_state_free(&back);

	ret = tune_state_load(path, "boot-b", &back, err, sizeof(err));
	ok(!ret && back.nr == 0 && back.dropped == 2 && !strcmp(back.boot_id, "boot-b"),
	   "another boot: both records dropped (and counted), the state is of this boot");
	tune_state_free(&back);
	ret = tune_state_load(path, "", &back, err, sizeof(err));
	ok(!ret && back.nr == 2, "an unknown boot id drops nothing");
	tune_state_free(&back);
	tune_state_free(&s);

	static const struct {
		const char *text, *what;
	} bad[] = {
		{ "not json", "not JSON" },
		{ "{\"schema\": \"rafleet-state/1\", \"devices\": []}", "another schema" },
		{ "{\"schema\": \"rafleet-tune-state/1\"}", "no devices" },
		{ "{\"schema\": \"rafleet-tune-state/1\", \"devices\": [{\"device\": \"vda\"}]}",
		  "a record without values" },
		{ "{\"schema\": \"rafleet-tune-state/1\", \"devices\": [{\"device\": \"../vda\", "
		  "\"old_read_ahead_kb\": 1, \"set_read_ahead_kb\": 2, \"rule\": \"x\", \"time\": 1}]}",
		  "a device name with a '/'" },
		{ "{\"schema\": \"rafleet-tune-state/1\", \"devices\": [{\"device\": \"vda\", "
		  "\"old_read_ahead_kb\": -1, \"set_read_ahead_kb\": 2, \"rule\": \"x\", \"time\": 1}]}",
		  "a negative value" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fakefs_put(tmpdir, "tune.json", bad[i].text);
		ret = tune_state_load(path, "boot-a", &back, err, sizeof(err));
		ok(ret == -EBADMSG && back.nr == 0, "refused: %s (%d)", bad[i].what, ret);
		ok(strstr(err, "tune.json: not ") && strstr(err, "move it away"),
		   "  the message names the file and what to do: %s", err);
	}

	{
		struct lockfile l;

		ok(!tune_state_lock(&l, path), "the lock is taken");
		snprintf(err, sizeof(err), "%s.lock", path);
		ok(access(err, F_OK) == 0, "  tune.json.lock exists");
		lockfile_release(&l);
	}

	fakefs_rm_tree(tmpdir);
	return tap_done();
}
