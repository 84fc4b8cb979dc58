// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper OUT MODE: a process in a 3-second blocking call, to be stopped,
 * checkpointed and restarted in the middle of it. OUT.ready appears just
 * before the call; when the call returns, OUT gets "ok" if it returned as
 * an undisturbed call of its kind returns, else "ret R errno E", and the
 * process sleeps until killed. Exit 9: a bad MODE or set-up failure.
 *
 * MODE: nanosleep (with a remainder pointer), clock_nanosleep
 * (CLOCK_MONOTONIC, relative, none), futex (FUTEX_WAIT with a relative
 * timeout: ETIMEDOUT), futex-rt (FUTEX_WAIT_BITSET on CLOCK_REALTIME, an
 * absolute deadline: ETIMEDOUT), poll (no fds: 0), select (no fds: 0),
 * thread (a second thread in nanosleep, the first in pthread_join).
 */
#include "helper.h"

#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SECONDS	3

static int futex_word;

static int do_nanosleep(void)
{
	struct timespec req = { SECONDS, 0 }, rem;

	return nanosleep(&req, &rem);
}

static void *thread_fn(void *arg)
{
	(void)arg;
	return (void *)(long)(do_nanosleep() ? errno : 0);
}

/* The call; 0 and *@want_err 0, or -1 with errno and *@want_err. */
static int call(const char *mode, int *want_err)
{
	struct timespec ts = { SECONDS, 0 };

	*want_err = 0;
	if (!strcmp(mode, "nanosleep"))
		return do_nanosleep();
	if (!strcmp(mode, "clock_nanosleep")) {
		int err = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);

		errno = err;
		return err ? -1 : 0;
	}
	if (!strcmp(mode, "futex")) {
		*want_err = ETIMEDOUT;
		return syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0, &ts,
			       NULL, 0);
	}
	if (!strcmp(mode, "futex-rt")) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += SECONDS;
		*want_err = ETIMEDOUT;
		return syscall(SYS_futex, &futex_word,
			       FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME,
			       0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
	}
	if (!strcmp(mode, "poll"))
		return poll(NULL, 0, SECONDS * 1000);
	if (!strcmp(mode, "select")) {
		struct timeval tv = { SECONDS, 0 };

		return select(0, NULL, NULL, NULL, &tv);
	}
	if (!strcmp(mode, "thread")) {
		pthread_t th;
		void *res;

		if (pthread_create(&th, NULL, thread_fn, NULL) ||
		    pthread_join(th, &res))
			_exit(9);
		errno = (int)(long)res;
		return errno ? -1 : 0;
	}
	_exit(9);
}

int main(int argc, char **argv)
{
	char text[64];
	int ret, err, want_err;

	if (argc != 3)
		return 9;
	helper_touch(argv[1], ".ready");

	ret = call(argv[2], &want_err);
	err = ret ? errno : 0;

	if (ret == (want_err ? -1 : 0) && err == want_err)
		snprintf(text, sizeof(text), "ok\n");
	else
		snprintf(text, sizeof(text), "ret %d errno %d\n", ret, err);
	helper_result(argv[1], text);
	for (;;)
		pause();
}
