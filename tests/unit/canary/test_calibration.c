// SPDX-License-Identifier: GPL-2.0
/* calibration: delta from an A/A interval, the store's round trip and refusals. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canary/calibration.h"
#include "fakefs.h"
#include "tap.h"

int main(void)
{
	char root[] = "/tmp/rafleet-cal-XXXXXX", state[PATH_MAX], why[PATH_MAX + 128];
	struct hl_estimate hl = { .ci_valid = true, .lo = log(0.98), .hi = log(1.041) };
	struct calibration c = { 0 }, back;
	struct calibration_entry e = { .scenario = "seq-read", .delta = 0.045,
				       .estimate = 0.01, .lo = -0.02, .hi = 0.041, .pairs = 12 };

	ok(fabs(calibration_delta(&hl, 0.03) - 0.045) < 1e-12,
	   "A/A [-2 %%, +4.1 %%]: delta 4.5 %% (%g)", calibration_delta(&hl, 0.03));
	hl.lo = log(0.99);
	hl.hi = log(1.01);
	ok(fabs(calibration_delta(&hl, 0.03) - 0.03) < 1e-12, "a quiet machine gets the floor");
	hl.hi = log(1.05);
	ok(fabs(calibration_delta(&hl, 0.03) - 0.05) < 1e-12, "exactly 5 %% stays 5 %%");
	hl.ci_valid = false;
	ok(fabs(calibration_delta(&hl, 0.03) - 0.03) < 1e-12, "no interval: the floor");

	if (!mkdtemp(root))
		return 1;
	snprintf(state, sizeof(state), "%s/var/lib/rafleet", root);
	setenv("RAFLEET_ROOT", root, 1);
	unsetenv("RAFLEET_STATE_DIR");
	fakefs_put(root, "etc/machine-id", "5afe1ee7c0ffee0000000000000000a1\n");
	is_i64(calibration_load(&back, why, sizeof(why)), -ENOENT, "none yet");
	machine_id_get(c.machine_id, sizeof(c.machine_id));
	is_str(c.machine_id, "5afe1ee7c0ffee0000000000000000a1", "the machine id");
	snprintf(c.kernel, sizeof(c.kernel), "7.3.4-1.rafleet.virt");
	c.alpha_look = 0.0025;
	c.floor = 0.03;
	is_i64(calibration_put(&c, &e), 0, "an entry");
	e.delta = 0.06;
	is_i64(calibration_put(&c, &e), 0, "the same workload again");
	is_u64(c.n, 1, "replaces it");
	is_i64(calibration_save(&c), 0, "saved (the state directory is made)");
	is_i64(calibration_load(&back, why, sizeof(why)), 0, "loaded");
	ok(back.n == 1 && fabs(calibration_find(&back, "seq-read")->delta - 0.06) < 1e-12 &&
	   calibration_find(&back, "seq-read")->pairs == 12, "the entry round-trips");
	ok(calibration_find(&back, "exec-cold") == NULL, "an unknown workload has none");
	fakefs_put(root, "etc/machine-id", "00000000000000000000000000000001\n");
	is_i64(calibration_load(&back, why, sizeof(why)), -EXDEV, "another machine's calibration is not used");
	fakefs_put(root, "etc/machine-id", "5afe1ee7c0ffee0000000000000000a1\n");
	fakefs_put(state, "calibration.json", "{\"schema\": \"rafleet-calibration/1\"");
	is_i64(calibration_load(&back, why, sizeof(why)), -EBADMSG, "a truncated file is refused");
	ok(strstr(why, "/calibration.json is not JSON; run 'rafleet calibrate' again") != NULL,
	   "  the reason names the file, for the caller to print: '%s'", why);
	fakefs_put(state, "calibration.json",
		   "{\"schema\":\"rafleet-calibration/1\",\"machine_id\":\"5afe1ee7c0ffee0000000000000000a1\","
		   "\"alpha_look\":0.0025,\"floor\":0.03,\"deltas\":[{\"scenario\":\"x\",\"delta\":-1,"
		   "\"estimate\":0,\"lo\":0,\"hi\":0,\"pairs\":12}]}");
	is_i64(calibration_load(&back, why, sizeof(why)), -EBADMSG, "a negative delta is refused");
	fakefs_put(state, "calibration.json", "{\"schema\":\"rafleet-bench/1\"}");
	is_i64(calibration_load(&back, why, sizeof(why)), -EBADMSG, "another schema is refused");
	ok(strstr(why, "/calibration.json is not a rafleet-calibration/1 file; run 'rafleet calibrate' again") != NULL,
	   "  the reason names the file and the schema: '%s'", why);
	fakefs_rm_tree(root);
	return tap_done();
}
