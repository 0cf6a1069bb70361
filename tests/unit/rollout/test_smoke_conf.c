// SPDX-License-Identifier: GPL-2.0
/*
 * smoke and kmsg: bench's JSON read for each scenario's median wall time;
 * a loss counts only beyond delta, and names the worst scenario; the
 * smoke.conf under the root; a bench run past its time limit is killed;
 * the kernel log's WARNING/BUG/Oops records and the taint's bad flags.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "host/kmsg.h"
#include "host/feature.h"
#include "rollout/smoke_conf.h"
#include "tap.h"

static char tmp[] = "/tmp/rafleet-smoke-XXXXXX";

static const char *bench_json(double a, double b)
{
	static char buf[512];

	snprintf(buf, sizeof(buf),
		 "{\"schema\":\"rafleet-bench/1\",\"scenarios\":["
		 "{\"scenario\":\"seq-read\",\"summary\":{\"wall_ns\":{\"median\":%.0f}}},"
		 "{\"scenario\":\"readahead-2m\",\"summary\":{\"wall_ns\":{\"median\":%.0f}}},"
		 "{\"scenario\":\"broken\",\"summary\":{\"wall_ns\":{\"median\":null}}}]}", a, b);
	return buf;
}

static void test_compare(void)
{
	struct smoke_run base, run;
	char why[128], which[64];
	double worst;

	is_i64(smoke_parse(bench_json(1e6, 2e6), &base, why, sizeof(why)), 0, "parse bench JSON");
	ok(base.nr == 3 && smoke_median(&base, "readahead-2m") == 2e6 &&
	   smoke_median(&base, "broken") < 0 && smoke_median(&base, "nothere") < 0,
	   "  the medians; null and missing are < 0");
	is_i64(smoke_parse("{\"schema\":1}", &run, why, sizeof(why)), -EBADMSG, "no scenarios: -EBADMSG");
	smoke_parse(bench_json(1.04e6, 2e6), &run, why, sizeof(why));
	ok(!smoke_loses(&base, &run, 0.05, &worst, which, sizeof(which)) &&
	   worst > 1.039 && worst < 1.041 && !strcmp(which, "seq-read"),
	   "4 %% slower with delta 5 %%: no loss; worst seq-read x%.3f", worst);
	ok(smoke_loses(&base, &run, 0.03, &worst, which, sizeof(which)), "  with delta 3 %%: a loss");
	smoke_parse(bench_json(0.5e6, 2.4e6), &run, why, sizeof(why));
	ok(smoke_loses(&base, &run, 0.05, &worst, which, sizeof(which)) && !strcmp(which, "readahead-2m"),
	   "one scenario 20 %% slower, another faster: a loss, in readahead-2m");
}

static void test_config_and_timeout(void)
{
	struct smoke_config c;
	char why[256], root[sizeof(tmp) + 8], bench[sizeof(tmp) + 16], *json = NULL;
	char procsys[sizeof(tmp) + 16], rel0[sizeof(tmp) + 24];

	snprintf(root, sizeof(root), "%s/root", tmp);
	setenv("RAFLEET_ROOT", root, 1);
	fakefs_mkdir_p(root);
	is_i64(smoke_config_load(&c, why, sizeof(why)), 0, "no smoke.conf: the defaults");
	fakefs_put(root, "etc/rafleet/smoke.conf",
		   "# comment\nRAFLEET_SMOKE_SCENARIOS=seq-read populate-read\n"
		   "RAFLEET_SMOKE_FILE=/srv/smoke.dat\nRAFLEET_SMOKE_SIZE=1G\nRAFLEET_SMOKE_REPEAT=5\n");
	smoke_config_load(&c, why, sizeof(why));
	ok(!strcmp(c.scenarios, "seq-read populate-read") && !strcmp(c.file, "/srv/smoke.dat") &&
	   !strcmp(c.size, "1G") && !strcmp(c.repeat, "5"), "smoke.conf read: scenarios, file, size, repeat");

	snprintf(bench, sizeof(bench), "%s/bench", tmp);
	fakefs_put(tmp, "bench", "#!/bin/sh\necho '{\"partial\": '\nsleep 30\n");
	chmod(bench, 0755);
	setenv("RAFLEET_BENCH", bench, 1);
	is_i64(smoke_bench(&c, false, 1, &json, why, sizeof(why)), -ETIMEDOUT,
	       "a bench run past its 1 s limit: -ETIMEDOUT");
	is_str(why, "bench did not finish in 1 s: killed", "  says so");
	free(json);
	fakefs_put(tmp, "bench", "#!/bin/sh\necho \"$*\"\nexit 3\n");
	/* a rafleet kernel: the six sysctls exist, all go to 0 */
	snprintf(procsys, sizeof(procsys), "%s/procsys", tmp);
	for (int i = 0; i < nr_features; i++) {
		char rel[96];

		snprintf(rel, sizeof(rel), "vm/%s", features[i].name);
		fakefs_put(procsys, rel, "1\n");
	}
	setenv("RAFLEET_PROCSYS", procsys, 1);
	is_i64(smoke_bench(&c, true, 10, &json, why, sizeof(why)), -EIO, "a bench run that exits 3: -EIO");
	is_str(why, "bench exit 3", "  says so");
	{
		char want[PATH_MAX + 256];

		/* the file under RAFLEET_ROOT: a fake root contains the write */
		snprintf(want, sizeof(want),
			 "bench run seq-read populate-read --file %s/srv/smoke.dat --size 1G --repeat 5 --verify --json --sysctl vm.readahead_unbounded_large_folios=0",
			 root);
		ok(json && strstr(json, want),
		   "  its arguments: the config (its file under the root), --verify --json, every feature at 0");
	}
	ok(json && strstr(json, "--sysctl vm.readahead_exec_large_folio=0"), "  the last feature too");
	free(json);
	/* a kernel without them (7.3.4 as Debian ships it): nothing to set */
	snprintf(rel0, sizeof(rel0), "%s/vm", procsys);
	fakefs_rm_tree(rel0);
	smoke_bench(&c, true, 10, &json, why, sizeof(why));
	ok(json && !strstr(json, "--sysctl"), "  on a kernel without the sysctls, no --sysctl: they are off");
	free(json);
	unsetenv("RAFLEET_PROCSYS");
	unsetenv("RAFLEET_BENCH");
}

