// SPDX-License-Identifier: GPL-2.0
/* rafleet promote: the trial kernel that passed its smoke run becomes the default. */
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "cmd/rollout_common.h"
#include "lib/options.h"

static const struct options_help promote_help = {
	"usage: rafleet promote [--json]\n"
	"\n"
	"On the trial boot, after 'rafleet smoke' passed: make the trial kernel the\n"
	"default boot entry of the boot loader that boots this host (systemd-boot:\n"
	"LoaderEntryDefault if set, else the ESP's loader.conf, and boot counting\n"
	"on an EFI boot; GRUB: grubenv's saved_entry; 'rafleet status' says which).\n"
	"\n"
	"options:\n",
	15,
	"\n"
	"exit status: 0 promoted, 1 refused (not a trial boot, smoke not passed),\n"
	"no boot loader configuration found, failed, or another rafleet holds the\n"
	"lock; 2 bad arguments.  'man rafleet-promote'.\n"
};

int cmd_promote(int argc, char **argv)
{
	bool json = false;
	const struct option_spec spec[] = {
		OPT_FLAG('j', "json", &json, "JSON (schema rafleet-rollout/1) instead of a table"),
		OPT_HELP(),
		OPT_END()
	};
	struct rollout *r;
	int rc, err, ind;

	rc = options_run("promote", spec, &promote_help, argc, argv, true, &ind);
	if (rc != OPTIONS_RUN)
		return rc;
	if (rolloutcmd_open(&r, "promote"))
		return EXIT_FAILED;
	err = rollout_promote(r);
	return rolloutcmd_done(r, "promote", err, json, NULL, NULL);
}
