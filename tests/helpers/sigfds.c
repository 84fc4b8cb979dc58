// SPDX-License-Identifier: GPL-2.0
/*
 * sigfds READY GO OUT: holds a signalfd in the state a checkpoint must
 * keep, creates READY, waits for GO, then checks it and exits 0 if all
 * holds (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - a non-blocking signalfd for SIGUSR1 and SIGUSR2 (both blocked), with
 *     SIGUSR1 pending since before READY: it reads SIGUSR1 (its sender
 *     the pid this process had then), then EAGAIN; a SIGUSR2 sent now is read too; its mask is
 *     SIGUSR1 and SIGUSR2 (/proc/self/fdinfo);
 *   - a blocking signalfd for SIGUSR2 only: still blocking, still for
 *     SIGUSR2 only.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* The sigmask line of @fd's fdinfo, into @buf; "" if none. */
static void fdinfo_mask(int fd, char *buf, size_t size)
{
	char path[64], line[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "sigmask:", 8))
			snprintf(buf, size, "%s", line + 8 + strspn(line + 8, " \t"));
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

int main(int argc, char **argv)
{
	struct signalfd_siginfo si;
	sigset_t both, usr2;
	int both_fd, usr2_fd, fd;
	pid_t sender = getpid();	/* a restart in place gives another */
	char mask[64];

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &both, NULL))
		return 9;
	both_fd = signalfd(-1, &both, SFD_NONBLOCK);
	usr2_fd = signalfd(-1, &usr2, 0);
	if (both_fd < 0 || usr2_fd < 0 || kill(getpid(), SIGUSR1))
		return 9;
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return 9;
	wait_go(argv[2]);

	if (read(both_fd, &si, sizeof(si)) != sizeof(si) || si.ssi_signo != SIGUSR1 ||
	    si.ssi_pid != (unsigned int)sender)
		check_fail("the pending SIGUSR1 was not read (%s, signo %u, pid %u)",
		     strerror(errno), si.ssi_signo, si.ssi_pid);
	errno = 0;
	if (read(both_fd, &si, sizeof(si)) != -1 || errno != EAGAIN)
		check_fail("a second read did not get EAGAIN (%s)", strerror(errno));
	if (kill(getpid(), SIGUSR2) ||
	    read(both_fd, &si, sizeof(si)) != sizeof(si) || si.ssi_signo != SIGUSR2)
		check_fail("a SIGUSR2 sent now was not read (%s)", strerror(errno));
	fdinfo_mask(both_fd, mask, sizeof(mask));
	if (strcmp(mask, "0000000000000a00"))
		check_fail("its fdinfo sigmask is \"%s\", not SIGUSR1 and SIGUSR2", mask);
	if (fcntl(usr2_fd, F_GETFL) & O_NONBLOCK)
		check_fail("the SIGUSR2 signalfd is non-blocking");
	fdinfo_mask(usr2_fd, mask, sizeof(mask));
	if (strcmp(mask, "0000000000000800"))
		check_fail("the SIGUSR2 signalfd's fdinfo sigmask is \"%s\"", mask);
	return checks_status();
}
