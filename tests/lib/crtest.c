// SPDX-License-Identifier: GPL-2.0
/* Helpers for checkpoint/restart guest tests: see crtest.h. */
#include "crtest.h"
#include "crctl.h"
#include "peek.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

bool null_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);
	bool ok = fd >= 0 && dup2(fd, 0) == 0 && dup2(fd, 1) == 1 && dup2(fd, 2) == 2;

	if (fd > 2)
		close(fd);
	return ok;
}

pid_t spawn(char *const argv[])
{
	pid_t pid = fork();

	if (pid)
		return pid;
	null_stdio();
	execv(argv[0], argv);
	_exit(127);
}

void send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1)
		tap_bail("setup: SCM_RIGHTS: %m");
}

bool wait_file(const char *path, int seconds)
{
	int i;

	for (i = 0; i < seconds * 100; i++) {
		if (!access(path, F_OK))
			return true;
		sleep_ms(10);
	}
	return false;
}

pid_t spawn_ready(char *const argv[], const char *out)
{
	char ready[4096];
	pid_t pid;

	snprintf(ready, sizeof(ready), "%s.ready", out);
	unlink(out);
	unlink(ready);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(ready, 30))
		tap_bail("setup: %s did not start", argv[0]);
	return pid;
}

long timed_checkpoint(char *const argv[], const char *out, int run_ms,
		      const char *img, struct timed_ckpt *t)
{
	pid_t pid = spawn_ready(argv, out);
	long crid;

	t->ready = now_ms();
	sleep_ms(run_ms);
	if (!stop_task(pid))
		tap_bail("setup: %s did not stop", argv[0]);
	t->stopped = now_ms();
	crid = checkpoint_retry(pid, img);
	t->saved = now_ms();
	kill_wait(pid);
	return crid;
}

/* The text of /proc/@pid/stat after the command's ") ", in @buf. */
static char *task_stat(pid_t pid, char *buf, size_t size)
{
	char path[64], *p = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fgets(buf, size, f)) {
		p = strrchr(buf, ')');
		p = p && p[1] == ' ' ? p + 2 : NULL;
	}
	fclose(f);
	return p;
}

static char task_state(pid_t pid)
{
	char buf[512], *p = task_stat(pid, buf, sizeof(buf));

	return p ? p[0] : 0;
}

long long task_minflt(pid_t pid)
{
	char buf[512], *p = task_stat(pid, buf, sizeof(buf));
	char state;
	long long v[7];

	if (!p || sscanf(p, "%c %lld %lld %lld %lld %lld %lld %lld", &state,
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 8)
		return -1;
	return v[6];
}

bool wait_comm(pid_t pid, const char *comm, int seconds)
{
	char path[64], buf[64];
	int i;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	for (i = 0; i < seconds * 100; i++) {
		FILE *f = fopen(path, "r");
		bool same = f && fgets(buf, sizeof(buf), f) &&
			    !strncmp(buf, comm, strlen(comm)) && buf[strlen(comm)] == '\n';

		if (f)
			fclose(f);
		if (same)
			return true;
		sleep_ms(10);
	}
	return false;
}

/* Whether every thread of @pid is stopped ('T' in /proc/PID/task/TID/stat). */
static bool all_stopped(pid_t pid)
{
	char path[96], buf[512], *p;
	struct dirent *d;
	bool all = true;
	DIR *dir;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (all && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/stat", pid, d->d_name);
		f = fopen(path, "r");
		n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = '\0';
		p = strrchr(buf, ')');
		all = p && p[1] == ' ' && p[2] == 'T';
	}
	closedir(dir);
	return all;
}

bool stop_task(pid_t pid)
{
	int i;

	if (kill(pid, SIGSTOP))
		return false;
	for (i = 0; i < 500; i++) {
		if (task_state(pid) == 'T' && all_stopped(pid))
			return true;
		sleep_ms(10);
	}
	return false;
}

long checkpoint_to(pid_t pid, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	long ret;

	if (fd < 0)
		return -errno;
	ret = cr_checkpoint(pid, fd, 0);
	close(fd);
	return ret;
}

pid_t restart_from(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	pid_t as = fd >= 0 ? cr_restart_pid(fd) : 0;

	if (fd >= 0)
		close(fd);
	return restart_as(path, as);
}

pid_t restart_as(const char *path, pid_t as)
{
	pid_t pid = as ? cr_fork_pid(as) : fork();
	int fd;
	long ret;

	if (pid)
		return pid;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(RESTART_FAILED(errno));
	ret = cr_restart(0, fd, 0);
	_exit(RESTART_FAILED(-ret));
}

pid_t rstr_cli(const char *opt, const char *img, const char *err)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	fd = open("/dev/null", O_RDWR);
	dup2(fd, 0);
	dup2(fd, 1);
	if (err) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
	}
	if (opt)
		execl("/usr/bin/rstr", "rstr", opt, "-i", img, (char *)NULL);
	else
		execl("/usr/bin/rstr", "rstr", "-i", img, (char *)NULL);
	_exit(127);
}

long checkpoint_retry(pid_t pid, const char *path)
{
	long ret;
	int i;

	for (i = 0; i < 50; i++) {
		ret = checkpoint_to(pid, path);
		if (ret != -EBUSY)
			break;
		sleep_ms(100);
	}
	if (ret < 0)
		tap_diag("checkpoint: %s", engine_stat("checkpoint.refused"));
	return ret;
}

