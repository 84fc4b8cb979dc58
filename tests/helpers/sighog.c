// SPDX-License-Identifier: GPL-2.0
/*
 * sighog OUT: a program with signal state. SIGUSR1 is caught on an
 * alternate stack (SA_ONSTACK | SA_RESTART), SIGUSR2 ignored, SIGHUP
 * blocked. Writes OUT.ready once set up; after each SIGUSR1 it appends
 * "usr1 N altstack A" to OUT (N: SIGUSR1s so far, A: 1 if the handler ran
 * on the alternate stack). Runs until killed.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ALTSTACK (64 * 1024)

static char *altstack;
static volatile sig_atomic_t count, on_altstack = 1;

static void on_usr1(int sig)
{
	char here;

	(void)sig;
	if (&here < altstack || &here >= altstack + ALTSTACK)
		on_altstack = 0;
	count++;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_ONSTACK | SA_RESTART };
	char ready[4096];
	sigset_t hup;
	stack_t ss;
	int seen = 0;
	FILE *out;

	if (argc != 2) {
		fprintf(stderr, "usage: sighog OUT\n");
		return 2;
	}
	altstack = malloc(ALTSTACK);
	ss.ss_sp = altstack;
	ss.ss_size = ALTSTACK;
	ss.ss_flags = 0;
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	if (!altstack || sigaltstack(&ss, NULL) || sigaction(SIGUSR1, &sa, NULL) ||
	    signal(SIGUSR2, SIG_IGN) == SIG_ERR || sigprocmask(SIG_BLOCK, &hup, NULL))
		return 1;
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	snprintf(ready, sizeof(ready), "%s.ready", argv[1]);
	fclose(fopen(ready, "w"));
	for (;;) {
		struct timespec ts = { 0, 5000000 };

		nanosleep(&ts, NULL);
		if (count != seen) {
			seen = count;
			fprintf(out, "usr1 %d altstack %d\n", seen, (int)on_altstack);
			fflush(out);
		}
	}
}
