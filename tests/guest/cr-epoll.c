// SPDX-License-Identifier: GPL-2.0
/*
 * Epoll instances across checkpoint/restart (helper: epolls, restarted by
 * rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: its
 *     event loop's instance keeps its interest list (descriptor numbers,
 *     one closed since, events and data) and reports its pipe, eventfd,
 *     signalfd and timerfd as they become ready; a one-shot item that
 *     fired stays disabled;
 *   - ckptinfo validates that image and lists the instance's items;
 *   - refusals (EOPNOTSUPP, each refused child carries on): an instance
 *     watching a file only the test holds; an instance watching another.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/epolls.ready"
#define GO	"/tmp/epolls.go"
#define OUT	"/tmp/epolls.out"
#define IMG	"/tmp/epolls.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("epolls"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

/*
 * A child holding only the epoll instance @ep (and @keep, the next
 * descriptor, if not -1), closed here: EOPNOTSUPP with a reason holding
 * @want.
 */
static void refused(int ep, int keep, const char *want, const char *what)
{
	pid_t pid;

	if (keep >= 0 && keep != ep + 1)
		tap_bail("setup: descriptors %d and %d not adjacent", ep, keep);
	pid = fork_holding(ep, keep >= 0 ? keep : ep, true);
	close(ep);
	if (keep >= 0)
		close(keep);
	check_refused(pid, IMG, EOPNOTSUPP, want, what);
}

int main(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int p[2], ep, inner;

	tap_plan(7);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/epolls.info && "
		      "grep -q 'epoll, 6 items  ' /tmp/epolls.info && "
		      "grep -q 'epoll, 1 items  ' /tmp/epolls.info && "
		      "[ $(grep -c '    watches fd ' /tmp/epolls.info) = 7 ]") == 0,
	       "ckptinfo validates the image and lists the two instances' 7 items");

	/* the pipe's ends stay the test's: the child has the instance only */
	ep = epoll_create1(0);
	if (ep < 0 || pipe(p) || epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev))
		tap_bail("setup: epoll on a pipe: %m");
	refused(ep, -1, "a file the image does not hold",
		"an epoll instance watching a file only the test holds");
	close(p[0]);
	close(p[1]);

	ep = epoll_create1(0);
	inner = epoll_create1(0);
	if (ep < 0 || inner < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, inner, &ev))
		tap_bail("setup: nested epoll: %m");
	refused(ep, inner, "nested", "an epoll instance watching another");
	return tap_done();
}
