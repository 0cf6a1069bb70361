/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The health checks rafleet ships (rafleet health --check NAME, run from
 * /usr/lib/rafleet/health/required.d):
 *
 *   network  a link that is up, with an address that is not link-local,
 *            and a default route (IPv4 or IPv6) out of such a link
 *   units    each unit of RAFLEET_HEALTH_UNITS (trial.conf) is active
 *
 * Each looks until it holds or @wait_s seconds have passed (a trial's
 * network and sshd may still be coming up when the gate starts), then
 * says what it found in @out, one line.  0 holds, 1 does not, -errno when
 * it could not look.
 */
#ifndef RAFLEET_HEALTHCHECK_H
#define RAFLEET_HEALTHCHECK_H

#include <stddef.h>

int healthcheck_network(unsigned int wait_s, char *out, size_t len);
int healthcheck_units(const char *units, unsigned int wait_s, char *out, size_t len);

#endif
