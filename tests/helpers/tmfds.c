// SPDX-License-Identifier: GPL-2.0
/*
 * tmfds READY GO OUT: holds timer fds in the states a checkpoint must
 * keep, creates READY, waits for GO, then checks each one and exits 0 if
 * all hold (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - a periodic non-blocking CLOCK_MONOTONIC timer, every 200 ms: its
 *     interval is 200 ms, it has at most 200 ms left, and it fires again
 *     (poll() sees it within 2 s, a read gets at least one expiration);
 *   - a blocking CLOCK_BOOTTIME one-shot of an hour: still blocking, one
 *     shot, with less than an hour left but more than 50 minutes;
 *   - a non-blocking one-shot of 1 ms that expired before READY, unread:
 *     a read gets its one expiration, then it is disarmed and a read gets
 *     EAGAIN;
 *   - a timer never armed: disarmed, a read gets EAGAIN;
 *   - an absolute CLOCK_REALTIME timer an hour ahead: its deadline is the
 *     same (time left + the time now, within 0.5 s), and fdinfo says it
 *     was armed with TFD_TIMER_ABSTIME ("settime flags: 01").
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define NS	1000000000LL

static long long ns_of(const struct timespec *ts)
{
	return ts->tv_sec * NS + ts->tv_nsec;
}

static long long now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ns_of(&ts);
}

static int armed(clockid_t clock, int flags, long long value, long long interval, int how)
{
	struct itimerspec it = {
		.it_value = { value / NS, value % NS },
		.it_interval = { interval / NS, interval % NS },
	};
	int fd = timerfd_create(clock, flags);

	if (fd < 0 || (value && timerfd_settime(fd, how, &it, NULL)))
		return -1;
	return fd;
}

/* One read of @fd: its expirations, or 0 with errno set. */
static uint64_t expirations(int fd)
{
	uint64_t v;

	errno = 0;
	return read(fd, &v, sizeof(v)) == sizeof(v) ? v : 0;
}

/* Whether @fd's fdinfo has the line @line. */
static bool fdinfo_has(int fd, const char *line)
{
	char path[64], buf[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(buf, sizeof(buf), f))
		found = !strcmp(buf, line);
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	int periodic, hour, expired, never, deadline, fd;
	struct itimerspec it;
	struct pollfd pfd;
	long long abs, left;
	uint64_t v;

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	periodic = armed(CLOCK_MONOTONIC, TFD_NONBLOCK, NS / 5, NS / 5, 0);
	hour = armed(CLOCK_BOOTTIME, 0, 3600 * NS, 0, 0);
	expired = armed(CLOCK_MONOTONIC, TFD_NONBLOCK, NS / 1000, 0, 0);
	never = armed(CLOCK_MONOTONIC, TFD_NONBLOCK, 0, 0, 0);
	abs = now_ns(CLOCK_REALTIME) + 3600 * NS;
	deadline = armed(CLOCK_REALTIME, TFD_NONBLOCK, abs, 0, TFD_TIMER_ABSTIME);
	if (periodic < 0 || hour < 0 || expired < 0 || never < 0 || deadline < 0)
		return 9;
	/* the 1 ms one has fired: one expiration waits */
	usleep(50 * 1000);
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return 9;
	wait_go(argv[2]);

	if (timerfd_gettime(periodic, &it) ||
	    ns_of(&it.it_interval) != NS / 5 || ns_of(&it.it_value) <= 0 ||
	    ns_of(&it.it_value) > NS / 5)
		check_fail("periodic: interval %lld ns, %lld ns left",
			   ns_of(&it.it_interval), ns_of(&it.it_value));
	pfd = (struct pollfd){ .fd = periodic, .events = POLLIN };
	if (poll(&pfd, 1, 2000) != 1 || !(v = expirations(periodic)))
		check_fail("periodic: no expiration within 2 s (%s)", strerror(errno));

	if (fcntl(hour, F_GETFL) & O_NONBLOCK)
		check_fail("hour: O_NONBLOCK set");
	if (timerfd_gettime(hour, &it) || ns_of(&it.it_interval) ||
	    ns_of(&it.it_value) >= 3600 * NS || ns_of(&it.it_value) < 3000 * NS)
		check_fail("hour: interval %lld ns, %lld ns left",
			   ns_of(&it.it_interval), ns_of(&it.it_value));

	v = expirations(expired);
	if (v != 1)
		check_fail("expired: a read got %llu expirations (%s), not 1",
			   (unsigned long long)v, strerror(errno));
	if (timerfd_gettime(expired, &it) || ns_of(&it.it_value) ||
	    expirations(expired) || errno != EAGAIN)
		check_fail("expired: armed again, or a second read did not get EAGAIN");

	if (timerfd_gettime(never, &it) || ns_of(&it.it_value) ||
	    expirations(never) || errno != EAGAIN)
		check_fail("never armed: armed, or a read did not get EAGAIN (%s)",
			   strerror(errno));

	if (timerfd_gettime(deadline, &it))
		check_fail("deadline: timerfd_gettime: %s", strerror(errno));
	left = ns_of(&it.it_value) + now_ns(CLOCK_REALTIME) - abs;
	if (left < -NS / 2 || left > NS / 2)
		check_fail("deadline: moved by %lld ms", left / 1000000);
	if (!fdinfo_has(deadline, "settime flags: 01\n"))
		check_fail("deadline: fdinfo does not say TFD_TIMER_ABSTIME");
	return checks_status();
}
