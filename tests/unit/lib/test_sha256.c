// SPDX-License-Identifier: GPL-2.0
/* sha256: FIPS 180-2 vectors, and streaming equals one shot. */
#include <string.h>

#include "lib/sha256.h"
#include "tap.h"

static void digest(const char *parts[], int n, char hex[SHA256_HEX_LEN])
{
	struct sha256 h;

	hex[0] = '\0';
	if (sha256_init(&h))
		return;
	for (int i = 0; i < n; i++)
		sha256_update(&h, parts[i], strlen(parts[i]));
	if (sha256_final_hex(&h, hex))
		hex[0] = '\0';
}

int main(void)
{
	char hex[SHA256_HEX_LEN];
	const char *empty[] = { "" };
	const char *abc[] = { "abc" };
	const char *split[] = { "a", "", "bc" };
	const char *long_[] = { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq" };

	digest(empty, 1, hex);
	is_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "empty input");
	digest(abc, 1, hex);
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "\"abc\"");
	digest(split, 3, hex);
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "\"abc\" fed in pieces");
	digest(long_, 1, hex);
	is_str(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448-bit message");
	return tap_done();
}
