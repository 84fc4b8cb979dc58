// SPDX-License-Identifier: GPL-2.0
/*
 * netsocks READY GO OUT: TCP and UDP sockets that are not connected, in
 * the state a checkpoint must keep; creates READY, waits for GO, then
 * checks them and exits 0 if all holds (1 otherwise, what failed in OUT;
 * 9: its set-up failed). Each socket's getsockname() is the same after
 * GO as before (ports the kernel chose), and:
 *   - a TCP socket listening on 127.0.0.1 (backlog 9, non-blocking,
 *     SO_REUSEADDR, TCP_NODELAY, TCP_KEEPIDLE 77, SO_RCVBUF 65536,
 *     TCP_MAXSEG 1000, congestion control "reno"): its options as set,
 *     SO_ACCEPTCONN; a client connects and sends "hello", accepted
 *     (TCP_NODELAY inherited) and read;
 *   - a TCP socket listening on [::1] with IPV6_V6ONLY: a client's "v6"
 *     accepted and read;
 *   - a UDP socket bound to 127.0.0.1 with SO_BROADCAST, IP_TOS 0x10 then
 *     SO_PRIORITY 5 (IP_TOS sets a priority too), owned by 4242:4243
 *     (fchown()): a datagram sent to it received;
 *   - an unbound TCP socket with TCP_NODELAY: it connects to the first
 *     listener.
 */
#include "helper.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

enum { TCP4, TCP6, UDP4, UNBOUND, NR };

static const char *const names[NR] = {
	"the IPv4 listener", "the IPv6 listener", "the UDP socket", "the unbound socket",
};

static int getint(int fd, int level, int opt)
{
	int val = -1;
	socklen_t len = sizeof(val);

	return getsockopt(fd, level, opt, &val, &len) ? -1 : val;
}

static bool setint(int fd, int level, int opt, int val)
{
	return !setsockopt(fd, level, opt, &val, sizeof(val));
}

static bool getname(int fd, struct sockaddr_storage *ss, socklen_t *len)
{
	*len = sizeof(*ss);
	memset(ss, 0, sizeof(*ss));
	return !getsockname(fd, (struct sockaddr *)ss, len);
}

/* A client of @type connected to @ss, having sent @msg; -1 on failure. */
static int client(int family, int type, const struct sockaddr_storage *ss, socklen_t len,
		  const char *msg)
{
	int fd = socket(family, type, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)ss, len) ||
	    send(fd, msg, strlen(msg), 0) != (ssize_t)strlen(msg)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Accept on the listener @fd (non-blocking or not) the client's @msg. */
