// SPDX-License-Identifier: GPL-2.0
/*
 * pendsig OUT: a process with signals pending. It catches SIGUSR1,
 * SIGUSR2, SIGRTMIN and SIGRTMIN+1 with SA_SIGINFO handlers (all other
 * signals blocked while one runs) and blocks them; SIGINT keeps its
 * default action (it would end the process). OUT.ready appears once set
 * up. When OUT.go exists it unblocks them, and once they are delivered
 * writes OUT, a line per signal in delivery order: "signo code pid
 * value", then OUT.done, and sleeps. Exit 9: set-up failure.
 */
#include "helper.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_GOT 64

static struct {
	int signo, code, pid, value;
} got[MAX_GOT];
static volatile sig_atomic_t nr_got;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (nr_got < MAX_GOT) {
		got[nr_got].signo = sig;
		got[nr_got].code = si->si_code;
		got[nr_got].pid = si->si_pid;
		got[nr_got].value = si->si_code == SI_QUEUE ? si->si_value.sival_int : 0;
		nr_got++;
	}
}

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 5000000 };
	const int sigs[] = { SIGUSR1, SIGUSR2, SIGRTMIN, SIGRTMIN + 1 };
	struct sigaction sa;
	char path[4096];
	struct stat st;
	sigset_t set;
	unsigned int i;
	FILE *f;

	if (argc != 2)
		return 9;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], &sa, NULL))
			return 9;
		sigaddset(&set, sigs[i]);
	}
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return 9;
	helper_touch(argv[1], ".ready");
	snprintf(path, sizeof(path), "%s.go", argv[1]);
	while (stat(path, &st))
		nanosleep(&nap, NULL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	f = fopen(argv[1], "w");
	if (!f)
		return 9;
	for (i = 0; i < (unsigned int)nr_got; i++)
		fprintf(f, "%d %d %d %d\n", got[i].signo, got[i].code,
			got[i].pid, got[i].value);
	fclose(f);
	helper_touch(argv[1], ".done");
	for (;;)
		nanosleep(&nap, NULL);
}
