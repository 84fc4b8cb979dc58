// SPDX-License-Identifier: GPL-2.0
/*
 * listeners READY GO OUT: unix sockets of its own (no ends of a pair) in
 * the state a checkpoint must keep; creates READY, waits for GO, then
 * checks them and exits 0 if all holds (1 otherwise, what failed in OUT;
 * 9: its set-up failed). Each socket's getsockname() is the same after
 * GO as before, and:
 *   - OUT.sock: a stream socket listening (backlog 7, non-blocking,
 *     SO_RCVBUF 65536 set), its socket file given mode 0666: a socket
 *     file, mode 0666, the process's; SO_ACCEPTCONN; a client connects
 *     and sends "hello", accepted and read; the client's SO_PEERCRED
 *     names this process (after restart, its pid then);
 *   - "\0cr-listen": a seqpacket socket listening on an abstract name: a
 *     client's 3000-byte message accepted whole;
 *   - OUT.dgram: a datagram socket bound to a path: a datagram sent to
 *     the path is received;
 *   - an autobound datagram socket (an abstract name the kernel chose);
 *   - an unbound stream socket: it connects to OUT.sock;
 *   - OUT.gone: a stream socket listening whose socket file was removed:
 *     its path leads nowhere (connect(): ENOENT), SO_ACCEPTCONN still;
 *   - OUT.reload: a daemon's reload: the old listener's file removed, a
 *     new listener bound at the same path (a later descriptor): a client
 *     of the path reaches the new one, the old one still listens.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define ABSTRACT	"\0cr-listen"
#define SEQ_BYTES	3000

enum { SOCK, SEQ, DGRAM, AUTO, UNBOUND, GONE, OLD, NEW, NR };

static const char *const names[NR] = {
	"the path listener", "the abstract listener", "the bound datagram socket",
	"the autobound socket", "the unbound socket", "the listener whose file was removed",
	"the reloaded daemon's old listener", "the reloaded daemon's new listener",
};

struct name {
	struct sockaddr_un sun;
	socklen_t len;
};

static socklen_t make_addr(struct sockaddr_un *sun, const char *path, size_t len)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, len);
	return offsetof(struct sockaddr_un, sun_path) + len;
}

static bool getname(int fd, struct name *n)
{
	n->len = sizeof(n->sun);
	memset(&n->sun, 0, sizeof(n->sun));
	return !getsockname(fd, (struct sockaddr *)&n->sun, &n->len);
}

static int sockopt(int fd, int opt)
{
	int val = -1;
	socklen_t len = sizeof(val);

	return getsockopt(fd, SOL_SOCKET, opt, &val, &len) ? -1 : val;
}

/* A new socket of @type connected to @sun (@len bytes), or -1. */
static int client(int type, const struct sockaddr_un *sun, socklen_t len)
{
	int fd = socket(AF_UNIX, type, 0);

	if (fd >= 0 && connect(fd, (const struct sockaddr *)sun, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The path listener: its file, a client accepted, the client's SO_PEERCRED. */
static void check_sock(int fd, const char *path)
{
	struct sockaddr_un sun;
	socklen_t len = make_addr(&sun, path, strlen(path) + 1);
	struct ucred cred = {};
	socklen_t clen = sizeof(cred);
	char buf[8] = "";
	struct stat st;
	int c, a;

	if (stat(path, &st) || !S_ISSOCK(st.st_mode) || (st.st_mode & 07777) != 0666 ||
	    st.st_uid != getuid())
		check_fail("%s: %s: not a socket file of mode 0666 and uid %d (%m, %#o, %d)",
			   names[SOCK], path, (int)getuid(), (unsigned int)st.st_mode,
			   (int)st.st_uid);
	if (sockopt(fd, SO_RCVBUF) != 131072)
		check_fail("%s: SO_RCVBUF %d, want 131072", names[SOCK], sockopt(fd, SO_RCVBUF));
	if (!(fcntl(fd, F_GETFL) & O_NONBLOCK))
		check_fail("%s: not O_NONBLOCK", names[SOCK]);
	if (accept(fd, NULL, NULL) >= 0 || errno != EAGAIN)
		check_fail("%s: accept() with no client: not EAGAIN (%m)", names[SOCK]);
	c = client(SOCK_STREAM, &sun, len);
	if (c < 0) {
		check_fail("%s: a client cannot connect: %m", names[SOCK]);
		return;
	}
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &clen) || cred.pid != getpid() ||
	    cred.uid != getuid())
		check_fail("%s: the client's SO_PEERCRED: pid %d uid %d, want %d %d",
			   names[SOCK], cred.pid, cred.uid, getpid(), getuid());
	a = accept(fd, NULL, NULL);
	if (a < 0 || write(c, "hello", 5) != 5 || read(a, buf, sizeof(buf)) != 5 ||
	    memcmp(buf, "hello", 5))
		check_fail("%s: the client accepted and read: %m (\"%s\")", names[SOCK], buf);
	close(a);
	close(c);
}

/* The abstract seqpacket listener: a message accepted whole. */
static void check_seq(int fd)
{
	static char msg[SEQ_BYTES], buf[SEQ_BYTES + 1];
	struct sockaddr_un sun;
	socklen_t len = make_addr(&sun, ABSTRACT, sizeof(ABSTRACT) - 1);
	int c, a;

	memset(msg, 's', sizeof(msg));
	c = client(SOCK_SEQPACKET, &sun, len);
	if (c < 0 || send(c, msg, sizeof(msg), 0) != sizeof(msg)) {
		check_fail("%s: a client cannot connect and send: %m", names[SEQ]);
	} else {
		a = accept(fd, NULL, NULL);
		if (a < 0 || recv(a, buf, sizeof(buf), 0) != SEQ_BYTES || memcmp(buf, msg, SEQ_BYTES))
			check_fail("%s: the message not accepted whole: %m", names[SEQ]);
		close(a);
	}
	close(c);
}

/* The bound datagram socket: a datagram sent to its path received. */
static void check_dgram(int fd, const char *path)
{
	struct sockaddr_un sun;
	socklen_t len = make_addr(&sun, path, strlen(path) + 1);
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	char buf[8] = "";

	if (s < 0 || sendto(s, "dgram", 5, 0, (struct sockaddr *)&sun, len) != 5 ||
	    recv(fd, buf, sizeof(buf), MSG_DONTWAIT) != 5 || memcmp(buf, "dgram", 5))
		check_fail("%s: a datagram to %s not received: %m (\"%s\")",
			   names[DGRAM], path, buf);
	close(s);
}

/* The listener whose socket file was removed: listening, unreachable. */
static void check_gone(int fd, const char *path)
{
	struct sockaddr_un sun;
	socklen_t len = make_addr(&sun, path, strlen(path) + 1);
	int c = client(SOCK_STREAM, &sun, len);

	if (c >= 0 || errno != ENOENT)
		check_fail("%s: connect to %s: %s, want ENOENT", names[GONE], path,
			   c >= 0 ? "connected" : strerror(errno));
	if (c >= 0)
		close(c);
	if (sockopt(fd, SO_ACCEPTCONN) != 1)
		check_fail("%s: SO_ACCEPTCONN %d", names[GONE], sockopt(fd, SO_ACCEPTCONN));
}

int main(int argc, char **argv)
{
	char sock_path[100], dgram_path[100], gone_path[100], reload_path[100];
	struct sockaddr_un sun;
	struct name before[NR], after;
	int fd[NR], i, rcvbuf = 65536;
	socklen_t len;

	if (argc != 4 || strlen(argv[3]) > 80)
		return 9;
	snprintf(sock_path, sizeof(sock_path), "%s.sock", argv[3]);
	snprintf(dgram_path, sizeof(dgram_path), "%s.dgram", argv[3]);
	snprintf(gone_path, sizeof(gone_path), "%s.gone", argv[3]);
	snprintf(reload_path, sizeof(reload_path), "%s.reload", argv[3]);
	unlink(reload_path);
	unlink(sock_path);
	unlink(dgram_path);
	unlink(gone_path);

	fd[SOCK] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	len = make_addr(&sun, sock_path, strlen(sock_path) + 1);
	if (fd[SOCK] < 0 || setsockopt(fd[SOCK], SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) ||
	    bind(fd[SOCK], (struct sockaddr *)&sun, len) || chmod(sock_path, 0666) ||
	    listen(fd[SOCK], 7))
		return 9;
	fd[SEQ] = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	len = make_addr(&sun, ABSTRACT, sizeof(ABSTRACT) - 1);
	if (fd[SEQ] < 0 || bind(fd[SEQ], (struct sockaddr *)&sun, len) || listen(fd[SEQ], 3))
		return 9;
	fd[DGRAM] = socket(AF_UNIX, SOCK_DGRAM, 0);
	len = make_addr(&sun, dgram_path, strlen(dgram_path) + 1);
	if (fd[DGRAM] < 0 || bind(fd[DGRAM], (struct sockaddr *)&sun, len))
		return 9;
	fd[AUTO] = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd[AUTO] < 0 || bind(fd[AUTO], (struct sockaddr *)&sun, sizeof(sa_family_t)))
		return 9;
	fd[UNBOUND] = socket(AF_UNIX, SOCK_STREAM, 0);
	fd[GONE] = socket(AF_UNIX, SOCK_STREAM, 0);
	len = make_addr(&sun, gone_path, strlen(gone_path) + 1);
	if (fd[UNBOUND] < 0 || fd[GONE] < 0 || bind(fd[GONE], (struct sockaddr *)&sun, len) ||
	    listen(fd[GONE], 1) || unlink(gone_path))
		return 9;
	len = make_addr(&sun, reload_path, strlen(reload_path) + 1);
	fd[OLD] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd[OLD] < 0 || bind(fd[OLD], (struct sockaddr *)&sun, len) || listen(fd[OLD], 1) ||
	    unlink(reload_path))
		return 9;
	fd[NEW] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd[NEW] < 0 || bind(fd[NEW], (struct sockaddr *)&sun, len) || listen(fd[NEW], 1))
		return 9;
	for (i = 0; i < NR; i++)
		if (!getname(fd[i], &before[i]))
			return 9;
	checks_open(argv[3]);
	helper_touch(argv[1], "");
	wait_go(argv[2]);

	for (i = 0; i < NR; i++)
		if (!getname(fd[i], &after) || after.len != before[i].len ||
		    memcmp(&after.sun, &before[i].sun, after.len))
			check_fail("%s: getsockname() changed (%u bytes, \"%s\"; was %u, \"%s\")",
				   names[i], after.len, after.sun.sun_path, before[i].len,
				   before[i].sun.sun_path);
	if (before[AUTO].len != offsetof(struct sockaddr_un, sun_path) + 6 ||
	    before[AUTO].sun.sun_path[0])
		check_fail("%s: not a 5-byte abstract name (%u bytes)", names[AUTO],
			   before[AUTO].len);
	if (before[UNBOUND].len != sizeof(sa_family_t))
		check_fail("%s: a name of %u bytes", names[UNBOUND], before[UNBOUND].len);
	if (sockopt(fd[SOCK], SO_ACCEPTCONN) != 1 || sockopt(fd[SEQ], SO_ACCEPTCONN) != 1 ||
	    sockopt(fd[DGRAM], SO_ACCEPTCONN) != 0)
		check_fail("SO_ACCEPTCONN: %d %d %d, want 1 1 0", sockopt(fd[SOCK], SO_ACCEPTCONN),
			   sockopt(fd[SEQ], SO_ACCEPTCONN), sockopt(fd[DGRAM], SO_ACCEPTCONN));
	check_sock(fd[SOCK], sock_path);
	check_seq(fd[SEQ]);
	check_dgram(fd[DGRAM], dgram_path);
	len = make_addr(&sun, sock_path, strlen(sock_path) + 1);
	if (connect(fd[UNBOUND], (struct sockaddr *)&sun, len))
		check_fail("%s: cannot connect to %s: %m", names[UNBOUND], sock_path);
	check_gone(fd[GONE], gone_path);
	len = make_addr(&sun, reload_path, strlen(reload_path) + 1);
	i = client(SOCK_STREAM, &sun, len);
	if (i < 0 || accept(fd[OLD], NULL, NULL) >= 0 || accept(fd[NEW], NULL, NULL) < 0 ||
	    sockopt(fd[OLD], SO_ACCEPTCONN) != 1)
		check_fail("%s and %s: a client of %s did not reach the new one only: %m",
			   names[OLD], names[NEW], reload_path);
	return checks_status();
}
