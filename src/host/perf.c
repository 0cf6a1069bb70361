// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) counters and tracepoint samplers.  See host/perf.h.
 */
#include "host/perf.h"
#include "lib/fileio.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>


int perf_nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > PERF_MAX_CPUS ? PERF_MAX_CPUS : (int)n;
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
			       int cpu)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static void set_init(struct perf_event_set *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < PERF_MAX_CPUS; i++)
		s->fd[i] = -1;
}

void perf_close(struct perf_event_set *s)
{
	for (int i = 0; i < s->nr; i++) {
		if (s->ring[i])
			munmap(s->ring[i], s->ring_bytes + page_size());
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->ring[i] = NULL;
		s->fd[i] = -1;
	}
	s->nr = 0;
}

static int set_filter(int fd, const char *filter)
{
	if (!filter || !*filter)
		return 0;
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) ? -errno : 0;
}

/* Open @attr on every CPU (pid -1) or for one task (@pid, any CPU). */
static int open_all(struct perf_event_set *s, struct perf_event_attr *attr,
		    pid_t pid, const char *filter)
{
	int n = pid >= 0 ? 1 : perf_nr_cpus();
	int err;

	for (int i = 0; i < n; i++) {
		int fd = sys_perf_event_open(attr, pid, pid >= 0 ? -1 : i);

		if (fd < 0) {
			err = fd;
			goto fail;
		}
		s->fd[s->nr++] = fd;
		err = set_filter(fd, filter);
		if (err)
			goto fail;
	}
	return 0;
fail:
	perf_close(s);
	return err;
}

int perf_counter_open_tp(struct perf_event_set *s, uint64_t id,
			 const char *filter)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = id,
		.disabled = 1,
	};

	set_init(s);
	return open_all(s, &attr, -1, filter);
}

int perf_counter_open_sw(struct perf_event_set *s, uint64_t config, pid_t pid)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		.disabled = 1,
		.inherit = 1,
		.exclude_kernel = 0,
	};

	set_init(s);
	return open_all(s, &attr, pid, NULL);
}

int perf_sampler_open_tp(struct perf_event_set *s, uint64_t id,
			 const char *filter, unsigned int ring_pages)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = id,
		.disabled = 1,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
		.watermark = 1,
	};
	size_t psz = page_size();
	int err;

	if (!ring_pages || (ring_pages & (ring_pages - 1)))
		return -EINVAL;
	set_init(s);
	s->ring_bytes = (size_t)ring_pages * psz;
	attr.wakeup_watermark = s->ring_bytes / 4;
	err = open_all(s, &attr, -1, filter);
	if (err)
		return err;
	for (int i = 0; i < s->nr; i++) {
		void *p = mmap(NULL, s->ring_bytes + psz, PROT_READ | PROT_WRITE,
			       MAP_SHARED, s->fd[i], 0);

		if (p == MAP_FAILED) {
			err = -errno;
			perf_close(s);
			return err;
		}
		s->ring[i] = p;
	}
	return 0;
}

static int ioctl_all(struct perf_event_set *s, unsigned long req)
{
	for (int i = 0; i < s->nr; i++)
		if (ioctl(s->fd[i], req, 0))
			return -errno;
	return 0;
}

int perf_enable(struct perf_event_set *s)
{
	int err = ioctl_all(s, PERF_EVENT_IOC_RESET);

	return err ? err : ioctl_all(s, PERF_EVENT_IOC_ENABLE);
}

int perf_disable(struct perf_event_set *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_DISABLE);
}

int perf_read_sum(struct perf_event_set *s, uint64_t *sum)
{
	*sum = 0;
	for (int i = 0; i < s->nr; i++) {
		uint64_t v;

		if (read(s->fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return -EIO;
		*sum += v;
	}
	return 0;
}

/* Copy @len bytes at ring offset @off, which may wrap, into @dst. */
static void ring_copy(const unsigned char *data, size_t size, uint64_t off,
		      void *dst, size_t len)
{
	size_t at = off & (size - 1);
	size_t first = len < size - at ? len : size - at;

	memcpy(dst, data + at, first);
	memcpy((unsigned char *)dst + first, data, len - first);
}

static uint64_t drain_one(struct perf_event_set *s, int i, perf_raw_fn fn,
			  void *arg)
{
	struct perf_event_mmap_page *meta = s->ring[i];
	const unsigned char *data = (const unsigned char *)meta + page_size();
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	unsigned char rec[65536];	/* h.size is a u16: any record fits */
	uint64_t n = 0;

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(data, s->ring_bytes, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;	/* corrupt: stop rather than loop */
		ring_copy(data, s->ring_bytes, tail, rec, h.size);
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 4) {
			uint32_t raw_size;

			memcpy(&raw_size, rec + sizeof(h), 4);
			if (sizeof(h) + 4 + raw_size <= h.size) {
				fn(rec + sizeof(h) + 4, raw_size, arg);
				n++;
			}
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(h) + 8, 8);
			s->lost += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

uint64_t perf_drain(struct perf_event_set *s, perf_raw_fn fn, void *arg)
{
	uint64_t n = 0;

	for (int i = 0; i < s->nr; i++)
		if (s->ring[i])
			n += drain_one(s, i, fn, arg);
	s->seen += n;
	return n;
}

int perf_wait(struct perf_event_set *s, int timeout_ms)
{
	struct pollfd pfd[PERF_MAX_CPUS];
	int r;

	for (int i = 0; i < s->nr; i++) {
		pfd[i].fd = s->fd[i];
		pfd[i].events = POLLIN;
	}
	r = poll(pfd, s->nr, timeout_ms);
	return r > 0 ? 1 : 0;
}
