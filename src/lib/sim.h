/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/sim.h - the random numbers of simulations (the unit tests', and
 * the power table `rafleet calibrate` works out): one generator with a
 * fixed seed, so that every count a simulation reports is exact and the
 * same on every machine.
 *
 * xorshift64* (Vigna) for uniforms, Box-Muller for normals, and Student's
 * t with nu degrees of freedom as a normal over the root of a chi-square
 * divided by nu (the chi-square as a sum of nu squared normals).
 */
#ifndef RAFLEET_LIB_SIM_H
#define RAFLEET_LIB_SIM_H

#include <math.h>
#include <stdint.h>

struct sim_rng {
	uint64_t s;
};

static inline void sim_seed(struct sim_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 88172645463325252ull;
}

/* Uniform on [0, 1) with 53 bits. */
static inline double sim_uniform(struct sim_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (double)((r->s * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

/* Standard normal. */
static inline double sim_normal(struct sim_rng *r)
{
	double u = sim_uniform(r), v = sim_uniform(r);

	return sqrt(-2 * log(u > 0 ? u : 0x1.0p-53)) * cos(2 * M_PI * v);
}

/* Student's t with @nu degrees of freedom (heavy tails: nu = 3). */
static inline double sim_student_t(struct sim_rng *r, unsigned int nu)
{
	double chi2 = 0;

	for (unsigned int i = 0; i < nu; i++) {
		double z = sim_normal(r);

		chi2 += z * z;
	}
	return sim_normal(r) / sqrt(chi2 / nu);
}

/* Exponential with mean @mean. */
static inline double sim_exponential(struct sim_rng *r, double mean)
{
	return -mean * log(1 - sim_uniform(r));
}

#endif
