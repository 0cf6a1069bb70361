/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 of a byte stream, through OpenSSL's libcrypto. */
#ifndef RAFLEET_SHA256_H
#define RAFLEET_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 65	/* 64 hex digits and a NUL */

struct sha256 {
	void *ctx;		/* EVP_MD_CTX */
};

int sha256_init(struct sha256 *h);
int sha256_update(struct sha256 *h, const void *buf, size_t len);
/* Writes the digest as lower-case hex into @hex and frees the context. */
int sha256_final_hex(struct sha256 *h, char hex[SHA256_HEX_LEN]);
/* Frees the context without a digest (error paths). */
void sha256_abort(struct sha256 *h);

#endif
