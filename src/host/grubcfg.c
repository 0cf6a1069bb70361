// SPDX-License-Identifier: GPL-2.0
/*
 * grub.cfg read with the rules of GRUB's lexer (grub-core/script/yylex.l)
 * and the default resolved as its menu code does (grub-core/normal/menu.c).
 */
#include "host/grubcfg.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fileio.h"
#include "lib/rootdir.h"

#define GRUB_CFG_MAX	(16u << 20)
#define MAX_DEPTH	64

/* One word of a command, its quotes removed and its escapes undone. */
struct word {
	char *s;
	size_t n, cap;
	bool quoted;	/* had a quote or a backslash: never a reserved word */
	bool var;	/* holds a $variable, kept as written ("${saved_entry}") */
};

enum tok { T_EOF, T_WORD, T_SEP, T_LBR, T_RBR };

enum block_kind {
	B_TOP,		/* the file itself */
	B_SUBMENU,	/* a submenu of the menu: its entries are ours */
	B_ENTRY,	/* a menuentry of the menu: its linux, initrd lines */
	B_OPAQUE,	/* a function, or a block in an entry: not the menu */
};

struct block {
	enum block_kind kind;
	struct grub_entry *e;	/* B_SUBMENU, B_ENTRY */
	unsigned int line;
	size_t commands;	/* GRUB cannot parse an empty { } */
	bool seen_linux, seen_initrd;
};

