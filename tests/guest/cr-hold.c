// SPDX-License-Identifier: GPL-2.0
/*
 * Checkpoint holds its target for the whole operation:
 *   - a target SIGKILLed during its checkpoint (as its owner or the OOM
 *     killer may) makes the checkpoint fail with EBUSY or ESRCH, at
 *     several moments of a large checkpoint written into a pipe the test
 *     drains; the kernel stays healthy (the suite's kernel-log check);
 *   - a target whose address space another process shares (CLONE_VM)
 *     could change without running: EBUSY, both carry on;
 *   - a target traced by another task: EBUSY.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/hold"
#define MIB (1L << 20)

/* Read and drop @len bytes of @fd; false at EOF or on error. */
static bool drain(int fd, long len)
{
	static char buf[64 << 10];
	ssize_t n;

	while (len) {
		n = read(fd, buf, len < (long)sizeof(buf) ? len : (long)sizeof(buf));
		if (n <= 0)
			return false;
		len -= n;
	}
	return true;
}

/* A stopped 128 MiB memhog (about 112 MiB of pages to save). */
static pid_t stopped_memhog(void)
{
	char *argv[] = { HELPER("memhog"), DIR "/ready", DIR "/go", DIR "/sums",
			 "128", NULL };
	pid_t pid;

	unlink(DIR "/ready");
	pid = spawn(argv);
	if (!wait_file(DIR "/ready", 120) || !stop_task(pid))
		tap_bail("setup: memhog did not start or stop");
	return pid;
}

/*
 * Checkpoint a memhog into a pipe, read @after bytes of the image, kill
 * the target, read the rest: the checkpoint must end with an errno.
 */
static void kill_after(long after)
{
	pid_t target = stopped_memhog(), ckpt;
	int p[2], st;
	long ret;
	bool read_ok;

	if (pipe(p))
		tap_bail("pipe: %m");
	ckpt = fork();
	if (ckpt < 0)
		tap_bail("fork: %m");
	if (!ckpt) {
		close(p[0]);
		ret = cr_checkpoint(target, p[1], 0);
		_exit(ret > 0 ? 0 : -ret);
	}
	close(p[1]);
	read_ok = drain(p[0], after);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);	/* dead and reaped: its stack is freed */
	while (drain(p[0], 1 << 16))
		;
	close(p[0]);
	st = wait_exit(ckpt, 120);
	tap_ok(read_ok && st >= 0 && WIFEXITED(st) &&
	       (WEXITSTATUS(st) == EBUSY || WEXITSTATUS(st) == ESRCH),
	       "target killed after %ld KiB of its image: the checkpoint fails with EBUSY or ESRCH (status %#x)",
	       after >> 10, st);
}

static int sharer(void *arg)
{
	(void)arg;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;)
		pause();
	return 0;
}

/*
 * A process sharing its mm with a CLONE_VM child that is not a thread.
 * Both are stopped, so that the refusal can only come from the shared
 * address space (not from a descendant still running), and it must name
 * the sharer.
 */
static void shared_mm(void)
{
	static char stack[64 << 10];
	char want[64];
	const char *why;
	pid_t pid, vm;
	int p[2];
	long ret;

	if (pipe(p))
		tap_bail("pipe: %m");
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		vm = clone(sharer, stack + sizeof(stack), CLONE_VM | SIGCHLD, NULL);
		if (vm < 0 || write(p[1], &vm, sizeof(vm)) != sizeof(vm))
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &vm, sizeof(vm)) != sizeof(vm))
		tap_bail("setup: no CLONE_VM child");
	close(p[0]);
	if (!stop_task(pid) || !stop_task(vm))
		tap_bail("setup: the CLONE_VM parent or child did not stop");
	ret = checkpoint_to(pid, DIR "/shared.img");
	why = engine_stat("checkpoint.refused");
	snprintf(want, sizeof(want), "shared with task %d (CLONE_VM", vm);
	tap_ok(ret == -EBUSY && strstr(why, want) && kill(pid, 0) == 0,
	       "a target sharing its address space (CLONE_VM) with its stopped child: EBUSY naming it, it carries on (%ld: %s)",
	       ret, why);
	kill(vm, SIGKILL);
	kill_wait(pid);
}

/* A target in a trace stop of another task's. */
static void traced(void)
{
	pid_t target, tracer;
	int p[2];
	long ret;
	char c;

	target = fork();
	if (target < 0)
		tap_bail("fork: %m");
	if (!target) {
		for (;;)
			pause();
	}
	if (pipe(p))
		tap_bail("pipe: %m");
	tracer = fork();
	if (tracer < 0)
		tap_bail("fork: %m");
	if (!tracer) {
		close(p[0]);
		if (ptrace(PTRACE_SEIZE, target, 0, 0) ||
		    ptrace(PTRACE_INTERRUPT, target, 0, 0) ||
		    waitpid(target, NULL, __WALL) != target)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		tap_bail("setup: the tracer did not stop its tracee");
	close(p[0]);
	ret = checkpoint_to(target, DIR "/traced.img");
	tap_ok(ret == -EBUSY, "a target traced by another task: EBUSY (%ld)", ret);
	kill_wait(tracer);
	kill_wait(target);
}

int main(void)
{
	static const long moments[] = { 4 << 10, 1 * MIB, 48 * MIB, 100 * MIB };
	unsigned int i;

	tap_plan(6);
	engine_on();
	mkdir(DIR, 0700);
	for (i = 0; i < sizeof(moments) / sizeof(moments[0]); i++)
		kill_after(moments[i]);
	shared_mm();
	traced();
	return tap_done();
}
