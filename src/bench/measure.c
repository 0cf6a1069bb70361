// SPDX-License-Identifier: GPL-2.0
/*
 * One measured run: evict the file, arm the perf events, run the workload
 * in a child (a fresh struct file, so a fresh readahead state), drain the
 * folio samples while it runs, then count what touching an mmap of the
 * file costs and, with --verify, hash what the reads and the mapping
 * returned against an O_DIRECT read.
 */
#include "bench/measure.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/blockdev.h"
#include "host/mountinfo.h"
#include "host/perf.h"
#include "host/tracefs.h"
#include "lib/fileio.h"
#include "lib/trust.h"

const char *const ra_event_names[NR_RA_EVENTS] = {
	"page_cache_ra_unbounded", "page_cache_ra_order",
	"page_cache_sync_ra", "page_cache_async_ra",
};

/* Mark @m unavailable: "@what: <error>". */
static void unavailable(struct measured *m, const char *what, int err)
{
	m->ok = false;
	snprintf(m->reason, sizeof(m->reason), "%s: %s", what, strerror(-err));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL + tv.tv_usec * 1000ULL;
}

int measure_file_open(struct measure_file *mf, const char *path)
{
	struct mount_of m;
	struct stat st;

	char why[8];
	int fd;

	memset(mf, 0, sizeof(*mf));
	/* root reads (and maps, and runs) only what no other user wrote */
	fd = trust_open(path, O_RDONLY, why, sizeof(why));
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	if (st.st_size < (off_t)page_size())
		return -EFBIG;	/* too small to say anything about readahead */
	mf->path = path;
	mf->size = st.st_size;
	mf->ino = st.st_ino;
	mf->dev_major = mf->sb_major = major(st.st_dev);
	mf->dev_minor = mf->sb_minor = minor(st.st_dev);
	/*
	 * On btrfs st_dev is the subvolume's anonymous device: the
	 * superblock's (what tracepoints record) and the block device come
	 * from the mount instead.
	 */
	if (!mount_of_path(path, &m)) {
		struct stat bd;

		mf->sb_major = m.major;
		mf->sb_minor = m.minor;
		if (!stat(m.source, &bd) && S_ISBLK(bd.st_mode)) {
			mf->dev_major = major(bd.st_rdev);
			mf->dev_minor = minor(bd.st_rdev);
		}
	}
	return 0;
}

/* The superblock's dev_t as tracepoints record it: MAJOR << 20 | MINOR. */
static uint32_t kernel_dev(const struct measure_file *mf)
{
	return (mf->sb_major << 20) | mf->sb_minor;
}

uint64_t measure_resident_pages(const char *path, int64_t size)
{
	size_t page = page_size(), pages = (size + page - 1) / page;
	unsigned char *vec = malloc(pages);
	uint64_t n = 0;
	void *map = MAP_FAILED;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0)
		map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (vec && map != MAP_FAILED && !mincore(map, size, vec))
		for (size_t i = 0; i < pages; i++)
			n += vec[i] & 1;
	if (map != MAP_FAILED)
		munmap(map, size);
	if (fd >= 0)
		close(fd);
	free(vec);
	return n;
}

int measure_drop_caches(void)
{
	/*
	 * Not sysctl_set(): the cache to drop is the real one, also when
	 * a test moves /proc/sys (test_canary_cli: a fake one for the
	 * features, measured with the host's page cache).
	 */
	int err, dc = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	sync();
	if (dc < 0)
		return -errno;
	err = write_full(dc, "1\n", 2);
	close(dc);
	return err;
}

