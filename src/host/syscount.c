// SPDX-License-Identifier: GPL-2.0
/*
 * host/syscount.c - host-wide counting perf events and block device reads,
 * see host/syscount.h.
 */
#include "host/syscount.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/blockdev.h"
#include "lib/fileio.h"
#include "host/tracefs.h"

#define FOLIO_SYS "filemap"
#define FOLIO_EVENT "mm_filemap_add_to_page_cache"

static void set_why(struct sc_avail *a, const char *what, int err)
{
	a->ok = false;
	snprintf(a->why, sizeof(a->why), "%s: %s", what, strerror(-err));
}

/* Why perf_event_open failed, in words an operator can act on. */
static void perf_why(struct sc_avail *a, const char *what, int err)
{
	if (err == -EACCES || err == -EPERM)
		snprintf(a->why, sizeof(a->why),
			 "%s: %s (needs root, CAP_PERFMON or kernel.perf_event_paranoid <= 0)",
			 what, strerror(-err));
	else
		snprintf(a->why, sizeof(a->why), "%s: %s", what, strerror(-err));
	a->ok = false;
}

static bool read_u64_file(const char *path, uint64_t *v)
{
	char buf[64], *end;

	if (read_small_file(path, buf, sizeof(buf)))
		return false;
	*v = strtoull(buf, &end, 10);
	return end != buf;
}

bool sc_device_exists(const char *sysfs, const char *name)
{
	char path[PATH_MAX], buf[1024];

	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || strlen(name) >= SC_NAME_LEN)
		return false;
	if ((size_t)snprintf(path, sizeof(path), "%s/block/%s/stat", sysfs,
			     name) >= sizeof(path))
		return false;
	return read_small_file(path, buf, sizeof(buf)) == 0;
}

/* SYSFS/block/@name/holders has an entry: something is stacked on it. */
static bool has_holders(const char *sysfs, const char *name)
{
	char path[PATH_MAX];
	struct dirent *e;
	bool any = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/block/%s/holders", sysfs, name);
	d = opendir(path);
	if (!d)
		return false;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			any = true;
			break;
		}
	closedir(d);
	return any;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int sc_default_devices(const char *sysfs, char names[][SC_NAME_LEN], int max)
{
	char path[PATH_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/block", sysfs);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		uint64_t size = 0;

		if (e->d_name[0] == '.' || !strncmp(e->d_name, "ram", 3) ||
		    !strncmp(e->d_name, "zram", 4) ||
		    strlen(e->d_name) >= SC_NAME_LEN)
			continue;
		snprintf(path, sizeof(path), "%s/block/%s/size", sysfs, e->d_name);
		if (!read_u64_file(path, &size) || !size)
			continue;
		if (!sc_device_exists(sysfs, e->d_name) ||
		    has_holders(sysfs, e->d_name))
			continue;
		snprintf(names[n++], SC_NAME_LEN, "%.*s", SC_NAME_LEN - 1, e->d_name);
	}
	closedir(d);
	qsort(names, n, SC_NAME_LEN, cmp_name);
	return n;
}

/* One counter per order, "order == N"; on error none stays open. */
static int open_orders(struct syscount *sc, uint64_t id)
{
	char filter[32];
	int err;

	for (int o = 0; o < SC_ORDERS; o++) {
		snprintf(filter, sizeof(filter), "order == %d", o);
		err = perf_counter_open_tp(&sc->folio[o], id, filter);
		if (err) {
			while (o--)
				perf_close(&sc->folio[o]);
			return err;
		}
	}
	return 0;
}

