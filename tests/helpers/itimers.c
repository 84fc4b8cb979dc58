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
 * MODE posix: POSIX timers, see posix() below.
 *
 * Exit 9: a bad MODE or set-up failure.
 */
#include "helper.h"

#include <errno.h>
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

/* ms between the first two signals */
static long gap_ms(void)
{
	return (at[1].tv_sec - at[0].tv_sec) * 1000L + (at[1].tv_nsec - at[0].tv_nsec) / 1000000L;
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
	gap = gap_ms();
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

static volatile sig_atomic_t usr1_value = -1, usr1_timer = -1, usr2s, usr2_overrun = -1;

static void on_usr2(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	if (!usr2s++)
		usr2_overrun = info->si_overrun;
}

static void on_usr1(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	if (alarms < 2)
		clock_gettime(CLOCK_MONOTONIC, &at[alarms]);
	if (sig == SIGUSR1 && info->si_code == SI_TIMER) {
		usr1_value = info->si_value.sival_int;
		usr1_timer = info->si_timerid;
	}
	alarms++;
}

/* ms a POSIX timer has left, -1 on error: errno */
static long left_ms(timer_t id)
{
	struct itimerspec v;

	if (timer_gettime(id, &v))
		return -1;
	return v.it_value.tv_sec * 1000L + v.it_value.tv_nsec / 1000000L;
}

/*
 * MODE posix: four POSIX timers, the second deleted again (ids 0, 2, 3):
 * id 0 CLOCK_MONOTONIC, SIGUSR1 with value 111 in 3 s then every second;
 * id 2 CLOCK_REALTIME, SIGEV_NONE, 100 s; id 3 CLOCK_REALTIME, SIGEV_NONE,
 * absolute, 200 s from now. After the second SIGUSR1, OUT gets "gap G
 * value V timer T none N abs A gone E": ms between the signals, the
 * signal's value and timer id, what id 2 and id 3 have left (ms), the
 * errno timer_gettime() gives for id 1. Id 4: CLOCK_MONOTONIC, SIGUSR2
 * every 200 ms, blocked: its signal stays pending and the timer waits for
 * its delivery to go on; then OUT also gets "pend P usr2 N over O": whether
 * SIGUSR2 is pending, how many came in the second after unblocking it,
 * the first one's si_overrun.
 */
static int posix(const char *out)
{
	struct sigevent usr1 = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1,
				 .sigev_value.sival_int = 111 };
	struct sigevent none = { .sigev_notify = SIGEV_NONE };
	struct itimerspec periodic = { { 1, 0 }, { 3, 0 } };
	struct itimerspec hundred = { { 0, 0 }, { 100, 0 } };
	struct itimerspec deadline = { { 0, 0 }, { 0, 0 } };
	struct sigevent usr2 = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	struct itimerspec fast = { { 0, 200000000 }, { 0, 200000000 } };
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };
	struct timespec second = { 1, 0 };
	sigset_t blocked, pending;
	timer_t id[5];
	char text[256];
	long gap, gone;
	int pend;

	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR2);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	clock_gettime(CLOCK_REALTIME, &deadline.it_value);
	deadline.it_value.tv_sec += 200;
	if (timer_create(CLOCK_MONOTONIC, &usr1, &id[0]) ||
	    timer_create(CLOCK_MONOTONIC, &none, &id[1]) ||
	    timer_create(CLOCK_REALTIME, &none, &id[2]) ||
	    timer_create(CLOCK_REALTIME, &none, &id[3]) ||
	    timer_create(CLOCK_MONOTONIC, &usr2, &id[4]) ||
	    (long)id[0] != 0 || (long)id[3] != 3 || timer_delete(id[1]) ||
	    timer_settime(id[4], 0, &fast, NULL) ||
	    timer_settime(id[2], 0, &hundred, NULL) ||
	    timer_settime(id[3], TIMER_ABSTIME, &deadline, NULL) ||
	    timer_settime(id[0], 0, &periodic, NULL))
		return 9;
	helper_touch(out, ".ready");
	while (alarms < 2)
		pause();
	gap = gap_ms();
	gone = left_ms(id[1]) < 0 ? errno : 0;
	pend = !sigpending(&pending) && sigismember(&pending, SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &blocked, NULL);
	while (nanosleep(&second, &second))
		;
	snprintf(text, sizeof(text),
		 "gap %ld value %d timer %d none %ld abs %ld gone %ld pend %d usr2 %d over %d\n",
		 gap, (int)usr1_value, (int)usr1_timer, left_ms(id[2]), left_ms(id[3]), gone,
		 pend, (int)usr2s, (int)usr2_overrun);
	helper_result(out, text);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 9;
	if (!strcmp(argv[2], "itimers"))
		return itimers(argv[1]);
	if (!strcmp(argv[2], "posix"))
		return posix(argv[1]);
	return 9;
}
