/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration files of /etc/rafleet that systemd also reads as an
 * EnvironmentFile= (smoke.conf, trial.conf): NAME=value lines, '#'
 * comments and blank lines, no shell syntax.  One reader for all of them,
 * under $RAFLEET_ROOT; its errors name FILE:LINE.
 */
#ifndef RAFLEET_ENVFILE_H
#define RAFLEET_ENVFILE_H

#include <stddef.h>

/*
 * Called for each NAME=value of the file, value without its line end.
 * 0, or -EINVAL with @why saying what is wrong with the value (the reader
 * puts FILE:LINE in front).
 */
/* a configuration file is a few hundred bytes: at most this */
#define ENVFILE_MAX_BYTES (1 << 20)
#define ENVFILE_MAX_TEXT "1 MiB"

typedef int (*envfile_fn)(const char *name, const char *value, void *ctx,
			  char *why, size_t len);

/*
 * Read @path (an absolute path on the host, looked up under the root).
 * 0 also when the file does not exist (*@found false); -EINVAL for a line
 * that is not NAME=value or that @fn refuses, another -errno if it cannot
 * be read; @why says which line and what.
 */
int envfile_read(const char *path, envfile_fn fn, void *ctx, int *found,
		 char *why, size_t len);

#endif
