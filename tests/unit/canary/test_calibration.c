// SPDX-License-Identifier: GPL-2.0
/*
 * calibration: the noise of A/A pairs, the cap chosen from it by the
 * rule's simulated power, one interfered pair moving the cap a little
 * and delta not at all, the store's round trip and refusals.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canary/calibration.h"
#include "fakefs.h"
#include "sim.h"
#include "tap.h"

static struct seqrule_plan base(void)
{
	return (struct seqrule_plan){ .pairs_min = SEQRULE_DEFAULT_FIRST,
				      .pairs_step = SEQRULE_DEFAULT_STEP,
				      .pairs_max = SEQRULE_DEFAULT_CAP, .metrics = 2,
				      .alpha = 0.005 };
}

static void test_cap(void)
{
	struct seqrule_plan b = base();
	unsigned int cap1, cap2, cap4, cap_clean, cap_bad, worst = 0;
	double pow1, pow2, pow4, p, d[20], sig_clean, sig_bad, ratio_max = 0;
	struct sim_rng rng;

	calibration_choose_cap(&b, 0.01, 0.03, &cap1, &pow1);
	calibration_choose_cap(&b, 0.02, 0.03, &cap2, &pow2);
	calibration_choose_cap(&b, 0.04, 0.03, &cap4, &pow4);
	diag("noise 1 %%: cap %u (power %.1f %%); 2 %%: cap %u (%.1f %%); 4 %%: cap %u (%.1f %%)",
	     cap1, pow1 * 100, cap2, pow2 * 100, cap4, pow4 * 100);
	ok(cap1 == CALIBRATION_CAP_MIN && pow1 >= CALIBRATION_POWER,
	   "a quiet machine (1 %%) gets the smallest cap, %u", cap1);
	ok(cap2 > cap1 && cap2 <= SEQRULE_DEFAULT_CAP && pow2 >= CALIBRATION_POWER,
	   "2 %% noise: a cap of %u, no more than the default", cap2);
	ok(cap4 == SIGNRANK_MAX_N && pow4 < CALIBRATION_POWER,
	   "4 %% noise: 60 pairs, and its power (%.0f %%) short of 90 %% says so", pow4 * 100);
	is_i64(calibration_choose_cap(&b, NAN, 0.03, &cap1, &p), -EINVAL, "a NaN noise is refused");

	/*
	 * 200 calibrations of 20 A/A pairs at 2 % noise, each also with one
	 * pair made 50 % slower in one arm: the noise moves by little, the
	 * cap by at most a step, and delta is no output of either.
	 */
	sim_seed(&rng, 3);
	for (int t = 0; t < 200; t++) {
		for (int i = 0; i < 20; i++)
			d[i] = 0.02 * sim_normal(&rng);
		sig_clean = calibration_noise(d, 20);
		d[7] += log(1.5);
		sig_bad = calibration_noise(d, 20);
		if (sig_bad / sig_clean > ratio_max)
			ratio_max = sig_bad / sig_clean;
		if (t < 20) {	/* the caps of the first 20: a simulation each */
			calibration_choose_cap(&b, sig_clean, 0.03, &cap_clean, &p);
			calibration_choose_cap(&b, sig_bad, 0.03, &cap_bad, &p);
			if (cap_bad - cap_clean > worst)
				worst = cap_bad - cap_clean;
		}
	}
	diag("one pair +50 %% among 20: the noise estimate grows by at most x%.2f; the cap by at most %u pairs",
	     ratio_max, worst);
	ok(ratio_max < 1.5, "one interfered pair moves the robust noise by less than half (x%.2f)",
	   ratio_max);
	ok(worst <= 12, "and the cap by at most three steps (%u pairs); delta is the policy's",
	   worst);
	for (int i = 0; i < 5; i++)
		d[i] = i;
	ok(fabs(calibration_noise(d, 5) - 1.4826) < 1e-12, "0..4: 1.4826 x MAD 1");
}

