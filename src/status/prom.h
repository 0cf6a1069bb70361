/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `rafleet status --prometheus`: the status as metrics in the Prometheus
 * text exposition format (0.0.4), for node_exporter's textfile collector.
 * Every family has its # HELP and # TYPE lines (all gauges) and only
 * families with samples are written; label values are escaped (\\, \",
 * \n) and made valid UTF-8.  The metrics are listed in rafleet-status(1).
 */
#ifndef RAFLEET_STATUS_PROM_H
#define RAFLEET_STATUS_PROM_H

#include <stdbool.h>
#include <stdio.h>

#include "status/status.h"

#define STATUS_PROM_SUFFIX ".prom"	/* the collector reads *.prom only */

/* The metrics of @st to @f.  0, or -EIO if they could not be written. */
int status_prometheus(FILE *f, const struct status *st);

/*
 * Whether @path names a file the collector reads: a name of its own
 * ending in .prom ("x.prom", "/dir/x.prom"; not ".prom" nor "dir/").
 */
bool status_prom_path_ok(const char *path);

/* Replace @path (mode 0644) with the metrics, atomically.  0 or -errno. */
int status_prometheus_file(const char *path, const struct status *st);

#endif
