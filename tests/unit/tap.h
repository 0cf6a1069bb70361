/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - tiny header-only TAP producer for the rafleet unit tests.
 *
 *	ok(cond, fmt, ...)	"ok N - msg" or "not ok N - msg" + diagnostics
 *	is_u64(got, want, name)	compare unsigned integers
 *	is_i64(got, want, name)	compare signed integers (return codes)
 *	is_str(got, want, name)	compare strings, NULL-safe
 *	diag(fmt, ...)		"# ..." comment line
 *	tap_plan(n)		optional: announce the plan up front
 *	tap_done()		print the plan (unless announced) and return the
 *				exit status: 0 if every test passed, 1 otherwise
 *
 * All output goes to stdout so that diagnostics stay in order. Each test
 * program is a single translation unit, so the state is file-local.
 */
#ifndef RAFLEET_TAP_H
#define RAFLEET_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct tap_state {
	unsigned int run;
	unsigned int failed;
	unsigned int planned;
	bool have_plan;
};

static inline struct tap_state *tap_state_(void)
{
	static struct tap_state state;

	return &state;
}

__attribute__((format(printf, 4, 0)))
static inline bool tap_vok_(bool pass, const char *file, int line,
			    const char *fmt, va_list ap)
{
	struct tap_state *t = tap_state_();

	t->run++;
	if (!pass)
		t->failed++;
	printf("%sok %u - ", pass ? "" : "not ", t->run);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass)
		printf("#   Failed test at %s line %d\n", file, line);
	fflush(stdout);
	return pass;
}

__attribute__((format(printf, 4, 5)))
static inline bool tap_ok_(bool pass, const char *file, int line,
			   const char *fmt, ...)
{
	va_list ap;
	bool ret;

	va_start(ap, fmt);
	ret = tap_vok_(pass, file, line, fmt, ap);
	va_end(ap);
	return ret;
}

__attribute__((format(printf, 1, 2)))
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline bool tap_is_u64_(uint64_t got, uint64_t want, const char *name,
			       const char *file, int line)
{
	if (tap_ok_(got == want, file, line, "%s", name))
		return true;
	printf("#          got: %" PRIu64 "\n", got);
	printf("#     expected: %" PRIu64 "\n", want);
	return false;
}

static inline bool tap_is_i64_(int64_t got, int64_t want, const char *name,
			       const char *file, int line)
{
	if (tap_ok_(got == want, file, line, "%s", name))
		return true;
	printf("#          got: %" PRId64 "\n", got);
	printf("#     expected: %" PRId64 "\n", want);
	return false;
}

static inline void tap_print_str_(const char *label, const char *s)
{
	if (s)
		printf("#     %8s: '%s'\n", label, s);
	else
		printf("#     %8s: NULL\n", label);
}

static inline bool tap_is_str_(const char *got, const char *want,
			       const char *name, const char *file, int line)
{
	bool pass;

	if (!got || !want)
		pass = got == want;
	else
		pass = strcmp(got, want) == 0;
	if (tap_ok_(pass, file, line, "%s", name))
		return true;
	tap_print_str_("got", got);
	tap_print_str_("expected", want);
	return false;
}

static inline void tap_plan(unsigned int n)
{
	struct tap_state *t = tap_state_();

	t->planned = n;
	t->have_plan = true;
	printf("1..%u\n", n);
	fflush(stdout);
}

static inline int tap_done(void)
{
	struct tap_state *t = tap_state_();

	if (!t->have_plan) {
		printf("1..%u\n", t->run);
	} else if (t->planned != t->run) {
		printf("# planned %u tests but ran %u\n", t->planned, t->run);
		fflush(stdout);
		return 1;
	}
	if (t->failed)
		printf("# failed %u of %u tests\n", t->failed, t->run);
	fflush(stdout);
	return t->failed ? 1 : 0;
}

#define ok(cond, ...) tap_ok_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_u64(got, want, name) \
	tap_is_u64_((uint64_t)(got), (uint64_t)(want), (name), \
		    __FILE__, __LINE__)
#define is_i64(got, want, name) \
	tap_is_i64_((int64_t)(got), (int64_t)(want), (name), __FILE__, __LINE__)
#define is_str(got, want, name) \
	tap_is_str_((got), (want), (name), __FILE__, __LINE__)

#endif /* RAFLEET_TAP_H */
