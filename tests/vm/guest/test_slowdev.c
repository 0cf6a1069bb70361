// SPDX-License-Identifier: GPL-2.0
/*
 * In the guest, on a disk with a per-request cost (/mnt/slow: QEMU
 * throttles it to a fixed number of requests a second, whatever their
 * size): the seeds' time claims as ratios of one boot.  Each seed's
 * switch off and on, alternating (off-on, on-off, ...) ROUNDS times, cold
 * cache each run, in the queue setup its seed measured; the medians of
 * the wall time and of the device requests make the "# slowdev" table.
 *
 * Under TCG the emulated disk otherwise costs CPU per byte and nothing per
 * request, so a seed that saves requests or waits cannot show it in time;
 * here it can, but only as a ratio to the other state of the same boot.
 * Per seed:
 *  - the clock-free count its post says moves, where it says (device
 *    requests, or the synchronous read-arounds of seed 001);
 *  - one time check: on may not take longer than off by more than a
 *    margin (below, with why).  How much faster on is gets printed, not
 *    asserted.
 * A first round, not timed, runs both states with every byte read and
 * mapped checked against an O_DIRECT read: measure_run() hashes read()
 * data inside the timed part, which would add the same SHA-256 time to
 * both states and pull every ratio towards 1.
 *
 * usage: test_slowdev DIR ROUNDS   (DIR/file256: 256 MiB of data)
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/measure.h"
#include "lib/fileio.h"
#include "bench/scenario.h"
#include "ra_timing.h"
#include "tap.h"

enum { OFF, ON, NR_STATES };

/* The clock-free claim: on <= off * num / den, of medians. */
struct claim {
	enum { DEVICE_READS, MAJOR_FAULTS } count;
	unsigned num, den;
};

struct seed_case {
	const char *seed, *scenario, *feature;
	uint64_t max_sectors_kb;	/* 0: as the disk came */
	uint64_t read_ahead_kb;
	struct claim claim;
	unsigned time_pct;	/* on may take this many % more than off; 0: no check */
};

/*
 * The time margins.  With alternating runs and medians, what is left is
 * TCG's run-to-run spread, a few per cent when the host is quiet: 10%
 * covers it.  Seeds 001 to 003 claim on is faster (fewer synchronous
 * waits, fewer requests), so a time near off already means the feature
 * stopped working, and 10% more is a regression.  Seed 000's post counts
 * up to 9% more device requests with the switch on (297 against 272 for
 * the 1 MiB preads of a 256 MiB file), and a request has a fixed cost on
 * this disk: 10% for the spread plus 10% for those requests.
 */
static const struct seed_case cases[] = {
	/*
	 * 001: a read-around ahead of the async window no longer turns
	 * every piece into a synchronous read-around.  The seed's 8 MiB
	 * window (read_ahead_kb 8192) fits the 256 MiB file: after the
	 * skipped first eighth, 28 pieces of 8 MiB, each a read-around
	 * with the switch off (test_features counts the same on ext4).
	 */
	{ "001", "pcopy-1t-skip", "readahead_async_two_windows", 0, 8192,
	  { MAJOR_FAULTS, 1, 2 }, 10 },
	/* 002: 3,327 -> 1,029 device requests for 512 MiB, a third */
	{ "002", "read-4k-then-1m", "readahead_async_keep_half", 512, 128,
	  { DEVICE_READS, 1, 2 }, 10 },
	/* 003: 4,097 -> 512 requests per GiB, one per io_pages window */
	{ "003", "populate-read", "readahead_populate_io_pages", 2048, 128,
	  { DEVICE_READS, 1, 4 }, 10 },
	/*
	 * 000: about as many requests either way (272 -> 297 and
	 * 224 -> 209 on 256 MiB): at most a quarter more.  Its time check
	 * is on the 1 MiB preads, the workload its post times (fio
	 * randread with fadvise_hint=random); readahead(2) returns before
	 * its reads complete, so its wall time is only printed.
	 */
	{ "000", "fadv-random-pread-1m", "readahead_unbounded_large_folios", 0, 128,
	  { DEVICE_READS, 5, 4 }, 20 },
	{ "000", "readahead-2m", "readahead_unbounded_large_folios", 0, 128,
	  { DEVICE_READS, 5, 4 }, 0 },
};
#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

/* The timed runs of one state. */
struct series {
	double wall_ms[RA_MAX_ROUNDS], reads[RA_MAX_ROUNDS], majflt[RA_MAX_ROUNDS];
	unsigned n;
};

/* Medians per state, for the checks and the table. */
struct medians {
	bool done;
	double wall_ms[NR_STATES], reads[NR_STATES], majflt[NR_STATES];
};

static const char *state_name(int on)
{
	return on ? "on" : "off";
}

/* One cold run; false (said in "#" lines) unless it ran and was counted. */
static bool run_one(const struct seed_case *c, struct measure_file *mf,
		    const struct scenario *s, const struct ra_switch *sw, int on,
		    bool verify, struct run_result *r)
{
	struct measure_opts o = { .verify = verify, .seed = 1,
					  .ring_bytes = 8UL << 20 };
	int err = ra_switch_set(sw, on);

	if (!err)
		err = measure_run(mf, s, &o, r);
	if (!err)
		err = r->status;
	if (err) {
		diag("slowdev %s %s %s: %s", c->seed, s->name, state_name(on), strerror(-err));
		return false;
	}
	diag("slowdev %s %-20s %-3s%s wall_ms %8.1f reads %5llu MiB %4llu majflt %5llu folios %6llu",
	     c->seed, s->name, state_name(on), verify ? " (verifying)" : "",
	     r->wall_ns / 1e6, (unsigned long long)r->block_reads,
	     (unsigned long long)(r->block_sectors * 512 >> 20),
	     (unsigned long long)r->majflt, (unsigned long long)r->folios_total);
	if (r->resident_after_evict) {
		diag("  %llu pages were still cached after the eviction",
		     (unsigned long long)r->resident_after_evict);
		return false;
	}
	if (!r->block.ok) {
		diag("  device requests not counted: %s", r->block.reason);
		return false;
	}
	return true;
}

