// SPDX-License-Identifier: GPL-2.0
/*
 * fifos READY GO OUT: FIFOs (named pipes, made next to OUT) in the state a
 * checkpoint must keep; creates READY (with its child's pid), waits for
 * GO, then checks them and exits 0 if all holds (1 otherwise, what failed
 * in OUT; 9: its set-up failed):
 *   - OUT.rw: opened for reading and writing (one descriptor) and for
 *     reading, 65536 bytes (F_SETPIPE_SZ), 5000 bytes in flight: its size
 *     kept, the bytes read in order, a new write read back;
 *   - OUT.feed: written by this process, read by its child, "12345" in
 *     flight: after GO it writes "67890" and closes; the child reads
 *     "1234567890" then end of file and exits 0;
 *   - OUT.idle: a non-blocking reader no writer ever opened for: no
 *     POLLHUP after restart either (then a writer comes and goes: one);
 *   - OUT.gone: a reader whose writer wrote "x" and left: POLLHUP, "x",
 *     then end of file.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RW_BYTES	5000
#define RW_SIZE		65536

static short revents(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) < 0 ? -1 : p.revents;
}

/* A FIFO OUT.@name, made afresh, its path in @path. */
static bool make(const char *out, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s.%s", out, name);
	unlink(path);
	return !mkfifo(path, 0600);
}

/* The child: reads OUT.feed to its end, once GO is there. */
static void child(int fd, const char *go)
{
	char buf[32];
	size_t got = 0;
	ssize_t n;

	wait_go(go);
	while ((n = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += n;
	_exit(n == 0 && got == 10 && !memcmp(buf, "1234567890", 10) ? 0 : 1);
}

/* The set-up failed after the fork: the child (it would wait for GO) killed and reaped; 9. */
static int setup_failed(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 9;
}

int main(int argc, char **argv)
{
	char rw_path[256], feed_path[256], idle_path[256], gone_path[256], pidtext[16];
	static char buf[RW_BYTES];
	int rw, rd, feed, idle, gone, fd, st, i;
	pid_t pid;
	short ev;

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	if (!make(argv[3], "rw", rw_path, sizeof(rw_path)) ||
	    !make(argv[3], "feed", feed_path, sizeof(feed_path)) ||
	    !make(argv[3], "idle", idle_path, sizeof(idle_path)) ||
	    !make(argv[3], "gone", gone_path, sizeof(gone_path)))
		return 9;
	rw = open(rw_path, O_RDWR);
	rd = open(rw_path, O_RDONLY | O_NONBLOCK);
	if (rw < 0 || rd < 0 || fcntl(rw, F_SETPIPE_SZ, RW_SIZE) != RW_SIZE)
		return 9;
	for (i = 0; i < RW_BYTES; i++)
		buf[i] = (char)(i * 13);
	if (write(rw, buf, RW_BYTES) != RW_BYTES)
		return 9;

	pid = fork();
	if (pid < 0)
		return 9;
	if (!pid) {
		fd = open(feed_path, O_RDONLY);	/* waits for the writer */
		if (fd < 0 || dup2(fd, 3) != 3 || close_range(4, ~0U, 0))
			_exit(9);
		child(3, argv[2]);
	}
	feed = open(feed_path, O_WRONLY);	/* waits for the child */
	if (feed < 0 || write(feed, "12345", 5) != 5)
		return setup_failed(pid);

	idle = open(idle_path, O_RDONLY | O_NONBLOCK);
	gone = open(gone_path, O_RDONLY | O_NONBLOCK);
	fd = open(gone_path, O_WRONLY);
	if (idle < 0 || gone < 0 || fd < 0 || write(fd, "x", 1) != 1 || close(fd) ||
	    revents(idle) != 0 || revents(gone) != (POLLIN | POLLHUP))
		return setup_failed(pid);

	/* READY appears whole, with the child's pid */
	snprintf(pidtext, sizeof(pidtext), "%d\n", pid);
	helper_result_kid(argv[1], pidtext, pid);
	wait_go(argv[2]);

	if (fcntl(rw, F_GETPIPE_SZ) != RW_SIZE)
		check_fail("rw: size %d, want %d", fcntl(rw, F_GETPIPE_SZ), RW_SIZE);
	memset(buf, 0, sizeof(buf));
	if (read(rd, buf, RW_BYTES) != RW_BYTES)
		check_fail("rw: the %d bytes in flight not read", RW_BYTES);
	for (i = 0; i < RW_BYTES; i++)
		if (buf[i] != (char)(i * 13)) {
			check_fail("rw: byte %d is %#x", i, buf[i]);
			break;
		}
	if (write(rw, "more", 4) != 4 || read(rd, buf, 8) != 4 || memcmp(buf, "more", 4))
		check_fail("rw: a new write not read back");

	if (write(feed, "67890", 5) != 5 || close(feed))
		check_fail("feed: writing \"67890\": %s", strerror(errno));
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		check_fail("feed: the child read otherwise (status %#x)", st);

	ev = revents(idle);
	if (ev != 0)
		check_fail("idle: revents %#x, want none (no writer ever came)", ev);
	fd = open(idle_path, O_WRONLY | O_NONBLOCK);
	if (fd < 0 || close(fd) || revents(idle) != POLLHUP)
		check_fail("idle: after a writer came and went, revents %#x, want POLLHUP",
			   revents(idle));

	ev = revents(gone);
	if (ev != (POLLIN | POLLHUP))
		check_fail("gone: revents %#x, want POLLIN | POLLHUP", ev);
	if (read(gone, buf, 8) != 1 || buf[0] != 'x' || read(gone, buf, 8) != 0)
		check_fail("gone: \"x\" then end of file not read");

	unlink(rw_path);
	unlink(feed_path);
	unlink(idle_path);
	unlink(gone_path);
	return checks_status();
}
