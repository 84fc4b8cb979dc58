// SPDX-License-Identifier: GPL-2.0
/*
 * shmanon DIR lone|pair: shared anonymous memory (MAP_SHARED |
 * MAP_ANONYMOUS) for the shared-memory tests.
 *
 * Both modes map DATA_PAGES shared anonymous pages and fill the first
 * half with a pattern (the rest never touched: holes), then mprotect()
 * the middle read-only (three VMAs of one shared object, the later ones
 * at an offset in it), and map a one-page MAP_NORESERVE region holding
 * its pid. On SIGUSR1 the process (the parent, in pair mode) checks all
 * of it and writes DIR/check as "ok\n" or "bad <what>\n".
 *
 *   lone  one process; it counts in its shared page.
 *   pair  the process forks a child that shares a ping/pong page with it:
 *         the parent writes ping = n and waits for the child to answer
 *         pong = n, then n + 1. Two private copies would stall at once.
 *         The child's pid is in DIR/child.
 *
 * Each process rewrites DIR/<pid> in place as "count\n" (fixed width)
 * every round; DIR/ready appears once it runs. Exit 9: set-up failure.
 */
#include "helper.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DATA_PAGES	64
#define RO_FIRST	20	/* pages [RO_FIRST, RO_END) read-only */
#define RO_END		40

struct pingpong {
	volatile long ping, pong;
};

static const char *dir;
static unsigned char *data;
static volatile pid_t *owner;
static long pagesz;
static volatile sig_atomic_t check_asked;
static pid_t me;		/* private: what the pid page must hold */

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

static void put(const char *name, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	helper_result(path, text);
}

static unsigned char pattern(long i)
{
	return (unsigned char)(i * 7 + i / 4093 + 1);
}

static void on_usr1(int sig)
{
	(void)sig;
	check_asked = 1;
}

/* The pattern, the holes and the pid page, checked: DIR/check. */
static void check(void)
{
	long half = DATA_PAGES / 2 * pagesz, i;
	char msg[128] = "ok\n";

	for (i = 0; i < half; i++)
		if (data[i] != pattern(i)) {
			snprintf(msg, sizeof(msg), "bad data at %ld\n", i);
			break;
		}
	for (i = half; i < DATA_PAGES * pagesz && msg[0] == 'o'; i++)
		if (data[i]) {
			snprintf(msg, sizeof(msg), "bad hole at %ld\n", i);
			break;
		}
	if (msg[0] == 'o' && *owner != me)
		snprintf(msg, sizeof(msg), "bad pid page %d\n", (int)*owner);
	put("check", msg);
}

/* The count line, rewritten in place through a descriptor kept open. */
static int count_fd(void)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%d", dir, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(9);
	return fd;
}

static void show(int fd, long n)
{
	char line[32];

	snprintf(line, sizeof(line), "%012ld\n", n);
	if (pwrite(fd, line, strlen(line), 0) < 0)
		_exit(9);
	if (check_asked) {
		check_asked = 0;
		check();
	}
}

int main(int argc, char **argv)
{
	struct pingpong *pp;
	char line[32];
	long n = 0, i;
	pid_t child;
	int fd;

	if (argc != 3 || (strcmp(argv[2], "lone") && strcmp(argv[2], "pair")))
		return 9;
	dir = argv[1];
	pagesz = sysconf(_SC_PAGESIZE);
	signal(SIGUSR1, on_usr1);
	data = mmap(NULL, DATA_PAGES * pagesz, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	owner = mmap(NULL, pagesz, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pp = mmap(NULL, pagesz, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (data == MAP_FAILED || owner == MAP_FAILED || pp == MAP_FAILED)
		return 9;
	for (i = 0; i < DATA_PAGES / 2 * pagesz; i++)
		data[i] = pattern(i);
	if (mprotect(data + RO_FIRST * pagesz, (RO_END - RO_FIRST) * pagesz,
		     PROT_READ))
		return 9;
	me = getpid();
	*owner = me;

	if (!strcmp(argv[2], "lone")) {
		fd = count_fd();
		put("ready", "");
		for (;;) {
			show(fd, ++n);
			nap();
		}
	}

	child = fork();
	if (child < 0)
		return 9;
	if (!child) {
		*owner = getpid();	/* shared: the parent puts its own back */
		fd = count_fd();
		for (;;) {
			if (pp->pong != pp->ping) {
				pp->pong = pp->ping;
				show(fd, ++n);
			}
			nap();
		}
	}
	while (*owner != child)
		nap();
	*owner = me;
	snprintf(line, sizeof(line), "%d\n", child);
	put("child", line);
	fd = count_fd();
	put("ready", "");
	for (;;) {
		pp->ping = ++n;
		while (pp->pong != n)
			nap();
		show(fd, n);
	}
}
