// SPDX-License-Identifier: GPL-2.0
#include "host/kexec.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fileio.h"
#include "lib/rootdir.h"
#include "lib/runcmd.h"

#define KEXEC_TIMEOUT_S 120

static bool fake_root(void)
{
	return strcmp(rootdir_get(), "/") != 0;
}

/* The program for @env, or -EPERM under a fake root without one. */
int host_program(enum env_var env, const char *def, const char **prog, char *why, size_t len)
{
	static char found[2][PATH_MAX];
	const char *p = env_get(env);
	char *buf = found[env == ENV_KEXEC];

	if (p) {
		*prog = p;
		return 0;
	}
	if (fake_root()) {
		snprintf(why, len, "RAFLEET_ROOT is %s but %s is not set: not running the real %s",
			 rootdir_get(), env_name(env), def);
		return -EPERM;
	}
	/* by absolute path, the system's own: never through PATH */
	if (runcmd_find(def, buf, PATH_MAX)) {
		snprintf(why, len, "no %s in /usr/sbin, /usr/bin, /sbin or /bin", def);
		return -ENOENT;
	}
	*prog = buf;
	return 0;
}

static int run(char *const argv[], char *why, size_t len)
{
	char res[64];
	int rc = run_command(argv, -1, KEXEC_TIMEOUT_S);

	if (!rc)
		return 0;
	snprintf(why, len, "%s %s: %s", argv[0], argv[1],
		 run_command_result(rc, res, sizeof(res)));
	return -EIO;
}

bool kexec_locked_down(void)
{
	char path[PATH_MAX], buf[128];
	const char *sel, *end;

	/* none read: no lockdown LSM, or securityfs not mounted */
	if (host_path("/sys/kernel/security/lockdown", path, sizeof(path)) ||
	    read_small_file(path, buf, sizeof(buf)))
		return false;
	/* "none [integrity] confidentiality": the bracketed one is in force */
	sel = strchr(buf, '[');
	end = sel ? strchr(sel, ']') : NULL;
	return sel && end && !(end - sel - 1 == 4 && !strncmp(sel + 1, "none", 4));
}

int kexec_load(const char *image, const char *initrd, const char *cmdline,
	       char *why, size_t len)
{
	char img[PATH_MAX], rd[PATH_MAX], initrd_opt[PATH_MAX + 16];
	char *append = NULL;
	const char *prog;
	char *argv[6];
	int n = 0, err;

	err = host_program(ENV_KEXEC, KEXEC_DEFAULT, &prog, why, len);
	if (!err)
		err = root_path(rootdir_get(), image, img, sizeof(img));
	if (!err && initrd && *initrd)
		err = root_path(rootdir_get(), initrd, rd, sizeof(rd));
	if (err)
		return err;
	if (asprintf(&append, "--append=%s", cmdline ? cmdline : "") < 0)
		return -ENOMEM;
	argv[n++] = (char *)prog;
	argv[n++] = kexec_locked_down() ? "-s" : "-l";
	argv[n++] = img;
	if (initrd && *initrd) {
		snprintf(initrd_opt, sizeof(initrd_opt), "--initrd=%s", rd);
		argv[n++] = initrd_opt;
	}
	argv[n++] = append;
	argv[n] = NULL;
	err = run(argv, why, len);
	free(append);
	return err;
}

int kexec_unload(char *why, size_t len)
{
	const char *prog;
	int err = host_program(ENV_KEXEC, KEXEC_DEFAULT, &prog, why, len);
	char *argv[] = { (char *)prog, "-u", NULL };

	return err ? err : run(argv, why, len);
}

static bool systemd_runs(void)
{
	char path[PATH_MAX];
	struct stat st;

	return !root_path(rootdir_get(), "/run/systemd/system", path, sizeof(path)) &&
	       !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* systemctl @verb [@flag @flag]; *@how says which, for messages */
static int systemctl(const char *verb, const char *flag, const char **how, char *why,
		     size_t len)
{
	const char *prog;
	int err = host_program(ENV_SYSTEMCTL, SYSTEMCTL_DEFAULT, &prog, why, len);
	char *argv[] = { (char *)prog, (char *)verb, (char *)flag, (char *)flag, NULL };

	*how = !strcmp(verb, "kexec") ? "systemctl kexec" :
	       flag ? "systemctl reboot --force --force" : "systemctl reboot";
	return err ? err : run(argv, why, len);
}

int kexec_exec(const char **how, char *why, size_t len)
{
	const char *prog;
	int err;

	if (systemd_runs())
		return systemctl("kexec", NULL, how, why, len);
	*how = "kexec -e";
	err = host_program(ENV_KEXEC, KEXEC_DEFAULT, &prog, why, len);
	if (!err) {
		char *argv[] = { (char *)prog, "-e", NULL };

		err = run(argv, why, len);	/* returns only on failure */
	}
	return err;
}

int host_reboot(const char **how, char *why, size_t len)
{
	if (systemd_runs())
		return systemctl("reboot", NULL, how, why, len);
	*how = "reboot(RB_AUTOBOOT)";
	if (fake_root()) {
		snprintf(why, len, "RAFLEET_ROOT is %s: not rebooting this machine",
			 rootdir_get());
		return -EPERM;
	}
	sync();
	reboot(RB_AUTOBOOT);
	snprintf(why, len, "reboot: %s", strerror(errno));
	return -errno;
}

int host_reboot_now(const char **how, char *why, size_t len)
{
	if (systemd_runs())
		return systemctl("reboot", "--force", how, why, len);
	return host_reboot(how, why, len);
}
