// SPDX-License-Identifier: GPL-2.0
/*
 * Pipes across checkpoint/restart (helper: pipes, restarted by rstr as a
 * user would):
 *   - the helper's checks hold without a checkpoint, and after one: 64 KiB
 *     in flight in a 256 KiB pipe read back in order, a pipe without its
 *     writer drained to end of file, one without its reader failing a
 *     write with EPIPE, a non-blocking read end, and 10000 bytes in flight
 *     to a child, which reads them and then end of file;
 *   - ckptinfo validates that image and lists its pipes;
 *   - refusals: a pipe whose other end the test holds (EBUSY, naming the
 *     pipe and the test); a packet (an O_DIRECT write) in flight
 *     (EOPNOTSUPP). Each refused target carries on.
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

#define READY	"/tmp/pipes.ready"
#define GO	"/tmp/pipes.go"
#define OUT	"/tmp/pipes.out"
#define IMG	"/tmp/pipes.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("pipes"), READY, GO, OUT, NULL };
	pid_t pid, kid;
	long ret;

	unlink(READY);
	unlink(GO);
	pid = spawn(argv);
	if (!wait_file(READY, 60))
		return -1;
	if (ckpt) {
		/* the helper and its child, whose pid READY holds */
		if (!stop_task(pid) || !(kid = pid_in(READY)) || !stop_task(kid))
			return -1;
		ret = checkpoint_retry(pid, IMG);
		if (ret <= 0)
			return -1;
		/* the child first: the test is a subreaper, it reaps it */
		kill(kid, SIGKILL);
		kill_wait(pid);
		if (waitpid(kid, NULL, 0) != kid)
			return -1;
		pid = rstr_cli(NULL, IMG, NULL);
	}
	close(open(GO, O_WRONLY | O_CREAT, 0644));
	return wait_exit(pid, 60);
}

static void refuse_outside(void)
{
	struct stat st;
	char want[96];
	const char *why;
	pid_t pid;
	long ret;
	int p[2];

	if (pipe(p) || fstat(p[0], &st))
		tap_bail("pipe: %m");
	/* the child holds the write end only, the test the read end */
	pid = fork_holding(p[1], p[1], false);
	close(p[1]);
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	snprintf(want, sizeof(want), "pipe:[%lu]: its other end is held by task %d, outside the tree",
		 (unsigned long)st.st_ino, getpid());
	if (!tap_ok(ret == -EBUSY && strstr(why, want),
		    "a pipe whose read end the test holds: EBUSY naming both (%ld, \"%s\")",
		    ret, why)) {
		char cmd[128];

		tap_diag("expected \"%s\"", want);
		snprintf(cmd, sizeof(cmd), "ls -l /proc/%d/fd /proc/%d/fd >&2", pid, getpid());
		if (system(cmd))
			tap_diag("%s failed", cmd);
	}
	kill(pid, SIGCONT);
	/* the child's write end is still open: no end of file */
	errno = 0;
	tap_ok(!fcntl(p[0], F_SETFL, O_NONBLOCK) && read(p[0], want, 1) == -1 &&
	       errno == EAGAIN,
	       "the refused child still holds its end (an empty read gets EAGAIN: %s)",
	       strerror(errno));
	kill_wait(pid);
	close(p[0]);
}

static void refuse_packet(void)
{
	const char *why;
	pid_t pid;
	long ret;
	int p[2];

	if (pipe2(p, O_DIRECT))
		tap_bail("pipe2(O_DIRECT): %m");
	if (write(p[1], "packet", 6) != 6)
		tap_bail("write: %m");
	/* the child holds both ends: nothing outside */
	if (p[1] != p[0] + 1)
		tap_bail("setup: pipe ends %d and %d not adjacent", p[0], p[1]);
	pid = fork_holding(p[0], p[1], false);
	close(p[0]);
	close(p[1]);
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "packet"),
	       "a packet (O_DIRECT write) in flight: EOPNOTSUPP (%ld, \"%s\")", ret, why);
	kill(pid, SIGCONT);
	tap_ok(kill(pid, 0) == 0, "the refused target is still there");
	kill_wait(pid);
}

int main(void)
{
	tap_plan(7);
	engine_on();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	check_both(run, OUT);
	/* the helper's five pipes, one with only its read end, one only its write end */
	tap_ok(system("ckptinfo " IMG " > /tmp/pipes.info && grep -qx 'pipes: 5' /tmp/pipes.info && "
		      "grep -q 'ends open: read only$' /tmp/pipes.info && "
		      "grep -q 'ends open: write only$' /tmp/pipes.info && "
		      "grep -q '^  pipe [0-9]*: 262144 bytes, 65536 in flight' /tmp/pipes.info") == 0,
	       "ckptinfo validates the image and lists its 5 pipes, their sizes, bytes and open ends");
	refuse_outside();
	refuse_packet();
	return tap_done();
}
