// SPDX-License-Identifier: GPL-2.0
/*
 * Event fds across checkpoint/restart (helper: evfds, restarted by rstr
 * as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: a
 *     semaphore eventfd counts down from 8, one at 2^40 reads it back and
 *     still shares its file with a dup'd descriptor, an empty one gets
 *     EAGAIN, each with its O_NONBLOCK;
 *   - ckptinfo validates that image and lists the three;
 *   - an eventfd the test holds too (inherited across fork): EBUSY,
 *     naming it and the test.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/evfds.ready"
#define GO	"/tmp/evfds.go"
#define OUT	"/tmp/evfds.out"
#define IMG	"/tmp/evfds.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("evfds"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

/* A child holding an eventfd the test holds too: EBUSY, naming both. */
static void shared(void)
{
	const char *why;
	char who[48];
	pid_t pid;
	long ret;
	int fd, st;

	fd = eventfd(1, 0);
	if (fd < 0)
		tap_bail("eventfd: %m");
	pid = fork_holding(fd, fd, true);
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	snprintf(who, sizeof(who), "anon_inode:[eventfd]: shared with task %d,", getpid());
	tap_ok(ret == -EBUSY && strstr(why, who),
	       "an eventfd the test holds too: EBUSY naming it and the test (%ld, \"%s\")",
	       ret, why);
	kill(pid, SIGCONT);
	st = wait_exit(pid, 60);
	tap_ok(WIFEXITED(st) && !WEXITSTATUS(st),
	       "the refused child carries on and exits (status %#x)", st);
	close(fd);
}

int main(void)
{
	tap_plan(5);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/evfds.info && "
		      "grep -q 'eventfd count 8, semaphore, nonblocking' /tmp/evfds.info && "
		      "grep -q 'eventfd count 1099511627776  ' /tmp/evfds.info && "
		      "grep -q 'eventfd count 0, nonblocking' /tmp/evfds.info") == 0,
	       "ckptinfo validates the image and lists the three eventfds with their counters");
	shared();
	return tap_done();
}
