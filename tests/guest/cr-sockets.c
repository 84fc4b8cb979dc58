// SPDX-License-Identifier: GPL-2.0
/*
 * Unix socket pairs across checkpoint/restart (helper: socks, restarted by
 * rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: its
 *     stream, datagram and seqpacket pairs keep what was queued on them
 *     (a stream's 99990 bytes left, three datagrams whole), their options,
 *     flags and shutdowns; an event loop on epoll (the stream socket, an
 *     eventfd, a timerfd) goes on serving; a pair whose other end was
 *     closed reads its last bytes then end of file; a pair shared with a
 *     child still carries "ping" and "pong"; SO_PEERCRED names the process;
 *   - ckptinfo validates that image and lists the pairs;
 *   - refusals, each refused child carrying on: the other end held by the
 *     test (EBUSY, naming it); a descriptor in flight (SCM_RIGHTS), an
 *     out-of-band byte, credentials in flight (SO_PASSCRED), a connection
 *     accepted from a listener (its ends have a name) (EOPNOTSUPP).
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/socks.ready"
#define GO	"/tmp/socks.go"
#define OUT	"/tmp/socks.out"
#define IMG	"/tmp/socks.img"
#define BOUND	"/tmp/socks.bound"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("socks"), READY, GO, OUT, NULL };

	return run_checked_kid(argv, READY, GO, IMG, ckpt);
}

/* A stream pair, adjacent descriptors (fork_holding() keeps a range). */
static void pair(int type, int s[2])
{
	if (socketpair(AF_UNIX, type, 0, s) || s[1] != s[0] + 1)
		tap_bail("setup: socketpair: %m (%d %d)", s[0], s[1]);
}

/* A child holding @lo..@hi, closed here: refused with @err and @want. */
static void refused(int lo, int hi, int err, const char *want, const char *what)
{
	pid_t pid = fork_holding(lo, hi, true);
	int fd;

	for (fd = lo; fd <= hi; fd++)
		close(fd);
	check_refused(pid, IMG, err, want, what);
}

int main(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = BOUND };
	int s[2], other, one = 1;

	tap_plan(13);
	engine_on();
	/* the helper's child, orphaned when it is killed, is the test's to reap */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/socks.info && "
		      "[ $(grep -c 'unix stream' /tmp/socks.info) -ge 4 ] && "
		      "grep -q 'unix dgram' /tmp/socks.info && "
		      "grep -q 'unix seqpacket' /tmp/socks.info") == 0,
	       "ckptinfo validates the image and lists its stream, datagram and seqpacket pairs");

	/* the test keeps the other end */
	pair(SOCK_STREAM, s);
	other = dup(s[1]);
	close(s[1]);
	refused(s[0], s[0], EBUSY, "held by task", "a pair whose other end the test holds");
	close(other);

	pair(SOCK_STREAM, s);
	other = open("/dev/null", O_RDONLY);
	send_fd(s[1], other);	/* to s[0], still in flight */
	close(other);
	refused(s[0], s[1], EOPNOTSUPP, "SCM_RIGHTS", "a pair with a descriptor in flight");

	pair(SOCK_STREAM, s);
	if (send(s[1], "x", 1, MSG_OOB) != 1)
		tap_bail("setup: MSG_OOB: %m");
	refused(s[0], s[1], EOPNOTSUPP, "MSG_OOB", "a pair with an out-of-band byte");

	pair(SOCK_DGRAM, s);
	if (setsockopt(s[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
	    send(s[1], "c", 1, 0) != 1)
		tap_bail("setup: SO_PASSCRED: %m");
	refused(s[0], s[1], EOPNOTSUPP, "credentials in flight",
		"a pair with credentials in flight");

	/* a connection accepted from a listener: the ends have a name */
	unlink(BOUND);
	other = socket(AF_UNIX, SOCK_STREAM, 0);
	if (other < 0 || bind(other, (struct sockaddr *)&sun, sizeof(sun)) ||
	    listen(other, 1))
		tap_bail("setup: listen on %s: %m", BOUND);
	s[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s[0] < 0 || connect(s[0], (struct sockaddr *)&sun, sizeof(sun)))
		tap_bail("setup: connect to %s: %m", BOUND);
	s[1] = accept(other, NULL, NULL);
	if (s[1] != s[0] + 1)
		tap_bail("setup: accept: %m (%d %d)", s[0], s[1]);
	close(other);
	refused(s[0], s[1], EOPNOTSUPP, "with a name", "a connection accepted from a listener");
	unlink(BOUND);
	return tap_done();
}
