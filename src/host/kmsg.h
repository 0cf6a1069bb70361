/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Did the kernel complain since boot?  The kernel log (/dev/kmsg, every
 * record since boot) searched for WARNING:, BUG:, Oops and panics, and
 * the taint flags (/proc/sys/kernel/tainted) for W (a warning), D (an
 * oops), L (a soft lockup) and M (a machine check).
 * $RAFLEET_KMSG stands for /dev/kmsg (a file of kmsg records) in tests;
 * the taint is read under $RAFLEET_PROCSYS.
 */
#ifndef RAFLEET_KMSG_H
#define RAFLEET_KMSG_H

#include <stdbool.h>

struct kernel_health {
	unsigned int warnings;	/* "WARNING:" records */
	unsigned int oopses;	/* "BUG:", "Oops", "kernel BUG at", panics */
	char first[256];	/* the first of them */
	long taint;		/* -1: unknown */
	bool log_read;		/* the log could be read */
	char log_error[128];	/* why not */
};

/* Read the log and the taint into @h.  Never fails: @h says what is known. */
void kernel_health_read(struct kernel_health *h);

/* Anything that fails a smoke run: a warning, an oops, a bad taint. */
bool kernel_health_bad(const struct kernel_health *h);

#endif
