// SPDX-License-Identifier: GPL-2.0
/*
 * Pipes across checkpoint/restart (helper: pipes, restarted by rstr as a
 * user would):
 *   - the helper's checks hold without a checkpoint, and after one: 64 KiB
 *     in flight in a 256 KiB pipe read back in order, a pipe without its
 *     writer drained to end of file, one without its reader failing a
 *     write with EPIPE, a non-blocking read end, 10000 bytes in flight
 *     to a child, which reads them and then end of file, and 40000 bytes
 *     spliced from a unix socket (compound pages);
 *   - ckptinfo validates that image and lists its pipes;
 *   - refusals: a pipe whose other end the test holds (EBUSY, naming the
 *     pipe and the test); a packet (an O_DIRECT write) in flight, an end
 *     reopened through /proc with O_SYNC, more bytes (spliced from a TCP
 *     socket, then tee()d) in a pipe than its size (EOPNOTSUPP, each). Each refused target carries on.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/pipes.ready"
#define GO	"/tmp/pipes.go"
#define OUT	"/tmp/pipes.out"
#define IMG	"/tmp/pipes.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("pipes"), READY, GO, OUT, NULL };

	return run_checked_kid(argv, READY, GO, IMG, ckpt);
}

static void refuse_outside(void)
{
	struct stat st;
	char want[96];
	const char *why;
	pid_t pid;
	long ret;
	int p[2];

	if (pipe(p) || fstat(p[0], &st))
		tap_bail("pipe: %m");
	/* the child holds the write end only, the test the read end */
	pid = fork_holding(p[1], p[1], false);
	close(p[1]);
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	snprintf(want, sizeof(want), "pipe:[%lu]: its other end is held by task %d, outside the tree",
		 (unsigned long)st.st_ino, getpid());
	if (!tap_ok(ret == -EBUSY && strstr(why, want),
		    "a pipe whose read end the test holds: EBUSY naming both (%ld, \"%s\")",
		    ret, why)) {
		char cmd[128];

		tap_diag("expected \"%s\"", want);
		snprintf(cmd, sizeof(cmd), "ls -l /proc/%d/fd /proc/%d/fd >&2", pid, getpid());
		if (system(cmd))
			tap_diag("%s failed", cmd);
	}
	kill(pid, SIGCONT);
	/* the child's write end is still open: no end of file */
	errno = 0;
	tap_ok(!fcntl(p[0], F_SETFL, O_NONBLOCK) && read(p[0], want, 1) == -1 &&
	       errno == EAGAIN,
	       "the refused child still holds its end (an empty read gets EAGAIN: %s)",
	       strerror(errno));
	kill_wait(pid);
	close(p[0]);
}

/*
 * The child holds the pipe @p (ends adjacent), nothing outside: refused
 * with EOPNOTSUPP and a reason holding @want, and it carries on.
 */
static void refuse_held(int p[2], const char *want, const char *what)
{
	const char *why;
	pid_t pid;
	long ret;

	if (p[1] != p[0] + 1)
		tap_bail("setup: pipe ends %d and %d not adjacent", p[0], p[1]);
	pid = fork_holding(p[0], p[1], false);
	close(p[0]);
	close(p[1]);
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, want),
	       "%s: EOPNOTSUPP (%ld, \"%s\")", what, ret, why);
	kill(pid, SIGCONT);
	tap_ok(kill(pid, 0) == 0, "%s: the refused target is still there", what);
	kill_wait(pid);
}

static void refuse_packet(void)
{
	int p[2];

	if (pipe2(p, O_DIRECT))
		tap_bail("pipe2(O_DIRECT): %m");
	if (write(p[1], "packet", 6) != 6)
		tap_bail("write: %m");
	refuse_held(p, "packet", "a packet (O_DIRECT write) in flight");
}

/* Restart makes its ends with pipe(): it could not give one O_SYNC. */
static void refuse_reopened(void)
{
	char path[64];
	int p[2], w;

	if (pipe(p))
		tap_bail("pipe: %m");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[1]);
	w = open(path, O_WRONLY | O_SYNC);
	if (w < 0 || dup2(w, p[1]) != p[1] || close(w))
		tap_bail("reopening %s with O_SYNC: %m", path);
	refuse_held(p, "reopened with other flags",
		    "a pipe's write end reopened through /proc with O_SYNC");
}

/*
 * A TCP connection over the loopback device (brought up): its ends in
 * @sv, the sender's first.
 */
static void tcp_pair(int sv[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct ifreq ifr = { .ifr_name = "lo" };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || ioctl(l, SIOCGIFFLAGS, &ifr))
		tap_bail("setup: socket, lo's flags: %m");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(l, SIOCSIFFLAGS, &ifr) || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &len))
		tap_bail("setup: a listening socket on lo: %m");
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (sv[0] < 0 || connect(sv[0], (struct sockaddr *)&a, sizeof(a)))
		tap_bail("setup: connecting over lo: %m");
	sv[1] = accept(l, NULL, NULL);
	if (sv[1] < 0)
		tap_bail("setup: accept: %m");
	close(l);
}

/*
 * Pages spliced from a TCP socket are pieces of compound pages, up to 32
 * KiB each; tee() takes them whole into another pipe: a pipe of two pages
 * then holds more bytes than its size, which writes at restart could not
 * put back.
 */
static void refuse_spliced(void)
{
	static char buf[40000];
	int p[2], big[2], sv[2], n = 0;

	if (pipe(p) || fcntl(p[1], F_SETPIPE_SZ, 8192) != 8192 || pipe(big) ||
	    fcntl(big[1], F_SETPIPE_SZ, 65536) != 65536)
		tap_bail("setup: pipes of 8192 and 65536 bytes: %m");
	tcp_pair(sv);
	memset(buf, 'S', sizeof(buf));
	if (send(sv[0], buf, sizeof(buf), 0) != sizeof(buf))
		tap_bail("setup: send: %m");
	if (splice(sv[1], NULL, big[1], NULL, sizeof(buf), 0) <= 0 ||
	    tee(big[0], p[1], sizeof(buf), SPLICE_F_NONBLOCK) <= 0 ||
	    ioctl(p[0], FIONREAD, &n))
		tap_bail("setup: splicing, then tee() into the small pipe: %m");
	close(sv[0]);
	close(sv[1]);
	close(big[0]);
	close(big[1]);
	if (n <= 8192) {
		tap_skip("the socket's pages held %d bytes in 2 pipe slots: not more than the size", n);
		tap_skip("(the refusal's target not made)");
		close(p[0]);
		close(p[1]);
		return;
	}
	tap_diag("%d bytes in a pipe of 8192", n);
	refuse_held(p, "than its size",
		    "more bytes spliced into a pipe than its size");
}

int main(void)
{
	tap_plan(11);
	engine_on();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	check_both(run, OUT);
	/* the helper's six pipes, one with only its read end, one only its write end */
	tap_ok(system("ckptinfo " IMG " > /tmp/pipes.info && grep -qx 'pipes: 6' /tmp/pipes.info && "
		      "grep -q 'ends open: read only$' /tmp/pipes.info && "
		      "grep -q 'ends open: write only$' /tmp/pipes.info && "
		      "grep -q '^  pipe [0-9]*: 262144 bytes, 65536 in flight' /tmp/pipes.info") == 0,
	       "ckptinfo validates the image and lists its 6 pipes, their sizes, bytes and open ends");
	refuse_outside();
	refuse_packet();
	refuse_reopened();
	refuse_spliced();
	return tap_done();
}
