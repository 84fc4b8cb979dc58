// SPDX-License-Identifier: GPL-2.0
/*
 * crdaemon DIR: a daemon-style process for the process-state test. It
 * starts its own session (setsid), puts /dev/null on stdin, logs to
 * DIR/log opened O_APPEND, catches SIGTERM with SA_RESTART, blocks
 * SIGUSR1 (the test sends one before the checkpoint: it stays pending),
 * runs ITIMER_REAL every 500 ms (SIGALRM counted) and a POSIX timer on
 * CLOCK_MONOTONIC every 300 ms (SIGUSR2, value 42, counted), works in DIR/work
 * with umask 077, RLIMIT_NOFILE 64/128 and nice 5. DIR/ready appears
 * once all is set. On SIGTERM it checks all of that again and appends
 * "PASS" or "FAIL: what" to the log, then exits 0.
 * Exit 9: set-up failure.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t term, alarms, ticks, tick_value;

static void on_term(int sig)
{
	(void)sig;
	term = 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void on_tick(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	tick_value = info->si_value.sival_int;
	ticks++;
}

/* What is not as it was set, appended to @why. */
static void check(int ok, const char *what, char *why, size_t len)
{
	if (!ok)
		snprintf(why + strlen(why), len - strlen(why), " %s", what);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX], work[PATH_MAX], cwd[PATH_MAX], why[512] = "", line[64];
	struct itimerval every = { { 0, 500000 }, { 0, 500000 } }, now;
	struct sigevent usr2 = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2,
				 .sigev_value.sival_int = 42 };
	struct itimerspec tick = { { 0, 300000000 }, { 0, 300000000 } }, tick_now;
	struct timespec t0, t1;
	timer_t timer;
	struct rlimit nofile = { 64, 128 }, got;
	struct sigaction sa = { 0 };
	struct stat st, null_st;
	sigset_t usr1, pending;
	long beats = 0, before;
	mode_t mask;
	int log, fl;

	if (argc != 2 || setsid() < 0)
		return 9;
	snprintf(work, sizeof(work), "%s/work", argv[1]);
	snprintf(path, sizeof(path), "%s/log", argv[1]);
	log = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (log < 0 || !freopen("/dev/null", "r", stdin) || chdir(work))
		return 9;
	umask(077);
	sa.sa_handler = on_term;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_sigaction = on_tick;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sigaction(SIGUSR2, &sa, NULL);
	if (timer_create(CLOCK_MONOTONIC, &usr2, &timer) ||
	    timer_settime(timer, 0, &tick, NULL))
		return 9;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL) || setrlimit(RLIMIT_NOFILE, &nofile) ||
	    setpriority(PRIO_PROCESS, 0, 5) || setitimer(ITIMER_REAL, &every, NULL))
		return 9;
	helper_touch(argv[1], "/ready");
	while (!term) {
		snprintf(line, sizeof(line), "beat %ld\n", ++beats);
		if (write(log, line, strlen(line)) < 0)
			return 9;
		usleep(100000);
	}

	/* SIGTERM: is everything as it was set? */
	check(getsid(0) == getpid(), "session", why, sizeof(why));
	check(!fstat(0, &st) && !stat("/dev/null", &null_st) && st.st_rdev == null_st.st_rdev,
	      "stdin", why, sizeof(why));
	fl = fcntl(log, F_GETFL);
	check(fl >= 0 && (fl & O_APPEND), "O_APPEND", why, sizeof(why));
	check(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, work), "cwd", why, sizeof(why));
	mask = umask(0);
	check(mask == 077, "umask", why, sizeof(why));
	check(!getrlimit(RLIMIT_NOFILE, &got) && got.rlim_cur == 64 && got.rlim_max == 128,
	      "RLIMIT_NOFILE", why, sizeof(why));
	errno = 0;
	check(getpriority(PRIO_PROCESS, 0) == 5 && !errno, "nice", why, sizeof(why));
	check(!sigpending(&pending) && sigismember(&pending, SIGUSR1), "pending SIGUSR1",
	      why, sizeof(why));
	check(!getitimer(ITIMER_REAL, &now) && now.it_interval.tv_usec == 500000 &&
	      (now.it_value.tv_sec || now.it_value.tv_usec), "itimer", why, sizeof(why));
	check(!timer_gettime(timer, &tick_now) && tick_now.it_interval.tv_nsec == 300000000 &&
	      (tick_now.it_value.tv_sec || tick_now.it_value.tv_nsec), "POSIX timer", why,
	      sizeof(why));
	before = alarms;
	tick_value = 0;
	/* 1.2 s, however often the timers' signals cut a sleep short */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		usleep(100000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1000L + (t1.tv_nsec - t0.tv_nsec) / 1000000L < 1200);
	check(alarms > before, "SIGALRM", why, sizeof(why));
	check(tick_value == 42, "POSIX timer signal", why, sizeof(why));
	sa.sa_handler = SIG_DFL;
	check(!sigaction(SIGTERM, NULL, &sa) && sa.sa_handler == on_term &&
	      (sa.sa_flags & SA_RESTART), "SIGTERM handler", why, sizeof(why));
	snprintf(line, sizeof(line), why[0] ? "FAIL:" : "PASS\n");
	if (write(log, line, strlen(line)) < 0 ||
	    (why[0] && (write(log, why, strlen(why)) < 0 || write(log, "\n", 1) < 0)))
		return 9;
	return 0;
}
