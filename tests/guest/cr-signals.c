// SPDX-License-Identifier: GPL-2.0
/*
 * Signal state across checkpoint/restart (the SIGNAL record). sighog
 * catches SIGUSR1 on an alternate stack, ignores SIGUSR2 and blocks
 * SIGHUP; it is checkpointed and restarted by a caller with other
 * handlers of its own (SIGUSR1 and SIGUSR2 caught, an alternate stack,
 * nothing blocked). The restarted task must have the image's state:
 *   - /proc says SIGUSR1 caught, SIGUSR2 not caught but ignored, SIGHUP
 *     blocked;
 *   - a SIGUSR1 runs sighog's handler, on sighog's alternate stack;
 *   - SIGUSR2 and SIGHUP leave it running, SIGHUP stays pending;
 *   - a caller sharing its handlers and memory with another process
 *     (CLONE_VM | CLONE_SIGHAND) restarts with handlers of its own, as
 *     after execve(), and the other process keeps its handler.
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
#define SIGBIT(sig) (1ULL << ((sig) - 1))

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

/* The caller: handlers and an alternate stack of its own, nothing blocked. */
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
	    sigaction(SIGUSR1, &sa, NULL) || sigaction(SIGUSR2, &sa, NULL))
		_exit(RESTART_FAILED(errno));
	fd = open(IMG, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(RESTART_FAILED(errno));
	_exit(RESTART_FAILED(-cr_restart(0, fd, 0)));
}

/* Whether @path's last line is @line, within @seconds. */
static bool last_line_is(const char *path, const char *line, int seconds)
{
	char buf[128], last[128] = "";
	int i;

	for (i = 0; i < seconds * 100; i++) {
		FILE *f = fopen(path, "r");

		while (f && fgets(buf, sizeof(buf), f))
			strcpy(last, buf);
		if (f)
			fclose(f);
		if (!strncmp(last, line, strlen(line)) && last[strlen(line)] == '\n')
			return true;
		usleep(10000);
	}
	tap_diag("%s ends with \"%.*s\", not \"%s\"", path,
		 (int)strcspn(last, "\n"), last, line);
	return false;
}

static int shared_child(void *arg)
{
	int fd = open(IMG, O_RDONLY | O_CLOEXEC);

	(void)arg;
	if (fd < 0)
		return RESTART_FAILED(errno);
	return RESTART_FAILED(-cr_restart(0, fd, 0));
}

/*
 * A caller sharing its handlers (CLONE_SIGHAND needs CLONE_VM): restart,
 * an exec, gives it handlers and memory of its own.
 */
static void restart_shared_sighand(void)
{
	size_t size = 256 << 10;
	char *stack = malloc(size);
	unsigned long long cgt = ~0ULL;
	bool restarted;
	pid_t pid;

	if (!stack)
		tap_bail("no memory for a stack");
	/* Shared with the child: sighog ignores SIGUSR2. */
	signal(SIGUSR2, on_usr1);
	pid = clone(shared_child, stack + size, CLONE_VM | CLONE_SIGHAND | SIGCHLD,
		    NULL);
	if (pid < 0)
		tap_bail("clone: %m");
	restarted = wait_comm(pid, "sighog", 60);
	if (restarted)
		cgt = status_mask(pid, "SigCgt");
	tap_ok(restarted && cgt != ~0ULL && !(cgt & SIGBIT(SIGUSR2)),
	       "a caller sharing its handlers and memory restarts with sighog's own (SigCgt %016llx)",
	       cgt);
	kill_wait(pid);
	free(stack);
}

static bool alive(pid_t pid)
{
	usleep(300000);
	return waitpid(pid, NULL, WNOHANG) == 0;
}

int main(void)
{
	char *argv[] = { HELPER("sighog"), OUT, NULL };
	unsigned long long cgt, ign, blk, pnd;
	pid_t pid;

	tap_plan(8);
	engine_on();
	unlink(OUT ".ready");
	pid = spawn(argv);
	if (!wait_file(OUT ".ready", 60))
		tap_bail("setup: sighog did not start");
	kill(pid, SIGUSR1);
	if (!last_line_is(OUT, "usr1 1 altstack 1", 10) || !stop_task(pid) ||
	    checkpoint_to(pid, IMG) <= 0)
		tap_bail("setup: no image of sighog after its first SIGUSR1");
	kill_wait(pid);

	/* The test's own handler is not touched by its child's restart. */
	signal(SIGUSR1, on_usr1);
	pid = restart_with_handlers();
	tap_ok(wait_comm(pid, "sighog", 60), "restart from a caller with handlers of its own");
	cgt = status_mask(pid, "SigCgt");
	ign = status_mask(pid, "SigIgn");
	blk = status_mask(pid, "SigBlk");
	tap_ok(cgt != ~0ULL && cgt & SIGBIT(SIGUSR1) && !(cgt & SIGBIT(SIGUSR2)),
	       "sighog's SIGUSR1 handler, not the caller's SIGUSR2 one (SigCgt %016llx)", cgt);
	tap_ok(ign != ~0ULL && ign & SIGBIT(SIGUSR2),
	       "SIGUSR2 ignored, as sighog had it (SigIgn %016llx)", ign);
	tap_ok(blk != ~0ULL && blk & SIGBIT(SIGHUP),
	       "SIGHUP blocked, as sighog had it (SigBlk %016llx)", blk);
	kill(pid, SIGUSR1);
	tap_ok(last_line_is(OUT, "usr1 2 altstack 1", 10),
	       "a SIGUSR1 runs sighog's handler, on sighog's alternate stack");
	kill(pid, SIGUSR2);
	kill(pid, SIGHUP);
	pnd = status_mask(pid, "SigPnd") | status_mask(pid, "ShdPnd");
	tap_ok(alive(pid) && pnd & SIGBIT(SIGHUP),
	       "SIGUSR2 (ignored) and SIGHUP (blocked, pending: %016llx) leave it running", pnd);
	kill_wait(pid);

	caught = 0;
	restart_shared_sighand();
	raise(SIGUSR2);
	tap_ok(caught == SIGUSR2, "the process it shared them with still has its handler");
	return tap_done();
}
