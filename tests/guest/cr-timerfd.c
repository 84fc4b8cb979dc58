// SPDX-License-Identifier: GPL-2.0
/*
 * Timer fds across checkpoint/restart (helper: tmfds, restarted by rstr
 * as a user would, 2 s after its checkpoint):
 *   - the helper's checks hold without a checkpoint, and after one: a
 *     periodic timer keeps its interval and fires again, an hour's
 *     one-shot keeps its time left (the 2 s the image waited do not
 *     count), an expired one's unread expiration is read after restart,
 *     one never armed stays so, an absolute CLOCK_REALTIME timer keeps
 *     its deadline (the 2 s do count) and its TFD_TIMER_ABSTIME;
 *   - ckptinfo validates that image and lists the five;
 *   - a timerfd a change of its clock cancelled (TFD_TIMER_CANCEL_ON_SET,
 *     the clock set 1 us ahead): EOPNOTSUPP, and the refused child
 *     carries on.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define READY	"/tmp/tmfds.ready"
#define GO	"/tmp/tmfds.go"
#define OUT	"/tmp/tmfds.out"
#define IMG	"/tmp/tmfds.img"

/* The helper's status, checkpointed and restarted 2 s later on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("tmfds"), READY, GO, OUT, NULL };

	return run_checked_after(argv, READY, GO, IMG, ckpt, 2, NULL);
}

/* Whether @fd has something to read now. */
static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* A child holding a timerfd its clock's change cancelled: EOPNOTSUPP. */
static void cancelled(void)
{
	struct itimerspec it = { .it_value = { time(NULL) + 3600, 0 } };
	struct timespec now;
	int fd, tries;
	pid_t pid;

	fd = timerfd_create(CLOCK_REALTIME, 0);
	if (fd < 0 || timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &it, NULL))
		tap_bail("setup: timerfd: %m");
	/*
	 * The clock set 1 us ahead of its own time: a change all the same.
	 * Setting it to the time just read is not one when the clocksource
	 * is coarse (jiffies: the offset to CLOCK_MONOTONIC stays), so the
	 * cancellation is seen (the fd readable) before going on.
	 */
	for (tries = 0; !readable(fd); tries++) {
		if (tries == 10)
			tap_bail("setup: 10 changes of CLOCK_REALTIME did not cancel the timerfd");
		if (clock_gettime(CLOCK_REALTIME, &now))
			tap_bail("setup: reading CLOCK_REALTIME: %m");
		now.tv_nsec += 1000;
		if (now.tv_nsec >= 1000000000) {
			now.tv_sec++;
			now.tv_nsec -= 1000000000;
		}
		if (clock_settime(CLOCK_REALTIME, &now))
			tap_bail("setup: setting CLOCK_REALTIME: %m");
	}
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EOPNOTSUPP, "cancelled", "a timerfd its clock's change cancelled");
}

int main(void)
{
	tap_plan(5);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/tmfds.info && "
		      "grep -q 'timerfd CLOCK_MONOTONIC, 0.[0-2][0-9]* s left, every 0.200 s, nonblocking' /tmp/tmfds.info && "
		      "grep -q 'timerfd CLOCK_BOOTTIME, 3[56][0-9][0-9].[0-9]* s left  ' /tmp/tmfds.info && "
		      "grep -q 'timerfd CLOCK_MONOTONIC, disarmed, 1 unread, nonblocking' /tmp/tmfds.info && "
		      "grep -q 'timerfd CLOCK_MONOTONIC, disarmed, nonblocking' /tmp/tmfds.info && "
		      "grep -q 'timerfd CLOCK_REALTIME, until [0-9]*.[0-9]*, nonblocking' /tmp/tmfds.info") == 0,
	       "ckptinfo validates the image and lists the five timerfds, armed as they were");
	cancelled();
	return tap_done();
}