static void open_folios(struct syscount *sc, const char *root)
{
	struct sc_values *a = &sc->avail;
	struct tracefs_field order;
	uint64_t id;
	int err;

	err = tracefs_event_id(root, FOLIO_SYS, FOLIO_EVENT, &id);
	if (err) {
		set_why(&a->folio_ok, FOLIO_SYS ":" FOLIO_EVENT, err);
		a->orders_ok = a->folio_ok;
		return;
	}
	err = tracefs_event_field(root, FOLIO_SYS, FOLIO_EVENT, "order", &order);
	if (err == -ENOENT) {
		snprintf(a->orders_ok.why, SC_WHY_LEN,
			 "%s has no order field (a kernel without large folios in the page cache)",
			 FOLIO_SYS ":" FOLIO_EVENT);
	} else if (err) {
		set_why(&a->orders_ok, FOLIO_SYS ":" FOLIO_EVENT " format", err);
	} else {
		err = open_orders(sc, id);
		if (!err) {
			a->orders_ok.ok = a->folio_ok.ok = true;
			return;
		}
		perf_why(&a->orders_ok, FOLIO_SYS ":" FOLIO_EVENT " by order", err);
	}
	a->orders_ok.ok = false;
	/* all folios in one count, still worth a rate */
	err = perf_counter_open_tp(&sc->folio_all, id, NULL);
	if (err)
		perf_why(&a->folio_ok, FOLIO_SYS ":" FOLIO_EVENT, err);
	else
		a->folio_ok.ok = true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The readahead:* tracepoints tracefs lists here, sorted. */
static int list_ra(const char *root, char names[][SC_NAME_LEN], int max)
{
	char path[PATH_MAX], *sorted[SC_MAX_RA];
	char tmp[SC_MAX_RA][SC_NAME_LEN];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events/readahead", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		uint64_t id;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= SC_NAME_LEN ||
		    tracefs_event_id(root, "readahead", e->d_name, &id))
			continue;	/* "enable", "filter": not events */
		snprintf(tmp[n], SC_NAME_LEN, "%.*s", SC_NAME_LEN - 1, e->d_name);
		sorted[n] = tmp[n];
		n++;
	}
	closedir(d);
	qsort(sorted, n, sizeof(sorted[0]), cmp_str);
	for (int i = 0; i < n; i++)
		snprintf(names[i], SC_NAME_LEN, "%s", sorted[i]);
	return n ? n : -ENOENT;
}

static void open_ra(struct syscount *sc, const char *root)
{
	struct sc_values *a = &sc->avail;
	int n = list_ra(root, a->ra_name, SC_MAX_RA);
	char what[SC_NAME_LEN + 16];
	uint64_t id;
	int err;

	if (n < 0) {
		set_why(&a->ra_ok, "readahead:* tracepoints", n);
		return;
	}
	for (int i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "readahead:%s", a->ra_name[i]);
		err = tracefs_event_id(root, "readahead", a->ra_name[i], &id);
		if (!err)
			err = perf_counter_open_tp(&sc->ra[i], id, NULL);
		if (err) {
			perf_why(&a->ra_ok, what, err);
			while (i--)
				perf_close(&sc->ra[i]);
			return;
		}
	}
	a->nr_ra = n;
	a->ra_ok.ok = true;
}

static void open_disks(struct syscount *sc, const char *const *devs, int nr)
{
	struct sc_values *a = &sc->avail;

	if (!devs) {
		sc->nr_dev = sc_default_devices(sc->sysfs, sc->dev, SC_MAX_DEVS);
	} else {
		for (int i = 0; i < nr && i < SC_MAX_DEVS; i++)
			snprintf(sc->dev[i], SC_NAME_LEN, "%s", devs[i]);
		sc->nr_dev = nr < SC_MAX_DEVS ? nr : SC_MAX_DEVS;
	}
	a->disk_ok.ok = sc->nr_dev > 0;
	if (!sc->nr_dev)
		snprintf(a->disk_ok.why, SC_WHY_LEN,
			 "no block device to watch under %.100s/block", sc->sysfs);
}

