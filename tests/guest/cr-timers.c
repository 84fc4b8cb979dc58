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
 *   - POSIX timers, the same way, restarted by a caller with a POSIX
 *     timer of its own: the periodic one's first signal comes the time it
 *     had left after the restart, then every second, with its sigev_value
 *     and timer id; a SIGEV_NONE timer keeps its time left, an absolute
 *     CLOCK_REALTIME one its deadline; ids are the same (a deleted one
 *     stays free); a periodic timer whose signal is blocked and pending
 *     comes back with it pending, and goes on once it is delivered.
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
#include <time.h>
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

/*
 * The first @what of a timer due FIRST_MS after the helper was ready came
 * the time it had left at the checkpoint after the restart (at
 * @restarted): the helper reported @gap ms between it and the second,
 * which the test saw at @woke.
 */
static void first_signal(const char *what, const struct timed_ckpt *t, double restarted,
			 double woke, long gap)
{
	double left = FIRST_MS - (t->stopped - t->ready);

	woke -= gap;
	tap_ok(gap >= 0 && woke - restarted >= FIRST_MS - (t->saved - t->ready) - 100 &&
	       woke - restarted <= left + LATE_MS,
	       "the first %s comes the time it had left after the restart: %.0f ms (%.0f ms left when stopped)",
	       what, woke - restarted, left);
}

static void interval_timers(void)
{
	char *argv[] = { HELPER("itimers"), OUT, "itimers", NULL };
	long gap = -1, vv = -1, vi = -1, pv = -1, pi = -1, ri = -1;
	double restarted, woke;
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
	first_signal("SIGALRM", &t, restarted, woke, gap);
	tap_ok(gap >= 900 && gap <= 1000 + LATE_MS && ri == 1000,
	       "then every second: %ld ms apart, interval %ld ms", gap, ri);
	/* setitimer() adds a tick to a CPU timer, the helper's and restart's */
	tap_ok(vv > 100000 - 5000 && vv <= 100000 + TICKS_MS && vi == 50000,
	       "ITIMER_VIRTUAL keeps its time left and interval: %ld ms, %ld ms", vv, vi);
	tap_ok(pv > 200000 - 5000 && pv <= 200000 + TICKS_MS && pi == 0,
	       "ITIMER_PROF keeps its time left, no interval: %ld ms, %ld ms", pv, pi);
	kill_wait(r);
}

/*
 * POSIX timers: stopped about a second in, checkpointed, restarted after
 * the image waited a second by a caller with a POSIX timer of its own.
 */
static void posix_timers(void)
{
	char *argv[] = { HELPER("itimers"), OUT, "posix", NULL };
	long gap = -1, value = -1, timer = -1, none = -1, abs = -1, gone = -1;
	long pend = -1, usr2 = -1, over = -1;
	double restarted, woke;
	struct timed_ckpt t;
	timer_t mine;
	long crid;
	pid_t r;
	FILE *f;

	crid = timed_checkpoint(argv, OUT, 1000, IMG, &t);
	tap_ok(crid > 0, "a process with POSIX timers checkpoints (crid %ld, \"%s\")", crid,
	       crid > 0 ? "" : engine_stat("checkpoint.refused"));
	if (crid <= 0)
		return;
	sleep_ms(1000);
	/* the caller's own timer (id 0, as the image's): exec deletes it */
	if (timer_create(CLOCK_MONOTONIC, NULL, &mine))
		tap_diag("timer_create: %m");
	restarted = now_ms();
	r = restart_with_alarm(IMG);
	if (!wait_file(OUT, 30))
		tap_diag("restart status %#x", wait_exit(r, 1));
	woke = now_ms();
	timer_delete(mine);
	f = fopen(OUT, "r");
	if (!f || fscanf(f, "gap %ld value %ld timer %ld none %ld abs %ld gone %ld pend %ld usr2 %ld over %ld",
			 &gap, &value, &timer, &none, &abs, &gone, &pend, &usr2, &over) != 9)
		tap_diag("no result from the restarted process");
	if (f)
		fclose(f);
	first_signal("timer signal", &t, restarted, woke, gap);
	tap_ok(gap >= 900 && gap <= 1000 + LATE_MS && value == 111 && timer == 0,
	       "then every second (%ld ms apart), with its sigev_value (%ld) and timer id (%ld)",
	       gap, value, timer);
	/* counted from the checkpoint: the wait does not elapse */
	tap_ok(none > 100000 - 10000 && none <= 100000 - 1000,
	       "a SIGEV_NONE timer keeps its time left: %ld ms of 100 s", none);
	/* a CLOCK_REALTIME deadline stays one: the wait elapses */
	tap_ok(abs > 200000 - 15000 && abs <= 200000 - 2000,
	       "an absolute CLOCK_REALTIME timer keeps its deadline: %ld ms of 200 s left", abs);
	tap_ok(gone == EINVAL, "the ids are the same: the deleted id 1 is still none (errno %ld)",
	       gone);
	/* every 200 ms: the first delivery counts those missed meanwhile */
	tap_ok(pend == 1 && usr2 >= 3 && over >= 5,
	       "a timer whose signal was pending (blocked): still pending, then delivered once with its overruns (%ld), the timer going on (%ld in a second)",
	       over, usr2);
	kill_wait(r);
}

int main(void)
{
	tap_plan(12);
	engine_on();
	interval_timers();
	posix_timers();
	return tap_done();
}
