// SPDX-License-Identifier: GPL-2.0
/*
 * Pending signals across checkpoint/restart (helper: pendsig). Blocked
 * while the process is checkpointed: a SIGUSR1 from kill() (the shared
 * queue), a SIGUSR2 from tgkill() (the thread's own queue), SIGRTMIN
 * queued twice with values 7 then 8, SIGRTMIN+1 with 9. The restarting
 * task has a SIGINT of its own pending (blocked); the image leaves
 * SIGINT at its default action, which would end the process.
 *   - /proc/PID/status shows the same pending sets after restart;
 *   - once unblocked, the restarted process gets every saved signal, with
 *     its si_code, sender pid and value, rt signals in their order with
 *     the duplicate kept;
 *   - and not the restarting task's SIGINT: it lives on.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT	"/tmp/pending.out"
#define IMG	"/tmp/pending.img"

/* The SigPnd and ShdPnd lines of /proc/@pid/status, or "". */
static void pending_sets(pid_t pid, char *buf, size_t len)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	buf[0] = '\0';
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7))
			strncat(buf, line, len - strlen(buf) - 1);
	if (f)
		fclose(f);
}

/* A child that restarts @img with a SIGINT of its own pending (blocked). */
static pid_t restart_with_sigint(const char *img)
{
	pid_t pid = fork();
	sigset_t set;
	int fd;

	if (pid)
		return pid;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGINT);
	fd = open(img, O_RDONLY);
	_exit(RESTART_FAILED(fd < 0 ? ENOENT : -cr_restart(0, fd, 0)));
}

int main(void)
{
	char *argv[] = { HELPER("pendsig"), OUT, NULL };
	char before[512], after[512], want[512], got[512] = "";
	union sigval v;
	pid_t pid, r, me = getpid();
	long crid;
	int st = 0;
	pid_t dead;
	FILE *f;

	tap_plan(4);
	engine_on();
	unlink(OUT);
	unlink(OUT ".ready");
	unlink(OUT ".go");
	unlink(OUT ".done");
	pid = spawn(argv);
	if (pid < 0 || !wait_file(OUT ".ready", 30))
		tap_bail("setup: pendsig did not start");
	kill(pid, SIGUSR1);
	syscall(SYS_tgkill, pid, pid, SIGUSR2);
	v.sival_int = 7;
	sigqueue(pid, SIGRTMIN, v);
	v.sival_int = 8;
	sigqueue(pid, SIGRTMIN, v);
	v.sival_int = 9;
	sigqueue(pid, SIGRTMIN + 1, v);
	if (!stop_task(pid))
		tap_bail("setup: pendsig did not stop");
	pending_sets(pid, before, sizeof(before));
	crid = checkpoint_retry(pid, IMG);
	tap_ok(crid > 0, "a process with signals pending checkpoints (crid %ld)", crid);
	kill_wait(pid);
	if (crid <= 0)
		return tap_done();

	r = restart_with_sigint(IMG);
	if (!wait_comm(r, "pendsig", 30))
		tap_diag("restart: status %#x", wait_exit(r, 1));
	pending_sets(r, after, sizeof(after));
	tap_ok(before[0] && !strcmp(before, after),
	       "the same signals are pending after restart, shared and the thread's own");
	if (strcmp(before, after))
		tap_diag("before:\n%s# after:\n%s", before, after);

	close(open(OUT ".go", O_CREAT | O_WRONLY, 0644));
	wait_file(OUT ".done", 30);
	f = fopen(OUT, "r");
	if (f) {
		size_t n = fread(got, 1, sizeof(got) - 1, f);

		got[n] = '\0';
		fclose(f);
	}
	/* the thread's own queue first, then the shared one, by number */
	snprintf(want, sizeof(want),
		 "%d %d %d 0\n%d %d %d 0\n%d %d %d 7\n%d %d %d 8\n%d %d %d 9\n",
		 SIGUSR2, SI_TKILL, me, SIGUSR1, SI_USER, me,
		 SIGRTMIN, SI_QUEUE, me, SIGRTMIN, SI_QUEUE, me,
		 SIGRTMIN + 1, SI_QUEUE, me);
	tap_ok(!strcmp(got, want),
	       "each is delivered with its si_code, sender and value, the rt ones in order");
	if (strcmp(got, want))
		tap_diag("got:\n%s# want:\n%s", got, want);
	/* a zombie answers kill(): ask waitpid() whether it still runs */
	usleep(200000);
	dead = waitpid(r, &st, WNOHANG);
	tap_ok(dead == 0,
	       "the restarting task's own pending SIGINT is not the image's: it lives on (%d, status %#x)",
	       dead, dead > 0 ? st : 0);
	if (!dead)
		kill_wait(r);
	return tap_done();
}
