// SPDX-License-Identifier: GPL-2.0
#include "host/kernels.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/rootdir.h"

static bool known(const struct kernels *k, const char *release)
{
	for (size_t i = 0; i < k->nr; i++)
		if (!strcmp(k->k[i].release, release))
			return true;
	return false;
}

static int add(struct kernels *k, const char *dir, const char *release,
	       const char *image)
{
	struct kernel_dir *v = realloc(k->k, (k->nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	k->k = v;
	v = &k->k[k->nr];
	memset(v, 0, sizeof(*v));
	v->release = strdup(release);
	v->image = strdup(image);
	if (!v->release || !v->image ||
	    asprintf(&v->path, "%s/%s", dir, release) < 0) {
		free(v->release);
		free(v->image);
		return -ENOMEM;
	}
	k->nr++;
	return 0;
}

static bool is_file(const char *root, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	return !root_path(root, path, full, sizeof(full)) && !stat(full, &st) &&
	       S_ISREG(st.st_mode);
}

/*
 * @dir/RELEASE under @root, for each RELEASE not seen yet whose image is
 * @dir/RELEASE/vmlinuz or /boot/vmlinuz-RELEASE.
 */
static int scan(struct kernels *k, const char *root, const char *dir,
		struct warnings *w)
{
	char path[PATH_MAX], image[PATH_MAX], boot[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err = 0;

	d = root_opendir(root, dir, path, sizeof(path), w);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (de->d_name[0] == '.' || known(k, de->d_name))
			continue;
		if ((size_t)snprintf(image, sizeof(image), "%s/%s/vmlinuz", dir,
				     de->d_name) >= sizeof(image) ||
		    (size_t)snprintf(boot, sizeof(boot), "/boot/vmlinuz-%s",
				     de->d_name) >= sizeof(boot))
			continue;
		if (is_file(root, image))
			err = add(k, dir, de->d_name, image);
		else if (is_file(root, boot))
			err = add(k, dir, de->d_name, boot);
		/* else modules only, or not a kernel's */
	}
	closedir(d);
	return err;
}

static int newest_first(const void *a, const void *b)
{
	const struct kernel_dir *ka = a, *kb = b;

	return strverscmp(kb->release, ka->release);
}

int kernels_load(struct kernels *k, const char *root, struct warnings *w)
{
	char lib[PATH_MAX];
	struct stat st;
	int err = 0;

	memset(k, 0, sizeof(*k));
	/*
	 * Where /lib is a symlink (merged /usr) /usr/lib/modules is the one
	 * place; it is not followed, as an absolute target would leave @root.
	 */
	if (!root_path(root, "/lib", lib, sizeof(lib)) && !lstat(lib, &st) &&
	    S_ISDIR(st.st_mode))
		err = scan(k, root, "/lib/modules", w);
	if (!err)
		err = scan(k, root, "/usr/lib/modules", w);
	if (!err && k->nr)
		qsort(k->k, k->nr, sizeof(*k->k), newest_first);
	return err;
}

void kernels_free(struct kernels *k)
{
	for (size_t i = 0; i < k->nr; i++) {
		free(k->k[i].release);
		free(k->k[i].path);
		free(k->k[i].image);
	}
	free(k->k);
	memset(k, 0, sizeof(*k));
}
