// SPDX-License-Identifier: GPL-2.0
/*
 * tree DIR count|wait|zombie: a process tree for the tree tests. Every
 * process writes into DIR; DIR/ready appears once the whole tree runs.
 *
 *   count   three levels: the root, 2 children, 2 grandchildren each (7
 *           processes). The root leads a new session; each child leads
 *           its own process group, its children in it. Each process
 *           counts, rewriting DIR/<pid> in place as "count ppid pgid
 *           sid\n" (fixed width) every 5 ms. All share the root's
 *           standard streams.
 *   wait    the root forks a child (its pid in DIR/child) that exits 42
 *           once DIR/go exists,
 *           and blocks in waitpid() for it; then writes DIR/result as
 *           "pid status\n" and sleeps.
 *   zombie  the root forks a child that exits 7 at once, and reaps it
 *           only once DIR/reap exists; then writes DIR/result as
 *           "pid status\n" and sleeps.
 *
 * Exit 9: bad arguments or set-up failures.
 */
#include "helper.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
		snprintf(line, sizeof(line), "%012ld %8d %8d %8d\n", ++n,
			 getppid(), getpgid(0), getsid(0));
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
	if (waitpid(pid, &st, 0) != pid)
		st = -1;
	snprintf(line, sizeof(line), "%d %d\n", pid, st);
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
	return 9;
}
