/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rafleet decided and did, in the journal as structured entries:
 * MESSAGE, PRIORITY, SYSLOG_IDENTIFIER=rafleet, RAFLEET_ACTION and, when
 * given, RAFLEET_FEATURE, RAFLEET_KERNEL, RAFLEET_REASON, RAFLEET_VERDICT,
 * so that `journalctl RAFLEET_ACTION=feature-off` finds them.  Where there
 * is no journald (no /run/systemd/journal/socket: an initramfs, a
 * container) or it refuses the entry, the entry is one line on stderr.
 */
#ifndef RAFLEET_JOURNAL_H
#define RAFLEET_JOURNAL_H

#include <syslog.h>

/* The optional fields of an entry; NULL ones are left out. */
struct journal_fields {
	const char *feature;	/* "readahead_async_keep_half" */
	const char *kernel;	/* a release */
	const char *reason;	/* why */
	const char *verdict;	/* "pass", "fail", ... */
};

/*
 * Log @fmt (the MESSAGE) at @priority (LOG_INFO, LOG_WARNING...) for
 * @action, with @jf's fields (@jf may be NULL).  $RAFLEET_JOURNAL=stderr
 * skips the journal.  0 if the journal took it, 1 if it went to stderr.
 */
__attribute__((format(printf, 4, 5)))
int journal_log(int priority, const char *action,
		const struct journal_fields *jf, const char *fmt, ...);

#endif
