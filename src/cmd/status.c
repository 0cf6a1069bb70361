// SPDX-License-Identifier: GPL-2.0
/*
 * rafleet status: the host's rafleet state, as a table, JSON or Prometheus
 * metrics.  Reads only, but for the metrics' file when one is named.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lib/options.h"
#include "lib/rootdir.h"
#include "status/status.h"
#include "status/prom.h"
#include "status/report.h"

static const struct options_help status_help = {
	"usage: rafleet status [--json | --prometheus[=FILE.prom]]\n"
	"\n"
	"Report this host's rafleet state, reading only: the running kernel and\n"
	"whether it has the vm.readahead_* sysctls; for each feature its live\n"
	"value and the value systemd-sysctl would set at boot, with the file that\n"
	"sets it; the kernels installed under /usr/lib/modules; the boot loader\n"
	"entries and which one is the default; the rollout state (phase, kernels,\n"
	"an interrupted action and what the next rafleet invocation will do,\n"
	"feature decisions, history); the latest canary report of each feature.\n"
	"\n"
	"options:\n",
	30,
	"\n"
	"RAFLEET_ROOT (default /) is the root the files are read under, and\n"
	"RAFLEET_PROCSYS stands for /proc/sys.\n"
	"\n"
	"exit status: 0 the report was made (with warnings, if any), 1 the root\n"
	"cannot be read or FILE cannot be written, 2 bad arguments.\n"
	"'man rafleet-status'.\n"
};

enum status_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_PROMETHEUS };

struct status_args {
	enum status_format format;
	const char *prom_file;	/* --prometheus=FILE; NULL: stdout */
};

/* --prometheus[=FILE]: the format, and the file if named */
static int prometheus_option(const struct option_spec *o, const char *arg, char *error,
			     size_t len)
{
	struct status_args *a = o->value;

	(void)error;
	(void)len;
	a->format = FORMAT_PROMETHEUS;
	a->prom_file = arg;
	return 0;
}

/* The options into @a: EXIT_OK, EXIT_USAGE (said on stderr); -1: --help (printed). */
static int parse_args(int argc, char **argv, struct status_args *a)
{
	bool json = false, prom;
	const struct option_spec spec[] = {
		OPT_FLAG('j', "json", &json, "JSON (schema " STATUS_SCHEMA ") instead of a table"),
		OPT_CALLBACK(0, "prometheus", a, "FILE",
			     "Prometheus metrics (text format, node_exporter's\n"
			     "textfile collector) instead of a table: to\n"
			     "stdout, or replacing FILE atomically (mode\n"
			     "0644); FILE's name ends in " STATUS_PROM_SUFFIX,
			     prometheus_option, .flags = OPTION_OPTARG),
		OPT_HELP(),
		OPT_END()
	};
	int rc, ind;

	memset(a, 0, sizeof(*a));
	rc = options_run("status", spec, &status_help, argc, argv, false, &ind);
	if (rc != OPTIONS_RUN)
		return rc == EXIT_OK ? -1 : rc;
	prom = a->format == FORMAT_PROMETHEUS;
	if (ind < argc) {
		fprintf(stderr, "rafleet status: takes no arguments, not '%s'%s\n", argv[ind],
			prom && !a->prom_file ? " (a file for --prometheus is --prometheus=FILE)" : "");
		return EXIT_USAGE;
	}
	if (json && prom) {
		fprintf(stderr, "rafleet status: --json or --prometheus, not both\n");
		return EXIT_USAGE;
	}
	if (a->prom_file && !status_prom_path_ok(a->prom_file)) {
		fprintf(stderr, "rafleet status: --prometheus='%s': the file's name must end in "
			STATUS_PROM_SUFFIX " (the textfile collector reads no other)\n",
			a->prom_file);
		return EXIT_USAGE;
	}
	a->format = prom ? FORMAT_PROMETHEUS : json ? FORMAT_JSON : FORMAT_TABLE;
	return EXIT_OK;
}

int cmd_status(int argc, char **argv)
{
	const char *root = rootdir_get();
	struct status_args a;
	struct status st;
	int err;

	err = parse_args(argc, argv, &a);
	if (err < 0)	/* the help, printed */
		return EXIT_OK;
	if (err)
		return err;

	err = status_collect(&st, root);
	if (err) {
		if (err == -ENOMEM)
			fprintf(stderr, "rafleet status: out of memory\n");
		else
			fprintf(stderr, "rafleet status: cannot read the root %s: %s\n",
				root, strerror(-err));
		status_free(&st);
		return EXIT_FAILED;
	}
	if (a.prom_file) {
		err = status_prometheus_file(a.prom_file, &st);
		status_free(&st);
		if (err) {
			fprintf(stderr, "rafleet status: cannot write %s: %s\n", a.prom_file,
				strerror(-err));
			return EXIT_FAILED;
		}
		return EXIT_OK;
	}
	err = a.format == FORMAT_PROMETHEUS ? status_prometheus(stdout, &st) :
	      a.format == FORMAT_JSON ? status_json(stdout, &st) : status_table(stdout, &st);
	status_free(&st);
	if (err) {
		fprintf(stderr, "rafleet status: cannot write the report\n");
		return EXIT_FAILED;
	}
	return EXIT_OK;
}