void measure_evict(const char *path, char *how, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	bool fadv = false, dropped = false;

	if (fd >= 0) {
		fadv = !posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	if (geteuid() == 0)
		dropped = !measure_drop_caches();
	snprintf(how, len, "%s%s%s", fadv ? "fadvise_dontneed" : "",
		 fadv && dropped ? "+" : "", dropped ? "drop_caches" : "");
	if (!fadv && !dropped)
		snprintf(how, len, "none");
}

struct folio_count {
	struct tracefs_field order;
	uint64_t by_order[FOLIO_ORDERS];
	uint64_t total, bad;
};

static void count_folio(const void *raw, size_t size, void *arg)
{
	struct folio_count *fc = arg;
	uint64_t order;

	if (tracefs_field_u64(raw, size, &fc->order, &order) ||
	    order >= FOLIO_ORDERS) {
		fc->bad++;
		return;
	}
	fc->by_order[order]++;
	fc->total++;
}

struct events {
	struct perf_event_set folio, ra[NR_RA_EVENTS];
	bool have_folio, have_ra[NR_RA_EVENTS];
	struct folio_count fc;
};

static void events_open(struct events *ev, const struct measure_file *mf,
			const struct measure_opts *o, struct run_result *r)
{
	const char *root = tracefs_root();
	char filter[128];
	uint64_t id;
	int err;

	memset(ev, 0, sizeof(*ev));
	snprintf(filter, sizeof(filter), "i_ino == %llu && s_dev == %u",
		 (unsigned long long)mf->ino, kernel_dev(mf));
	if (!root) {
		r->folios.ok = r->ra.ok = false;
		snprintf(r->folios.reason, REASON_LEN,
			 "no tracefs mounted (mount -t tracefs tracefs /sys/kernel/tracing)");
		snprintf(r->ra.reason, REASON_LEN, "%s", r->folios.reason);
		return;
	}

	err = tracefs_event_id(root, "filemap", "mm_filemap_add_to_page_cache", &id);
	if (!err)
		err = tracefs_event_field(root, "filemap",
					  "mm_filemap_add_to_page_cache",
					  "order", &ev->fc.order);
	if (!err)
		err = perf_sampler_open_tp(&ev->folio, id, filter,
					   (unsigned int)pages_in(o->ring_bytes ? o->ring_bytes :
								  MEASURE_RING_BYTES, page_size()));
	if (err)
		unavailable(&r->folios, "filemap:mm_filemap_add_to_page_cache", err);
	else
		ev->have_folio = r->folios.ok = true;

	r->ra.ok = true;
	for (int i = 0; i < NR_RA_EVENTS; i++) {
		err = tracefs_event_id(root, "readahead", ra_event_names[i], &id);
		if (!err)
			err = perf_counter_open_tp(&ev->ra[i], id, filter);
		if (err) {
			char what[64];

			snprintf(what, sizeof(what), "readahead:%s",
				 ra_event_names[i]);
			unavailable(&r->ra, what, err);
			for (int j = 0; j < i; j++)
				perf_close(&ev->ra[j]);
			memset(ev->have_ra, 0, sizeof(ev->have_ra));
			return;
		}
		ev->have_ra[i] = true;
	}
}

static void events_enable(struct events *ev)
{
	if (ev->have_folio)
		perf_enable(&ev->folio);
	for (int i = 0; i < NR_RA_EVENTS; i++)
		if (ev->have_ra[i])
			perf_enable(&ev->ra[i]);
}

static void events_finish(struct events *ev, struct run_result *r)
{
	if (ev->have_folio) {
		perf_disable(&ev->folio);
		perf_drain(&ev->folio, count_folio, &ev->fc);
		if (ev->folio.lost || ev->fc.bad) {
			r->folios.ok = false;
			snprintf(r->folios.reason, REASON_LEN,
				 "%llu samples lost, %llu unreadable: ring too small",
				 (unsigned long long)ev->folio.lost,
				 (unsigned long long)ev->fc.bad);
		}
		r->folios_total = ev->fc.total;
		memcpy(r->folios_by_order, ev->fc.by_order,
		       sizeof(r->folios_by_order));
		perf_close(&ev->folio);
	}
	for (int i = 0; i < NR_RA_EVENTS; i++) {
		if (!ev->have_ra[i])
			continue;
		perf_disable(&ev->ra[i]);
		if (perf_read_sum(&ev->ra[i], &r->ra_count[i]))
			unavailable(&r->ra, "reading readahead counters", -EIO);
		perf_close(&ev->ra[i]);
	}
}

/* Shared with the child that runs the workload. */
struct child_report {
	int status;
	uint64_t bytes, calls;
	struct rusage at_go;	/* the child's usage before the measured part */
	struct fio_result fio;
	char sha_read[SHA256_HEX_LEN];
};

/*
 * The child: open and prepare (unmeasured), say so on @ready, wait for
 * the parent to arm the events and write to @go, run, report, exit.
 */
static void run_child(const struct measure_file *mf, const struct scenario *s,
		      const struct measure_opts *o, struct child_report *rep,
		      int ready, int go)
{
	struct scenario_run sr = {
		.s = s, .path = mf->path, .size = mf->size, .seed = o->seed,
	};
	struct sha256 h;
	char c = 0;

	if (o->verify && scenario_reads_in_order(s) && !sha256_init(&h))
		sr.hash = &h;
	rep->status = scenario_prepare(&sr);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(1);
	getrusage(RUSAGE_SELF, &rep->at_go);
	if (!rep->status)
		rep->status = scenario_execute(&sr);
	scenario_finish(&sr);
	rep->bytes = sr.io.bytes;
	rep->calls = sr.io.calls;
	rep->fio = sr.fio;
	if (sr.hash && (rep->status || sha256_final_hex(sr.hash, rep->sha_read)))
		rep->sha_read[0] = '\0';
	_exit(0);
}

static uint64_t tv_diff_ns(struct timeval a, struct timeval b)
{
	uint64_t x = tv_ns(a), y = tv_ns(b);

	return x > y ? x - y : 0;
}

static void block_counts(const struct measure_file *mf, struct blockdev *bd,
			 struct blockdev_stat *st, struct run_result *r);

static int run_workload(struct events *ev, const struct measure_file *mf,
			const struct scenario *s, const struct measure_opts *o,
			struct run_result *r, struct blockdev *bd,
			struct blockdev_stat *b0)
{
	struct child_report *rep;
	struct rusage ru;
	int ready[2], go[2], status, err = 0;
	uint64_t t0;
	pid_t pid;
	char c = 0;

	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED)
		return -errno;
	memset(rep, 0, sizeof(*rep));
	rep->status = -ECHILD;
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		munmap(rep, sizeof(*rep));
		return -errno;
	}

	/*
	 * Nothing buffered may reach the child: a flush there (the runner
	 * of fio flushes before its own fork) would write it a second time.
	 */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (pid == 0) {
		/*
		 * The parent's ends closed here: if it dies before "go"
		 * (SIGTERM), the read sees the end and the child exits
		 * rather than wait forever.
		 */
		close(ready[0]);
		close(go[1]);
		run_child(mf, s, o, rep, ready[1], go[0]);
	}
	close(ready[1]);
	close(go[0]);
	ready[1] = go[0] = -1;
	if (read(ready[0], &c, 1) != 1)
		err = -ECHILD;		/* it died preparing: reap it below */
	block_counts(mf, bd, b0, r);	/* after the unmeasured part */
	events_enable(ev);
	t0 = now_ns();
	if (!err && write(go[1], &c, 1) != 1)
		err = -ECHILD;
	for (;;) {
		pid_t w = wait4(pid, &status, WNOHANG, &ru);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			err = -errno;
			goto out;
		}
		if (ev->have_folio) {
			perf_wait(&ev->folio, 20);
			perf_drain(&ev->folio, count_folio, &ev->fc);
		} else {
			usleep(5000);
		}
	}
	r->wall_ns = now_ns() - t0;
	events_finish(ev, r);

	r->user_ns = tv_diff_ns(ru.ru_utime, rep->at_go.ru_utime);
	r->sys_ns = tv_diff_ns(ru.ru_stime, rep->at_go.ru_stime);
	r->minflt = ru.ru_minflt - rep->at_go.ru_minflt;
	r->majflt = ru.ru_majflt - rep->at_go.ru_majflt;
	r->bytes_read = rep->bytes;
	r->calls = rep->calls;
	r->fio = rep->fio;
	/* a child that exited non-zero (or was killed) did not run: not a run */
	r->status = err ? -ECHILD :
		    !WIFEXITED(status) ? -ECHILD :
		    WEXITSTATUS(status) ? -EIO : rep->status;
	memcpy(r->sha_read, rep->sha_read, sizeof(r->sha_read));
