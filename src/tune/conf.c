// SPDX-License-Identifier: GPL-2.0
/* tune/conf.c - the rules of /etc/rafleet/tune.conf, see tune/tune.h. */
#include "tune/tune.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fileio.h"
#include "lib/rootdir.h"

static const char *const class_names[TUNE_NR_CLASSES] = {
	[TUNE_DM] = "dm",
	[TUNE_MD] = "md",
	[TUNE_LOOP] = "loop",
	[TUNE_NVME] = "nvme",
	[TUNE_VIRTIO] = "virtio",
	[TUNE_ROTATIONAL] = "rotational",
	[TUNE_OTHER] = "other",
};

const char *tune_class_name(enum tune_class c)
{
	return c < TUNE_NR_CLASSES ? class_names[c] : "?";
}

int tune_class_parse(const char *s, enum tune_class *c)
{
	for (int i = 0; i < TUNE_NR_CLASSES; i++) {
		if (!strcmp(s, class_names[i])) {
			*c = (enum tune_class)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* A decimal number of KiB, 1..TUNE_MAX_KB (0 turns readahead off: allowed). */
static int parse_kb(const char *s, uint64_t *kb)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > TUNE_MAX_KB)
			return -ERANGE;
	}
	*kb = v;
	return 0;
}

int tune_value_parse(const char *s, struct tune_value *v)
{
	if (!strcmp(s, "keep")) {
		*v = (struct tune_value){ .kind = TUNE_KEEP };
		return 0;
	}
	if (!strcmp(s, "max_sectors")) {
		*v = (struct tune_value){ .kind = TUNE_MAX_SECTORS };
		return 0;
	}
	if (*s == '>') {
		v->kind = TUNE_AT_LEAST;
		return parse_kb(s + 1, &v->kb);
	}
	v->kind = TUNE_FIXED;
	return parse_kb(s, &v->kb);
}

__attribute__((format(printf, 5, 6)))
static int bad(char *err, size_t len, const char *file, unsigned int line,
	       const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, len, "%s:%u: ", file, line);
	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Split @s at blanks into at most @max words; how many there were. */
static int split(char *s, char **w, int max)
{
	int n = 0;

	for (;;) {
		s += strspn(s, " \t\r\n");
		if (!*s)
			return n;
		if (n < max)
			w[n] = s;
		n++;
		s += strcspn(s, " \t\r\n");
		if (*s)
			*s++ = '\0';
	}
}

static int parse_line(char *line, const char *file, unsigned int nr,
		      struct tune_rule *r, char *err, size_t len)
{
	char *hash = strchr(line, '#'), *w[3];
	int n, ret;

	if (hash)
		*hash = '\0';
	n = split(line, w, 3);
	if (n == 0)
		return 0;
	if (n != 3)
		return bad(err, len, file, nr,
			   "want 'device GLOB VALUE' or 'class CLASS VALUE', found %d word%s",
			   n, n == 1 ? "" : "s");

	memset(r, 0, sizeof(*r));
	r->line = nr;
	if (!strcmp(w[0], "class")) {
		r->by_class = true;
		if (tune_class_parse(w[1], &r->cls))
			return bad(err, len, file, nr,
				   "unknown class '%s' (dm, md, loop, nvme, virtio, rotational, other)",
				   w[1]);
	} else if (!strcmp(w[0], "device")) {
		if (strlen(w[1]) >= sizeof(r->glob))
			return bad(err, len, file, nr, "device glob longer than %zu bytes",
				   sizeof(r->glob) - 1);
		if (strchr(w[1], '/'))
			return bad(err, len, file, nr,
				   "device glob '%s' has a '/': it matches a name as in /sys/block",
				   w[1]);
		strcpy(r->glob, w[1]);
	} else {
		return bad(err, len, file, nr, "unknown match '%s' (device or class)", w[0]);
	}

	ret = tune_value_parse(w[2], &r->value);
	if (ret == -ERANGE)
		return bad(err, len, file, nr, "value '%s' is above %llu KiB", w[2],
			   (unsigned long long)TUNE_MAX_KB);
	if (ret || strlen(w[2]) >= sizeof(r->text))
		return bad(err, len, file, nr,
			   "bad value '%s' (N KiB, >N, max_sectors or keep)", w[2]);
	strcpy(r->text, w[2]);
	return 1;
}

void tune_policy_free(struct tune_policy *p)
{
	free(p->rules);
	p->rules = NULL;
	p->nr = 0;
}

int tune_policy_parse(FILE *f, const char *file, struct tune_policy *p,
		      char *err, size_t errlen)
{
	struct tune_rule r, *more;
	char *line = NULL;
	size_t cap = 0;
	unsigned int nr = 0;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	if (snprintf(p->file, sizeof(p->file), "%s", file) >= (int)sizeof(p->file))
		return -ENAMETOOLONG;
	while (getline(&line, &cap, f) >= 0) {
		ret = parse_line(line, file, ++nr, &r, err, errlen);
		if (ret < 0)
			break;
		if (!ret)
			continue;
		more = realloc(p->rules, (p->nr + 1) * sizeof(*more));
		if (!more) {
			ret = -ENOMEM;
			break;
		}
		p->rules = more;
		p->rules[p->nr++] = r;
		ret = 0;
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "%s: read error after line %u", file, nr);
		ret = -EIO;
	}
	free(line);
	if (ret)
		tune_policy_free(p);
	return ret;
}

/* a policy is a few hundred bytes: at most this */
#define TUNE_CONF_MAX_BYTES (1 << 20)

int tune_policy_load(const char *root, const char *path,
		     struct tune_policy *p, char *err, size_t errlen)
{
	char real[PATH_MAX];
	bool devnull;
	FILE *f;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = root_resolve(root, path, real, sizeof(real), &devnull);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	f = fopen_input(real, TUNE_CONF_MAX_BYTES, &ret);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, ret == -EINVAL ? "not a regular file" :
			 ret == -EFBIG ? "larger than 1 MiB" : strerror(-ret));
		return ret;
	}
	ret = tune_policy_parse(f, path, p, err, errlen);
	fclose(f);
	return ret;
}
