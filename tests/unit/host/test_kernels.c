// SPDX-License-Identifier: GPL-2.0
/*
 * kernels: the releases installed with a vmlinuz under /usr/lib/modules of
 * a fake root, newest first; /lib as a symlink is not followed out of the
 * root, /lib as a directory of its own is read too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fakefs.h"
#include "host/kernels.h"
#include "tap.h"

static char root[] = "/tmp/rafleet-kernels-XXXXXX";

static void put(const char *rel, const char *content)
{
	if (fakefs_put(root, rel, content))
		diag("cannot write %s/%s", root, rel);
}

static void reset(void)
{
	fakefs_rm_tree(root);
	fakefs_mkdir_p(root);
}

/* "RELEASE PATH" of each kernel, comma-separated. */
static const char *listing(const struct kernels *k)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < k->nr && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s %s", i ? ", " : "",
			      k->k[i].release, k->k[i].path);
	return buf;
}

static void check(const char *want, const char *name)
{
	struct kernels k;
	struct warnings w = { 0 };

	if (is_i64(kernels_load(&k, root, &w), 0, "kernels_load() returns 0"))
		is_str(listing(&k), want, name);
	kernels_free(&k);
	warn_free(&w);
}

/* The image of the newest kernel found. */
static void image_is(const char *want, const char *name)
{
	struct kernels k;
	struct warnings w = { 0 };

	kernels_load(&k, root, &w);
	is_str(k.nr ? k.k[0].image : "", want, name);
	kernels_free(&k);
	warn_free(&w);
}

int main(void)
{
	char lib[sizeof(root) + 8];

	if (!ok(mkdtemp(root) != NULL, "temp dir"))
		return tap_done();

	reset();
	check("", "an empty root: no kernels");

	/* merged /usr, /lib -> usr/lib */
	put("usr/lib/modules/7.3.4-rafleet/vmlinuz", "k");
	put("usr/lib/modules/7.3.4-rafleet/modules.dep", "");
	put("usr/lib/modules/7.10.1-rafleet/vmlinuz", "k");
	put("usr/lib/modules/6.1.0-12-amd64/modules.dep", "");
	put("usr/lib/modules/README", "not a kernel");
	fakefs_symlink(root, "lib", "usr/lib");
	check("7.10.1-rafleet /usr/lib/modules/7.10.1-rafleet, 7.3.4-rafleet /usr/lib/modules/7.3.4-rafleet",
	      "/lib -> usr/lib: each kernel once, newest first; modules without vmlinuz are not a kernel");

	/* an absolute /lib -> /usr/lib must not be followed to the host's */
	snprintf(lib, sizeof(lib), "%s/lib", root);
	unlink(lib);
	fakefs_symlink(root, "lib", "/usr/lib");
	check("7.10.1-rafleet /usr/lib/modules/7.10.1-rafleet, 7.3.4-rafleet /usr/lib/modules/7.3.4-rafleet",
	      "/lib -> /usr/lib (absolute): the root's /usr/lib/modules, not the host's");

	/* split /usr: /lib is a directory of its own */
	reset();
	put("lib/modules/5.10.0-28-amd64/vmlinuz", "k");
	put("usr/lib/modules/5.10.0-28-amd64/vmlinuz", "k");
	put("usr/lib/modules/6.1.0-rafleet/vmlinuz", "k");
	check("6.1.0-rafleet /usr/lib/modules/6.1.0-rafleet, 5.10.0-28-amd64 /lib/modules/5.10.0-28-amd64",
	      "/lib a directory: /lib/modules read too, a release listed once");

	/* Debian's linux-image: the image is /boot/vmlinuz-RELEASE */
	reset();
	put("usr/lib/modules/7.3.4-1.rafleet+virt/modules.order", "");
	put("boot/vmlinuz-7.3.4-1.rafleet+virt", "k");
	put("usr/lib/modules/7.3.4-0.vanilla+virt/modules.order", "");
	put("boot/vmlinuz-6.1.0-12-amd64", "k");
	check("7.3.4-1.rafleet+virt /usr/lib/modules/7.3.4-1.rafleet+virt",
	      "a Debian kernel: /boot/vmlinuz-RELEASE is its image; modules without an image are not a kernel");
	image_is("/boot/vmlinuz-7.3.4-1.rafleet+virt", "its image is named");
	put("usr/lib/modules/7.3.4-1.rafleet+virt/vmlinuz", "k");
	image_is("/usr/lib/modules/7.3.4-1.rafleet+virt/vmlinuz",
		 "the modules directory's vmlinuz comes first");

	fakefs_rm_tree(root);
	return tap_done();
}
