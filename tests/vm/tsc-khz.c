// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: this machine's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms.  A TCG guest's TSC is the host's (QEMU
 * reads the host's counter), and the test kernels have no ACPI, so no HPET
 * or PM timer to calibrate theirs against: tests/vm/tcg-clock gives it to
 * them (tsc_early_khz=).
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(void)
{
	struct timespec pause = { 0, 200000000 };
	uint64_t t0 = ns(), c0 = __rdtsc(), t1, c1;

	nanosleep(&pause, NULL);
	c1 = __rdtsc();
	t1 = ns();
	if (t1 <= t0 || c1 <= c0)
		return 1;
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000.0 / (double)(t1 - t0) + 0.5));
	return 0;
}
