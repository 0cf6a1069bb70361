// SPDX-License-Identifier: GPL-2.0
/*
 * host/tracefs.c - tracepoint ids and field layouts from tracefs, see host/tracefs.h.
 */
#include "host/tracefs.h"
#include "lib/fileio.h"
#include "lib/rootdir.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tracefs_root(void)
{
	static char root[PATH_MAX];
	char moved[PATH_MAX];
	const char *cand[] = {
		host_path("/sys/kernel/tracing", moved, sizeof(moved)) ? NULL : moved,
		/* the host's own, also when $RAFLEET_TRACEFS has no events/ */
		"/sys/kernel/tracing",
		"/sys/kernel/debug/tracing",
	};
	char path[PATH_MAX];
	size_t i;
	int n;

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		if (!cand[i] || !cand[i][0])
			continue;
		n = snprintf(path, sizeof(path), "%s/events", cand[i]);
		if (n < 0 || (size_t)n >= sizeof(path) || !is_dir(path))
			continue;
		snprintf(root, sizeof(root), "%s", cand[i]);
		return root;
	}
	return NULL;
}

/* a single path component: not empty, no '/', not "." or ".." */
static bool valid_component(const char *s)
{
	return s && s[0] && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..");
}

static int event_path(char *buf, size_t len, const char *root,
		      const char *system, const char *name, const char *file)
{
	int n;

	if (!root || !root[0] || !valid_component(system) ||
	    !valid_component(name))
		return -EINVAL;
	n = snprintf(buf, len, "%s/events/%s/%s/%s", root, system, name, file);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}


/* A decimal number and nothing but whitespace around it. */
static int parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EBADMSG;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EBADMSG;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EBADMSG;
	*val = v;
	return 0;
}

int tracefs_event_id(const char *root, const char *system, const char *name,
		     uint64_t *id)
{
	char path[PATH_MAX];
	char buf[64];
	int ret;

	if (!id)
		return -EINVAL;
	ret = event_path(path, sizeof(path), root, system, name, "id");
	if (ret)
		return ret;
	ret = read_small_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	return parse_u64(buf, id);
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * The field name in a declaration such as "unsigned char order",
 * "char comm[16]" or "__data_loc char[] name": the last identifier, after
 * dropping trailing array brackets.
 */
static int decl_name(const char *decl, const char **name, size_t *len)
{
	const char *end = decl + strlen(decl);
	const char *start;

	for (;;) {
		while (end > decl && isspace((unsigned char)end[-1]))
			end--;
		if (end == decl || end[-1] != ']')
			break;
		while (end > decl && end[-1] != '[')
			end--;
		if (end == decl)
			return -EBADMSG;
		end--;
	}
	start = end;
	while (start > decl && is_ident_char(start[-1]))
		start--;
	if (start == end || isdigit((unsigned char)*start))
		return -EBADMSG;
	*name = start;
	*len = (size_t)(end - start);
	return 0;
}

static int parse_uint(const char *s, unsigned int *val)
{
	uint64_t v;
	int ret;

	ret = parse_u64(s, &v);
	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -EBADMSG;
	*val = (unsigned int)v;
	return 0;
}

/* "key:value" with value a number; offset, size and signed are kept */
static int parse_attr(char *tok, struct tracefs_field *f, unsigned int *seen)
{
	char *colon = strchr(tok, ':');
	unsigned int v;
	int ret;

	if (!colon)
		return -EBADMSG;
	*colon = '\0';
	if (strcmp(tok, "offset") && strcmp(tok, "size") &&
	    strcmp(tok, "signed"))
		return 0;	/* something newer; not needed */
	ret = parse_uint(colon + 1, &v);
	if (ret)
		return ret;
	if (!strcmp(tok, "offset")) {
		f->offset = v;
		*seen |= 1;
	} else if (!strcmp(tok, "size")) {
		f->size = v;
		*seen |= 2;
	} else {
		f->is_signed = v != 0;
	}
	return 0;
}

/*
 * One line of a format file. Returns 1 for lines that are not field lines,
 * 0 with *f, *name and *len filled in for a field line, -EBADMSG for a
 * field line that does not parse. Modifies line.
 *   "\tfield:unsigned char order;\toffset:40;\tsize:1;\tsigned:0;\n"
 */
static int parse_field_line(char *line, struct tracefs_field *f,
			    const char **name, size_t *len)
{
	unsigned int seen = 0;
	char *s = line, *semi;
	int ret;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "field:", 6))
		return 1;
	s += 6;
	semi = strchr(s, ';');
	if (!semi)
		return -EBADMSG;
	*semi = '\0';
	ret = decl_name(s, name, len);
	if (ret)
		return ret;

	memset(f, 0, sizeof(*f));
	for (s = semi + 1;; s = semi + 1) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		semi = strchr(s, ';');
		if (!semi)
			return -EBADMSG;
		*semi = '\0';
		ret = parse_attr(s, f, &seen);
		if (ret)
			return ret;
	}
	return seen == 3 ? 0 : -EBADMSG;
}

int tracefs_event_field(const char *root, const char *system, const char *name,
			const char *field, struct tracefs_field *out)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	unsigned int nr_fields = 0;
	bool found = false;
	FILE *f;
	int ret;

	if (!field || !field[0] || !out)
		return -EINVAL;
	ret = event_path(path, sizeof(path), root, system, name, "format");
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return -errno;

	/* look at every line, so a damaged file fails the same way always */
	while (getline(&line, &cap, f) != -1) {
		struct tracefs_field tmp;
		const char *fname;
		size_t flen;

		ret = parse_field_line(line, &tmp, &fname, &flen);
		if (ret < 0)
			goto out;
		if (ret > 0)
			continue;
		nr_fields++;
		if (!found && flen == strlen(field) &&
		    !memcmp(fname, field, flen)) {
			*out = tmp;
			found = true;
		}
	}
	if (ferror(f))
		ret = -EIO;
	else if (!nr_fields)
		ret = -EBADMSG;
	else
		ret = found ? 0 : -ENOENT;
out:
	free(line);
	fclose(f);
	return ret;
}

int tracefs_field_u64(const void *raw, size_t raw_size,
		      const struct tracefs_field *f, uint64_t *val)
{
	const unsigned char *p;
	uint64_t v;
	uint32_t v32;
	uint16_t v16;

	if (!raw || !f || !val)
		return -EINVAL;
	if (f->offset > raw_size || f->size > raw_size - f->offset)
		return -EINVAL;
	p = (const unsigned char *)raw + f->offset;

	switch (f->size) {
	case 1:
		v = *p;
		break;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		v = v16;
		break;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		v = v32;
		break;
	case 8:
		memcpy(&v, p, sizeof(v));
		break;
	default:
		return -EINVAL;
	}
	if (f->is_signed && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		v |= ~(uint64_t)0 << (f->size * 8);
	*val = v;
	return 0;
}
