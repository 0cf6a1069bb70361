// SPDX-License-Identifier: GPL-2.0
/*
 * strbuf: appending never writes past the buffer, cuts what does not fit
 * and says so, keeps the text NUL-terminated; a word is added whole or
 * not at all; word_next() walks the words of a string.
 */
#include <string.h>

#include "lib/strbuf.h"
#include "tap.h"

static void test_addf(void)
{
	char buf[16];
	struct strbuf sb;

	memset(buf, 'x', sizeof(buf));
	sb_init(&sb, buf, 10);
	sb_addf(&sb, "%s", "abc");
	sb_addf(&sb, "-%d", 42);
	is_str(buf, "abc-42", "two appends");
	ok(sb.used == 6 && !sb.cut, "  used 6, nothing cut");
	sb_addf(&sb, "%s", "defgh");
	is_str(buf, "abc-42def", "a third that does not fit: cut at the buffer's end");
	ok(sb.cut && sb.used == 9, "  said, used stops at len - 1");
	ok(buf[10] == 'x' && buf[15] == 'x', "  nothing written past the 10 bytes");
	sb_addf(&sb, "%s", "z");
	is_str(buf, "abc-42def", "after a cut nothing more is added");
	sb_init(&sb, buf, 1);
	sb_addf(&sb, "%s", "a");
	ok(buf[0] == '\0' && sb.cut, "a buffer of one byte: empty, cut");
}

static void test_words(void)
{
	char buf[12];
	struct strbuf sb;
	const char *p = "  root=/dev/vda\tro  quiet \n", *w;
	size_t n, count = 0;

	sb_init(&sb, buf, sizeof(buf));
	while (word_next(&p, " \t\n", &w, &n)) {
		count++;
		sb_add_word(&sb, w, n);
	}
	ok(count == 3, "three words, whatever the spaces around them");
	ok(!strcmp(buf, "") && sb.cut,
	   "  the first (13 bytes) does not fit in 12 with its NUL: nothing added, cut, and no more after it");
	p = "ro quiet";
	sb_init(&sb, buf, 9);
	while (word_next(&p, " ", &w, &n))
		sb_add_word(&sb, w, n);
	ok(!strcmp(buf, "ro quiet") && !sb.cut, "  8 bytes and the NUL fit in 9 exactly");
	sb_init(&sb, buf, sizeof(buf));
	sb_add_word(&sb, "ro", 2);
	sb_add_word(&sb, "quiet", 5);
	sb_add_word(&sb, "", 0);
	is_str(buf, "ro quiet", "words joined by one space; an empty one adds nothing");
	sb_add_word(&sb, "abc", 3);
	is_str(buf, "ro quiet", "a word that does not fit whole is not added at all");
	ok(sb.cut, "  said");
	p = " \t ";
	ok(!word_next(&p, " \t", &w, &n), "only spaces: no word");
}

int main(void)
{
	test_addf();
	test_words();
	return tap_done();
}
