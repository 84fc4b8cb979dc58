// SPDX-License-Identifier: GPL-2.0
/*
 * File locks across checkpoint/restart (helper: lockers, restarted by
 * rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: its
 *     flock() lock, OFD write lock on a range, shared OFD read lock and
 *     flock(), and POSIX write lock (its own, in the eyes of a child) are
 *     held again;
 *   - another process (this test) is refused the flock() lock while the
 *     restarted helper holds it;
 *   - ckptinfo validates that image and lists the locks;
 *   - refusals: a lease (EOPNOTSUPP); a restart while the checkpointed
 *     process still holds its locks (EAGAIN, naming the file).
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR	"/tmp/locks.d"
#define READY	"/tmp/locks.ready"
#define GO	"/tmp/locks.go"
#define OUT	"/tmp/locks.out"
#define IMG	"/tmp/locks.img"

/* Whether another open of DIR/a is refused its flock() lock, errno kept. */
static int refused_a;

/* Before GO: whether this test can take DIR/a's flock() lock from @pid. */
static void try_lock(pid_t pid)
{
	int fd;

	/* restarted: its commit took the locks, then set its comm */
	wait_comm(pid, "lockers", 60);
	fd = open(DIR "/a", O_RDWR);
	refused_a = flock(fd, LOCK_EX | LOCK_NB) ? errno : 0;
	close(fd);
}

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("lockers"), READY, GO, OUT, DIR, NULL };

	return run_checked_after(argv, READY, GO, IMG, ckpt, 0, try_lock);
}

/* A child holding a read lease on a file of its own: EOPNOTSUPP. */
static void refuse_lease(void)
{
	pid_t pid;
	int fd;

	close(open(DIR "/lease", O_WRONLY | O_CREAT, 0644));
	fd = open(DIR "/lease", O_RDONLY);
	if (fd < 0 || fcntl(fd, F_SETLEASE, F_RDLCK))
		tap_bail("setup: a read lease on %s: %m", DIR "/lease");
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EOPNOTSUPP, "a lease", "a lease");
}

/* A restart while the checkpointed process lives on with its lock: EAGAIN. */
static void refuse_conflict(void)
{
	char *argv[] = { HELPER("lockers"), READY, GO, OUT, DIR, NULL };
	const char *why;
	pid_t pid, r;
	int st;

	unlink(READY);
	unlink(GO);
	pid = spawn(argv);
	if (!wait_file(READY, 60) || !stop_task(pid) || checkpoint_retry(pid, IMG) <= 0)
		tap_bail("setup: checkpointing lockers");
	r = rstr_cli(NULL, IMG, "/tmp/locks.err");
	st = wait_exit(r, 60);
	why = engine_stat("restart.refused");
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) && strstr(why, "conflicting lock"),
	       "a restart while the original holds its locks: refused (status %#x, \"%s\")",
	       st, why);
	kill_wait(pid);
}

int main(void)
{
	tap_plan(7);
	engine_on();
	mkdir(DIR, 0755);
	check_both(run, OUT);
	tap_ok(refused_a == EWOULDBLOCK,
	       "another process is refused the restarted helper's flock() lock (%s)",
	       strerror(refused_a));
	tap_ok(system("ckptinfo " IMG " > /tmp/locks.info && "
		      "grep -q '^    lock: flock, write$' /tmp/locks.info && "
		      "grep -q '^    lock: OFD, write, bytes 10-19$' /tmp/locks.info && "
		      "grep -q '^    lock: OFD, read, bytes 0 to the end$' /tmp/locks.info && "
		      "grep -q '^    lock: flock, read$' /tmp/locks.info && "
		      "grep -q '^    lock: POSIX, write, bytes 0-4$' /tmp/locks.info") == 0,
	       "ckptinfo validates the image and lists the five locks");
	refuse_lease();
	refuse_conflict();
	return tap_done();
}
