// SPDX-License-Identifier: GPL-2.0
/*
 * evfds READY GO OUT: holds event fds in the states a checkpoint must
 * keep, creates READY, waits for GO, then checks each one and exits 0 if
 * all hold (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - a semaphore eventfd (EFD_SEMAPHORE, non-blocking) at 8: eight reads
 *     of 1, then EAGAIN;
 *   - a blocking eventfd at 2^40 (past what eventfd() takes): one read of
 *     it; a descriptor dup'd from it is the same file: what one writes,
 *     the other reads;
 *   - an empty non-blocking eventfd: a read gets EAGAIN; O_APPEND, set
 *     on it by fcntl(), stays set.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* One read of @fd: its value, or 0 with errno set. */
static uint64_t get(int fd)
{
	uint64_t v;

	errno = 0;
	return read(fd, &v, sizeof(v)) == sizeof(v) ? v : 0;
}

static bool put(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v)) == sizeof(v);
}

int main(int argc, char **argv)
{
	int sem, big, dupd, empty, fd, i;
	uint64_t v;

	if (argc != 4)
		return 9;
	checks_open(argv[3]);
	sem = eventfd(5, EFD_SEMAPHORE | EFD_NONBLOCK);
	big = eventfd(0, 0);
	empty = eventfd(0, EFD_NONBLOCK);
	if (sem < 0 || big < 0 || empty < 0 || !put(sem, 3) || !put(big, 1ULL << 40))
		return 9;
	dupd = dup(big);
	if (dupd < 0 || fcntl(empty, F_SETFL, O_NONBLOCK | O_APPEND))
		return 9;
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return 9;
	wait_go(argv[2]);

	if (!(fcntl(sem, F_GETFL) & O_NONBLOCK))
		check_fail("semaphore: O_NONBLOCK lost");
	for (i = 0; i < 8; i++) {
		v = get(sem);
		if (v != 1) {
			check_fail("semaphore: read %d gave %llu (%s), not 1", i + 1,
			     (unsigned long long)v, strerror(errno));
			break;
		}
	}
	if (get(sem) || errno != EAGAIN)
		check_fail("semaphore: a ninth read did not get EAGAIN (%s)", strerror(errno));

	if (fcntl(big, F_GETFL) & O_NONBLOCK)
		check_fail("2^40: O_NONBLOCK set");
	v = get(big);
	if (v != 1ULL << 40)
		check_fail("2^40: read %llu (%s)", (unsigned long long)v, strerror(errno));
	if (!put(dupd, 7) || (v = get(big)) != 7)
		check_fail("a write through the dup'd descriptor read back as %llu (%s)",
		     (unsigned long long)v, strerror(errno));

	if (get(empty) || errno != EAGAIN)
		check_fail("empty: a read did not get EAGAIN (%s)", strerror(errno));
	if ((fcntl(empty, F_GETFL) & (O_NONBLOCK | O_APPEND)) != (O_NONBLOCK | O_APPEND))
		check_fail("empty: flags %#x, not O_NONBLOCK and O_APPEND",
			   fcntl(empty, F_GETFL));
	return checks_status();
}
