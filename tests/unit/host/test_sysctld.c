// SPDX-License-Identifier: GPL-2.0
/*
 * sysctld: the value systemd-sysctl writes at boot, from sysctl.d files in
 * a fake root: which file wins (by name, whatever the directory; /etc over
 * /usr/lib for the same name; /dev/null masks; /etc/sysctl.conf last), and
 * how a line reads (dots or slashes, "-", comments, blanks, globs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakefs.h"
#include "host/sysctld.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-sysctld-XXXXXX";

static void put(const char *rel, const char *content)
{
	if (fakefs_put(root, rel, content))
		diag("cannot write %s/%s", root, rel);
}

static void link_to(const char *rel, const char *target)
{
	if (fakefs_symlink(root, rel, target))
		diag("cannot link %s/%s -> %s", root, rel, target);
}

/* Empty the fake root for the next case. */
static void reset(void)
{
	char dir[sizeof(root) + 8];

	fakefs_rm_tree(root);
	fakefs_mkdir_p(root);
	snprintf(dir, sizeof(dir), "%s/etc", root);
	fakefs_mkdir_p(dir);
}

static const char *value(const struct sysctld *s, const char *name)
{
	const struct sysctld_setting *e = sysctld_boot_value(s, name);

	return e ? e->value : "kernel default";
}

static const char *from(const struct sysctld *s, const char *name)
{
	const struct sysctld_setting *e = sysctld_boot_value(s, name);

	return e ? e->file : "kernel default";
}

/* The files read, space-separated. */
static const char *paths(const struct sysctld *s)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->nr_files && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "",
			      s->files[i].path);
	return buf;
}

static bool warned(const struct warnings *w, const char *what)
{
	for (size_t i = 0; i < w->nr; i++)
		if (strstr(w->msg[i], what))
			return true;
	return false;
}

static void load(struct sysctld *s, struct warnings *w)
{
	memset(w, 0, sizeof(*w));
	is_i64(sysctld_load(s, root, w), 0, "  sysctld_load() returns 0");
}

static void done(struct sysctld *s, struct warnings *w)
{
	sysctld_free(s);
	warn_free(w);
}

static void test_normalize(void)
{
	char k[64];

	strcpy(k, "vm.readahead_x");
	is_str(sysctld_normalize(k), "vm/readahead_x", "dots become slashes");
	strcpy(k, "vm/readahead_x");
	is_str(sysctld_normalize(k), "vm/readahead_x", "slashes stay");
	strcpy(k, "net.ipv4.conf.enp3s0/200.forwarding");
	is_str(sysctld_normalize(k), "net/ipv4/conf/enp3s0.200/forwarding",
	       "first separator a dot: dots and slashes swap");
	strcpy(k, "net/ipv4/conf/enp3s0.200/forwarding");
	is_str(sysctld_normalize(k), "net/ipv4/conf/enp3s0.200/forwarding",
	       "first separator a slash: a dot inside a name stays");
	strcpy(k, "/vm//readahead_x/");
	is_str(sysctld_normalize(k), "vm/readahead_x",
	       "no leading, doubled or trailing slash");
}

static void test_nothing(void)
{
	struct sysctld s;
	struct warnings w;

	reset();
	load(&s, &w);
	is_u64(s.nr_files, 0, "an empty root: no files");
	is_str(value(&s, "vm.readahead_a"), "kernel default", "  and the kernel default");
	is_u64(w.nr, 0, "  and no warning");
	done(&s, &w);
}

static void test_same_name(void)
{
	struct sysctld s;
	struct warnings w;

	reset();
	put("usr/lib/sysctl.d/50-rafleet.conf", "vm.readahead_a = 1\nvm.readahead_b = 1\n");
	put("etc/sysctl.d/50-rafleet.conf", "vm.readahead_a = 0\n");
	put("usr/local/lib/sysctl.d/60-x.conf", "vm.readahead_c = 1\n");
	put("run/sysctl.d/60-x.conf", "vm.readahead_c = 0\n");
	put("usr/lib/sysctl.d/60-x.conf", "vm.readahead_d = 1\n");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "0", "/etc/sysctl.d/50-rafleet.conf replaces /usr/lib's");
	is_str(from(&s, "vm.readahead_a"), "/etc/sysctl.d/50-rafleet.conf", "  and is named as the source");
	is_str(value(&s, "vm.readahead_b"), "kernel default",
	       "  a key only the hidden /usr/lib file sets is not set at all");
	is_str(value(&s, "vm.readahead_c"), "0", "/run hides /usr/local/lib for the same name");
	is_str(value(&s, "vm.readahead_d"), "kernel default", "  and /usr/lib too");
	is_u64(s.nr_files, 2, "two names, two files read");
	done(&s, &w);
}

