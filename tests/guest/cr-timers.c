// SPDX-License-Identifier: GPL-2.0
/*
 * Timers across checkpoint/restart (helper: itimers).
 *   - interval timers: ITIMER_REAL (first alarm in 3 s, then every
 *     second) is stopped about a second in, checkpointed, and restarted
 *     after the image waited a second, by a caller whose own ITIMER_REAL
 *     would fire 300 ms into the restart. The restored process's first
 *     SIGALRM comes the time it had left after the restart (not the
 *     caller's, not shortened by the wait), the next a second later;
 *     ITIMER_VIRTUAL and ITIMER_PROF keep their time left and interval.
 *   - a POSIX timer (timer_create()) is refused with EOPNOTSUPP and a
 *     reason naming it: exec deletes it, and it is not saved yet.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define OUT	"/tmp/itimers.out"
#define IMG	"/tmp/itimers.img"
#define FIRST_MS	3000
#define LATE_MS		1500	/* slack for a slow (TCG) guest */
#define TICKS_MS	25	/* two ticks at HZ=100, and rounding */

/* Restart @img in a child whose own ITIMER_REAL fires in 300 ms. */
static pid_t restart_with_alarm(const char *img)
{
	struct itimerval mine = { { 0, 0 }, { 0, 300000 } };
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	signal(SIGALRM, SIG_IGN);
	setitimer(ITIMER_REAL, &mine, NULL);
	fd = open(img, O_RDONLY);
	_exit(RESTART_FAILED(fd < 0 ? ENOENT : -cr_restart(0, fd, 0)));
}

static void interval_timers(void)
{
	char *argv[] = { HELPER("itimers"), OUT, "itimers", NULL };
	long gap = -1, vv = -1, vi = -1, pv = -1, pi = -1, ri = -1;
	double restarted, woke, left;
	struct timed_ckpt t;
	long crid;
	pid_t r;
	FILE *f;

	crid = timed_checkpoint(argv, OUT, 1000, IMG, &t);
	tap_ok(crid > 0, "a process with interval timers checkpoints (crid %ld)", crid);
	if (crid <= 0)
		return;
	sleep_ms(1000);

	restarted = now_ms();
	r = restart_with_alarm(IMG);
	/* the first alarm: the helper writes OUT after the second */
	if (!wait_file(OUT, 30))
		tap_diag("restart status %#x", wait_exit(r, 1));
	woke = now_ms();
	f = fopen(OUT, "r");
	if (!f || fscanf(f, "gap %ld virt %ld %ld prof %ld %ld real_interval %ld",
			 &gap, &vv, &vi, &pv, &pi, &ri) != 6)
		tap_diag("no result from the restarted process");
	if (f)
		fclose(f);

	/* ITIMER_REAL counts real time until the checkpoint */
	left = FIRST_MS - (t.stopped - t.ready);
	woke -= gap;
	tap_ok(gap >= 0 && woke - restarted >= FIRST_MS - (t.saved - t.ready) - 100 &&
	       woke - restarted <= left + LATE_MS,
	       "the first SIGALRM comes the time it had left after the restart: %.0f ms (%.0f ms left when stopped)",
	       woke - restarted, left);
	tap_ok(gap >= 900 && gap <= 1000 + LATE_MS && ri == 1000,
	       "then every second: %ld ms apart, interval %ld ms", gap, ri);
	/* setitimer() adds a tick to a CPU timer, the helper's and restart's */
	tap_ok(vv > 100000 - 5000 && vv <= 100000 + TICKS_MS && vi == 50000,
	       "ITIMER_VIRTUAL keeps its time left and interval: %ld ms, %ld ms", vv, vi);
	tap_ok(pv > 200000 - 5000 && pv <= 200000 + TICKS_MS && pi == 0,
	       "ITIMER_PROF keeps its time left, no interval: %ld ms, %ld ms", pv, pi);
	kill_wait(r);
}

static void posix_timer(void)
{
	char *argv[] = { HELPER("itimers"), OUT, "posix", NULL };
	const char *why;
	pid_t pid;

	pid = spawn_ready(argv, OUT);
	stop_task(pid);
	tap_errno(checkpoint_to(pid, IMG), EOPNOTSUPP,
		  "checkpoint of a process with a POSIX timer: EOPNOTSUPP");
	why = engine_stat("checkpoint.refused");
	tap_ok(strstr(why, "POSIX timers (timer_create)") != NULL,
	       "the reason names POSIX timers (\"%s\")", why);
	kill_wait(pid);
}

int main(void)
{
	tap_plan(7);
	engine_on();
	interval_timers();
	posix_timer();
	return tap_done();
}