/* The untimed round: both states, every byte checked. */
static void verify_round(const struct seed_case *c, struct measure_file *mf,
			 const struct scenario *s, const struct ra_switch *sw)
{
	for (int on = OFF; on <= ON; on++) {
		struct run_result r;
		bool ran = run_one(c, mf, s, sw, on, true, &r);

		ok(ran && r.verify.ok && r.verified,
		   "%s %s %s: read() and mmap() data match O_DIRECT%s%s", c->seed,
		   s->name, state_name(on), ran && !r.verify.ok ? ": " : "",
		   ran && !r.verify.ok ? r.verify.reason : "");
	}
}

static void check_claim(const struct seed_case *c, const struct medians *m)
{
	bool reads = c->claim.count == DEVICE_READS;
	const double *v = reads ? m->reads : m->majflt;

	ok(v[ON] * c->claim.den <= v[OFF] * c->claim.num,
	   "%s %s: %s on %.0f <= %u/%u of off %.0f (medians)", c->seed, c->scenario,
	   reads ? "device requests" : "major faults (synchronous read-arounds)",
	   v[ON], c->claim.num, c->claim.den, v[OFF]);
}

static void check_time(const struct seed_case *c, const struct medians *m)
{
	if (!c->time_pct)
		return;
	ok(m->wall_ms[ON] * 100 <= m->wall_ms[OFF] * (100 + c->time_pct),
	   "%s %s: on takes at most %u%% longer than off (medians %.1f vs %.1f ms)",
	   c->seed, c->scenario, c->time_pct, m->wall_ms[ON], m->wall_ms[OFF]);
}

/* Every run of @c, then its checks; the medians go to @m. */
static void run_case(const struct seed_case *c, struct measure_file *mf,
		     const struct ra_queue *q, unsigned rounds, struct medians *m)
{
	const struct scenario *s = scenario_find(c->scenario);
	struct series ser[NR_STATES] = { 0 };
	struct ra_switch sw;
	bool good = true;

	if (!ok(s, "%s: scenario %s exists", c->seed, c->scenario) ||
	    !ra_switch_open(&sw, c->feature))
		return;
	if (!ra_queue_set(q, c->max_sectors_kb, c->read_ahead_kb))
		goto out;
	verify_round(c, mf, s, &sw);
	for (unsigned i = 0; i < rounds; i++) {
		for (int k = 0; k < NR_STATES; k++) {
			int on = (k == 0) == ra_on_first(i);
			struct series *t = &ser[on];
			struct run_result r;

			if (!run_one(c, mf, s, &sw, on, false, &r)) {
				good = false;
				continue;
			}
			t->wall_ms[t->n] = r.wall_ns / 1e6;
			t->reads[t->n] = r.block_reads;
			t->majflt[t->n] = r.majflt;
			t->n++;
		}
	}
	if (!ok(good, "%s %s: %u timed runs each way ran cold, device requests counted",
		c->seed, c->scenario, rounds))
		goto out;
	for (int on = OFF; on <= ON; on++) {
		m->wall_ms[on] = ra_median(ser[on].wall_ms, ser[on].n);
		m->reads[on] = ra_median(ser[on].reads, ser[on].n);
		m->majflt[on] = ra_median(ser[on].majflt, ser[on].n);
	}
	m->done = true;
	check_claim(c, m);
	check_time(c, m);
out:
	ra_switch_restore(&sw);
}

static void print_table(const struct medians *m, unsigned rounds)
{
	diag("slowdev medians of %u runs each way:", rounds);
	diag("slowdev %-4s %-21s %-33s %9s %9s %6s %7s %7s", "seed", "scenario", "switch",
	     "off_ms", "on_ms", "on/off", "rq_off", "rq_on");
	for (size_t i = 0; i < NR_CASES; i++) {
		if (!m[i].done)
			continue;
		diag("slowdev %-4s %-21s %-33s %9.1f %9.1f %6.2f %7.0f %7.0f", cases[i].seed,
		     cases[i].scenario, cases[i].feature, m[i].wall_ms[OFF], m[i].wall_ms[ON],
		     m[i].wall_ms[OFF] > 0 ? m[i].wall_ms[ON] / m[i].wall_ms[OFF] : 0,
		     m[i].reads[OFF], m[i].reads[ON]);
	}
}

int main(int argc, char **argv)
{
	struct medians m[NR_CASES] = { 0 };
	struct measure_file mf;
	struct ra_queue q;
	char file[PATH_MAX];
	unsigned rounds;

	if (argc < 3 || !ra_parse_rounds(argv[2], &rounds)) {
		fprintf(stderr, "usage: test_slowdev DIR ROUNDS (1..%d)\n", RA_MAX_ROUNDS);
		return 2;
	}
	snprintf(file, sizeof(file), "%s/file256", argv[1]);
	if (!ok(!measure_file_open(&mf, file), "%s can be measured", file) ||
	    !ra_queue_open(&q, &mf))
		return tap_done();
	for (size_t i = 0; i < NR_CASES; i++)
		run_case(&cases[i], &mf, &q, rounds, &m[i]);
	ra_queue_restore(&q);
	print_table(m, rounds);
	return tap_done();
}
