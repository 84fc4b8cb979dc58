// SPDX-License-Identifier: GPL-2.0
/*
 * socks READY GO OUT: unix socket pairs in the state a checkpoint must
 * keep; creates READY, waits for GO, then checks them and exits 0 if all
 * holds (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - a stream pair: 100000 bytes queued one way (10 of them read
 *     already), 5 the other way, one end non-blocking with SO_SNDBUF
 *     65536 (getsockopt: 131072), the other with a 1.5 s SO_RCVTIMEO and
 *     SO_PASSCRED; an event loop's epoll instance watches it, an eventfd
 *     and a timerfd: the socket is ready at once, the loop serves the
 *     eventfd and the timer, and the bytes read after GO go on where the
 *     ones before stopped;
 *   - a datagram pair: three messages queued (0, 100 and 2000 bytes),
 *     each read whole after GO, in order;
 *   - a seqpacket pair, one end shut down for writing with two messages
 *     on their way: read, then end of file; a write on it fails (EPIPE);
 *   - a stream pair whose other end was closed after writing "bye":
 *     "bye", then end of file;
 *   - a stream pair shared with a child (made before fork(), each keeps
 *     one end; READY holds the child's pid): "ping" after GO gets the
 *     child's "pong", and the child exits 0 once its end reads end of
 *     file;
 *   - SO_PEERCRED: the process itself (its pid, after restart its new
 *     one, and its uid).
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
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG	100000
#define SKIP	10
#define LOOP	(1ULL << 2 | 1ULL << 3)	/* the event loop's eventfd and timer */

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + i / 251);
}

/* Read exactly @len bytes from @fd (blocking), or false. */
static bool read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			return false;
		got += n;
	}
	return true;
}

static int getint(int fd, int opt)
{
	int val = -1;
	socklen_t len = sizeof(val);

	if (getsockopt(fd, SOL_SOCKET, opt, &val, &len))
		return -1;
	return val;
}

/* The child: answers "ping" with "pong" until end of file. */
static void child(int fd)
{
	char buf[4];

	while (read_all(fd, buf, 4))
		if (memcmp(buf, "ping", 4) || write(fd, "pong", 4) != 4)
			_exit(1);
	_exit(0);
}

static void check_stream(int s[2], int ep, int ev)
{
	static unsigned char buf[BIG];
	struct epoll_event evs[4];
	struct timeval tv;
	socklen_t len = sizeof(tv);
	uint64_t mask = 0, one = 1;
	int i, n, tries;
	size_t j;

	n = epoll_wait(ep, evs, 4, 0);
	for (i = 0; i < n; i++)
		mask |= 1ULL << evs[i].data.u64;
	if (!(mask & 1ULL << 1))
		check_fail("the stream socket with bytes queued not ready at once (ready: %#llx)",
			   (unsigned long long)mask);
	if (getint(s[1], SO_SNDBUF) != 131072)
		check_fail("SO_SNDBUF %d, want 131072", getint(s[1], SO_SNDBUF));
	if (getint(s[0], SO_PASSCRED) != 1 || getint(s[1], SO_PASSCRED) != 0)
		check_fail("SO_PASSCRED %d and %d, want 1 and 0", getint(s[0], SO_PASSCRED),
			   getint(s[1], SO_PASSCRED));
	if (getsockopt(s[0], SOL_SOCKET, SO_RCVTIMEO, &tv, &len) ||
	    tv.tv_sec != 1 || tv.tv_usec != 500000)
		check_fail("SO_RCVTIMEO %ld.%06ld, want 1.500000", (long)tv.tv_sec,
			   (long)tv.tv_usec);
	if (!(fcntl(s[1], F_GETFL) & O_NONBLOCK) || fcntl(s[0], F_GETFL) & O_NONBLOCK)
		check_fail("O_NONBLOCK: want it on one end only");
	if (!read_all(s[0], buf, BIG - SKIP))
		check_fail("stream: reading the %d bytes queued: %s", BIG - SKIP, strerror(errno));
	for (j = 0; j < BIG - SKIP; j++)
		if (buf[j] != pattern(j + SKIP)) {
			check_fail("stream: byte %zu is %#x, want %#x", j + SKIP, buf[j],
				   pattern(j + SKIP));
			break;
		}
	if (!read_all(s[1], buf, 5) || memcmp(buf, "hello", 5))
		check_fail("stream: the other way, \"hello\" not read");
	/* nothing more: the receive timeout of 1.5 s ends the read */
	if (read(s[0], buf, 1) != -1 || errno != EAGAIN)
		check_fail("stream: a read past the queue did not time out (EAGAIN): %s",
			   strerror(errno));
	if (write(s[1], "more", 4) != 4 || !read_all(s[0], buf, 4) || memcmp(buf, "more", 4))
		check_fail("stream: a new write not read");
	/* the event loop goes on serving its eventfd and its timer */
	if (write(ev, &one, sizeof(one)) != sizeof(one))
		check_fail("eventfd: write: %s", strerror(errno));
	for (mask = 0, tries = 0; tries < 20 && (mask & LOOP) != LOOP; tries++) {
		n = epoll_wait(ep, evs, 4, 100);
		for (i = 0; i < n; i++)
			mask |= 1ULL << evs[i].data.u64;
	}
	if ((mask & LOOP) != LOOP)
		check_fail("the event loop: eventfd and timer not both ready within 2 s (%#llx)",
			   (unsigned long long)mask);
}

