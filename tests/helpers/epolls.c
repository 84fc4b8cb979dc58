// SPDX-License-Identifier: GPL-2.0
/*
 * epolls READY GO OUT: an event loop's epoll instance, in the state a
 * checkpoint must keep; creates READY, waits for GO, then checks it and
 * exits 0 if all holds (1 otherwise, what failed in OUT; 9: its set-up
 * failed). The instance watches, level-triggered:
 *   - a pipe's read end, 5 bytes in flight (data 1);
 *   - an empty eventfd (data 2), and the same eventfd under a descriptor
 *     closed since (data 6: the item stays, under that number);
 *   - a timerfd firing every 100 ms (data 3);
 *   - a signalfd for SIGUSR1, blocked (data 4);
 *   - and, edge-triggered, the pipe's write end (data 5).
 * Checked after GO: its interest list is the same (/proc/self/fdinfo:
 * each item's descriptor, events and data); the pipe is ready at once,
 * the eventfd and the signalfd are not; a write to the eventfd makes both
 * its items ready, a SIGUSR1 the signalfd's; the pipe holds "hello";
 * with the three drained, the timer fires within 2 s. A second
 * instance's one-shot item that fired before READY stays as it was
 * (fdinfo: its events EPOLLONESHOT alone) and disabled, its eventfd
 * readable all the same.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define MAX_ITEMS	16

static bool add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return !epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * The "tfd: ... events: ... data: ..." part of @ep's fdinfo lines, sorted
 * (fdinfo lists them in the order of their files' addresses), into @buf.
 */
static size_t items(int ep, char *buf, size_t size)
{
	char path[64], line[256], item[MAX_ITEMS][48];
	unsigned int tfd, events;
	unsigned long long data;
	size_t i, nr = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", ep);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (nr < MAX_ITEMS && fgets(line, sizeof(line), f))
		if (sscanf(line, "tfd: %u events: %x data: %llx", &tfd, &events, &data) == 3)
			snprintf(item[nr++], sizeof(item[0]), "%u %#x %#llx; ", tfd, events, data);
	fclose(f);
	qsort(item, nr, sizeof(item[0]), by_text);
	buf[0] = '\0';
	for (i = 0; i < nr; i++)
		n += snprintf(buf + n, n < size ? size - n : 0, "%s", item[i]);
	return n;
}

/* The data of the items @ep reports within @ms, as a bit mask (data < 64). */
static uint64_t ready(int ep, int ms)
{
	struct epoll_event evs[MAX_ITEMS];
	uint64_t mask = 0;
	int i, n;

	n = epoll_wait(ep, evs, MAX_ITEMS, ms);
	for (i = 0; i < n; i++)
		if (evs[i].data.u64 < 64)
			mask |= 1ULL << evs[i].data.u64;
	return mask;
}

int main(int argc, char **argv)
{
	static char before[1024], after[1024], once_before[128], once_after[128];
	struct itimerspec it = { { 0, 100000000 }, { 0, 100000000 } };
	int p[2], ev, dupd, tf, sf, ep, once, ev2, fd;
	struct signalfd_siginfo si;
	uint64_t one = 1, mask;
	sigset_t usr1;
	char buf[16];

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL) || pipe(p) || write(p[1], "hello", 5) != 5)
		return 9;
	ev = eventfd(0, EFD_NONBLOCK);
	dupd = dup(ev);
	tf = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	sf = signalfd(-1, &usr1, SFD_NONBLOCK);
	ep = epoll_create1(0);
	if (ev < 0 || dupd < 0 || tf < 0 || sf < 0 || ep < 0 ||
	    timerfd_settime(tf, 0, &it, NULL) ||
	    !add(ep, p[0], EPOLLIN, 1) || !add(ep, ev, EPOLLIN, 2) ||
	    !add(ep, tf, EPOLLIN, 3) || !add(ep, sf, EPOLLIN, 4) ||
	    !add(ep, p[1], EPOLLOUT | EPOLLET, 5) || !add(ep, dupd, EPOLLIN, 6) ||
	    close(dupd))
		return 9;
	once = epoll_create1(0);
	ev2 = eventfd(1, EFD_NONBLOCK);
	if (once < 0 || ev2 < 0 || !add(once, ev2, EPOLLIN | EPOLLONESHOT, 7) ||
	    ready(once, 0) != 1ULL << 7 || ready(once, 0))
		return 9;
	if (!items(ep, before, sizeof(before)) ||
	    !items(once, once_before, sizeof(once_before)))
		return 9;
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return 9;
	wait_go(argv[2]);

	if (!items(ep, after, sizeof(after)) || strcmp(before, after))
		check_fail("interest list: \"%s\", was \"%s\"", after, before);
	mask = ready(ep, 0);
	if (!(mask & 1ULL << 1) || mask & (1ULL << 2 | 1ULL << 4 | 1ULL << 6))
		check_fail("ready at once: %#llx (want the pipe, 1 << 1, and neither the eventfd nor the signalfd)",
			   (unsigned long long)mask);
	if (write(ev, &one, sizeof(one)) != sizeof(one))
		check_fail("eventfd: write: %s", strerror(errno));
	mask = ready(ep, 0);
	if ((mask & (1ULL << 2 | 1ULL << 6)) != (1ULL << 2 | 1ULL << 6))
		check_fail("after a write to the eventfd: %#llx (want both its items, 1 << 2 and 1 << 6)",
			   (unsigned long long)mask);
	kill(getpid(), SIGUSR1);
	if (!(ready(ep, 0) & 1ULL << 4))
		check_fail("after SIGUSR1: the signalfd not ready");
	/* drained, the pipe, eventfd and signalfd leave the timer alone to wait for */
	if (read(p[0], buf, sizeof(buf)) != 5 || memcmp(buf, "hello", 5) ||
	    read(ev, &one, sizeof(one)) != sizeof(one) ||
	    read(sf, &si, sizeof(si)) != sizeof(si) || si.ssi_signo != SIGUSR1)
		check_fail("draining the pipe (\"hello\"), the eventfd and the signalfd (SIGUSR1)");
	for (mask = 0, fd = 0; fd < 20 && !(mask & 1ULL << 3); fd++)
		mask |= ready(ep, 100);
	if (!(mask & 1ULL << 3))
		check_fail("the timer did not fire within 2 s (ready: %#llx)",
			   (unsigned long long)mask);
	/* as it was: EPOLLONESHOT alone, no EPOLLERR or EPOLLHUP */
	if (!items(once, once_after, sizeof(once_after)) || strcmp(once_before, once_after))
		check_fail("the one-shot item: \"%s\", was \"%s\"", once_after, once_before);
	mask = ready(once, 100);
	if (mask)
		check_fail("the one-shot item that fired reported again: %#llx",
			   (unsigned long long)mask);
	return checks_status();
}