out:
	for (int i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
		if (go[i] >= 0)
			close(go[i]);
	}
	munmap(rep, sizeof(*rep));
	return err == -ECHILD ? 0 : err;
}

/* Touch every page of a fresh mapping; count the faults; maybe hash it. */
static void touch_mapping(const struct measure_file *mf, bool hash,
			  struct run_result *r)
{
	struct rusage a, b;
	volatile unsigned char sink = 0;
	unsigned char *map;
	int fd = open(mf->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		unavailable(&r->touch, "open", -errno);
		return;
	}
	map = mmap(NULL, mf->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		unavailable(&r->touch, "mmap", -errno);
		return;
	}
	getrusage(RUSAGE_SELF, &a);
	for (int64_t off = 0; off < mf->size; off += (int64_t)page_size())
		sink += map[off];
	getrusage(RUSAGE_SELF, &b);
	(void)sink;
	r->touch.ok = true;
	r->touch_minflt = b.ru_minflt - a.ru_minflt;
	r->touch_majflt = b.ru_majflt - a.ru_majflt;

	if (hash) {
		struct sha256 h;

		if (!sha256_init(&h)) {
			if (sha256_update(&h, map, mf->size) ||
			    sha256_final_hex(&h, r->sha_mmap)) {
				sha256_abort(&h);
				r->sha_mmap[0] = '\0';
			}
		}
	}
	munmap(map, mf->size);
}

