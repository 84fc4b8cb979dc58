// SPDX-License-Identifier: GPL-2.0
/*
 * External checkpoint (the seed's usage.txt scenario): a program counting
 * into a file is stopped, checkpointed, killed and restarted, and its
 * output must equal an uninterrupted run's byte for byte, FPU-derived
 * numbers included. The same image restarts a second time.
 */
#include "crtest.h"
#include "tap.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT "/tmp/counter.out"
#define REF "/tmp/counter.ref"
#define IMG "/tmp/counter.img"

static bool exited_ok(int st)
{
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(void)
{
	char *run[] = { HELPER("counter"), OUT, "400", "5000", NULL };
	char *ref[] = { HELPER("counter"), REF, "400", "0", NULL };
	long crid;
	pid_t pid, r;
	int st;

	tap_plan(9);
	engine_on();
	unlink(OUT ".ready");
	pid = spawn(run);
	if (!tap_ok(wait_file(OUT ".ready", 60), "setup: the counter runs"))
		tap_bail("counter did not start");
	tap_ok(stop_task(pid), "pre-checkpoint: the counter is stopped");
	crid = checkpoint_to(pid, IMG);
	tap_ok(crid > 0, "checkpoint returns a crid (%ld)", crid);
	tap_ok(kill(pid, 0) == 0, "the checkpointed task is still there");
	tap_ok(file_size(IMG) > 4096, "the image has %lld bytes", file_size(IMG));
	kill_wait(pid);

	r = restart_from(IMG);
	st = wait_exit(r, 300);
	tap_ok(exited_ok(st), "restart: the counter ran on to its end (status %#x)", st);
	st = wait_exit(spawn(ref), 300);
	tap_ok(exited_ok(st), "an uninterrupted run for reference");
	tap_ok(same_file(OUT, REF),
	       "verify: the output equals the uninterrupted run's, byte for byte");

	r = restart_from(IMG);
	st = wait_exit(r, 300);
	tap_ok(exited_ok(st) && same_file(OUT, REF),
	       "the same image restarts again, with the same result");
	return tap_done();
}