static void test_kmsg(void)
{
	char path[sizeof(tmp) + 8], procsys[sizeof(tmp) + 8];
	struct kernel_health h;

	snprintf(path, sizeof(path), "%s/kmsg", tmp);
	snprintf(procsys, sizeof(procsys), "%s/sys", tmp);
	setenv("RAFLEET_KMSG", path, 1);
	setenv("RAFLEET_PROCSYS", procsys, 1);
	fakefs_put(tmp, "kmsg", "6,1,100,-;Linux version 7.3.4\n"
		   " SUBSYSTEM=foo\n6,2,200,-;a message that mentions WARNING: in the middle\n");
	fakefs_put(tmp, "sys/kernel/tainted", "4096\n");
	kernel_health_read(&h);
	ok(h.log_read && !h.warnings && !h.oopses && h.taint == 4096 && !kernel_health_bad(&h),
	   "a quiet log, taint O (out-of-tree module) only: healthy");
	fakefs_put(tmp, "kmsg", "6,1,100,-;Linux version 7.3.4\n"
		   "4,2,200,-;WARNING: CPU: 1 PID: 9 at mm/readahead.c:10 f+0x1/0x2\n"
		   "4,3,300,-;WARNING: CPU: 0 PID: 9 at mm/filemap.c:20 g+0x1/0x2\n"
		   "1,4,400,-;BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		   "4,5,500,-;Oops: 0002 [#1] PREEMPT SMP\n");
	fakefs_put(tmp, "sys/kernel/tainted", "0\n");
	kernel_health_read(&h);
	ok(h.warnings == 2 && h.oopses == 2 && kernel_health_bad(&h),
	   "two WARNINGs, a BUG and an Oops counted (%u, %u)", h.warnings, h.oopses);
	is_str(h.first, "WARNING: CPU: 1 PID: 9 at mm/readahead.c:10 f+0x1/0x2", "  the first quoted");
	fakefs_put(tmp, "kmsg", "");
	fakefs_put(tmp, "sys/kernel/tainted", "512\n");
	kernel_health_read(&h);
	ok(kernel_health_bad(&h), "an empty log but taint W: unhealthy");
	unsetenv("RAFLEET_KMSG");
	fakefs_rm_tree(path);
	setenv("RAFLEET_KMSG", path, 1);
	kernel_health_read(&h);
	ok(!h.log_read && strstr(h.log_error, "No such file"), "no log to read: said, not a failure");
}

int main(void)
{
	if (!ok(mkdtemp(tmp) != NULL, "temp dir"))
		return tap_done();
	test_compare();
	test_config_and_timeout();
	test_kmsg();
	fakefs_rm_tree(tmp);
	return tap_done();
}
