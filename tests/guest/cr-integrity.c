// SPDX-License-Identifier: GPL-2.0
/*
 * What the integrity review found, each shown from user space:
 *   - a refused restart leaves its caller exactly as it was: descriptors
 *     and their offsets, close-on-exec, blocked mask, handlers, alternate
 *     stack, memory, robust-futex list;
 *   - a task stopped in sigsuspend() keeps its real blocked mask;
 *   - a task single-stepped by its tracer does not come back with the
 *     tracer's trap flag (it would die of SIGTRAP);
 *   - an rseq area outside the image's memory is refused before the
 *     point of no return (the task used to die on its first return);
 *   - a control file opened with the capability is refused to a writer
 *     without it;
 *   - a checkpoint interrupted by a signal returns EINTR instead of
 *     restarting and appending a second image.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/integrity"
#define COUNTER_IMG DIR "/counter.img"

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

/* A copy of @from with @len bytes at @off replaced by @bytes. */
static void patched_copy(const char *from, const char *to, long off,
			 const void *bytes, size_t len)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (in < 0 || out < 0)
		tap_bail("setup: copy %s: %m", from);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			tap_bail("setup: write %s: %m", to);
	if (off < 0)
		off += lseek(out, 0, SEEK_END);
	if (pwrite(out, bytes, len, off) != (ssize_t)len)
		tap_bail("setup: patch %s: %m", to);
	close(in);
	close(out);
}

/* Everything a refused restart must leave alone, set up and then compared. */
static void refused_restart_keeps_caller(void)
{
	static const char broken[] = DIR "/broken-tail.img";
	pid_t pid;
	int st;

	patched_copy(COUNTER_IMG, broken, -24, "XXXXXXX", 8);	/* tail magic */
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		struct sigaction sa = { .sa_handler = on_sig }, old;
		struct robust_list_head head = { .list = { &head.list } }, *rh;
		size_t len = 1 << 20, rlen, i;
		sigset_t block, cur;
		stack_t ss = { .ss_size = 1 << 16 }, oss;
		unsigned char *mem;
		int fd, img;
		long ret;

		if (!null_stdio())
			_exit(90);
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ss.ss_sp = malloc(ss.ss_size);
		fd = open(DIR "/caller-file", O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (mem == MAP_FAILED || !ss.ss_sp || fd < 0 || dup2(fd, 7) != 7 ||
		    fcntl(7, F_SETFD, FD_CLOEXEC) || lseek(7, 123, SEEK_SET) != 123)
			_exit(91);
		for (i = 0; i < len; i++)
			mem[i] = i * 7;
		sigemptyset(&block);
		sigaddset(&block, SIGUSR2);
		if (sigprocmask(SIG_BLOCK, &block, NULL) || sigaction(SIGUSR1, &sa, NULL) ||
		    sigaltstack(&ss, NULL) || syscall(SYS_set_robust_list, &head, sizeof(head)))
			_exit(92);
		img = open(broken, O_RDONLY);
		ret = cr_sys_restart(0, img, 0);
		if (ret != -EINVAL)
			_exit(93);
		/* Now the caller, piece by piece. */
		if (lseek(7, 0, SEEK_CUR) != 123 || fcntl(7, F_GETFD) != FD_CLOEXEC ||
		    fcntl(img, F_GETFD) < 0)
			_exit(10);
		if (sigprocmask(SIG_BLOCK, NULL, &cur) || !sigismember(&cur, SIGUSR2) ||
		    sigismember(&cur, SIGUSR1))
			_exit(11);
		if (sigaction(SIGUSR1, NULL, &old) || old.sa_handler != on_sig)
			_exit(12);
		raise(SIGUSR1);
		if (got != SIGUSR1)
			_exit(13);
		if (sigaltstack(NULL, &oss) || oss.ss_sp != ss.ss_sp || oss.ss_size != ss.ss_size)
			_exit(14);
		for (i = 0; i < len; i++)
			if (mem[i] != (unsigned char)(i * 7))
				_exit(15);
		if (syscall(SYS_get_robust_list, 0, &rh, &rlen) || rh != &head ||
		    rlen != sizeof(head))
			_exit(16);
		_exit(0);
	}
	st = wait_exit(pid, 120);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a restart refused at the tail (EINVAL) leaves the caller's fds, mask, handlers, altstack, memory and robust list as they were (status %#x: 10-16 name the first difference)",
	       st);
}

/* sigsuspend() with everything unblocked, SIGUSR2 blocked outside it. */
static void sigsuspend_mask(void)
{
	static const char img[] = DIR "/sigsuspend.img", out[] = DIR "/sigsuspend.out";
	pid_t pid;
	int i;
	char buf[64] = "";
	FILE *f;

	unlink(DIR "/sigsuspend.ready");
	unlink(out);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		struct sigaction sa = { .sa_handler = on_sig };
		sigset_t block, none, cur;

		if (!null_stdio())
			_exit(90);
		prctl(PR_SET_NAME, "suspender");
		sigemptyset(&none);
		sigemptyset(&block);
		sigaddset(&block, SIGUSR2);
		if (sigprocmask(SIG_BLOCK, &block, NULL) || sigaction(SIGUSR1, &sa, NULL) ||
		    close(open(DIR "/sigsuspend.ready", O_CREAT | O_WRONLY, 0600)))
			_exit(1);
		while (got != SIGUSR1)
			sigsuspend(&none);
		sigprocmask(SIG_BLOCK, NULL, &cur);
		f = fopen(out, "w");
		fprintf(f, "usr2 blocked %d\n", sigismember(&cur, SIGUSR2));
		fclose(f);
		_exit(0);
	}
	if (!wait_file(DIR "/sigsuspend.ready", 60))
		tap_bail("setup: the sigsuspend child did not start");
	usleep(200000);
	if (!stop_task(pid) || checkpoint_to(pid, img) <= 0)
		tap_bail("setup: no image of the task in sigsuspend()");
	kill_wait(pid);

	pid = restart_from(img);
	/*
	 * Again until it exits: a signal that comes before the restarted
	 * sigsuspend() is back in the kernel runs the handler first, and
	 * the call then waits for the next one.
	 */
	if (wait_comm(pid, "suspender", 60))
		for (i = 0; i < 600 && waitpid(pid, NULL, WNOHANG) == 0; i++) {
			kill(pid, SIGUSR1);
			usleep(100000);
		}
	kill_wait(pid);
	f = fopen(out, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	tap_ok(!strcmp(buf, "usr2 blocked 1"),
	       "a task stopped in sigsuspend() keeps its own blocked mask (\"%s\")", buf);
}

