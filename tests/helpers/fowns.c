// SPDX-License-Identifier: GPL-2.0
/*
 * fowns READY GO OUT: files in signal-driven I/O, in the state a
 * checkpoint must keep; creates READY, waits for GO, then checks them and
 * exits 0 if all holds (1 otherwise, what failed in OUT; 9: its set-up
 * failed). SIGUSR1 and SIGIO are blocked, taken with sigtimedwait():
 *   - a socket pair's end, owned by the process (F_SETOWN), F_SETSIG
 *     SIGUSR1, O_ASYNC, also at a higher descriptor (dup()): a write to
 *     the other end queues SIGUSR1 with POLL_IN and si_fd the lowest;
 *   - a pipe's read end owned by the main thread (F_SETOWN_EX
 *     F_OWNER_TID), O_ASYNC, SIGIO: a write queues SIGIO;
 *   - a pipe's read end with F_SETSIG SIGUSR2 only (no owner, no
 *     O_ASYNC): a write queues nothing;
 *   - F_GETOWN, F_GETOWN_EX, F_GETSIG and O_ASYNC read back as set, the
 *     owner the process's pid (after restart, its pid then).
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The signal @sig queued within a second: its siginfo, or si_signo 0. */
static siginfo_t wait_sig(int sig)
{
	struct timespec ts = { .tv_sec = 1 };
	siginfo_t si;
	sigset_t set;

	memset(&si, 0, sizeof(si));
	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigtimedwait(&set, &si, &ts) != sig)
		si.si_signo = 0;
	return si;
}

int main(int argc, char **argv)
{
	struct f_owner_ex ex = { .type = F_OWNER_TID }, got;
	int s[2], p[2], q[2], dupfd;
	sigset_t block;
	siginfo_t si;

	if (argc != 4)
		return 9;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	sigaddset(&block, SIGIO);
	ex.pid = getpid();	/* the main thread's id is the process's */
	if (sigprocmask(SIG_BLOCK, &block, NULL) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, s) || pipe(p) || pipe(q) ||
	    fcntl(s[0], F_SETOWN, getpid()) || fcntl(s[0], F_SETSIG, SIGUSR1) ||
	    fcntl(s[0], F_SETFL, O_ASYNC | O_NONBLOCK) ||
	    fcntl(p[0], F_SETOWN_EX, &ex) || fcntl(p[0], F_SETFL, O_ASYNC) ||
	    fcntl(q[0], F_SETSIG, SIGUSR2))
		return 9;
	dupfd = dup(s[0]);
	if (dupfd < 0)
		return 9;
	checks_open(argv[3]);
	helper_touch(argv[1], "");
	wait_go(argv[2]);

	if (fcntl(s[0], F_GETOWN) != getpid() || fcntl(s[0], F_GETSIG) != SIGUSR1 ||
	    !(fcntl(s[0], F_GETFL) & O_ASYNC))
		check_fail("the socket: F_GETOWN %d (want %d), F_GETSIG %d, O_ASYNC %s",
			   fcntl(s[0], F_GETOWN), getpid(), fcntl(s[0], F_GETSIG),
			   fcntl(s[0], F_GETFL) & O_ASYNC ? "on" : "off");
	if (write(s[1], "x", 1) != 1)
		check_fail("the socket: write: %m");
	si = wait_sig(SIGUSR1);
	if (si.si_signo != SIGUSR1 || si.si_code != POLL_IN || si.si_fd != s[0])
		check_fail("the socket: signal %d code %d fd %d, want SIGUSR1, POLL_IN, fd %d",
			   si.si_signo, si.si_code, si.si_fd, s[0]);

	memset(&got, 0, sizeof(got));
	if (fcntl(p[0], F_GETOWN_EX, &got) || got.type != F_OWNER_TID || got.pid != getpid() ||
	    !(fcntl(p[0], F_GETFL) & O_ASYNC))
		check_fail("the pipe: owner type %d id %d (want F_OWNER_TID %d), O_ASYNC %s",
			   got.type, got.pid, getpid(),
			   fcntl(p[0], F_GETFL) & O_ASYNC ? "on" : "off");
	if (write(p[1], "y", 1) != 1)
		check_fail("the pipe: write: %m");
	if (wait_sig(SIGIO).si_signo != SIGIO)
		check_fail("the pipe: no SIGIO after a write");

	if (fcntl(q[0], F_GETSIG) != SIGUSR2 || fcntl(q[0], F_GETOWN) != 0 ||
	    fcntl(q[0], F_GETFL) & O_ASYNC)
		check_fail("the other pipe: F_GETSIG %d (want SIGUSR2), F_GETOWN %d, O_ASYNC",
			   fcntl(q[0], F_GETSIG), fcntl(q[0], F_GETOWN));
	if (write(q[1], "z", 1) != 1)
		check_fail("the other pipe: write: %m");
	if (wait_sig(SIGUSR2).si_signo)
		check_fail("the other pipe: a signal with no owner");
	return checks_status();
}
