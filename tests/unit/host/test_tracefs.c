// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/host/tracefs.c, against a fake tracefs tree in a temp dir.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakefs.h"
#include "tap.h"
#include "host/tracefs.h"
#include "lib/env.h"

static const char filemap_format[] =
	"name: mm_filemap_add_to_page_cache\n"
	"ID: 512\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:u64 i_ino;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long pfn;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long index;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:dev_t s_dev;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned char order;\toffset:36;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"dev %d:%d ino %lx pfn=0x%lx ofs=%lu order=%u\", "
	"((unsigned int) ((REC->s_dev) >> 20)), "
	"((unsigned int) ((REC->s_dev) & ((1U << 20) - 1))), REC->i_ino, "
	"REC->pfn != -1UL ? REC->pfn : 0, REC->index << 12, REC->order\n";

/* arrays, __data_loc and a "field:" inside print fmt */
static const char switch_format[] =
	"name: sched_switch\n"
	"ID: 316\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc char[] next_name;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:short s16 ;\toffset:44;\tsize:2;\tsigned:1;\n"
	"\tfield:s8 tiny;\toffset:46;\tsize:1;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s field:x; next=%s\", REC->prev_comm, "
	"__get_str(next_name)\n";

#define FM "mm_filemap_add_to_page_cache"

static char tmpdir[] = "/tmp/rafleet-test-tracefs.XXXXXX";

/* write @content to TMPDIR/events/@rel, creating directories on the way */
static int put(const char *rel, const char *content)
{
	char rel2[256];

	if ((size_t)snprintf(rel2, sizeof(rel2), "events/%s", rel) >= sizeof(rel2))
		return -ENAMETOOLONG;
	return fakefs_put(tmpdir, rel2, content);
}

static int make_tree(void)
{
	int ret = 0;

	ret |= put("filemap/mm_filemap_add_to_page_cache/id", "512\n");
	ret |= put("filemap/mm_filemap_add_to_page_cache/format",
		   filemap_format);
	ret |= put("sched/sched_switch/id", "316\n");
	ret |= put("sched/sched_switch/format", switch_format);
	ret |= put("bad/id_text/id", "twelve\n");
	ret |= put("bad/id_negative/id", "-1\n");
	ret |= put("bad/id_empty/id", "");
	ret |= put("bad/id_trailing/id", "12 13\n");
	ret |= put("bad/id_huge/id", "18446744073709551616\n");
	ret |= put("bad/garbage/format",
		   "\x7f" "ELF\x02\x01\x01 this is not a format file\n"
		   "offset:8; size:4;\n");
	ret |= put("bad/no_offset/format",
		   "format:\n"
		   "\tfield:int a;\toffset:0;\tsize:4;\tsigned:1;\n"
		   "\tfield:int b;\tsize:4;\tsigned:1;\n");
	ret |= put("bad/bad_number/format",
		   "format:\n"
		   "\tfield:int a;\toffset:0;\tsize:4;\tsigned:1;\n"
		   "\tfield:int b;\toffset:4x;\tsize:4;\tsigned:1;\n");
	ret |= put("bad/no_name/format",
		   "format:\n"
		   "\tfield:int a;\toffset:0;\tsize:4;\tsigned:1;\n"
		   "\tfield:[16];\toffset:4;\tsize:16;\tsigned:0;\n");
	ret |= put("bad/no_semicolon/format",
		   "format:\n"
		   "\tfield:int a\toffset:0\tsize:4\tsigned:1\n");
	ret |= put("bad/empty/format", "");
	/* a directory opens fine but cannot be read: EISDIR */
	ret |= put("bad/isdir/format/x", "");
	ret |= put("bad/isdir/id/x", "");
	return ret;
}