/* Checkpointed by its tracer right after a single step. */
static void single_stepped(void)
{
	static const char img[] = DIR "/step.img";
	volatile unsigned long n = 0;
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		if (!null_stdio())
			_exit(90);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(1);
		raise(SIGSTOP);
		while (n < 1000000)
			n++;
		_exit(42);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_SINGLESTEP, pid, 0, 0) || waitpid(pid, &st, 0) != pid ||
	    !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
		tap_bail("setup: cannot single-step the child");
	if (checkpoint_to(pid, img) <= 0)
		tap_bail("setup: the tracer cannot checkpoint its stepped tracee");
	kill_wait(pid);

	pid = restart_from(img);
	st = wait_exit(pid, 60);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "a single-stepped task restarts without its tracer's trap flag and runs to its end (status %#x)",
	       st);
}

/* The TASK record's rseq address, moved out of any mapping. */
static void rseq_outside(void)
{
	static const char img[] = DIR "/rseq.img";
	/* HEADER (16 + 240), ARCH (16 + 16) and TREE come first; then TASK */
	const long tree = 16 + 240 + 16 + 16;
	const uint64_t addr = 0x10000;	/* 32-byte aligned, mapped by nobody */
	uint32_t type = 0;
	uint64_t len = 0;
	long task = 0;
	int fd, st;
	pid_t pid;

	fd = open(COUNTER_IMG, O_RDONLY);
	if (fd >= 0 && pread(fd, &type, 4, tree) == 4 && type == 4 &&
	    pread(fd, &len, 8, tree + 8) == 8)
		task = tree + 16 + (long)((len + 7) & ~7ULL);
	if (fd < 0 || !task || pread(fd, &type, 4, task) != 4 || type != 16)
		tap_bail("setup: no TASK record at %ld of %s", task, COUNTER_IMG);
	close(fd);
	/* pid, flags, comm[16], robust_list, clear_child_tid, then rseq */
	patched_copy(COUNTER_IMG, img, task + 16 + 4 + 4 + 16 + 8 + 8, &addr, 8);
	pid = restart_from(img);
	st = wait_exit(pid, 60);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == RESTART_FAILED(EINVAL),
	       "an rseq area outside the image's memory: EINVAL before the point of no return (status %#x)",
	       st);
}

/* A control file opened with the capability, written without it. */
static void capability_at_write(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = {};
	int ctl, st;
	pid_t pid;

	ctl = open("/sys/kernel/debug/checkpoint/checkpoint", O_RDWR);
	if (ctl < 0)
		tap_bail("open the checkpoint control file: %m");
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		int img = open(DIR "/nocap.img", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		long ret;

		if (img < 0 || syscall(SYS_capset, &hdr, data))
			_exit(1);
		ret = cr_ctl_checkpoint(ctl, getpid(), img, 0);
		_exit(ret == -EPERM ? 0 : 2);
	}
	st = wait_exit(pid, 60);
	close(ctl);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a writer without the capability on a control file root opened: EPERM (status %#x)",
	       st);
}

/* A checkpoint into a pipe nobody reads, interrupted by SIGALRM (SA_RESTART). */
static void interrupted(void)
{
	char *argv[] = { HELPER("memhog"), DIR "/ready", DIR "/go", DIR "/sums", "16", NULL };
	pid_t target, ckpt;
	int st;

	unlink(DIR "/ready");
	target = spawn(argv);
	if (!wait_file(DIR "/ready", 60) || !stop_task(target))
		tap_bail("setup: memhog did not start");
	ckpt = fork();
	if (ckpt < 0)
		tap_bail("fork: %m");
	if (!ckpt) {
		struct sigaction sa = { .sa_handler = on_sig, .sa_flags = SA_RESTART };
		int ctl = open("/sys/kernel/debug/checkpoint/checkpoint", O_RDWR), p[2];
		long ret;

		if (ctl < 0 || pipe(p) || sigaction(SIGALRM, &sa, NULL))
			_exit(1);
		alarm(1);
		ret = cr_ctl_checkpoint(ctl, target, p[1], 0);
		_exit(ret == -EINTR ? 0 : 2);
	}
	st = wait_exit(ckpt, 20);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a checkpoint interrupted by a signal returns EINTR, not a restarted write (status %#x)",
	       st);
	kill_wait(target);
}

int main(void)
{
	tap_plan(6);
	engine_on();
	mkdir(DIR, 0700);
	counter_image(DIR "/count", COUNTER_IMG);
	refused_restart_keeps_caller();
	sigsuspend_mask();
	single_stepped();
	rseq_outside();
	capability_at_write();
	interrupted();
	return tap_done();
}
