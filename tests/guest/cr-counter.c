// SPDX-License-Identifier: GPL-2.0
/*
 * External checkpoint (the seed's usage.txt scenario): a program counting
 * into a file is stopped, checkpointed, killed and restarted, and its
 * output must equal an uninterrupted run's byte for byte, FPU-derived
 * numbers included. The same image restarts a second time, its output
 * cut back first to what it held at the checkpoint (the same file: restart
 * reopens it by identity), so that the second run must write the rest.
 */
#include "crtest.h"
#include "tap.h"

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
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
	long long held;
	long crid;
	pid_t pid, r;
	int st;

	tap_plan(7);
	engine_on();
	unlink(OUT ".ready");
	pid = spawn(run);
	/* set-up, not results: a failure ends the test */
	if (!wait_file(OUT ".ready", 60) || !stop_task(pid))
		tap_bail("setup: the counter did not start or stop");
	crid = checkpoint_to(pid, IMG);
	held = file_size(OUT);
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

	/* what the second restart must write again itself */
	if (held <= 0 || truncate(OUT, held))
		tap_bail("setup: cannot cut %s back to %lld bytes", OUT, held);
	r = restart_from(IMG);
	st = wait_exit(r, 300);
	tap_ok(exited_ok(st) && file_size(OUT) > held && same_file(OUT, REF),
	       "the same image restarts again, its output cut back to the checkpoint's %lld bytes: it writes the rest, the same",
	       held);
	return tap_done();
}