static void accept_msg(int fd, const char *what, const char *msg, bool nodelay)
{
	char buf[16] = "";
	int a, i;

	for (i = 0, a = -1; i < 100 && a < 0; i++) {
		a = accept(fd, NULL, NULL);
		if (a < 0)
			usleep(10000);
	}
	if (a < 0) {
		check_fail("%s: nothing accepted: %m", what);
		return;
	}
	if (recv(a, buf, sizeof(buf) - 1, 0) != (ssize_t)strlen(msg) || strcmp(buf, msg))
		check_fail("%s: read \"%s\", want \"%s\"", what, buf, msg);
	if (nodelay && getint(a, IPPROTO_TCP, TCP_NODELAY) != 1)
		check_fail("%s: the accepted socket has no TCP_NODELAY", what);
	close(a);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_storage before[NR], after;
	socklen_t blen[NR], alen;
	int fd[NR], i, c, s;
	char buf[16] = "", ca[16] = "";
	socklen_t calen = sizeof(ca);
	struct stat st = {};

	if (argc != 4)
		return 9;
	fd[TCP4] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd[TCP4] < 0 || !setint(fd[TCP4], SOL_SOCKET, SO_REUSEADDR, 1) ||
	    !setint(fd[TCP4], IPPROTO_TCP, TCP_NODELAY, 1) ||
	    !setint(fd[TCP4], IPPROTO_TCP, TCP_KEEPIDLE, 77) ||
	    !setint(fd[TCP4], SOL_SOCKET, SO_RCVBUF, 65536) ||
	    !setint(fd[TCP4], IPPROTO_TCP, TCP_MAXSEG, 1000) ||
	    setsockopt(fd[TCP4], IPPROTO_TCP, TCP_CONGESTION, "reno", 4) ||
	    bind(fd[TCP4], (struct sockaddr *)&sin, sizeof(sin)) || listen(fd[TCP4], 9))
		return 9;
	fd[TCP6] = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd[TCP6] < 0 || !setint(fd[TCP6], IPPROTO_IPV6, IPV6_V6ONLY, 1) ||
	    bind(fd[TCP6], (struct sockaddr *)&sin6, sizeof(sin6)) || listen(fd[TCP6], 2))
		return 9;
	fd[UDP4] = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd[UDP4] < 0 || !setint(fd[UDP4], SOL_SOCKET, SO_BROADCAST, 1) ||
	    !setint(fd[UDP4], IPPROTO_IP, IP_TOS, 0x10) ||
	    !setint(fd[UDP4], SOL_SOCKET, SO_PRIORITY, 5) || fchown(fd[UDP4], 4242, 4243) ||
	    bind(fd[UDP4], (struct sockaddr *)&sin, sizeof(sin)))
		return 9;
	fd[UNBOUND] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[UNBOUND] < 0 || !setint(fd[UNBOUND], IPPROTO_TCP, TCP_NODELAY, 1))
		return 9;
	for (i = 0; i < NR; i++)
		if (!getname(fd[i], &before[i], &blen[i]))
			return 9;
	checks_open(argv[3]);
	helper_touch(argv[1], "");
	wait_go(argv[2]);

	for (i = 0; i < NR; i++)
		if (!getname(fd[i], &after, &alen) || alen != blen[i] ||
		    memcmp(&after, &before[i], alen))
			check_fail("%s: getsockname() changed", names[i]);
	if (getint(fd[TCP4], SOL_SOCKET, SO_REUSEADDR) != 1 ||
	    getint(fd[TCP4], IPPROTO_TCP, TCP_NODELAY) != 1 ||
	    getint(fd[TCP4], IPPROTO_TCP, TCP_KEEPIDLE) != 77 ||
	    getint(fd[TCP4], SOL_SOCKET, SO_RCVBUF) != 131072 ||
	    getint(fd[TCP4], SOL_SOCKET, SO_ACCEPTCONN) != 1 ||
	    !(fcntl(fd[TCP4], F_GETFL) & O_NONBLOCK))
		check_fail("%s: options %d %d %d %d %d, want 1 1 77 131072 1, and O_NONBLOCK",
			   names[TCP4], getint(fd[TCP4], SOL_SOCKET, SO_REUSEADDR),
			   getint(fd[TCP4], IPPROTO_TCP, TCP_NODELAY),
			   getint(fd[TCP4], IPPROTO_TCP, TCP_KEEPIDLE),
			   getint(fd[TCP4], SOL_SOCKET, SO_RCVBUF),
			   getint(fd[TCP4], SOL_SOCKET, SO_ACCEPTCONN));
	if (getint(fd[TCP6], IPPROTO_IPV6, IPV6_V6ONLY) != 1 ||
	    getint(fd[TCP6], SOL_SOCKET, SO_ACCEPTCONN) != 1)
		check_fail("%s: IPV6_V6ONLY or SO_ACCEPTCONN not 1", names[TCP6]);
	if (getint(fd[UDP4], SOL_SOCKET, SO_BROADCAST) != 1 ||
	    getint(fd[UDP4], IPPROTO_IP, IP_TOS) != 0x10 ||
	    getint(fd[UDP4], SOL_SOCKET, SO_PRIORITY) != 5)
		check_fail("%s: SO_BROADCAST %d, IP_TOS %#x, SO_PRIORITY %d; want 1, 0x10, 5",
			   names[UDP4], getint(fd[UDP4], SOL_SOCKET, SO_BROADCAST),
			   getint(fd[UDP4], IPPROTO_IP, IP_TOS),
			   getint(fd[UDP4], SOL_SOCKET, SO_PRIORITY));
	if (fstat(fd[UDP4], &st) || st.st_uid != 4242 || st.st_gid != 4243)
		check_fail("%s: owned by %u:%u, want 4242:4243", names[UDP4],
			   (unsigned int)st.st_uid, (unsigned int)st.st_gid);
	if (getsockopt(fd[TCP4], IPPROTO_TCP, TCP_CONGESTION, ca, &calen) || strcmp(ca, "reno") ||
	    getint(fd[TCP4], IPPROTO_TCP, TCP_MAXSEG) != 1000)
		check_fail("%s: congestion control %s, TCP_MAXSEG %d; want reno, 1000",
			   names[TCP4], ca, getint(fd[TCP4], IPPROTO_TCP, TCP_MAXSEG));
	if (getint(fd[UNBOUND], IPPROTO_TCP, TCP_NODELAY) != 1)
		check_fail("%s: TCP_NODELAY not 1", names[UNBOUND]);

	c = client(AF_INET, SOCK_STREAM, &before[TCP4], blen[TCP4], "hello");
	if (c < 0)
		check_fail("%s: a client cannot connect: %m", names[TCP4]);
	else
		accept_msg(fd[TCP4], names[TCP4], "hello", true);
	close(c);
	c = client(AF_INET6, SOCK_STREAM, &before[TCP6], blen[TCP6], "v6");
	if (c < 0)
		check_fail("%s: a client cannot connect: %m", names[TCP6]);
	else
		accept_msg(fd[TCP6], names[TCP6], "v6", false);
	close(c);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || sendto(s, "udp", 3, 0, (struct sockaddr *)&before[UDP4], blen[UDP4]) != 3 ||
	    recv(fd[UDP4], buf, sizeof(buf) - 1, 0) != 3 || strcmp(buf, "udp"))
		check_fail("%s: a datagram not received: %m (\"%s\")", names[UDP4], buf);
	close(s);
	if (connect(fd[UNBOUND], (struct sockaddr *)&before[TCP4], blen[TCP4]))
		check_fail("%s: cannot connect to the listener: %m", names[UNBOUND]);
	return checks_status();
}
