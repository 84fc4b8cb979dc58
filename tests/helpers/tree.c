// SPDX-License-Identifier: GPL-2.0
/*
 * tree DIR count|wait|zombie: a process tree for the tree tests. Every
 * process writes into DIR; DIR/ready appears once the whole tree runs.
 *
 *   count   three levels: the root, 2 children, 2 grandchildren each (7
 *           processes). The root leads a new session; each child leads
 *           its own process group, its children in it. Each process
 *           counts, rewriting DIR/<pid> in place as "count pid ppid
 *           pgid sid\n" (fixed width; the pid it has now) every 5 ms. All share the root's
 *           standard streams.
 *   wait    the root forks a child (its pid in DIR/child) that exits 42
 *           once DIR/go exists,
 *           and blocks in waitpid() for it; then writes DIR/result as
 *           "pid status\n" and sleeps.
 *   zombie  the root forks a child that exits 7 at once, and reaps it
 *           (waitpid(-1): whatever its pid) only once DIR/reap exists;
 *           then writes DIR/result as "pid status\n" and sleeps.
 *   share   the root clones a child sharing its files table and fs_struct
 *           (CLONE_FILES | CLONE_FS; its pid in DIR/child). Once DIR/go
 *           exists the child opens DIR/opened, changes to DIR/sub and sets
 *           umask 027, and writes the new fd to DIR/fd; the root, seeing
 *           it, writes DIR/result: "files=F fs=C umask=U\n", each 1 if
 *           it sees the change (the fd open in its table, DIR/sub its
 *           working directory, 027 its umask), else 0; then both sleep.
 *
 * Exit 9: bad arguments or set-up failures.
 */
#include "helper.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static int ready_fd = -1;	/* the root's end of the ready pipe */

static void nap(void)
{
	struct timespec ts = { 0, 5000000 };

	nanosleep(&ts, NULL);
}

static int exists(const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st);
}

static void put(const char *name, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	helper_result(path, text);
}

/*
 * Count forever; once the first line is written, one byte on @up (if
 * any) or, the root, DIR/ready. The line is rewritten in place through
 * one descriptor held open, fixed-width, so that a checkpoint never
 * catches a file that is renamed later.
 */
static void counter(int up)
{
	char path[4096], line[64];
	long n = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%d", dir, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(9);
	for (;;) {
		snprintf(line, sizeof(line), "%012ld %8d %8d %8d %8d\n", ++n,
			 getpid(), getppid(), getpgid(0), getsid(0));
		if (pwrite(fd, line, strlen(line), 0) < 0)
			_exit(9);
		/* running: said once its first line is there to read */
		if (up >= 0 && (write(up, "x", 1) != 1 || close(up)))
			_exit(9);
		if (up == -1)
			put("ready", "");
		up = -2;
		nap();
	}
}

/* A child of a level-@level process, counting; its own children below. */
static pid_t spawn(int level, int up)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	close(ready_fd);
	if (level == 1)
		setpgid(0, 0);
	if (level < 2) {
		spawn(level + 1, up);
		spawn(level + 1, up);
	}
	counter(up);
	return 0;
}

static int tree_count(void)
{
	int p[2], i;
	char c;

	if (setsid() < 0 || pipe(p))
		return 9;
	ready_fd = p[0];
	spawn(1, p[1]);
	spawn(1, p[1]);
	for (i = 0; i < 6; i++)
		if (read(p[0], &c, 1) != 1)
			return 9;
	close(p[0]);
	close(p[1]);
	counter(-1);
	return 0;
}

static int tree_wait(int zombie)
{
	char line[64];
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return 9;
	if (!pid) {
		if (zombie)
			_exit(7);
		while (!exists("go"))
			nap();
		_exit(42);
	}
	snprintf(line, sizeof(line), "%d\n", pid);
	put("child", line);
	put("ready", "");
	if (zombie)
		while (!exists("reap"))
			nap();
	/* its only child, by no pid: under new pids the zombie has another */
	pid = zombie ? waitpid(-1, &st, 0) : waitpid(pid, &st, 0);
	if (pid < 0)
		st = -1;
	snprintf(line, sizeof(line), "%d %d\n", pid, st);
	put("result", line);
	for (;;)
		nap();
}

/* The share child: what it changes, the root sees (tree_share()). */
static int share_child(void)
{
	char path[4096], line[32];
	int fd;

	while (!exists("go"))
		nap();
	snprintf(path, sizeof(path), "%s/opened", dir);
	fd = open(path, O_RDONLY | O_CREAT, 0644);
	snprintf(path, sizeof(path), "%s/sub", dir);
	if (fd < 0 || chdir(path))
		_exit(9);
	umask(027);
	snprintf(line, sizeof(line), "%d\n", fd);
	put("fd", line);
	for (;;)
		nap();
}

static int tree_share(void)
{
	char path[4096], cwd[4096], want[4096], line[64];
	int fd = -1, files, fs, um;
	pid_t pid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sub", dir);
	if (mkdir(path, 0755) || !realpath(path, want))
		return 9;
	pid = (pid_t)syscall(SYS_clone, CLONE_FILES | CLONE_FS | SIGCHLD, 0, NULL,
			     NULL, 0);
	if (pid < 0)
		return 9;
	if (!pid)
		_exit(share_child());
	snprintf(line, sizeof(line), "%d\n", pid);
	put("child", line);
	put("ready", "");
	snprintf(path, sizeof(path), "%s/fd", dir);
	while (!exists("fd"))
		nap();
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &fd) != 1)
		return 9;
	fclose(f);
	files = fcntl(fd, F_GETFD) >= 0;
	fs = getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, want);
	um = umask(0) == 027;
	snprintf(line, sizeof(line), "files=%d fs=%d umask=%d\n", files, fs, um);
	put("result", line);
	for (;;)
		nap();
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 9;
	dir = argv[1];
	if (!strcmp(argv[2], "count"))
		return tree_count();
	if (!strcmp(argv[2], "wait"))
		return tree_wait(0);
	if (!strcmp(argv[2], "zombie"))
		return tree_wait(1);
	if (!strcmp(argv[2], "share"))
		return tree_share();
	return 9;
}
