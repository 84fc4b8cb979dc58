// SPDX-License-Identifier: GPL-2.0
/*
 * ticker OUT: append "N PID" to OUT every 20 ms, N counting up from 1,
 * PID what getpid() returns now; OUT.ready appears after the first line.
 * It waits by spinning on the clock, never in a system call, so that two
 * checkpoints of it stopped are the same image: no sleep's time left, no
 * timer, differs between them. Copies restarted from one image count on
 * from the same N, each under its own pid, into the same file (O_APPEND).
 */
#include "helper.h"

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long next;
	long n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ticker OUT\n");
		return 9;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (fd < 0)
		return 9;
	for (n = 1;; n++) {
		if (dprintf(fd, "%ld %d\n", n, (int)getpid()) < 0)
			return 1;
		if (n == 1)
			helper_touch(argv[1], ".ready");
		next = now_ns() + 20 * 1000000LL;
		while (now_ns() < next)
			;
	}
}