static void test_mask(void)
{
	struct sysctld s;
	struct warnings w;

	reset();
	put("usr/lib/sysctl.d/60-vendor.conf", "vm.readahead_a = 1\n");
	link_to("etc/sysctl.d/60-vendor.conf", "/dev/null");
	put("usr/lib/sysctl.d/61-vendor.conf", "vm.readahead_b = 1\n");
	put("etc/sysctl.d/61-vendor.conf", "");
	put("usr/lib/sysctl.d/62-vendor.conf", "vm.readahead_c = 1\n");
	link_to("etc/sysctl.d/62-vendor.conf", "/nonexistent.conf");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "kernel default",
	       "a symlink to /dev/null in /etc masks the /usr/lib file");
	ok(s.nr_files >= 1 && s.files[0].masked &&
	   !strcmp(s.files[0].path, "/etc/sysctl.d/60-vendor.conf"),
	   "  and is listed as masked: %s", s.nr_files ? s.files[0].path : "(none)");
	is_str(value(&s, "vm.readahead_b"), "kernel default", "an empty file in /etc hides it too");
	is_str(value(&s, "vm.readahead_c"), "kernel default",
	       "a dangling symlink in /etc takes the name as well");
	ok(warned(&w, "/etc/sysctl.d/62-vendor.conf"), "  and is a warning");
	done(&s, &w);
}

static void test_order(void)
{
	struct sysctld s;
	struct warnings w;

	reset();
	put("etc/sysctl.d/10-early.conf", "vm.readahead_a = 0\n");
	put("usr/lib/sysctl.d/90-late.conf", "vm.readahead_a = 1\nvm.readahead_b = 1\n");
	put("run/sysctl.d/50-mid.conf", "vm.readahead_b = 0\nvm.readahead_c = 0\n");
	put("usr/lib/sysctl.d/99-zz.conf", "vm.readahead_c = 1\n");
	put("etc/sysctl.conf", "vm.readahead_c = 0\n");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "1",
	       "/usr/lib/sysctl.d/90-late.conf beats /etc/sysctl.d/10-early.conf: by name, not directory");
	is_str(from(&s, "vm.readahead_a"), "/usr/lib/sysctl.d/90-late.conf", "  named as the source");
	is_str(value(&s, "vm.readahead_b"), "1", "90-late.conf beats /run's 50-mid.conf");
	is_str(value(&s, "vm.readahead_c"), "0", "/etc/sysctl.conf is read last of all, after 99-zz.conf");
	is_str(from(&s, "vm.readahead_c"), "/etc/sysctl.conf", "  named as the source");
	is_str(paths(&s), "/etc/sysctl.d/10-early.conf /run/sysctl.d/50-mid.conf "
	       "/usr/lib/sysctl.d/90-late.conf /usr/lib/sysctl.d/99-zz.conf /etc/sysctl.conf",
	       "the files in the order they are read");
	done(&s, &w);

	/* Debian's link to sysctl.conf is read in its place, and again at the end. */
	reset();
	put("etc/sysctl.conf", "vm.readahead_a = 1\n");
	link_to("etc/sysctl.d/99-sysctl.conf", "../sysctl.conf");
	put("usr/lib/sysctl.d/50-x.conf", "vm.readahead_a = 0\n");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "1", "99-sysctl.conf -> ../sysctl.conf is followed");
	is_str(paths(&s), "/usr/lib/sysctl.d/50-x.conf /etc/sysctl.d/99-sysctl.conf /etc/sysctl.conf",
	       "  50-x.conf, 99-sysctl.conf and sysctl.conf are read");
	done(&s, &w);

	/* an absolute link is looked up in the root, never on the host */
	reset();
	put("srv/rafleet.conf", "vm.readahead_a = 1\n");
	link_to("etc/sysctl.d/90-rafleet.conf", "/srv/rafleet.conf");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "1", "a symlink to /srv/rafleet.conf reads ROOT/srv/rafleet.conf");
	done(&s, &w);
}

