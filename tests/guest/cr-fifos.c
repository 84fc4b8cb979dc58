// SPDX-License-Identifier: GPL-2.0
/*
 * FIFOs across checkpoint/restart (helper: fifos, a process and its child,
 * restarted by rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: a
 *     FIFO's size and bytes in flight, a FIFO this process writes and its
 *     child reads, a reader that saw no writer (no POLLHUP) and one whose
 *     writer left (POLLHUP, its byte, end of file);
 *   - ckptinfo validates that image;
 *   - refusals: a FIFO whose writer the test holds (EBUSY, naming it), a
 *     FIFO removed from its directory (EOPNOTSUPP), each refused child
 *     carrying on; and at restart a FIFO another process has open (EBUSY),
 *     the caller unharmed.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/fifos.ready"
#define GO	"/tmp/fifos.go"
#define OUT	"/tmp/fifos.out"
#define IMG	"/tmp/fifos.img"
#define FIFO	"/tmp/fifos.test"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("fifos"), READY, GO, OUT, NULL };

	return run_checked_kid(argv, READY, GO, IMG, ckpt);
}

/* FIFO made afresh, opened for reading and writing (never blocks). */
static int fifo_rw(void)
{
	int fd;

	unlink(FIFO);
	if (mkfifo(FIFO, 0600))
		tap_bail("setup: mkfifo %s: %m", FIFO);
	fd = open(FIFO, O_RDWR);
	if (fd < 0)
		tap_bail("setup: open %s: %m", FIFO);
	return fd;
}

/* A child holding a FIFO the test writes to: EBUSY, naming the test. */
static void refuse_outside(void)
{
	int rd = fifo_rw(), wr = open(FIFO, O_WRONLY);
	pid_t pid;

	if (wr < 0)
		tap_bail("setup: open %s for writing: %m", FIFO);
	pid = fork_holding(rd, rd, true);
	close(rd);
	check_refused(pid, IMG, EBUSY, "held by task", "a FIFO whose writer the test holds");
	close(wr);
}

/* A child holding a FIFO removed since: EOPNOTSUPP. */
static void refuse_removed(void)
{
	int fd = fifo_rw();
	pid_t pid;

	unlink(FIFO);
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EOPNOTSUPP, "removed", "a FIFO removed from its directory");
}

/* Whether @pid's descriptor @fd names @path within @seconds. */
static bool holds(pid_t pid, int fd, const char *path, int seconds)
{
	char link[64], target[256];
	ssize_t n;
	int i;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	for (i = 0; i < seconds * 10; i++) {
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (!strcmp(target, path))
				return true;
		}
		usleep(100000);
	}
	return false;
}

/*
 * An image of a child holding a FIFO; restarted while the test has the
 * FIFO open: EBUSY before the point of no return (the restarting child
 * exits with it), and once the test closed it, the restart succeeds.
 */
static void refuse_open_elsewhere(void)
{
	int fd = fifo_rw(), mine;
	pid_t pid;
	long ret;
	int st;

	pid = fork_holding(fd, fd, false);
	close(fd);
	ret = checkpoint_to(pid, IMG);
	kill_wait(pid);
	if (ret <= 0)
		tap_bail("setup: checkpoint of a child holding a FIFO: %ld", ret);
	mine = open(FIFO, O_RDWR);
	st = wait_exit(restart_from(IMG), 60);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == RESTART_FAILED(EBUSY) &&
	       strstr(engine_stat("restart.refused"), "open elsewhere"),
	       "a restart finding the FIFO open elsewhere: EBUSY (status %#x, \"%s\")", st,
	       engine_stat("restart.refused"));
	close(mine);
	pid = restart_from(IMG);
	tap_ok(holds(pid, fd, FIFO, 30),
	       "once it is closed, the same image restarts: pid %d holds %s again", pid, FIFO);
	kill_wait(pid);
	unlink(FIFO);
}

int main(void)
{
	tap_plan(9);
	engine_on();
	/* the helper's child, orphaned when it is killed, is the test's to reap */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/fifos.info") == 0,
	       "ckptinfo validates the image");
	refuse_outside();
	refuse_removed();
	refuse_open_elsewhere();
	return tap_done();
}
