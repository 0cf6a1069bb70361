/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file a workload reads: PATH for data, PATH.exec for the seed 004
 * workloads, made with the fixed-seed pattern (or checked) when a size is
 * known, as `rafleet bench` does for every command that runs workloads.
 */
#ifndef RAFLEET_BENCHFILE_H
#define RAFLEET_BENCHFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "bench/scenario.h"

/*
 * Put the path of @kind's file for @base (NULL: the default file) in
 * @path, making or checking it when @size (0: none given) says so.
 * Messages start with "rafleet @who: ".  0 or -errno (-EEXIST: a file that
 * is not ours is in the way).
 */
int benchfile_prepare(const char *who, const char *base, off_t size,
		      enum scenario_file kind, char *path, size_t len);

#endif
