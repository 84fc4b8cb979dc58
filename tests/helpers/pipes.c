// SPDX-License-Identifier: GPL-2.0
/*
 * pipes READY GO OUT: holds pipes in every state a checkpoint must keep,
 * writes its child's pid into READY, waits for GO, then checks each one and exits 0 if all
 * hold (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - a pipe of 256 KiB with both ends here and 64 KiB in flight: the
 *     bytes come back in order, the size too, and it is empty after them;
 *   - a pipe whose write end was closed, 1000 bytes in it: read, then end
 *     of file;
 *   - a pipe whose read end was closed: a write fails with EPIPE;
 *   - a read end made non-blocking (O_NONBLOCK): an empty read gets
 *     EAGAIN, while its write end stays blocking;
 *   - a pipe to a child (the write end here, the read end the child's
 *     only), 10000 bytes in flight: the child reads them all, then end of
 *     file once this closes its end, and exits 0 (its status checked);
 *   - a pipe holding 40000 bytes spliced from a unix socket (pages of a
 *     socket buffer, each a compound page of several pages), the socket
 *     closed: the bytes come back in order.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG	(64 * 1024)
#define BIG_SZ	(256 * 1024)
#define TAIL	1000
#define CHILD	10000
#define SPLICED	40000

static unsigned char byte_at(size_t i, unsigned int seed)
{
	return (unsigned char)(i * 131 + seed + i / 251);
}

static void fill(unsigned char *buf, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = byte_at(i, seed);
}

/* Read exactly @n bytes of @seed's pattern from @fd; the number that matched. */
static size_t read_pattern(int fd, size_t n, unsigned int seed)
{
	unsigned char buf[4096];
	size_t got = 0, i;
	ssize_t r;

	while (got < n) {
		r = read(fd, buf, n - got < sizeof(buf) ? n - got : sizeof(buf));
		if (r <= 0)
			break;
		for (i = 0; i < (size_t)r; i++)
			if (buf[i] != byte_at(got + i, seed))
				return got + i;
		got += r;
	}
	return got;
}

static int child(int rd, const char *go)
{
	unsigned char c;
	size_t got;

	wait_go(go);
	got = read_pattern(rd, CHILD, 7);
	if (got != CHILD)
		return 1;
	/* end of file once the parent closes its end */
	return read(rd, &c, 1) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
	static unsigned char buf[BIG];
	char pidtext[16];
	int big[2], tail[2], nord[2], nonbl[2], tochild[2], spl[2], sv[2];
	unsigned char c;
	size_t got;
	ssize_t n;
	pid_t pid;
	int st;

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	signal(SIGPIPE, SIG_IGN);

	if (pipe(big) || fcntl(big[1], F_SETPIPE_SZ, BIG_SZ) < 0)
		return 9;
	fill(buf, BIG, 1);
	if (write(big[1], buf, BIG) != BIG)
		return 9;

	if (pipe(tail))
		return 9;
	fill(buf, TAIL, 3);
	if (write(tail[1], buf, TAIL) != TAIL)
		return 9;
	close(tail[1]);

	if (pipe(nord))
		return 9;
	close(nord[0]);

	if (pipe(nonbl) || fcntl(nonbl[0], F_SETFL, O_NONBLOCK))
		return 9;

	/* one send: its bytes past the socket buffer's head in compound pages */
	if (pipe(spl) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 9;
	fill(buf, SPLICED, 5);
	if (send(sv[0], buf, SPLICED, 0) != SPLICED)
		return 9;
	for (got = 0; got < SPLICED; got += n) {
		n = splice(sv[1], NULL, spl[1], NULL, SPLICED - got, 0);
		if (n <= 0)
			return 9;
	}
	close(sv[0]);
	close(sv[1]);

	if (pipe(tochild))
		return 9;
	pid = fork();
	if (pid < 0)
		return 9;
	if (!pid) {
		close(big[0]);
		close(big[1]);
		close(tail[0]);
		close(nord[1]);
		close(nonbl[0]);
		close(nonbl[1]);
		close(spl[0]);
		close(spl[1]);
		close(tochild[1]);
		_exit(child(tochild[0], argv[2]));
	}
	close(tochild[0]);
	fill(buf, CHILD, 7);
	if (write(tochild[1], buf, CHILD) != CHILD)
		return 9;

	/* READY appears whole, with the child's pid */
	snprintf(pidtext, sizeof(pidtext), "%d\n", pid);
	helper_result_kid(argv[1], pidtext, pid);
	wait_go(argv[2]);

	if (fcntl(big[0], F_GETPIPE_SZ) != BIG_SZ)
		check_fail("big pipe: size %d, not %d", fcntl(big[0], F_GETPIPE_SZ), BIG_SZ);
	got = read_pattern(big[0], BIG, 1);
	if (got != BIG)
		check_fail("big pipe: %zu of %d bytes in order", got, BIG);
	if (fcntl(big[0], F_SETFL, O_NONBLOCK) ||
	    read(big[0], &c, 1) != -1 || errno != EAGAIN)
		check_fail("big pipe: not empty after its bytes");
	if (write(big[1], "x", 1) != 1 || read(big[0], &c, 1) != 1 || c != 'x')
		check_fail("big pipe: a byte written now does not come back");

	got = read_pattern(tail[0], TAIL, 3);
	if (got != TAIL)
		check_fail("pipe without writer: %zu of %d bytes in order", got, TAIL);
	if (read(tail[0], &c, 1) != 0)
		check_fail("pipe without writer: no end of file after its bytes");

	errno = 0;
	if (write(nord[1], "x", 1) != -1 || errno != EPIPE)
		check_fail("pipe without reader: a write did not fail with EPIPE (%s)",
		     strerror(errno));

	if (!(fcntl(nonbl[0], F_GETFL) & O_NONBLOCK) ||
	    fcntl(nonbl[1], F_GETFL) & O_NONBLOCK)
		check_fail("non-blocking read end: flags %#x and %#x",
		     fcntl(nonbl[0], F_GETFL), fcntl(nonbl[1], F_GETFL));
	else if (read(nonbl[0], &c, 1) != -1 || errno != EAGAIN)
		check_fail("non-blocking read end: an empty read did not get EAGAIN");

	got = read_pattern(spl[0], SPLICED, 5);
	if (got != SPLICED)
		check_fail("spliced pipe: %zu of %d bytes in order", got, SPLICED);

	close(tochild[1]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		check_fail("pipe to the child: the child's status %#x (1: bytes, 2: no end of file)",
		     st);
	return checks_status();
}
