// SPDX-License-Identifier: GPL-2.0
/* fio: its JSON output parsed; fadvise_hint read from job files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "bench/fio.h"
#include "tap.h"

static const char output[] =
	"note: both iodepth >= 1 and synchronous I/O engine are selected\n"
	"{\n \"fio version\" : \"fio-3.33\",\n \"jobs\" : [ {\n"
	"  \"jobname\" : \"seqread\", \"read\" : { \"io_bytes\" : 268435456,"
	"  \"bw\" : 524288, \"iops\" : 4096.5, \"clat_ns\" : { \"percentile\" :"
	"  { \"50.000000\" : 1000, \"99.000000\" : 250880 } } },"
	"  \"usr_cpu\" : 1.5, \"sys_cpu\" : 22.25, \"majf\" : 3, \"minf\" : 41 } ] }\n";

int main(void)
{
	char dir[] = "/tmp/rafleet-fio-XXXXXX", path[300];
	struct fio_result r;

	memset(&r, 0, sizeof(r));
	is_i64(fio_parse_json(output, &r), 0, "fio's JSON, after a note line, parses");
	ok(r.ok, "  and is marked ok");
	ok(r.read_bw_kib == 524288 && r.read_iops == 4096.5, "  read bw and iops");
	ok(r.clat_p99_ns == 250880, "  clat p99");
	ok(r.usr_cpu == 1.5 && r.sys_cpu == 22.25, "  usr and sys cpu");
	ok(r.majf == 3 && r.minf == 41 && r.read_bytes == 268435456, "  faults and bytes");
	is_i64(fio_parse_json("no json here", &r), -EBADMSG, "text without JSON is refused");
	is_i64(fio_parse_json("{\"jobs\": []}", &r), -EBADMSG, "no jobs is refused");
	is_i64(fio_parse_json("{\"jobs\": [ {\"write\": {}} ]}", &r), -EBADMSG, "no read side is refused");
	is_i64(fio_parse_json("{\"jobs\": [", &r), -EBADMSG, "truncated JSON is refused");
	is_i64(fio_parse_json(NULL, &r), -EBADMSG, "NULL is refused");

	if (!ok(mkdtemp(dir) != NULL, "temp dir"))
		return tap_done();
	fakefs_put(dir, "off.fio", "[global]\nfadvise_hint=0\n[j]\nrw=read\n");
	fakefs_put(dir, "random.fio", "[j]\n  fadvise_hint = random\n");
	fakefs_put(dir, "unset.fio", "[j]\nrw=randread\n; fadvise_hint=0 in a comment\n");
	snprintf(path, sizeof(path), "%s/off.fio", dir);
	is_i64(fio_job_fadvise_hint(path), 0, "fadvise_hint=0 is read");
	snprintf(path, sizeof(path), "%s/random.fio", dir);
	is_i64(fio_job_fadvise_hint(path), 2, "fadvise_hint=random is 'another value'");
	snprintf(path, sizeof(path), "%s/unset.fio", dir);
	is_i64(fio_job_fadvise_hint(path), -1, "no fadvise_hint (a comment does not count): fio's default");
	setenv("RAFLEET_FIO_DIR", dir, 1);
	is_i64(fio_job_path("off.fio", path, sizeof(path)), 0, "a job is found in RAFLEET_FIO_DIR");
	is_i64(fio_job_path("missing.fio", path, sizeof(path)), -ENOENT, "a missing job is -ENOENT");
	fakefs_rm_tree(dir);
	return tap_done();
}
