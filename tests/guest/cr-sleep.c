// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupted sleeps across checkpoint/restart (helper: sleeper). A
 * process in a 3-second call is stopped about a second into it,
 * checkpointed and killed; the image waits a second, then is restarted.
 * For each call:
 *   - it returns as an undisturbed one would (0, or ETIMEDOUT for a
 *     futex wait), never EINTR;
 *   - it returns about the time it had left after the restart: the time
 *     the image waited does not elapse. A futex deadline on
 *     CLOCK_REALTIME is absolute and stays so: it wakes earlier after the
 *     restart by the time the image waited.
 * nanosleep, clock_nanosleep, a futex wait and poll go on through
 * restart_syscall() with the restart block the TASK record saved;
 * select goes on as the signal code restarts it, with the time it wrote
 * back; a second thread's nanosleep goes on while the first thread's
 * pthread_join() waits again.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT	"/tmp/sleeper.out"
#define IMG	"/tmp/sleeper.img"
#define CALL_MS	3000
#define LATE_MS	1500	/* slack for a slow (TCG) guest */

static const struct {
	const char *mode;
	bool absolute;		/* a wall-clock deadline: the wait elapses */
} calls[] = {
	{ "nanosleep", false }, { "clock_nanosleep", false }, { "futex", false },
	{ "futex-rt", true }, { "poll", false }, { "select", false },
	{ "thread", false },
};

static void one(const char *mode, bool absolute)
{
	char *argv[] = { HELPER("sleeper"), OUT, (char *)mode, NULL };
	double restarted, woke, left, left_min;
	struct timed_ckpt t;
	char got[64] = "";
	long crid;
	pid_t r;
	FILE *f;

	crid = timed_checkpoint(argv, OUT, 1000, IMG, &t);
	if (crid <= 0) {
		tap_ok(false, "%s: checkpoint (%ld)", mode, crid);
		tap_ok(false, "%s: # skipped, no image", mode);
		return;
	}
	sleep_ms(1000);

	restarted = now_ms();
	r = restart_from(IMG);
	if (!wait_file(OUT, 30))
		tap_diag("%s: restart status %#x", mode, wait_exit(r, 1));
	woke = now_ms();
	f = fopen(OUT, "r");
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		fclose(f);
	}
	got[strcspn(got, "\n")] = '\0';
	tap_ok(!strcmp(got, "ok"), "%s: the call returns as if never interrupted (%s)",
	       mode, got[0] ? got : "no result");

	/*
	 * What it had left when stopped (the stop came after ready), and at
	 * the latest when the checkpoint ended: a restart block's deadline
	 * is absolute until the checkpoint, as for SIGSTOP and SIGCONT.
	 */
	left = CALL_MS - (t.stopped - t.ready);
	left_min = CALL_MS - (t.saved - t.ready);
	if (absolute)
		/* the image waited a second: a deadline moved by it would be later */
		tap_ok(woke - restarted <= left - 500,
		       "%s: the absolute deadline is kept: woke %.0f ms after the restart (%.0f ms left when stopped)",
		       mode, woke - restarted, left);
	else
		tap_ok(woke - restarted >= left_min - 100 &&
		       woke - restarted <= left + LATE_MS,
		       "%s: it goes on for the time it had left: woke %.0f ms after the restart (%.0f ms left when stopped)",
		       mode, woke - restarted, left);
	kill_wait(r);
}

int main(void)
{
	unsigned int i;

	tap_plan(2 * (int)(sizeof(calls) / sizeof(calls[0])));
	engine_on();
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		one(calls[i].mode, calls[i].absolute);
	return tap_done();
}
