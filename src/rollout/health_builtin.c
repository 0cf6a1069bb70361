// SPDX-License-Identifier: GPL-2.0
#include "rollout/health_builtin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/kexec.h"
#include "host/running.h"
#include "lib/rootdir.h"
#include "lib/runcmd.h"
#include "lib/strbuf.h"

#define RT_UP 0x0001		/* RTF_UP */
#define RT_REJECT 0x0200	/* RTF_REJECT: an unreachable route */
#define LINKS_MAX 32

struct link {
	char name[IF_NAMESIZE];
	bool up, loopback;
	char addr[INET6_ADDRSTRLEN];	/* the first usable one; "" none */
};

static struct link *link_of(struct link *l, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(l[i].name, name))
			return &l[i];
	if (*n == LINKS_MAX)
		return NULL;
	memset(&l[*n], 0, sizeof(l[*n]));
	snprintf(l[*n].name, sizeof(l[*n].name), "%s", name);
	return &l[(*n)++];
}

static int read_links(struct link *l, size_t *n)
{
	struct ifaddrs *all, *a;

	*n = 0;
	if (getifaddrs(&all))
		return -errno;
	for (a = all; a; a = a->ifa_next) {
		struct link *k = link_of(l, n, a->ifa_name);
		const void *raw = NULL;

		if (!k)
			continue;
		k->up = (a->ifa_flags & IFF_UP) && (a->ifa_flags & IFF_RUNNING);
		k->loopback = a->ifa_flags & IFF_LOOPBACK;
		if (!a->ifa_addr || k->addr[0])
			continue;
		if (a->ifa_addr->sa_family == AF_INET) {
			raw = &((const struct sockaddr_in *)(const void *)a->ifa_addr)->sin_addr;
		} else if (a->ifa_addr->sa_family == AF_INET6) {
			const struct in6_addr *a6 =
				&((const struct sockaddr_in6 *)(const void *)a->ifa_addr)->sin6_addr;

			if (!IN6_IS_ADDR_LINKLOCAL(a6))
				raw = a6;
		}
		if (raw)
			inet_ntop(a->ifa_addr->sa_family, raw, k->addr, sizeof(k->addr));
	}
	freeifaddrs(all);
	return 0;
}

static bool usable(const struct link *l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i].name, name))
			return l[i].up && !l[i].loopback && l[i].addr[0];
	return false;
}

/* A default route out of a usable link, from /proc/net/route or ipv6_route. */
static bool default_route(const struct link *l, size_t n, char *via, size_t vlen,
			  char *dev, size_t dlen)
{
	char path[4096], line[512], name[IF_NAMESIZE + 1], dst[33], hop[33];
	unsigned long d, gw, mask;
	unsigned int flags, plen;
	bool found = false;
	FILE *f;

	if (host_path("/proc/net/route", path, sizeof(path)))
		path[0] = '\0';
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%16s %lx %lx %x %*d %*d %*d %lx", name, &d, &gw, &flags, &mask) != 5 ||
		    d || mask || !(flags & RT_UP) || (flags & RT_REJECT) || !usable(l, n, name))
			continue;
		struct in_addr a = { .s_addr = (in_addr_t)gw };	/* as the kernel stores it */

		inet_ntop(AF_INET, &a, via, (socklen_t)vlen);
		snprintf(dev, dlen, "%s", name);
		found = true;
	}
	if (f)
		fclose(f);
	if (host_path("/proc/net/ipv6_route", path, sizeof(path)))
		path[0] = '\0';
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%32s %x %*s %*x %32s %*x %*x %*x %x %16s", dst, &plen, hop, &flags,
			   name) != 5 ||
		    plen || strspn(dst, "0") != 32 || !(flags & RT_UP) || (flags & RT_REJECT) ||
		    !usable(l, n, name))
			continue;
		struct in6_addr a;

		for (int i = 0; i < 16; i++) {
			unsigned int byte;

			sscanf(hop + 2 * i, "%2x", &byte);
			a.s6_addr[i] = (unsigned char)byte;
		}
		inet_ntop(AF_INET6, &a, via, (socklen_t)vlen);
		snprintf(dev, dlen, "%s", name);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