static void test_lines(void)
{
	struct sysctld s;
	struct warnings w;
	const struct sysctld_setting *e;

	reset();
	put("etc/sysctl.d/50-lines.conf",
	    "# vm.readahead_a = 1\n"
	    "; vm.readahead_a = 1\n"
	    "   # vm.readahead_a = 1\n"
	    "\n"
	    "vm/readahead_b = 1\n"
	    "  vm.readahead_c=1\n"
	    "vm.readahead_d\t =\t 0  \n"
	    "-vm.readahead_e = 1\n"
	    "vm.readahead_f = 1\n"
	    "vm.readahead_f = 0\n"
	    "this line has no equals sign\n"
	    "vm.readahead_g = 1\n");
	put("etc/sysctl.d/60-dots.conf", "vm.readahead_b = 0\n");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "kernel default", "# and ; comments, indented too, set nothing");
	is_str(value(&s, "vm.readahead_b"), "0",
	       "vm/readahead_b and vm.readahead_b are one key: the later file wins");
	is_str(value(&s, "vm/readahead_c"), "1", "a slashed name finds a dotted key; no blanks around =");
	is_str(value(&s, "vm.readahead_d"), "0", "tabs and spaces around = and after the value");
	e = sysctld_boot_value(&s, "vm.readahead_e");
	ok(e && !strcmp(e->value, "1") && e->ignore_failure && !strcmp(e->written, "vm.readahead_e"),
	   "-vm.readahead_e = 1: set to 1, failure ignored, '-' stripped (%s)",
	   e ? e->written : "not set");
	is_str(value(&s, "vm.readahead_f"), "0", "two lines in one file: the last wins");
	e = sysctld_boot_value(&s, "vm.readahead_f");
	is_u64(e ? e->line : 0, 10, "  and its line number is 10");
	ok(warned(&w, "/etc/sysctl.d/50-lines.conf:11: not an assignment"),
	   "a line without = is a warning with file and line");
	is_str(value(&s, "vm.readahead_g"), "1", "  and the lines after it still count");
	done(&s, &w);
}

static void test_globs(void)
{
	struct sysctld s;
	struct warnings w;
	const struct sysctld_setting *e;

	reset();
	put("etc/sysctl.d/05-explicit.conf", "vm.readahead_a = 1\n");
	put("etc/sysctl.d/10-glob.conf", "vm.readahead_* = 0\n-vm.readahead_b\n");
	put("etc/sysctl.d/20-glob.conf", "vm.readahead_c* = 1\n");
	put("etc/sysctl.d/30-undo.conf", "vm.readahead_d = 1\n");
	put("etc/sysctl.d/40-undo.conf", "-vm.readahead_d\n");
	load(&s, &w);
	is_str(value(&s, "vm.readahead_a"), "1", "an explicit key beats a glob read after it");
	is_str(value(&s, "vm.readahead_b"), "kernel default", "-vm.readahead_b keeps the glob away");
	is_str(value(&s, "vm.readahead_c"), "1", "two globs: the one written last wins");
	e = sysctld_boot_value(&s, "vm.readahead_x");
	ok(e && !strcmp(e->value, "0") && !strcmp(e->written, "vm.readahead_*"),
	   "vm.readahead_x is set by the glob, which is named (%s)", e ? e->written : "not set");
	is_str(value(&s, "vm.page-cluster"), "kernel default", "the glob does not reach other names");
	is_str(value(&s, "vm.readahead_d"), "kernel default",
	       "-vm.readahead_d after vm.readahead_d = 1 unsets it");
	done(&s, &w);
}

int main(void)
{
	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();
	test_normalize();
	test_nothing();
	test_same_name();
	test_mask();
	test_order();
	test_lines();
	test_globs();
	fakefs_rm_tree(root);
	return tap_done();
}
