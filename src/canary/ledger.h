/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The alpha ledger: how many canaries of each feature have run on each
 * kernel release, so that a rerun (after UNKNOWN, or after a REGRESS that
 * nothing corroborated) does not start with a fresh alpha.  Run k of a
 * feature on a kernel (k = 0 first) has alpha / 2^(k + 1): all of them
 * together never spend more than alpha, each way.  A/A trials measure
 * the machine and decide nothing; they neither read nor charge it.
 *
 * Kept in the state directory as canary-alpha.json (schema
 * rafleet-canary-alpha/1, docs/state-json.md), written atomically.
 */
#ifndef RAFLEET_CANARY_LEDGER_H
#define RAFLEET_CANARY_LEDGER_H

#include <stddef.h>

#define LEDGER_SCHEMA "rafleet-canary-alpha/1"
#define LEDGER_FILE "canary-alpha.json"
#define LEDGER_MAX 64

struct ledger_entry {
	char feature[64];
	char kernel[80];
	unsigned int runs;
};

struct ledger {
	struct ledger_entry e[LEDGER_MAX];
	int n;
};

/*
 * Load it; a missing file is an empty ledger.  0, or -EBADMSG with @why
 * saying which file is not a ledger.
 */
int ledger_load(struct ledger *l, char *why, size_t len);

/* Runs of @feature on @kernel so far. */
unsigned int ledger_runs(const struct ledger *l, const char *feature, const char *kernel);

/* The alpha of the next run: @total / 2^(runs + 1). */
double ledger_alpha(double total, unsigned int runs);

/*
 * Count one more run of @feature on @kernel and store the ledger.  Only
 * the entries of @kernel are kept when it is full (older kernels' go
 * first).  0 or -errno.
 */
int ledger_charge(struct ledger *l, const char *feature, const char *kernel);

#endif
