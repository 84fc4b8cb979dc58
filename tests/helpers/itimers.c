// SPDX-License-Identifier: GPL-2.0
/*
 * itimers OUT MODE, a process with timers.
 *
 * MODE itimers: ITIMER_REAL fires in 3 s, then every second; SIGALRM is
 * caught. ITIMER_VIRTUAL is set to 100 s, interval 50 s, ITIMER_PROF to
 * 200 s, no interval (both CPU time: they barely move in a sleeper).
 * OUT.ready appears once they are set. After the second SIGALRM, OUT
 * gets "gap G virt V I prof V I real_interval I": the milliseconds
 * between the two alarms and what getitimer() says then, in ms; then the
 * process sleeps until killed.
 *
 * MODE posix: a POSIX timer (timer_create(), CLOCK_MONOTONIC, not
 * armed), then OUT.ready, then sleeps until killed.
 *
 * Exit 9: a bad MODE or set-up failure.
 */
#include "helper.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static struct timespec at[2];

static void on_alarm(int sig)
{
	(void)sig;
	if (alarms < 2)
		clock_gettime(CLOCK_MONOTONIC, &at[alarms]);
	alarms++;
}

static long ms(const struct timeval *tv)
{
	return tv->tv_sec * 1000L + tv->tv_usec / 1000;
}

static int itimers(const char *out)
{
	struct itimerval real = { { 1, 0 }, { 3, 0 } };
	struct itimerval virt = { { 50, 0 }, { 100, 0 } };
	struct itimerval prof = { { 0, 0 }, { 200, 0 } };
	char text[256];
	long gap;

	signal(SIGALRM, on_alarm);
	if (setitimer(ITIMER_VIRTUAL, &virt, NULL) ||
	    setitimer(ITIMER_PROF, &prof, NULL) ||
	    setitimer(ITIMER_REAL, &real, NULL))
		return 9;
	helper_touch(out, ".ready");
	while (alarms < 2)
		pause();
	gap = (at[1].tv_sec - at[0].tv_sec) * 1000L +
	      (at[1].tv_nsec - at[0].tv_nsec) / 1000000L;
	getitimer(ITIMER_VIRTUAL, &virt);
	getitimer(ITIMER_PROF, &prof);
	getitimer(ITIMER_REAL, &real);
	snprintf(text, sizeof(text), "gap %ld virt %ld %ld prof %ld %ld real_interval %ld\n",
		 gap, ms(&virt.it_value), ms(&virt.it_interval), ms(&prof.it_value),
		 ms(&prof.it_interval), ms(&real.it_interval));
	helper_result(out, text);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	timer_t id;

	if (argc != 3)
		return 9;
	if (!strcmp(argv[2], "itimers"))
		return itimers(argv[1]);
	if (strcmp(argv[2], "posix") ||
	    timer_create(CLOCK_MONOTONIC, NULL, &id))
		return 9;
	helper_touch(argv[1], ".ready");
	for (;;)
		pause();
}