static void test_root(void)
{
	char noevents[PATH_MAX];
	const char *root;

	setenv(env_name(ENV_TRACEFS), tmpdir, 1);
	is_str(tracefs_root(), tmpdir, "root: $RAFLEET_TRACEFS comes first");

	/* a directory without events/ is passed over */
	snprintf(noevents, sizeof(noevents), "%s/events/sched", tmpdir);
	setenv(env_name(ENV_TRACEFS), noevents, 1);
	root = tracefs_root();
	ok(!root || strcmp(root, noevents),
	   "root: a candidate without events/ is skipped (got %s)",
	   root ? root : "NULL");
	unsetenv(env_name(ENV_TRACEFS));
}

static void test_event_id(void)
{
	uint64_t id = 0;

	is_i64(tracefs_event_id(tmpdir, "filemap",
				"mm_filemap_add_to_page_cache", &id),
	       0, "id: filemap:mm_filemap_add_to_page_cache");
	is_u64(id, 512, "id: value");
	is_i64(tracefs_event_id(tmpdir, "sched", "sched_switch", &id), 0,
	       "id: sched:sched_switch");
	is_u64(id, 316, "id: second value");

	id = 7;
	is_i64(tracefs_event_id(tmpdir, "filemap", "no_such_event", &id),
	       -ENOENT, "id: missing event is -ENOENT");
	is_i64(tracefs_event_id(tmpdir, "nosys", "sched_switch", &id),
	       -ENOENT, "id: missing system is -ENOENT");
	is_u64(id, 7, "id: untouched on failure");

	is_i64(tracefs_event_id(tmpdir, "bad", "id_text", &id), -EBADMSG,
	       "id: text is -EBADMSG");
	is_i64(tracefs_event_id(tmpdir, "bad", "id_negative", &id), -EBADMSG,
	       "id: negative is -EBADMSG");
	is_i64(tracefs_event_id(tmpdir, "bad", "id_empty", &id), -EBADMSG,
	       "id: empty file is -EBADMSG");
	is_i64(tracefs_event_id(tmpdir, "bad", "id_trailing", &id), -EBADMSG,
	       "id: trailing junk is -EBADMSG");
	is_i64(tracefs_event_id(tmpdir, "bad", "id_huge", &id), -EBADMSG,
	       "id: overflow is -EBADMSG");

	is_i64(tracefs_event_id(tmpdir, "bad", "isdir", &id), -EISDIR,
	       "id: read error is passed on");
	is_i64(tracefs_event_id(tmpdir, "..", "filemap", &id), -EINVAL,
	       "id: '..' as system is -EINVAL");
	is_i64(tracefs_event_id(tmpdir, "filemap/..", "sched", &id), -EINVAL,
	       "id: '/' in a name is -EINVAL");
	is_i64(tracefs_event_id(tmpdir, "", "x", &id), -EINVAL,
	       "id: empty system is -EINVAL");
	is_i64(tracefs_event_id(NULL, "sched", "sched_switch", &id), -EINVAL,
	       "id: NULL root is -EINVAL");
}

struct field_case {
	const char *sys, *event, *field;
	unsigned int offset, size;
	bool is_signed;
};

static void test_fields(void)
{
	static const struct field_case cases[] = {
		{ "filemap", FM, "common_type", 0, 2, false },
		{ "filemap", FM, "common_pid", 4, 4, true },
		{ "filemap", FM, "i_ino", 8, 8, false },
		{ "filemap", FM, "index", 24, 8, false },
		{ "filemap", FM, "s_dev", 32, 4, false },
		{ "filemap", FM, "order", 36, 1, false },
		{ "sched", "sched_switch", "prev_comm", 8, 16, false },
		{ "sched", "sched_switch", "prev_state", 32, 8, true },
		{ "sched", "sched_switch", "next_name", 40, 4, false },
		{ "sched", "sched_switch", "s16", 44, 2, true },
	};
	struct tracefs_field f;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct field_case *c = &cases[i];
		int ret;

		f.offset = f.size = 0xdead;
		f.is_signed = !c->is_signed;
		ret = tracefs_event_field(tmpdir, c->sys, c->event, c->field,
					  &f);
		ok(ret == 0 && f.offset == c->offset && f.size == c->size &&
		   f.is_signed == c->is_signed,
		   "field: %s:%s %s -> ret %d offset %u size %u signed %d",
		   c->sys, c->event, c->field, ret, f.offset, f.size,
		   f.is_signed);
	}
}

