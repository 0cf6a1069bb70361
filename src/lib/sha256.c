// SPDX-License-Identifier: GPL-2.0
#include "lib/sha256.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>

int sha256_init(struct sha256 *h)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx)
		return -ENOMEM;
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		return -EIO;
	}
	h->ctx = ctx;
	return 0;
}

int sha256_update(struct sha256 *h, const void *buf, size_t len)
{
	return EVP_DigestUpdate(h->ctx, buf, len) == 1 ? 0 : -EIO;
}

int sha256_final_hex(struct sha256 *h, char hex[SHA256_HEX_LEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	int ok = EVP_DigestFinal_ex(h->ctx, md, &len) == 1 && len == 32;

	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	if (!ok)
		return -EIO;
	for (unsigned int i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}

void sha256_abort(struct sha256 *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}
