// SPDX-License-Identifier: GPL-2.0
/*
 * FPU state across checkpoint/restart: a program holding known values in
 * ymm0-15 (xmm0-15 without AVX2), MXCSR and the x87 stack is stopped
 * mid-loop, checkpointed, killed and restarted; the registers must hold
 * the values when it resumes.
 */
#include "crtest.h"
#include "tap.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

static void go(void)
{
	close(open("/tmp/fpu.go", O_WRONLY | O_CREAT, 0644));
}

static bool status0(int st)
{
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(void)
{
	char *argv[] = { HELPER("fpuregs"), "/tmp/fpu.ready", "/tmp/fpu.go", NULL };
	pid_t pid;
	int st;

	tap_plan(3);
	engine_on();
	tap_diag("AVX2: %s", __builtin_cpu_supports("avx2") ? "yes (ymm)" : "no (xmm)");

	unlink("/tmp/fpu.ready");
	unlink("/tmp/fpu.go");
	pid = spawn(argv);
	if (!wait_file("/tmp/fpu.ready", 60))
		tap_bail("setup: the registers were not loaded");
	go();
	st = wait_exit(pid, 60);
	tap_ok(status0(st), "without checkpoint the check passes (status %#x)", st);

	unlink("/tmp/fpu.ready");
	unlink("/tmp/fpu.go");
	pid = spawn(argv);
	wait_file("/tmp/fpu.ready", 60);
	tap_ok(stop_task(pid) && checkpoint_to(pid, "/tmp/fpu.img") > 0,
	       "stopped and checkpointed with the values in its registers");
	kill_wait(pid);
	pid = restart_from("/tmp/fpu.img");
	if (pid <= 0)
		tap_bail("setup: no child to restart in");
	go();
	st = wait_exit(pid, 60);
	tap_ok(status0(st),
	       "after restart vector registers, MXCSR and x87 hold their values (status %#x)",
	       st);
	return tap_done();
}