static void sleep_s(unsigned int s)
{
	struct timespec t = { s, 0 };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* "eth0 up 10.0.2.15, lo loopback, eth1 down" */
static void describe(const struct link *l, size_t n, char *out, size_t len)
{
	struct strbuf o;

	sb_init(&o, out, len);
	for (size_t i = 0; i < n; i++)
		sb_addf(&o, "%s%s %s%s%s", i ? ", " : "", l[i].name,
			l[i].loopback ? "loopback" : l[i].up ? "up" : "down",
			l[i].addr[0] && !l[i].loopback ? " " : "", l[i].loopback ? "" : l[i].addr);
	if (!n)
		sb_addf(&o, "none");
}

int healthcheck_network(unsigned int wait_s, char *out, size_t len)
{
	struct link l[LINKS_MAX];
	char via[INET6_ADDRSTRLEN], dev[IF_NAMESIZE + 1], links[512];
	double end = now_s() + wait_s;
	size_t n;
	int err;

	for (;;) {
		err = read_links(l, &n);
		if (err) {
			snprintf(out, len, "cannot list the links: %s", strerror(-err));
			return err;
		}
		if (default_route(l, n, via, sizeof(via), dev, sizeof(dev))) {
			for (size_t i = 0; i < n; i++)
				if (!strcmp(l[i].name, dev))
					snprintf(out, len, "%s is up with %s, the default route via %s",
						 dev, l[i].addr, via);
			return 0;
		}
		if (now_s() >= end)
			break;
		sleep_s(1);
	}
	describe(l, n, links, sizeof(links));
	snprintf(out, len, "no default route out of a link that is up with an address, after %u s (links: %s)",
		 wait_s, links);
	return 1;
}

/* systemctl show's LoadState= and ActiveState= of @unit. */
static int unit_state(const char *unit, char *load, char *active, size_t len, char *why,
		      size_t wlen)
{
	const char *prog;
	char *argv[] = { NULL, "show", "--property=LoadState,ActiveState", "--", (char *)unit,
			 NULL };
	char buf[512], res[64];
	ssize_t n;
	int fd, rc;

	load[0] = active[0] = '\0';
	rc = host_program(ENV_SYSTEMCTL, SYSTEMCTL_DEFAULT, &prog, why, wlen);
	if (rc)
		return rc;
	argv[0] = (char *)prog;
	fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, wlen, "cannot open a file in /tmp: %s", strerror(errno));
		return -errno;
	}
	rc = run_command(argv, fd, 10);
	n = rc == 0 && lseek(fd, 0, SEEK_SET) == 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	if (rc || n < 0) {
		snprintf(why, wlen, "systemctl show %s: %s", unit,
			 run_command_result(rc, res, sizeof(res)));
		return -EIO;
	}
	buf[n] = '\0';
	for (char *p = strtok(buf, "\n"); p; p = strtok(NULL, "\n")) {
		if (!strncmp(p, "LoadState=", 10))
			snprintf(load, len, "%s", p + 10);
		else if (!strncmp(p, "ActiveState=", 12))
			snprintf(active, len, "%s", p + 12);
	}
	return 0;
}

int healthcheck_units(const char *units, unsigned int wait_s, char *out, size_t len)
{
	double end = now_s() + wait_s;
	char unit[256], load[64], active[64], list[512];
	const char *p = units, *w;
	struct strbuf o;
	size_t n;

	sb_init(&o, list, sizeof(list));
	while (word_next(&p, " \t", &w, &n)) {
		int err;

		snprintf(unit, sizeof(unit), "%.*s", (int)n, w);
		for (;;) {
			err = unit_state(unit, load, active, sizeof(load), out, len);
			if (err)
				return err;
			if (strcmp(load, "loaded")) {
				snprintf(out, len, "%s is %s", unit, load[0] ? load : "unknown to systemd");
				return 1;
			}
			if (!strcmp(active, "active") || !strcmp(active, "reloading"))
				break;
			if (!strcmp(active, "failed") || now_s() >= end) {
				snprintf(out, len, "%s is %s%s", unit, active,
					 strcmp(active, "failed") ? " (not active in time)" : "");
				return 1;
			}
			sleep_s(1);
		}
		sb_addf(&o, "%s%s", o.used ? ", " : "", unit);
	}
	if (!o.used)
		snprintf(out, len, "no units to check (RAFLEET_HEALTH_UNITS is empty)");
	else
		snprintf(out, len, "%s active", list);
	return 0;
}
