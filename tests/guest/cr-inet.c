// SPDX-License-Identifier: GPL-2.0
/*
 * TCP and UDP sockets that are not connected, across checkpoint/restart
 * (helper: netsocks, restarted by rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: IPv4
 *     and IPv6 TCP listeners keep their ports (the kernel's choice) and
 *     options (SO_REUSEADDR, TCP_NODELAY, TCP_KEEPIDLE, SO_RCVBUF,
 *     IPV6_V6ONLY) and accept clients; a bound UDP socket receives; an
 *     unbound socket connects;
 *   - ckptinfo validates that image and lists the sockets;
 *   - refusals, each refused child carrying on: an established TCP
 *     connection, IP options, a raw socket, a socket of another network
 *     namespace (EOPNOTSUPP); a
 *     connection waiting to be accepted, a datagram queued (EBUSY);
 *   - a restart refused while the checkpointed listener lives (its port
 *     taken: EADDRINUSE, the caller carrying on), done once it was killed.
 */
#include "crtest.h"
#include "tap.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/inet.ready"
#define GO	"/tmp/inet.go"
#define OUT	"/tmp/inet.out"
#define IMG	"/tmp/inet.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("netsocks"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

/* A TCP or UDP socket bound to 127.0.0.1 (a port the kernel chooses). */
static int bound(int type, struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int fd = socket(AF_INET, type, 0);

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)sin, sizeof(*sin)) ||
	    getsockname(fd, (struct sockaddr *)sin, &len))
		tap_bail("setup: bind: %m");
	return fd;
}

static int listener(struct sockaddr_in *sin)
{
	int fd = bound(SOCK_STREAM, sin);

	if (listen(fd, 4))
		tap_bail("setup: listen: %m");
	return fd;
}

static int connected(const struct sockaddr_in *sin)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)sin, sizeof(*sin)))
		tap_bail("setup: connect: %m");
	return fd;
}

/* A child holding @fd, closed here: refused with @err and @want. */
static void refused(int fd, int err, const char *want, const char *what)
{
	pid_t pid = fork_holding(fd, fd, true);

	close(fd);
	check_refused(pid, IMG, err, want, what);
}

/* Whether a client can connect to @sin. */
static bool connects(const struct sockaddr_in *sin)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok = fd >= 0 && !connect(fd, (const struct sockaddr *)sin, sizeof(*sin));

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A TCP socket, in a child's network namespace. */
static bool tcp_socket(void)
{
	return socket(AF_INET, SOCK_STREAM, 0) >= 0;
}

/* The image of a child listening: its port taken while it lives. */
static void restarts(void)
{
	struct sockaddr_in sin;
	const char *why;
	pid_t pid, r;
	long crid;
	int fd, st, i;

	fd = listener(&sin);
	pid = fork_holding(fd, fd, false);
	close(fd);
	crid = checkpoint_retry(pid, IMG);
	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld (%s)", crid, engine_stat("checkpoint.refused"));
	st = wait_exit(restart_from(IMG), 60);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EADDRINUSE) << 8 && strstr(why, "cannot bind"),
	       "its listener still living: restart refused with EADDRINUSE, the caller carries on (%#x, \"%s\")",
	       st, why);
	kill_wait(pid);
	r = restart_from(IMG);
	for (i = 0; i < 100 && !connects(&sin); i++)
		sleep_ms(100);
	tap_ok(i < 100 && waitpid(r, NULL, WNOHANG) == 0,
	       "restarted once it was killed: a client connects to port %d",
	       ntohs(sin.sin_port));
	kill_wait(r);
}

int main(void)
{
	struct sockaddr_in sin;
	int fd, c, a, s;

	tap_plan(17);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/inet.info && "
		      "grep -q 'tcp listening 127.0.0.1:' /tmp/inet.info && "
		      "grep -q 'tcp6 listening \\[::1\\]:' /tmp/inet.info && "
		      "grep -q 'udp bound 127.0.0.1:' /tmp/inet.info && "
		      "grep -q 'tcp unbound' /tmp/inet.info") == 0,
	       "ckptinfo validates the image and lists the sockets");

	fd = listener(&sin);
	c = connected(&sin);
	a = accept(fd, NULL, NULL);
	close(fd);
	close(c);
	refused(a, EOPNOTSUPP, "TCP connection", "an established TCP connection");

	fd = listener(&sin);
	c = connected(&sin);
	refused(fd, EBUSY, "waiting to be accepted", "a listener with a connection waiting");
	close(c);

	s = bound(SOCK_DGRAM, &sin);
	c = socket(AF_INET, SOCK_DGRAM, 0);
	if (c < 0 || sendto(c, "x", 1, 0, (struct sockaddr *)&sin, sizeof(sin)) != 1)
		tap_bail("setup: sendto: %m");
	close(c);
	refused(s, EBUSY, "datagrams queued", "a UDP socket with a datagram queued");

	/* four no-operation options (RFC 791's type 1) */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_OPTIONS, "\1\1\1\1", 4))
		tap_bail("setup: IP_OPTIONS: %m");
	refused(fd, EOPNOTSUPP, "IP options", "a socket with IP options");

	fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (fd < 0)
		tap_bail("setup: a raw socket: %m");
	refused(fd, EOPNOTSUPP, "protocol not saved", "a raw socket");

	check_refused(fork_netns(tcp_socket), IMG, EOPNOTSUPP, "another network namespace",
		      "a socket of another network namespace");
	restarts();
	return tap_done();
}
