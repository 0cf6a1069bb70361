/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The canary: a paired A/B of one feature inside one boot.  Arm A runs
 * the workloads with the feature off, arm B with it on (or, for an A/A
 * trial, both with the setting it has), in ABBA blocks: A B B A gives
 * the pairs (A, B) and (B, A) of one block, so that a drift in time
 * cancels within it.  Every run is cold (measure_run()), a pair's two runs
 * use the same seed, and one unmeasured run of each workload goes first.
 * Each arm of a pair is the least wall time of a few cold runs, the two
 * arms alternating inside the pair too (A B A B A B).
 * At each look the sequential rule (canary/seqrule.h) judges the wall time
 * of each workload; a REGRESS must be corroborated before it may act.
 * The spread of an arm's runs (ln of its slowest over its fastest) is
 * kept too: a feature whose runs spread more is flagged as erratic.
 */
#ifndef RAFLEET_CANARY_H
#define RAFLEET_CANARY_H

#include <stdbool.h>
#include <stdint.h>

#include "host/feature.h"
#include "bench/measure.h"
#include "bench/scenario.h"
#include "canary/seqrule.h"

#define CANARY_MAX_WORKLOADS 4
#define CANARY_DELTA_FLOOR 0.03
/* a wrong verdict, each way, over every run of a feature on a kernel */
#define CANARY_DEFAULT_ALPHA 0.01

/* What each pair measures, per workload: costs, higher is worse. */
enum canary_metric {
	CM_WALL,		/* wall time of the workload: judged */
	CM_MAJFLT,		/* major faults */
	CM_BLOCK_READS,		/* read requests completed by the device */
	CM_DEVICE_BYTES,	/* bytes read from the device (same bytes
				 * requested in both arms: same seed) */
	CM_FOLIOS,		/* folios added to the page cache */
	CM_SPREAD,		/* ln(slowest / fastest run) of the arm; its
				 * series is the difference on - off */
	CM_NR,
};

struct canary_metric_info {
	const char *name;
	const char *what;
	bool judged;		/* tested by the rule; else corroborates */
};

extern const struct canary_metric_info canary_metrics[CM_NR];

/* The workloads that exercise @f, by its seed post (NULL-terminated). */
const char *const *canary_default_workloads(const struct feature *f);

struct canary_opts {
	const struct feature *feature;
	const struct scenario *workload[CANARY_MAX_WORKLOADS];
	int nr_workloads;
	const char *path[CANARY_MAX_WORKLOADS];	/* each workload's file */
	double delta[CANARY_MAX_WORKLOADS];	/* allowed loss of its wall time */
	struct seqrule_plan plan;		/* seqrule_plan() done */
	bool aa;				/* A/A: both arms the same */
	unsigned int runs;			/* cold runs per arm and pair */
	uint64_t seed;
	unsigned int ring_pages;
	bool quiet;				/* no progress on stderr */
};

struct canary_series {
	bool available;
	char reason[REASON_LEN];	/* why not, when !available */
	double off[SIGNRANK_MAX_N], on[SIGNRANK_MAX_N];
	double d[SIGNRANK_MAX_N];	/* ln(on / off); counts: +1 each */
	struct metric_verdict v;	/* at the last look */
};

struct canary_look {
	unsigned int pairs;
	enum verdict verdict;
};

struct canary_result {
	int arm[2];			/* sysctl value in arm A and arm B */
	int was;			/* the value before; put back after */
	unsigned int pairs;
	enum verdict verdict;
	struct canary_series s[CANARY_MAX_WORKLOADS][CM_NR];
	struct canary_look looks[SIGNRANK_MAX_N];
	unsigned int nr_looks;
	bool corroborated;
	char corroboration[256];	/* what agreed, or why nothing did */
	bool erratic;			/* a workload's runs spread more with B */
	char erratic_why[160];
	char error[256];		/* when canary_run() fails */
};

/*
 * Run the canary.  The feature's value is put back afterwards (and on
 * SIGINT/SIGTERM).  0, or -errno with r->error saying what failed.
 */
int canary_run(const struct canary_opts *o, struct canary_result *r);

/* One arm of a pair, per workload: its fastest run and the spread. */
struct canary_arm {
	struct run_result best;		/* the run with the least wall time */
	uint64_t slowest_ns;		/* the most wall time of its runs */
	unsigned int runs;
};

/* Fold one pair's runs into the series of workload @w (exposed for tests). */
void canary_add_pair(struct canary_result *r, int w, unsigned int pair,
		     const struct canary_arm *off, const struct canary_arm *on);

/* Judge after @n pairs: every series, the verdict, corroboration. */
void canary_judge(const struct canary_opts *o, struct canary_result *r,
		  unsigned int n);

#endif