static void check_dgram(int fd, int type)
{
	static const size_t lens[] = { 0, 100, 2000 };
	char buf[4096];
	size_t i, j;
	ssize_t n;

	for (i = 0; i < 3; i++) {
		/* a seqpacket's zero-length message is end of file: not sent */
		if (type == SOCK_SEQPACKET && !i)
			continue;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		if (n != (ssize_t)lens[i]) {
			check_fail("type %d: message %zu of %zd bytes, want %zu", type, i, n,
				   lens[i]);
			return;
		}
		for (j = 0; j < lens[i]; j++)
			if (buf[j] != (char)(i + j)) {
				check_fail("type %d: message %zu, byte %zu", type, i, j);
				return;
			}
	}
	n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (type == SOCK_DGRAM && (n != -1 || errno != EAGAIN))
		check_fail("dgram: a fourth message (%zd)", n);
	if (type == SOCK_SEQPACKET && n != 0)
		check_fail("seqpacket: no end of file after the messages (%zd: %s)", n,
			   strerror(errno));
}

static bool send_msgs(int fd, int type)
{
	static const size_t lens[] = { 0, 100, 2000 };
	char buf[2000];
	size_t i, j;

	for (i = 0; i < 3; i++) {
		if (type == SOCK_SEQPACKET && !i)
			continue;
		for (j = 0; j < lens[i]; j++)
			buf[j] = (char)(i + j);
		if (send(fd, buf, lens[i], 0) != (ssize_t)lens[i])
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	static unsigned char big[BIG];
	struct itimerspec it = { { 0, 100000000 }, { 0, 100000000 } };
	struct timeval tv = { 1, 500000 };
	int s[2], d[2], q[2], c[2], f[2], ep, ev, tf, one = 1, sndbuf = 65536, st;
	struct epoll_event e = { .events = EPOLLIN };
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char buf[8], pidtext[16];
	pid_t pid;
	size_t i;

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < BIG; i++)
		big[i] = pattern(i);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, d) ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET, 0, q) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, c) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, f))
		return 9;
	/* the stream: options, then 100000 bytes one way, 10 read, 5 back */
	if (setsockopt(s[1], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)) ||
	    setsockopt(s[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    fcntl(s[1], F_SETFL, O_NONBLOCK))
		return 9;
	for (i = 0; i < BIG; ) {
		ssize_t n = write(s[1], big + i, BIG - i);

		if (n <= 0)
			return 9;
		i += n;
	}
	if (!read_all(s[0], buf, SKIP) || memcmp(buf, big, 8) || write(s[0], "hello", 5) != 5)
		return 9;
	/* after the bytes: SO_PASSCRED would have given them credentials */
	if (setsockopt(s[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		return 9;
	ev = eventfd(0, EFD_NONBLOCK);
	tf = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	ep = epoll_create1(0);
	if (ev < 0 || tf < 0 || ep < 0 || timerfd_settime(tf, 0, &it, NULL))
		return 9;
	e.data.u64 = 1;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, s[0], &e))
		return 9;
	e.data.u64 = 2;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, ev, &e))
		return 9;
	e.data.u64 = 3;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, tf, &e))
		return 9;
	/* datagrams, seqpackets then a shutdown, "bye" from an end closed since */
	if (!send_msgs(d[1], SOCK_DGRAM) || !send_msgs(q[1], SOCK_SEQPACKET) ||
	    shutdown(q[1], SHUT_WR) || write(f[1], "bye", 3) != 3 || close(f[1]))
		return 9;
	if (getsockopt(s[0], SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    cred.pid != getpid() || cred.uid != getuid())
		return 9;
	pid = fork();
	if (pid < 0)
		return 9;
	if (!pid) {
		/* its end alone, as descriptor 3 */
		if (dup2(c[1], 3) != 3 || close_range(4, ~0U, 0))
			_exit(9);
		child(3);
	}
	close(c[1]);
	/* READY appears whole, with the child's pid */
	snprintf(pidtext, sizeof(pidtext), "%d\n", pid);
	helper_result_kid(argv[1], pidtext, pid);
	wait_go(argv[2]);

	len = sizeof(cred);
	if (getsockopt(s[0], SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    cred.pid != getpid() || cred.uid != getuid())
		check_fail("SO_PEERCRED: pid %d uid %u, want this process, %d %u", cred.pid,
			   cred.uid, getpid(), getuid());
	check_stream(s, ep, ev);
	check_dgram(d[0], SOCK_DGRAM);
	check_dgram(q[0], SOCK_SEQPACKET);
	if (write(q[1], "x", 1) != -1 || errno != EPIPE)
		check_fail("seqpacket: a write after SHUT_WR did not fail with EPIPE");
	if (!read_all(f[0], buf, 3) || memcmp(buf, "bye", 3) || read(f[0], buf, 1) != 0)
		check_fail("the pair whose other end was closed: \"bye\" then end of file not read");
	if (write(c[0], "ping", 4) != 4 || !read_all(c[0], buf, 4) || memcmp(buf, "pong", 4))
		check_fail("the child's pair: \"ping\" not answered \"pong\"");
	close(c[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		check_fail("the child: status %#x, want exit 0", st);
	return checks_status();
}