static void test_field_errors(void)
{
	const char *fm = "mm_filemap_add_to_page_cache";
	struct tracefs_field f = { 1, 2, true };

	is_i64(tracefs_event_field(tmpdir, "filemap", fm, "folio", &f),
	       -ENOENT, "field: missing field is -ENOENT");
	is_i64(tracefs_event_field(tmpdir, "filemap", fm, "orde", &f),
	       -ENOENT, "field: a prefix of a field does not match");
	is_i64(tracefs_event_field(tmpdir, "filemap", fm, "order ", &f),
	       -ENOENT, "field: no trailing-space match");
	is_i64(tracefs_event_field(tmpdir, "filemap", fm, "short", &f),
	       -ENOENT, "field: a type word is not a field name");
	is_i64(tracefs_event_field(tmpdir, "sched", "sched_switch", "x", &f),
	       -ENOENT, "field: 'field:' inside print fmt is ignored");
	ok(f.offset == 1 && f.size == 2 && f.is_signed,
	   "field: output untouched on failure");
	is_i64(tracefs_event_field(tmpdir, "filemap", "nope", "order", &f),
	       -ENOENT, "field: missing event is -ENOENT");
	is_i64(tracefs_event_field(tmpdir, "bad", "garbage", "offset", &f),
	       -EBADMSG, "field: garbage file is -EBADMSG");
	is_i64(tracefs_event_field(tmpdir, "bad", "empty", "a", &f),
	       -EBADMSG, "field: empty file is -EBADMSG");
	is_i64(tracefs_event_field(tmpdir, "bad", "no_offset", "a", &f),
	       -EBADMSG, "field: a field line without offset is -EBADMSG");
	is_i64(tracefs_event_field(tmpdir, "bad", "bad_number", "a", &f),
	       -EBADMSG, "field: a bad number is -EBADMSG");
	is_i64(tracefs_event_field(tmpdir, "bad", "no_name", "a", &f),
	       -EBADMSG, "field: a declaration without a name is -EBADMSG");
	is_i64(tracefs_event_field(tmpdir, "bad", "no_semicolon", "a", &f),
	       -EBADMSG, "field: a line without ';' is -EBADMSG");
	is_i64(tracefs_event_field(tmpdir, "bad", "isdir", "a", &f), -EIO,
	       "field: read error is -EIO");
	is_i64(tracefs_event_field(tmpdir, "filemap", fm, "", &f), -EINVAL,
	       "field: empty field name is -EINVAL");
	is_i64(tracefs_event_field(tmpdir, "filemap", fm, "order", NULL),
	       -EINVAL, "field: NULL output is -EINVAL");
}

static void put_bytes(unsigned char *raw, unsigned int off, const void *v,
		      size_t len)
{
	memcpy(raw + off, v, len);
}

