// SPDX-License-Identifier: GPL-2.0
/*
 * fileio: read_small_file() takes a file that exactly fills the buffer and
 * refuses one byte more; read_whole_file() reads a file bigger than its
 * first buffer, refuses one over its limit (-EFBIG) and one with a NUL
 * byte (-EBADMSG), and leaves nothing allocated on error; read_whole_fd()
 * reads an open file from where it is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fakefs.h"
#include "lib/fileio.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/rafleet-fileio-XXXXXX", path[256], buf[8], *big, *out;
	size_t len = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/seven", dir);
	fakefs_put(dir, "seven", "1234567");
	is_i64(read_small_file(path, buf, sizeof(buf)), 0,
	       "read_small_file: 7 bytes into 8 (exactly full, with its NUL)");
	is_str(buf, "1234567", "  all of it");
	fakefs_put(dir, "seven", "12345678");
	is_i64(read_small_file(path, buf, sizeof(buf)), -EBADMSG,
	       "read_small_file: 8 bytes into 8: does not fit");
	snprintf(path, sizeof(path), "%s/none", dir);
	is_i64(read_small_file(path, buf, sizeof(buf)), -ENOENT, "read_small_file: no file: -ENOENT");

	big = malloc(20001);
	memset(big, 'x', 20000);
	big[20000] = '\0';
	fakefs_put(dir, "big", big);
	snprintf(path, sizeof(path), "%s/big", dir);
	is_i64(read_whole_file(path, 20000, &out, &len), 0,
	       "read_whole_file: 20000 bytes, limit 20000 (grown past its first 4 KiB)");
	ok(out && len == 20000 && !strcmp(out, big), "  all of it, NUL-terminated");
	free(out);
	is_i64(read_whole_file(path, 19999, &out, &len), -EFBIG,
	       "read_whole_file: one byte over its limit: -EFBIG");
	ok(!out, "  and nothing returned");
	fakefs_put(dir, "empty", "");
	snprintf(path, sizeof(path), "%s/empty", dir);
	ok(!read_whole_file(path, 10, &out, NULL) && out && !*out, "read_whole_file: an empty file is \"\"");
	free(out);
	snprintf(path, sizeof(path), "%s/nul", dir);
	{
		FILE *f = fopen(path, "w");

		fwrite("a\0b", 1, 3, f);
		fclose(f);
	}
	is_i64(read_whole_file(path, 10, &out, NULL), -EBADMSG, "read_whole_file: a NUL byte: -EBADMSG");
	ok(!out, "  and nothing returned");
	{
		FILE *f = tmpfile();

		fputs("written by a child", f);
		fflush(f);
		lseek(fileno(f), 8, SEEK_SET);
		ok(!read_whole_fd(fileno(f), 100, &out, &len) && out && !strcmp(out, "by a child") &&
		   len == 10, "read_whole_fd: from where the file is to its end ('%s')", out ? out : "");
		free(out);
		lseek(fileno(f), 0, SEEK_SET);
		is_i64(read_whole_fd(fileno(f), 5, &out, NULL), -EFBIG, "read_whole_fd: over its limit: -EFBIG");
		fclose(f);
	}
	free(big);
	fakefs_rm_tree(dir);
	/* page_order, pages_in: sizes in pages of 4, 16 and 64 KiB */
	is_i64(page_order(1, 4096), 0, "page_order: a byte is order 0");
	is_i64(page_order(4096, 4096), 0, "page_order: a page is order 0");
	is_i64(page_order(4097, 4096), 1, "page_order: a byte more than a page is order 1");
	is_i64(page_order(2UL << 20, 4096), 9, "page_order: 2 MiB is order 9 on 4K pages");
	is_i64(page_order(2UL << 20, 16384), 7, "page_order: order 7 on 16K pages");
	is_i64(page_order(2UL << 20, 65536), 5, "page_order: order 5 on 64K pages");
	is_i64(page_order(512UL << 10, 65536), 3, "page_order: 512 KiB is order 3 on 64K pages");
	is_i64(page_order(2UL << 20, 0), 0, "page_order: no page size, order 0, no endless loop");
	is_u64(pages_in(4UL << 20, 4096), 1024, "pages_in: 4 MiB is 1024 pages of 4 KiB");
	is_u64(pages_in(4UL << 20, 65536), 64, "pages_in: 64 pages of 64 KiB (not 1024: 64 MiB)");
	is_u64(pages_in(16UL << 20, 16384), 1024, "pages_in: 16 MiB is 1024 pages of 16 KiB");
	is_u64(pages_in(4096, 65536), 1, "pages_in: less than a page is one page");
	is_u64(pages_in(4UL << 20, 0), 1, "pages_in: no page size, one page, no division by 0");
	return tap_done();
}