int measure_sha_direct(const char *path, char hex[SHA256_HEX_LEN])
{
	const size_t chunk = 1UL << 20;
	struct sha256 h = { 0 };
	void *buf;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, page_size(), chunk)) {
		close(fd);
		return -ENOMEM;
	}
	err = sha256_init(&h);
	while (!err) {
		ssize_t n = read(fd, buf, chunk);

		if (n < 0)
			err = -errno;
		else if (n == 0)
			break;
		else
			err = sha256_update(&h, buf, n);
	}
	if (!err)
		err = sha256_final_hex(&h, hex);
	else
		sha256_abort(&h);
	free(buf);
	close(fd);
	return err;
}

static void block_counts(const struct measure_file *mf, struct blockdev *bd,
			 struct blockdev_stat *st, struct run_result *r)
{
	int err = blockdev_from_dev(blockdev_sysfs_root(), makedev(mf->dev_major, mf->dev_minor), bd);

	if (!err)
		err = blockdev_read_stat(bd, st);
	if (err) {
		unavailable(&r->block, "no block device statistics", err);
		return;
	}
	r->block.ok = true;
	snprintf(r->blockdev, sizeof(r->blockdev), "%s", bd->name);
}

/* Wait (up to 60 s) until the device has no request in flight. */
static int wait_io_idle(const struct blockdev *bd, struct blockdev_stat *st)
{
	for (int i = 0; i < 6000; i++) {
		int err = blockdev_read_stat(bd, st);

		if (err || !st->in_flight)
			return err;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/* Compare what was read with the O_DIRECT hash taken before the run. */
static void verify(const struct measure_file *mf, int direct_err,
		   struct run_result *r)
{
	if (direct_err) {
		unavailable(&r->verify, "O_DIRECT read", direct_err);
		return;
	}
	memcpy(r->sha_direct, mf->sha_direct, SHA256_HEX_LEN);
	if (!r->sha_mmap[0]) {
		unavailable(&r->verify, "hashing the mapping", -EIO);
		return;
	}
	r->verify.ok = true;
	r->verified = !strcmp(r->sha_mmap, r->sha_direct) &&
		      (!r->sha_read[0] || !strcmp(r->sha_read, r->sha_direct));
}

int measure_run(struct measure_file *mf, const struct scenario *s,
		const struct measure_opts *o, struct run_result *r)
{
	struct blockdev bd;
	struct blockdev_stat b0, b1;
	struct events ev;
	int err, direct_err = 0;

	memset(r, 0, sizeof(*r));
	r->scenario = s;
	for (int i = 0; i < nr_features && i < 8; i++)
		r->feature_state[i] = feature_get(&features[i]);
	if (!o->verify)
		snprintf(r->verify.reason, REASON_LEN, "not asked for (--verify)");

	/* The O_DIRECT hash once per file, and before evicting: reading it
	 * between the eviction and the run would disturb the run. */
	if (o->verify && !mf->sha_direct[0]) {
		direct_err = measure_sha_direct(mf->path, mf->sha_direct);
		if (direct_err)
			mf->sha_direct[0] = '\0';
	}

	measure_evict(mf->path, r->evict, sizeof(r->evict));
	r->resident_after_evict = measure_resident_pages(mf->path, mf->size);
	events_open(&ev, mf, o, r);
	err = run_workload(&ev, mf, s, o, r, &bd, &b0);
	if (err)
		return err;

	if (r->block.ok) {
		/* readahead(2) and WILLNEED return before their reads complete */
		if (wait_io_idle(&bd, &b1)) {
			unavailable(&r->block, "re-reading block statistics", -EIO);
		} else {
			r->block_reads = b1.read_ios - b0.read_ios;
			r->block_sectors = b1.read_sectors - b0.read_sectors;
		}
	}
	if (o->verify || !o->no_touch)
		touch_mapping(mf, o->verify, r);
	else
		snprintf(r->touch.reason, sizeof(r->touch.reason), "not asked for");
	if (o->verify)
		verify(mf, direct_err, r);
	return 0;
}