int main(void)
{
	char root[] = "/tmp/rafleet-cal-XXXXXX", state[PATH_MAX], why[PATH_MAX + 128];
	struct calibration c = { 0 }, back;
	struct calibration_entry e = { .scenario = "seq-read", .sigma = 0.02, .estimate = 0.01,
				       .lo = -0.02, .hi = 0.041, .pairs = 20, .cap = 24,
				       .power = 0.93 };

	test_cap();
	if (!mkdtemp(root))
		return 1;
	snprintf(state, sizeof(state), "%s/var/lib/rafleet", root);
	setenv("RAFLEET_ROOT", root, 1);
	unsetenv("RAFLEET_STATE_DIR");
	fakefs_put(root, "etc/machine-id", "5afe1ee7c0ffee0000000000000000a1\n");
	is_i64(calibration_load(&back, why, sizeof(why)), -ENOENT, "none yet");
	machine_id_get(c.machine_id, sizeof(c.machine_id));
	is_str(c.machine_id, "5afe1ee7c0ffee0000000000000000a1", "the machine id");
	snprintf(c.kernel, sizeof(c.kernel), "7.3.4-1.rafleet+virt");
	c.delta = 0.03;
	c.alpha = 0.005;
	c.metrics = 2;
	is_i64(calibration_put(&c, &e), 0, "an entry");
	e.cap = 28;
	is_i64(calibration_put(&c, &e), 0, "the same workload again");
	is_u64(c.n, 1, "replaces it");
	is_i64(calibration_save(&c), 0, "saved (the state directory is made)");
	is_i64(calibration_load(&back, why, sizeof(why)), 0, "loaded");
	ok(back.n == 1 && calibration_find(&back, "seq-read")->cap == 28 &&
	   fabs(calibration_find(&back, "seq-read")->sigma - 0.02) < 1e-12 &&
	   calibration_find(&back, "seq-read")->pairs == 20, "the entry round-trips");
	ok(fabs(back.delta - 0.03) < 1e-12 && back.metrics == 2, "with the policy it was made for");
	ok(calibration_find(&back, "exec-cold") == NULL, "an unknown workload has none");
	fakefs_put(root, "etc/machine-id", "00000000000000000000000000000001\n");
	is_i64(calibration_load(&back, why, sizeof(why)), -EXDEV, "another machine's calibration is not used");
	fakefs_put(root, "etc/machine-id", "5afe1ee7c0ffee0000000000000000a1\n");
	fakefs_put(state, "calibration.json", "{\"schema\": \"rafleet-calibration/2\"");
	is_i64(calibration_load(&back, why, sizeof(why)), -EBADMSG, "a truncated file is refused");
	ok(strstr(why, "/calibration.json is not JSON; run 'rafleet calibrate' again") != NULL,
	   "  the reason names the file, for the caller to print: '%s'", why);
	fakefs_put(state, "calibration.json",
		   "{\"schema\":\"rafleet-calibration/2\",\"machine_id\":\"5afe1ee7c0ffee0000000000000000a1\","
		   "\"delta\":0.03,\"alpha\":0.005,\"metrics\":2,\"workloads\":[{\"scenario\":\"x\",\"sigma\":-1,"
		   "\"estimate\":0,\"lo\":0,\"hi\":0,\"pairs\":12,\"cap\":12,\"power\":0.9}]}");
	is_i64(calibration_load(&back, why, sizeof(why)), -EBADMSG, "a negative noise is refused");
	fakefs_put(state, "calibration.json",
		   "{\"schema\":\"rafleet-calibration/1\",\"machine_id\":\"5afe1ee7c0ffee0000000000000000a1\","
		   "\"alpha_look\":0.0025,\"floor\":0.03,\"deltas\":[{\"scenario\":\"x\",\"delta\":0.3,"
		   "\"estimate\":0,\"lo\":0,\"hi\":0,\"pairs\":12}]}");
	is_i64(calibration_load(&back, why, sizeof(why)), -ESTALE,
	       "an older rafleet's calibration (a learned delta) is not used");
	ok(strstr(why, "older rafleet") != NULL, "  and says so: '%s'", why);
	fakefs_put(state, "calibration.json", "{\"schema\":\"rafleet-bench/1\"}");
	is_i64(calibration_load(&back, why, sizeof(why)), -EBADMSG, "another schema is refused");
	ok(strstr(why, "/calibration.json is not a rafleet-calibration/2 file; run 'rafleet calibrate' again") != NULL,
	   "  the reason names the file and the schema: '%s'", why);
	fakefs_rm_tree(root);
	return tap_done();
}