int sc_open(struct syscount *sc, const char *const *devs, int nr_devs)
{
	struct sc_values *a = &sc->avail;
	const char *root;
	int err;

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->sysfs, sizeof(sc->sysfs), "%s", blockdev_sysfs_root());
	open_disks(sc, devs, nr_devs);

	err = perf_counter_open_sw(&sc->majflt, PERF_COUNT_SW_PAGE_FAULTS_MAJ, -1);
	if (err)
		perf_why(&a->majflt_ok, "major-faults", err);
	else
		a->majflt_ok.ok = true;

	root = tracefs_root();
	if (!root) {
		snprintf(a->folio_ok.why, SC_WHY_LEN,
			 "no tracefs mounted (mount -t tracefs tracefs /sys/kernel/tracing)");
		a->orders_ok = a->ra_ok = a->folio_ok;
	} else {
		open_folios(sc, root);
		open_ra(sc, root);
	}

	if (a->majflt_ok.ok)
		perf_enable(&sc->majflt);
	for (int o = 0; o < SC_ORDERS; o++)
		perf_enable(&sc->folio[o]);
	perf_enable(&sc->folio_all);
	for (int i = 0; i < a->nr_ra; i++)
		perf_enable(&sc->ra[i]);
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void read_disks(struct syscount *sc, struct sc_values *v)
{
	v->read_ios = v->read_sectors = 0;
	for (int i = 0; i < sc->nr_dev && v->disk_ok.ok; i++) {
		struct blockdev bd = { 0 };
		struct blockdev_stat st;
		int err;

		snprintf(bd.name, sizeof(bd.name), "%s", sc->dev[i]);
		snprintf(bd.sysdir, sizeof(bd.sysdir), "%s/block/%s", sc->sysfs,
			 sc->dev[i]);
		err = blockdev_read_stat(&bd, &st);
		if (err) {
			v->disk_ok.ok = false;
			snprintf(v->disk_ok.why, SC_WHY_LEN,
				 "block device %.63s: stat: %.60s", bd.name,
				 strerror(-err));
			return;
		}
		v->read_ios += st.read_ios;
		v->read_sectors += st.read_sectors;
	}
}

/* Sum of @s, or mark @a unavailable. */
static uint64_t read_set(struct perf_event_set *s, struct sc_avail *a,
			 const char *what)
{
	uint64_t n = 0;

	if (a->ok && perf_read_sum(s, &n)) {
		a->ok = false;
		snprintf(a->why, SC_WHY_LEN, "%s: reading the counter failed", what);
	}
	return n;
}

void sc_read(struct syscount *sc, struct sc_values *v)
{
	*v = sc->avail;
	v->t_ns = now_ns();
	v->majflt = read_set(&sc->majflt, &v->majflt_ok, "major-faults");
	v->folios = 0;
	if (v->orders_ok.ok) {
		for (int o = 0; o < SC_ORDERS; o++) {
			v->by_order[o] = read_set(&sc->folio[o], &v->orders_ok,
						  FOLIO_EVENT);
			v->folios += v->by_order[o];
		}
		if (!v->orders_ok.ok)
			v->folio_ok = v->orders_ok;
	} else {
		v->folios = read_set(&sc->folio_all, &v->folio_ok, FOLIO_EVENT);
	}
	for (int i = 0; i < v->nr_ra; i++)
		v->ra[i] = read_set(&sc->ra[i], &v->ra_ok, "readahead");
	read_disks(sc, v);
}

static uint64_t sub(uint64_t b, uint64_t a)
{
	return b >= a ? b - a : 0;
}

void sc_delta(const struct sc_values *a, const struct sc_values *b,
	      struct sc_values *d)
{
	*d = *b;
	d->t_ns = sub(b->t_ns, a->t_ns);
	d->majflt = sub(b->majflt, a->majflt);
	d->folios = sub(b->folios, a->folios);
	for (int o = 0; o < SC_ORDERS; o++)
		d->by_order[o] = sub(b->by_order[o], a->by_order[o]);
	for (int i = 0; i < b->nr_ra && i < a->nr_ra; i++)
		d->ra[i] = sub(b->ra[i], a->ra[i]);
	d->read_ios = sub(b->read_ios, a->read_ios);
	d->read_sectors = sub(b->read_sectors, a->read_sectors);
	/* unavailable in either read: unavailable in the window */
	if (!a->majflt_ok.ok)
		d->majflt_ok = a->majflt_ok;
	if (!a->folio_ok.ok)
		d->folio_ok = a->folio_ok;
	if (!a->orders_ok.ok)
		d->orders_ok = a->orders_ok;
	if (!a->ra_ok.ok)
		d->ra_ok = a->ra_ok;
	if (!a->disk_ok.ok)
		d->disk_ok = a->disk_ok;
}

void sc_close(struct syscount *sc)
{
	perf_close(&sc->majflt);
	perf_close(&sc->folio_all);
	for (int o = 0; o < SC_ORDERS; o++)
		perf_close(&sc->folio[o]);
	for (int i = 0; i < SC_MAX_RA; i++)
		perf_close(&sc->ra[i]);
}