int wait_exit(pid_t pid, int seconds)
{
	int i, status;

	for (i = 0; i < seconds * 100; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		sleep_ms(10);
	}
	tap_diag("pid %d did not exit in %d s: killed", pid, seconds);
	kill_wait(pid);
	return -1;
}

void kill_wait(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

long long count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	long long n = 0;
	int c;

	while (f && (c = getc(f)) != EOF)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}

bool same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	bool same = fa && fb;
	int ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = false;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

void counter_image(const char *out, const char *img)
{
	char *argv[] = { HELPER("counter"), (char *)out, "100000", "5000", NULL };
	char ready[256];
	pid_t pid;

	snprintf(ready, sizeof(ready), "%s.ready", out);
	unlink(ready);
	pid = spawn(argv);
	if (!wait_file(ready, 60) || !stop_task(pid) || checkpoint_to(pid, img) <= 0) {
		kill_wait(pid);
		tap_bail("setup: no image of a counter in %s", img);
	}
	kill_wait(pid);
}

void engine_on(void)
{
	if (cr_enable_set(1))
		tap_bail("cannot turn the engine on: %s", cr_hint(ENODEV));
}

const char *engine_stat(const char *key)
{
	return cr_stat(key);
}

pid_t pid_in(const char *path)
{
	pid_t pid = 0;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%d", &pid) != 1)
		pid = 0;
	if (f)
		fclose(f);
	return pid;
}

void diag_file(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		tap_diag("%.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
}

void check_both(int (*run)(bool ckpt), const char *out)
{
	int st;

	st = run(false);
	if (!tap_ok(st == 0, "without checkpoint every check holds (status %#x)", st))
		diag_file(out);
	st = run(true);
	if (!tap_ok(st == 0, "after checkpoint and restart every check holds (status %#x)", st))
		diag_file(out);
}

int run_checked(char *const argv[], const char *ready, const char *go,
		const char *img, bool ckpt)
{
	return run_checked_after(argv, ready, go, img, ckpt, 0, NULL);
}

/* The helper @argv started afresh, once it has made @ready; -1 (killed) if it does not. */
static pid_t start_helper(char *const argv[], const char *ready, const char *go)
{
	pid_t pid;

	unlink(ready);
	unlink(go);
	pid = spawn(argv);
	if (pid > 0 && !wait_file(ready, 60)) {
		kill_wait(pid);
		return -1;
	}
	return pid;
}

/*
 * Kill the helper @pid and its child @kid (0: none known), the child
 * first, and reap both (the test is the child's subreaper); false if the
 * child was not reaped.
 */
static bool kill_helper(pid_t pid, pid_t kid)
{
	if (kid > 0)
		kill(kid, SIGKILL);
	kill_wait(pid);
	return kid <= 0 || waitpid(kid, NULL, 0) == kid;
}

int run_checked_after(char *const argv[], const char *ready, const char *go,
		      const char *img, bool ckpt, unsigned int seconds,
		      void (*before_go)(pid_t pid))
{
	pid_t pid = start_helper(argv, ready, go);

	if (pid < 0)
		return -1;
	if (ckpt) {
		bool saved = stop_task(pid) && checkpoint_retry(pid, img) > 0;

		kill_wait(pid);
		if (!saved)
			return -1;
		sleep(seconds);
		pid = rstr_cli(NULL, img, NULL);
	}
	if (before_go)
		before_go(pid);
	close(open(go, O_WRONLY | O_CREAT, 0644));
	return wait_exit(pid, 60);
}

int run_checked_kid(char *const argv[], const char *ready, const char *go,
		    const char *img, bool ckpt)
{
	pid_t pid = start_helper(argv, ready, go), kid;
	bool saved;

	if (pid < 0)
		return -1;
	if (ckpt) {
		kid = pid_in(ready);
		saved = kid && stop_task(pid) && stop_task(kid) && checkpoint_retry(pid, img) > 0;
		/* saved or not, neither is left behind */
		if (!kill_helper(pid, kid) || !saved)
			return -1;
		pid = rstr_cli(NULL, img, NULL);
	}
	close(open(go, O_WRONLY | O_CREAT, 0644));
	return wait_exit(pid, 60);
}

void check_refused(pid_t pid, const char *img, int err, const char *want,
		   const char *what)
{
	const char *why;
	long ret;
	int st;

	ret = checkpoint_to(pid, img);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -err && strstr(why, want), "%s: refused with %s (%ld, \"%s\")",
	       what, strerror(err), ret, why);
	kill(pid, SIGCONT);
	st = wait_exit(pid, 60);
	tap_ok(WIFEXITED(st) && !WEXITSTATUS(st),
	       "%s: the refused child carries on and exits (status %#x)", what, st);
}

pid_t fork_netns(bool (*setup)(void))
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		if (!null_stdio() || unshare(CLONE_NEWNET) || !setup())
			_exit(126);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		tap_bail("setup: the child in a network namespace of its own did not stop (%#x)",
			 st);
	return pid;
}

pid_t fork_holding(int lo, int hi, bool exit_on_cont)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		if (!null_stdio() || (lo > 3 && close_range(3, lo - 1, 0)) ||
		    close_range(hi + 1, ~0U, 0))
			_exit(126);
		raise(SIGSTOP);
		while (!exit_on_cont)
			pause();
		_exit(0);
	}
	if (waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		tap_bail("setup: the child holding fds %d-%d did not stop (status %#x)",
			 lo, hi, st);
	return pid;
}
