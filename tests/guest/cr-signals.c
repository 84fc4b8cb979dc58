// SPDX-License-Identifier: GPL-2.0
/*
 * Signal state at restart. The image holds no signal state yet, and the
 * caller's handlers point into the address space restart replaces: they
 * must go back to SIG_DFL as at execve() (ignored signals stay ignored).
 * Without that, the first caught signal jumps into the restarted
 * program's memory at the caller's handler address.
 *   - the restarted task catches nothing (SigCgt 0) and still ignores
 *     what the caller ignored (SigIgn);
 *   - SIGUSR2 (ignored) leaves it counting; SIGUSR1 (the caller's
 *     handler, on an alternate stack) kills it by SIGUSR1;
 *   - a caller sharing its handlers with another process (CLONE_SIGHAND)
 *     is refused with EBUSY, and carries on.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT "/tmp/signals.out"
#define IMG "/tmp/signals.img"

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	caught = sig;
}

/* The hex mask after @key in /proc/@pid/status, or ~0 if not found. */
static unsigned long long status_mask(pid_t pid, const char *key)
{
	unsigned long long mask = ~0ULL;
	char path[64], line[256];
	size_t n = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			mask = strtoull(line + n + 1, NULL, 16);
	if (f)
		fclose(f);
	return mask;
}

/* The caller: a handler on an alternate stack, an ignored signal. */
static pid_t restart_with_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_ONSTACK };
	pid_t pid = fork();
	stack_t ss;
	int fd;

	if (pid)
		return pid;
	ss.ss_sp = malloc(SIGSTKSZ);
	ss.ss_size = SIGSTKSZ;
	ss.ss_flags = 0;
	if (!ss.ss_sp || sigaltstack(&ss, NULL) ||
	    sigaction(SIGUSR1, &sa, NULL) || signal(SIGUSR2, SIG_IGN) == SIG_ERR)
		_exit(RESTART_FAILED(errno));
	fd = open(IMG, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(RESTART_FAILED(errno));
	_exit(RESTART_FAILED(-cr_restart(0, fd, 0)));
}

static int shared_child(void *arg)
{
	int fd = open(IMG, O_RDONLY | O_CLOEXEC);

	(void)arg;
	if (fd < 0)
		return RESTART_FAILED(errno);
	return RESTART_FAILED(-cr_restart(0, fd, 0));
}

/* A caller sharing its handlers (CLONE_SIGHAND needs CLONE_VM). */
static void refuse_shared_sighand(void)
{
	size_t size = 256 << 10;
	char *stack = malloc(size);
	pid_t pid;
	int st;

	if (!stack)
		tap_bail("no memory for a stack");
	pid = clone(shared_child, stack + size, CLONE_VM | CLONE_SIGHAND | SIGCHLD,
		    NULL);
	if (pid < 0)
		tap_bail("clone: %m");
	st = wait_exit(pid, 120);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == RESTART_FAILED(EBUSY),
	       "a caller sharing its signal handlers: EBUSY, and it carries on (status %#x)",
	       st);
	free(stack);
}

static bool counts_on(const char *what)
{
	long long before = count_lines(OUT);

	usleep(300000);
	return tap_ok(count_lines(OUT) > before, "%s", what);
}

int main(void)
{
	unsigned long long cgt, ign;
	pid_t pid;
	int st;

	tap_plan(7);
	engine_on();
	counter_image(OUT, IMG);

	/* The test's own handler is not touched by its child's restart. */
	signal(SIGUSR1, on_usr1);
	pid = restart_with_handlers();
	counts_on("restart from a caller with handlers: the counter counts on");
	cgt = status_mask(pid, "SigCgt");
	ign = status_mask(pid, "SigIgn");
	tap_ok(!(cgt & (1ULL << (SIGUSR1 - 1))),
	       "the caller's SIGUSR1 handler is gone (SigCgt %016llx)", cgt);
	tap_ok(ign != ~0ULL && ign & (1ULL << (SIGUSR2 - 1)),
	       "SIGUSR2 is still ignored, as at execve (SigIgn %016llx)", ign);
	kill(pid, SIGUSR2);
	counts_on("an ignored SIGUSR2 leaves it counting");
	kill(pid, SIGUSR1);
	st = wait_exit(pid, 60);
	tap_ok(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1,
	       "SIGUSR1 takes its default action: killed by SIGUSR1 (status %#x)", st);

	refuse_shared_sighand();
	raise(SIGUSR1);
	tap_ok(caught == SIGUSR1, "the refused caller's process still has its handler");
	return tap_done();
}