struct parser {
	const char *p, *end;
	unsigned int line;
	const char *file;
	struct grub_cfg *c;
	struct word *w;		/* the command being read */
	size_t nr, cap;
	unsigned int tok_line;	/* where the last token started */
	unsigned int cmd_line;
	struct block stack[MAX_DEPTH];
	size_t depth;
	bool default_seen;
	char *why;
	size_t len;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *ps, unsigned int line, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(ps->why, ps->len, "%s:%u: ", ps->file, line);
	if (n < ps->len) {
		va_start(ap, fmt);
		vsnprintf(ps->why + n, ps->len - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* Ends a bare word: blanks, newline and GRUB's metacharacters. */
static bool is_meta(char ch)
{
	return is_blank(ch) || (ch && strchr("\n{}|&;<>", ch));
}

static int wput(struct word *w, const char *s, size_t n)
{
	if (w->n + n + 1 > w->cap) {
		size_t cap = w->cap ? w->cap : 32;
		char *p;

		while (cap < w->n + n + 1)
			cap *= 2;
		p = realloc(w->s, cap);
		if (!p)
			return -ENOMEM;
		w->s = p;
		w->cap = cap;
	}
	memcpy(w->s + w->n, s, n);
	w->n += n;
	w->s[w->n] = '\0';
	return 0;
}

/*
 * A $variable at ps->p: $NAME, ${NAME}, $N, ${N}, $?, $#, $*, $@ (and
 * in braces).  Copied as written: its value is known only at boot.
 */
static int lex_var(struct parser *ps, struct word *w)
{
	const char *s = ps->p + 1, *e = s;
	bool brace = s < ps->end && *s == '{';

	if (brace)
		e = ++s;
	if (e < ps->end && is_alpha(*e)) {
		while (e < ps->end && (is_alpha(*e) || is_digit(*e)))
			e++;
	} else if (e < ps->end && is_digit(*e)) {
		while (e < ps->end && is_digit(*e))
			e++;
	} else if (e < ps->end && *e && strchr("?#*@", *e)) {
		e++;
	}
	if (e == s || (brace && (e >= ps->end || *e != '}')))
		return fail(ps, ps->line, "a '$' that names no variable");
	if (brace)
		e++;
	w->var = true;
	if (wput(w, ps->p, (size_t)(e - ps->p)))
		return -ENOMEM;
	ps->p = e;
	return 0;
}

/* "...": \$ \\ \" and \newline are escapes, any other \ stays. */
static int lex_dquote(struct parser *ps, struct word *w)
{
	unsigned int start = ps->line;
	int err = 0;

	ps->p++;
	while (!err && ps->p < ps->end && *ps->p != '"') {
		char ch = *ps->p, next = ps->p + 1 < ps->end ? ps->p[1] : '\0';

		if (ch == '\\' && next && strchr("$\\\"\n", next)) {
			if (next == '\n')
				ps->line++;
			else
				err = wput(w, &next, 1);
			ps->p += 2;
		} else if (ch == '$') {
			err = lex_var(ps, w);
		} else {
			if (ch == '\n')
				ps->line++;
			err = wput(w, &ch, 1);
			ps->p++;
		}
	}
	if (err)
		return err;
	if (ps->p >= ps->end)
		return fail(ps, start, "a '\"' that is not closed");
	ps->p++;
	return 0;
}

/* '...': everything up to the next ', newlines too. */
static int lex_squote(struct parser *ps, struct word *w)
{
	const char *e = memchr(ps->p + 1, '\'', (size_t)(ps->end - ps->p - 1));

	if (!e)
		return fail(ps, ps->line, "a \"'\" that is not closed");
	for (const char *q = ps->p + 1; q < e; q++)
		ps->line += *q == '\n';
	if (wput(w, ps->p + 1, (size_t)(e - ps->p - 1)))
		return -ENOMEM;
	ps->p = e + 1;
	return 0;
}

/* A word: bare characters, \x, '...', "...", $"...", $variables. */
static int lex_word(struct parser *ps, struct word *w)
{
	int err = 0;

	w->n = 0;
	w->quoted = w->var = false;
	if (wput(w, "", 0))
		return -ENOMEM;
	while (!err && ps->p < ps->end && !is_meta(*ps->p)) {
		char ch = *ps->p;

		if (ch == '\\') {
			w->quoted = true;
			if (ps->p + 1 >= ps->end) {
				err = wput(w, "\\", 1);
				ps->p++;
			} else {
				if (ps->p[1] == '\n')
					ps->line++;
				else
					err = wput(w, ps->p + 1, 1);
				ps->p += 2;
			}
		} else if (ch == '\'') {
			w->quoted = true;
			err = lex_squote(ps, w);
		} else if (ch == '"') {
			w->quoted = true;
			err = lex_dquote(ps, w);
		} else if (ch == '$' && ps->p + 1 < ps->end && ps->p[1] == '"') {
			w->quoted = true;	/* $"...": gettext'ed, read as "..." */
			ps->p++;
			err = lex_dquote(ps, w);
		} else if (ch == '$') {
			err = lex_var(ps, w);
		} else {
			err = wput(w, &ch, 1);
			ps->p++;
		}
	}
	return err;
}

static int next_token(struct parser *ps, struct word *w, enum tok *tok)
{
	char ch;

	for (;;) {
		while (ps->p < ps->end && is_blank(*ps->p))
			ps->p++;
		if (ps->p >= ps->end) {
			*tok = T_EOF;
			return 0;
		}
		if (*ps->p == '#') {		/* a comment starts a word */
			while (ps->p < ps->end && *ps->p != '\n')
				ps->p++;
			continue;
		}
		if (*ps->p == '\\' && ps->p + 1 < ps->end && ps->p[1] == '\n') {
			ps->p += 2;		/* a line continued */
			ps->line++;
			continue;
		}
		break;
	}
	ch = *ps->p;
	ps->tok_line = ps->line;
	if (ch == '\n' || strchr(";|&<>", ch)) {
		ps->line += ch == '\n';
		ps->p++;
		*tok = T_SEP;
		return 0;
	}
	if (ch == '{' || ch == '}') {
		ps->p++;
		*tok = ch == '{' ? T_LBR : T_RBR;
		return 0;
	}
	*tok = T_WORD;
	return lex_word(ps, w);
}

static bool is_word(const struct word *w, const char *s)
{
	return !w->quoted && !w->var && !strcmp(w->s, s);
}

/* The words of the command proper: without the if/then/else... around it. */
static size_t skip_reserved(const struct parser *ps)
{
	static const char *const reserved[] = {
		"if", "then", "else", "elif", "fi", "do", "done", "while",
		"until", "esac", "!", NULL
	};
	size_t i = 0;

	for (; i < ps->nr; i++) {
		const char *const *r = reserved;

		while (*r && !is_word(&ps->w[i], *r))
			r++;
		if (!*r)
			break;
	}
	return i;
}

static bool is_var_ref(const struct word *w, const char *s, const char *name)
{
	size_t n = strlen(name);

	if (!w->var)
		return false;
	if (s[0] != '$')
		return false;
	if (s[1] == '{')
		return !strncmp(s + 2, name, n) && s[2 + n] == '}' && !s[3 + n];
	return !strcmp(s + 1, name);
}

/* "set default=..." at the top: the first but the one-shot next_entry. */
static int top_command(struct parser *ps, size_t i)
{
	struct grub_cfg *c = ps->c;
	const struct word *w = &ps->w[i + 1];
	const char *val;

	if (ps->nr - i < 2 || strcmp(ps->w[i].s, "set") ||
	    strncmp(w->s, "default=", 8))
		return 0;
	val = w->s + 8;
	if (is_var_ref(w, val, "next_entry")) {
		c->next_entry = true;
		return 0;
	}
	if (ps->default_seen)
		return 0;
	ps->default_seen = true;
	if (is_var_ref(w, val, "saved_entry")) {
		c->default_saved = true;
		return 0;
	}
	c->default_value = strdup(val);
	return c->default_value ? 0 : -ENOMEM;
}

/*
 * Words joined as GRUB hands them to Linux: by one space, a word with a
 * space in it in double quotes.
 */
static int join_words(const struct word *w, size_t nr, char **out)
{
	size_t n = 1;
	char *s;

	for (size_t i = 0; i < nr; i++)
		n += w[i].n + 3;
	s = malloc(n);
	if (!s)
		return -ENOMEM;
	*out = s;
	for (size_t i = 0; i < nr; i++) {
		bool q = strchr(w[i].s, ' ') != NULL;

		s += sprintf(s, "%s%s%s%s", i ? " " : "", q ? "\"" : "", w[i].s,
			     q ? "\"" : "");
	}
	*s = '\0';
	return 0;
}

static int entry_command(struct parser *ps, struct block *b, size_t i)
{
	struct grub_entry *e = b->e;
	const char *cmd = ps->w[i].s;

	if (!strcmp(cmd, "linux") || !strcmp(cmd, "linux16") ||
	    !strcmp(cmd, "linuxefi")) {
		if (b->seen_linux || ps->nr - i < 2)
			return 0;	/* the first one (if/else: not both) */
		b->seen_linux = true;
		e->kernel = strdup(ps->w[i + 1].s);
		if (!e->kernel)
			return -ENOMEM;
		free(e->options);
		e->options = NULL;
		return join_words(&ps->w[i + 2], ps->nr - i - 2, &e->options);
	}
	if (!strcmp(cmd, "initrd") || !strcmp(cmd, "initrd16") ||
	    !strcmp(cmd, "initrdefi")) {
		size_t n = ps->nr - i - 1;

		if (b->seen_initrd || !n)
			return 0;
		b->seen_initrd = true;
		e->initrd = calloc(n, sizeof(*e->initrd));
		if (!e->initrd)
			return -ENOMEM;
		for (size_t k = 0; k < n; k++) {
			e->initrd[k] = strdup(ps->w[i + 1 + k].s);
			if (!e->initrd[k])
				return -ENOMEM;
			e->nr_initrd++;
		}
	}
	return 0;
}

static int end_command(struct parser *ps)
{
	struct block *b = &ps->stack[ps->depth - 1];
	size_t i = skip_reserved(ps);
	int err = 0;

	b->commands += ps->nr > 0;
	if (i < ps->nr) {
		if (b->kind != B_OPAQUE && !strcmp(ps->w[i].s, "blscfg"))
			ps->c->blscfg = true;
		if (b->kind == B_ENTRY)
			err = entry_command(ps, b, i);
		else if (b->kind == B_TOP)
			err = top_command(ps, i);
	}
	ps->nr = 0;
	return err;
}

static int add_entry(struct grub_entry **arr, size_t *nr, struct grub_entry **out)
{
	struct grub_entry *v = realloc(*arr, (*nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	*arr = v;
	*out = &v[(*nr)++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

/* @parent's path, '>', and @name with each '>' doubled. */
static char *make_path(const char *parent, const char *name)
{
	size_t n = (parent ? strlen(parent) + 1 : 0) + 2 * strlen(name) + 1;
	char *s = malloc(n), *o = s;

	if (!s)
		return NULL;
	if (parent)
		o += sprintf(o, "%s>", parent);
	for (; *name; name++) {
		if (*name == '>')
			*o++ = '>';
		*o++ = *name;
	}
	*o = '\0';
	return s;
}

/*
 * menuentry TITLE [--class C] [--users U] [--hotkey K] [--id ID]
 * [--unrestricted] ... and the same for submenu; $menuentry_id_option is
 * "--id".  False if it has no title: GRUB adds no entry then.
 */
static bool entry_args(const struct parser *ps, size_t i, const char **title,
		       const char **id)
{
	bool opts = true;

	*title = *id = NULL;
	for (i++; i < ps->nr; i++) {
		const struct word *w = &ps->w[i];
		const char *s = w->s;
		bool idopt = is_var_ref(w, s, "menuentry_id_option") ||
			     !strcmp(s, "--id");

		if (opts && idopt) {
			if (i + 1 < ps->nr)
				*id = ps->w[++i].s;
		} else if (opts && !strncmp(s, "--id=", 5)) {
			*id = s + 5;
		} else if (opts && (!strcmp(s, "--class") || !strcmp(s, "--users") ||
				    !strcmp(s, "--hotkey") || !strcmp(s, "--source"))) {
			i++;
		} else if (opts && !strcmp(s, "--")) {
			opts = false;
		} else if (opts && !strncmp(s, "--", 2)) {
			continue;	/* --class=x, --unrestricted */
		} else if (!*title) {
			*title = s;
		}
	}
	return *title != NULL;
}

static int open_block(struct parser *ps)
{
	struct block *top = &ps->stack[ps->depth - 1], *b;
	size_t i = skip_reserved(ps);
	const char *title, *id;
	bool menu = top->kind == B_TOP || top->kind == B_SUBMENU;
	bool sub = i < ps->nr && !strcmp(ps->w[i].s, "submenu");
	int err = 0;

	if (ps->depth == MAX_DEPTH)
		return fail(ps, ps->line, "blocks nested more than %d deep", MAX_DEPTH);
	top->commands++;
	b = &ps->stack[ps->depth++];
	memset(b, 0, sizeof(*b));
	b->kind = B_OPAQUE;
	b->line = ps->nr ? ps->cmd_line : ps->line;
	if (menu && i < ps->nr && (sub || !strcmp(ps->w[i].s, "menuentry")) &&
	    entry_args(ps, i, &title, &id)) {
		struct grub_entry *e;

		if (top->kind == B_TOP)
			err = add_entry(&ps->c->entries, &ps->c->nr_entries, &e);
		else
			err = add_entry(&top->e->children, &top->e->nr_children, &e);
		if (err)
			return err;
		b->kind = sub ? B_SUBMENU : B_ENTRY;
		b->e = e;
		e->submenu = sub;
		e->line = b->line;
		e->title = strdup(title);
		e->id = id ? strdup(id) : NULL;
		e->path = make_path(top->kind == B_TOP ? NULL : top->e->path,
				    id ? id : title);
		if (!e->title || (id && !e->id) || !e->path)
			err = -ENOMEM;
	}
	ps->nr = 0;
	return err;
}

/* vmlinuz-RELEASE (or vmlinux-), and without Debian's .efi.signed. */
static char *kernel_release(const char *kernel)
{
	const char *base = strrchr(kernel, '/') ? strrchr(kernel, '/') + 1 : kernel;
	size_t n;

	if (strncmp(base, "vmlinuz-", 8) && strncmp(base, "vmlinux-", 8))
		return strdup("");
	base += 8;
	n = strlen(base);
	if (n > 11 && !strcmp(base + n - 11, ".efi.signed"))
		n -= 11;
	return strndup(base, n);
}

static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; (p = strstr(p, word)); p += n)
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static bool is_recovery(const struct grub_entry *e)
{
	static const char *const words[] = {
		"single", "recovery", "emergency", "rescue",
		"systemd.unit=rescue.target", "systemd.unit=emergency.target", NULL
	};

	if ((e->id && strstr(e->id, "-recovery-")) ||
	    strcasestr(e->title, "recovery mode"))
		return true;
	for (int i = 0; words[i]; i++)
		if (has_word(e->options, words[i]))
			return true;
	return false;
}

static int close_entry(struct grub_entry *e)
{
	if (!e->options)
		e->options = strdup("");
	e->version = e->kernel ? kernel_release(e->kernel) : strdup("");
	if (!e->options || !e->version)
		return -ENOMEM;
	e->recovery = is_recovery(e);
	return 0;
}

static const char *kind_name(const struct block *b)
{
	return b->kind == B_SUBMENU ? "submenu" : b->kind == B_ENTRY ? "menuentry" : "block";
}

static int close_block(struct parser *ps)
{
	struct block *b;

	if (ps->depth == 1)
		return fail(ps, ps->line, "a '}' with no block open");
	b = &ps->stack[--ps->depth];
	if (!b->commands)
		return fail(ps, b->line, "the %s opened here is empty: GRUB cannot parse an empty { }",
			    kind_name(b));
	if (b->e)
		b->e->end_line = ps->tok_line;
	return b->kind == B_ENTRY ? close_entry(b->e) : 0;
}

static int add_bootable(struct grub_cfg *c, struct grub_entry *list, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct grub_entry *e = &list[i], **v;
		int err;

		if (e->submenu) {
			err = add_bootable(c, e->children, e->nr_children);
			if (err)
				return err;
			continue;
		}
		if (!e->kernel)
			continue;
		v = realloc(c->bootable, (c->nr_bootable + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->bootable = v;
		v[c->nr_bootable++] = e;
	}
	return 0;
}

static int parse(struct parser *ps)
{
	enum tok tok;
	int err = 0;

	while (!err) {
		if (ps->nr == ps->cap) {
			size_t cap = ps->cap ? ps->cap * 2 : 16;
			struct word *v = realloc(ps->w, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			memset(v + ps->cap, 0, (cap - ps->cap) * sizeof(*v));
			ps->w = v;
			ps->cap = cap;
		}
		/* read into the next slot, whose buffer is kept for reuse */
		err = next_token(ps, &ps->w[ps->nr], &tok);
		if (err)
			break;
		if (tok == T_WORD) {
			if (!ps->nr)
				ps->cmd_line = ps->tok_line;
			ps->nr++;
			continue;
		}
		if (tok == T_LBR) {
			err = open_block(ps);
			continue;
		}
		err = end_command(ps);
		if (err || tok == T_SEP)
			continue;
		if (tok == T_RBR) {
			err = close_block(ps);
			continue;
		}
		if (ps->depth > 1) {
			const struct block *b = &ps->stack[ps->depth - 1];

			err = fail(ps, b->line, "the %s opened here is not closed by a '}'",
				   kind_name(b));
		}
		break;
	}
	return err;
}

int grub_cfg_parse(struct grub_cfg *c, const char *cfg, const char *file,
		   char *why, size_t len)
{
	struct parser ps = {
		.p = cfg, .end = cfg + strlen(cfg), .line = 1, .file = file,
		.c = c, .depth = 1, .why = why, .len = len,
	};
	int err;

	memset(c, 0, sizeof(*c));
	c->file = strdup(file);
	if (!c->file)
		return -ENOMEM;
	ps.stack[0].kind = B_TOP;
	err = parse(&ps);
	for (size_t i = 0; i < ps.cap; i++)
		free(ps.w[i].s);
	free(ps.w);
	if (!err)
		err = add_bootable(c, c->entries, c->nr_entries);
	if (err == -ENOMEM)
		snprintf(why, len, "%s: %s", file, strerror(ENOMEM));
	if (err)
		grub_cfg_free(c);	/* no half-read menu */
	return err;
}

int grub_cfg_read(const char *file, char **text, char *why, size_t len)
{
	char path[PATH_MAX];
	int err;

	*text = NULL;
	err = root_path(rootdir_get(), file, path, sizeof(path));
	if (!err)
		err = read_whole_file(path, GRUB_CFG_MAX, text, NULL);
	if (err == -EFBIG)
		snprintf(why, len, "%s: larger than %u bytes", file, GRUB_CFG_MAX);
	else if (err == -EBADMSG)
		snprintf(why, len, "%s: holds a NUL byte: not a grub.cfg", file);
	else if (err)
		snprintf(why, len, "%s: %s", file, strerror(-err));
	return err;
}

int grub_cfg_load_sourcing(struct grub_cfg *c, const char *file, const char *hook,
			   const char *more, char *why, size_t len)
{
	char *text, *extra = NULL, *all = NULL;
	bool sources;
	int err;

	memset(c, 0, sizeof(*c));
	err = grub_cfg_read(file, &text, why, len);
	if (err)
		return err;
	sources = hook && more && strstr(text, hook);
	if (sources) {
		err = grub_cfg_read(more, &extra, why, len);
		if (err == -ENOENT)
			err = 0;
		/* alone first, so that an error names its own file and line */
		if (!err && extra) {
			err = grub_cfg_parse(c, extra, more, why, len);
			grub_cfg_free(c);
		}
		if (!err && extra && asprintf(&all, "%s\n%s", text, extra) < 0) {
			all = NULL;
			err = -ENOMEM;
		}
	}
	if (!err)
		err = grub_cfg_parse(c, all ? all : text, file, why, len);
	if (!err)
		c->sources = sources;
	free(all);
	free(extra);
	free(text);
	return err;
}

int grub_cfg_load(struct grub_cfg *c, const char *file, char *why, size_t len)
{
	return grub_cfg_load_sourcing(c, file, NULL, NULL, why, len);
}

static void entry_free(struct grub_entry *e)
{
	for (size_t i = 0; i < e->nr_children; i++)
		entry_free(&e->children[i]);
	free(e->children);
	free(e->title);
	free(e->id);
	free(e->path);
	free(e->version);
	free(e->kernel);
	free(e->options);
	for (size_t i = 0; i < e->nr_initrd; i++)
		free(e->initrd[i]);
	free(e->initrd);
}

void grub_cfg_free(struct grub_cfg *c)
{
	for (size_t i = 0; i < c->nr_entries; i++)
		entry_free(&c->entries[i]);
	free(c->entries);
	free(c->bootable);
	free(c->default_value);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

/*
 * GRUB's grub_strtoul(s, NULL, 0) as get_entry_number() calls it: the
 * number that starts @s ("0x" hex, "0" then an octal digit octal), -1 if
 * no digit starts it (then it is a name), -2 if it does not fit.
 */
static long grub_number(const char *s)
{
	unsigned long long v = 0;
	unsigned int base = 10;
	bool found = false, big = false;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1] >= '0' && s[1] <= '7') {
		base = 8;
	}
	for (; *s; s++) {
		char ch = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		unsigned int d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned int)(ch - '0');
		else if (ch >= 'a' && ch <= 'z')
			d = (unsigned int)(ch - 'a') + 10;
		else
			break;
		if (d >= base)
			break;
		found = true;
		v = v * base + d;
		if (v > INT_MAX) {
			big = true;
			v = INT_MAX;
		}
	}
	if (!found)
		return -1;
	return big ? -2 : (long)v;
}

/* GRUB's menuentry_eq(): @name is @spec up to a single '>' (">>" is '>'). */
static bool name_eq(const char *name, const char *spec)
{
	for (;;) {
		if (*spec == '>' && spec[1] != '>')
			return !*name;
		if (*spec == '>')
			spec++;
		if (*name != *spec)
			return false;
		if (!*name)
			return true;
		name++;
		spec++;
	}
}

/* After the first single '>' of @spec: the submenu's default, or NULL. */
static const char *spec_rest(const char *spec)
{
	const char *p = spec;

	for (; *p; p++) {
		if (p[0] == '>' && p[1] == '>') {
			p++;
			continue;
		}
		if (p[0] == '>')
			break;
	}
	return *p && p[1] ? p + 1 : NULL;
}

/* The first part of @spec, ">>" undone, for messages. */
static void spec_part(const char *spec, char *out, size_t len)
{
	size_t n = 0;

	for (; *spec && n + 1 < len; spec++) {
		if (*spec == '>' && spec[1] != '>')
			break;
		if (*spec == '>')
			spec++;
		out[n++] = *spec;
	}
	out[n] = '\0';
}

int grub_cfg_resolve(const struct grub_cfg *c, const char *spec,
		     const struct grub_entry **out, char *why, size_t len)
{
	const struct grub_entry *list = c->entries, *menu = NULL;
	size_t nr = c->nr_entries;
	char part[256], where[512];

	*out = NULL;
	for (;;) {
		const struct grub_entry *e = NULL;
		long n;

		if (menu)
			snprintf(where, sizeof(where), "submenu '%s'", menu->title);
		else
			snprintf(where, sizeof(where), "the top level");
		if (!nr) {
			snprintf(why, len, "%s: default '%s': %s has no entries%s", c->file,
				 spec ? spec : "", where,
				 !menu && c->blscfg ? " (blscfg makes the menu at boot from /boot/loader/entries)" : "");
			return -ENOENT;
		}
		n = spec && *spec ? grub_number(spec) : 0;
		if (n == -1) {
			for (size_t i = 0; i < nr && !e; i++)
				if (name_eq(list[i].title, spec) ||
				    (list[i].id && name_eq(list[i].id, spec)))
					e = &list[i];
		} else if (n >= 0 && (size_t)n < nr) {
			e = &list[n];
		}
		if (!e) {
			spec_part(spec, part, sizeof(part));
			if (n == -1)
				snprintf(why, len, "%s: default '%s': no entry titled or with the id '%s' in %s (GRUB would boot its first entry)",
					 c->file, spec, part, where);
			else
				snprintf(why, len, "%s: default '%s': no entry %s in %s, which has %zu (GRUB would boot its first entry)",
					 c->file, spec, part, where, nr);
			return -ENOENT;
		}
		if (!e->submenu) {
			*out = e;
			return 0;
		}
		menu = e;
		list = e->children;
		nr = e->nr_children;
		spec = spec && *spec ? spec_rest(spec) : NULL;
	}
}

/* A single '>' in its path (not a doubled one of a name): in a submenu. */
static bool in_submenu(const struct grub_entry *e)
{
	for (const char *p = e->path; *p; p++) {
		if (p[0] == '>' && p[1] == '>')
			p++;
		else if (p[0] == '>')
			return true;
	}
	return false;
}

/* In a submenu first, then an "-advanced-" id: its path names that kernel. */
static int release_rank(const struct grub_entry *e)
{
	return 2 * in_submenu(e) + (e->id && strstr(e->id, "-advanced-")) + 1;
}

int grub_cfg_find_release(const struct grub_cfg *c, const char *release,
			  const struct grub_entry **out, char *why, size_t len)
{
	const struct grub_entry *best = NULL;
	int best_rank = 0;
	size_t recovery = 0;

	*out = NULL;
	for (size_t i = 0; i < c->nr_bootable; i++) {
		const struct grub_entry *e = c->bootable[i];
		int rank;

		if (strcmp(e->version, release))
			continue;
		if (e->recovery) {
			recovery++;
			continue;
		}
		rank = release_rank(e);
		if (rank > best_rank) {
			best = e;
			best_rank = rank;
		}
	}
	if (best) {
		*out = best;
		return 0;
	}
	if (recovery)
		snprintf(why, len, "%s: kernel %s has only recovery entries", c->file, release);
	else if (!c->nr_bootable && c->blscfg)
		snprintf(why, len, "%s: no menuentry boots a kernel: it runs blscfg, which makes the menu at boot from /boot/loader/entries",
			 c->file);
	else
		snprintf(why, len, "%s: no menuentry boots kernel %s (no linux line of /vmlinuz-%s)",
			 c->file, release, release);
	return -ENOENT;
}

int grub_cfg_list(const struct grub_cfg *c, struct grub_entry *const **list,
		  size_t *nr, char *why, size_t len)
{
	*list = c->bootable;
	*nr = c->nr_bootable;
	if (c->nr_bootable)
		return 0;
	if (c->blscfg)
		snprintf(why, len, "%s: no menuentry boots a kernel: it runs blscfg, which makes the menu at boot from /boot/loader/entries",
			 c->file);
	else
		snprintf(why, len, "%s: no menuentry boots a kernel (no linux line)", c->file);
	return -ENOENT;
}
