// SPDX-License-Identifier: GPL-2.0
/*
 * The rollout state reader (rollout/state_json.c on lib/jsonread.h's
 * tables), given arbitrary bytes as state.json: it loads them or refuses
 * them with a reason, never crashes; and what it loads, written back by
 * state_write_json(), loads again to the same document (a round trip).
 * The bytes go through a memfd, read by its /proc/self/fd path, so the
 * reader opens and reads a file as it does on a host.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/fileio.h"
#include "rollout/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd_with(const void *buf, size_t len, char *path, size_t plen)
{
	int fd = memfd_create("state", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (write_full(fd, buf, len))
		abort();
	snprintf(path, plen, "/proc/self/fd/%d", fd);
	return fd;
}

static char *written(const struct state *s, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (!f || state_write_json(f, s))
		abort();
	fclose(f);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], why[256];
	struct state s, t;
	char *a, *b;
	size_t alen, blen;
	int fd, err;

	why[0] = '\0';
	fd = memfd_with(data, size, path, sizeof(path));
	err = state_load(&s, path, why, sizeof(why));
	close(fd);
	if (err) {
		if (!why[0] && err == -EBADMSG)
			abort();	/* a refusal says why */
		state_free(&s);
		return 0;
	}
	a = written(&s, &alen);
	fd = memfd_with(a, alen, path, sizeof(path));
	if (state_load(&t, path, why, sizeof(why)))
		abort();	/* what it wrote, it must read */
	close(fd);
	b = written(&t, &blen);
	if (alen != blen || memcmp(a, b, alen))
		abort();	/* and read it to the same state */
	free(a);
	free(b);
	state_free(&s);
	state_free(&t);
	return 0;
}