static void test_field_u64(void)
{
	const char *fm = "mm_filemap_add_to_page_cache";
	struct tracefs_field ino, dev, order, pid, prio, tiny, s16;
	unsigned char raw[48];
	uint64_t v64 = 0x1122334455667788ULL, val;
	uint32_t v32 = 0xfd00001;
	int32_t pid_v = -5;
	int16_t s16_v = -300;
	unsigned char c = 0xff;
	int ret = 0;

	ret |= tracefs_event_field(tmpdir, "filemap", fm, "i_ino", &ino);
	ret |= tracefs_event_field(tmpdir, "filemap", fm, "s_dev", &dev);
	ret |= tracefs_event_field(tmpdir, "filemap", fm, "order", &order);
	ret |= tracefs_event_field(tmpdir, "filemap", fm, "common_pid", &pid);
	ret |= tracefs_event_field(tmpdir, "sched", "sched_switch",
				   "prev_prio", &prio);
	ret |= tracefs_event_field(tmpdir, "sched", "sched_switch", "tiny",
				   &tiny);
	ret |= tracefs_event_field(tmpdir, "sched", "sched_switch", "s16",
				   &s16);
	if (!ok(ret == 0, "u64: field lookups"))
		return;

	memset(raw, 0, sizeof(raw));
	put_bytes(raw, ino.offset, &v64, sizeof(v64));
	put_bytes(raw, dev.offset, &v32, sizeof(v32));
	raw[order.offset] = 4;
	put_bytes(raw, pid.offset, &pid_v, sizeof(pid_v));
	raw[tiny.offset] = c;
	put_bytes(raw, s16.offset, &s16_v, sizeof(s16_v));

	val = 0;
	is_i64(tracefs_field_u64(raw, sizeof(raw), &ino, &val), 0,
	       "u64: i_ino");
	is_u64(val, v64, "u64: 8-byte value");
	is_i64(tracefs_field_u64(raw, sizeof(raw), &dev, &val), 0,
	       "u64: s_dev");
	is_u64(val, v32, "u64: 4-byte value");
	is_i64(tracefs_field_u64(raw, 37, &order, &val), 0,
	       "u64: order, last byte of the sample");
	is_u64(val, 4, "u64: 1-byte value");
	is_i64(tracefs_field_u64(raw, sizeof(raw), &pid, &val), 0,
	       "u64: common_pid");
	is_i64((int64_t)val, -5, "u64: signed 4-byte field sign-extended");
	is_i64(tracefs_field_u64(raw, sizeof(raw), &tiny, &val), 0,
	       "u64: tiny");
	is_i64((int64_t)val, -1, "u64: signed 1-byte field sign-extended");
	is_i64(tracefs_field_u64(raw, sizeof(raw), &s16, &val), 0, "u64: s16");
	is_i64((int64_t)val, -300, "u64: signed 2-byte field sign-extended");
	order.offset = tiny.offset;
	is_i64(tracefs_field_u64(raw, sizeof(raw), &order, &val), 0,
	       "u64: unsigned read of 0xff");
	is_u64(val, 0xff, "u64: unsigned 1-byte field not sign-extended");

	val = 99;
	is_i64(tracefs_field_u64(raw, 36, &dev, &val), 0,
	       "u64: field ending exactly at the sample end");
	is_i64(tracefs_field_u64(raw, 35, &dev, &val), -EINVAL,
	       "u64: field crossing the sample end is -EINVAL");
	is_i64(tracefs_field_u64(raw, 8, &ino, &val), -EINVAL,
	       "u64: field starting at the sample end is -EINVAL");
	is_i64(tracefs_field_u64(raw, 0, &order, &val), -EINVAL,
	       "u64: empty sample is -EINVAL");
	ino.offset = UINT32_MAX;
	is_i64(tracefs_field_u64(raw, sizeof(raw), &ino, &val), -EINVAL,
	       "u64: huge offset is -EINVAL");
	ino.offset = 8;
	ino.size = 3;
	is_i64(tracefs_field_u64(raw, sizeof(raw), &ino, &val), -EINVAL,
	       "u64: size 3 is -EINVAL");
	ino.size = 16;
	is_i64(tracefs_field_u64(raw, sizeof(raw), &ino, &val), -EINVAL,
	       "u64: size 16 is -EINVAL");
	is_i64(tracefs_field_u64(NULL, sizeof(raw), &dev, &val), -EINVAL,
	       "u64: NULL sample is -EINVAL");
	is_u64(val, v32, "u64: value untouched on failure");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (make_tree()) {
		printf("Bail out! cannot build a fake tracefs in %s\n",
		       tmpdir);
		fakefs_rm_tree(tmpdir);
		return 1;
	}
	test_root();
	test_event_id();
	test_fields();
	test_field_errors();
	test_field_u64();
	ok(fakefs_rm_tree(tmpdir) == 0, "cleanup: removed %s", tmpdir);
	return tap_done();
}
