/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAFLEET_VERSION_H
#define RAFLEET_VERSION_H

/* The Makefile passes VERSION; a build without it says so. */
#ifndef RAFLEET_VERSION
#define RAFLEET_VERSION "unknown"
#endif

#endif
