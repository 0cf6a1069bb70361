// SPDX-License-Identifier: GPL-2.0
/*
 * measure: the folio sampler's ring is a size in bytes, whatever the page
 * size (its runs need root and tracefs: the guest tests run them).
 */
#include "tap.h"
#include "bench/measure.h"
#include "lib/fileio.h"

int main(void)
{
	is_u64(measure_ring_pages(MEASURE_RING_BYTES, 4096), 1024,
	       "4 MiB a CPU: 1024 pages of 4 KiB, as before the ring was sized in bytes");
	is_u64(measure_ring_pages(MEASURE_RING_BYTES, 65536), 64, "64 pages of 64 KiB, not 64 MiB");
	is_u64(measure_ring_pages(MEASURE_RING_BYTES, 16384), 256, "256 pages of 16 KiB");
	is_u64(measure_ring_pages(16UL << 20, 65536), 256, "16 MiB: 256 pages of 64 KiB");
	is_u64(measure_ring_pages(4096, 65536), 1, "less than a page: one page");
	is_u64(measure_ring_pages(MEASURE_RING_BYTES, 0), 1, "no page size: one page, no division by 0");
	ok((uint64_t)measure_ring_pages(MEASURE_RING_BYTES, page_size()) * page_size() == MEASURE_RING_BYTES,
	   "this machine (%zu-byte pages): 4 MiB of them", page_size());
	return tap_done();
}
