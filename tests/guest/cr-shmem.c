// SPDX-License-Identifier: GPL-2.0
/*
 * Shared anonymous memory (MAP_SHARED | MAP_ANONYMOUS) across
 * checkpoint/restart (helper: shmanon; restarted by rstr, as a user
 * would):
 *   - one process: its shared mappings come back at the same addresses,
 *     with the same permissions, offsets and VMA flags, and the same
 *     contents (a pattern, holes, a MAP_NORESERVE page), split by
 *     mprotect() into three VMAs of one object;
 *   - a parent and child that play ping-pong through a shared page: after
 *     a restart of the tree they still share it (with two private copies
 *     they would stall at once), and the image holds its pages once;
 *   - leak detection: the child alone, whose shared memory its parent
 *     (outside the image) maps too: EBUSY naming the parent, and both
 *     carry on.
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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define SDIR	"/tmp/shm.d"
#define IMG	"/tmp/shm.img"
#define MAPS_MAX	4096

static void reap_all(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void kill_all(const pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < 100; i++) {
		reap_all();
		sleep_ms(10);
	}
}

static long read_count(pid_t pid)
{
	char path[64], buf[64];
	long n = -1;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), SDIR "/%d", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len > 0) {
		buf[len] = '\0';
		n = atol(buf);
	}
	return n;
}

/* Whether @pid's count passes @base + @more within 10 s. */
static bool counts_on(pid_t pid, long base, long more)
{
	int k;

	for (k = 0; k < 200; k++) {
		if (read_count(pid) > base + more)
			return true;
		sleep_ms(50);
	}
	return false;
}

static pid_t start(const char *mode)
{
	char *argv[] = { HELPER("shmanon"), SDIR, (char *)mode, NULL };
	pid_t pid;

	if (system("rm -rf " SDIR "; mkdir -p " SDIR))
		tap_bail("setup: " SDIR);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(SDIR "/ready", 30))
		tap_bail("setup: shmanon %s did not start", mode);
	return pid;
}

static pid_t child_of_pair(void)
{
	pid_t child = 0;
	FILE *f = fopen(SDIR "/child", "r");

	if (f && fscanf(f, "%d", &child) != 1)
		child = 0;
	if (f)
		fclose(f);
	return child;
}

/*
 * The shared anonymous mappings of @pid, one per line: range, permissions,
 * offset, name and VmFlags (the inode number is the new object's).
 */
static void shared_maps(pid_t pid, char *out)
{
	char path[64], line[512], range[64], perms[8], off[32], dev[16], name[256];
	bool want = false;
	unsigned long ino;
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		name[0] = '\0';
		if (sscanf(line, "%63s %7s %31s %15s %lu %255[^\n]", range, perms,
			   off, dev, &ino, name) >= 5 && strchr(range, '-')) {
			want = strstr(name, "/dev/zero") != NULL;
			if (want && strlen(out) + strlen(line) < MAPS_MAX)
				sprintf(out + strlen(out), "%s %s %s %s", range,
					perms, off, name);
		} else if (want && !strncmp(line, "VmFlags:", 8) &&
			   strlen(out) + strlen(line) < MAPS_MAX) {
			strcat(out, line + 8);
		}
	}
	if (f)
		fclose(f);
}

/* SIGUSR1 to @pid, then its DIR/check line. */
static const char *checked(pid_t pid)
{
	static char buf[128];
	FILE *f;

	unlink(SDIR "/check");
	kill(pid, SIGUSR1);
	buf[0] = '\0';
	if (!wait_file(SDIR "/check", 10))
		return "no answer";
	sleep_ms(20);
	f = fopen(SDIR "/check", "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		strcpy(buf, "unreadable");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void lone(void)
{
	static char before[MAPS_MAX], after[MAPS_MAX];
	const char *why;
	pid_t pid, r;
	long crid, n;
	int k;

	pid = start("lone");
	if (!stop_task(pid))
		tap_bail("setup: shmanon did not stop");
	shared_maps(pid, before);
	n = read_count(pid);
	crid = checkpoint_retry(pid, IMG);
	tap_ok(crid > 0, "a process with shared anonymous memory checkpoints (crid %ld)",
	       crid);
	kill_all(&pid, 1);
	if (crid <= 0)
		return;

	/* rstr restarts a lone process in place: its pid is rstr's */
	r = rstr_cli(NULL, IMG, NULL);
	for (k = 0; k < 200 && !wait_comm(r, "shmanon", 0); k++)
		sleep_ms(50);
	shared_maps(r, after);
	tap_ok(before[0] && !strcmp(before, after),
	       "its shared mappings come back alike (range, permissions, offset, name, VmFlags)");
	if (strcmp(before, after))
		tap_diag("before:\n%s# after:\n%s", before, after);
	why = checked(r);
	tap_ok(!strcmp(why, "ok"),
	       "their contents too: pattern, holes, the MAP_NORESERVE page (%s)", why);
	tap_ok(counts_on(pid, n, 20), "and it runs on");
	kill_all(&r, 1);
}

static void pair(void)
{
	pid_t pids[2], r;
	const char *why;
	long crid, n[2];
	bool moved;
	int i;

	pids[0] = start("pair");
	pids[1] = child_of_pair();
	if (!pids[1] || !stop_task(pids[0]) || !stop_task(pids[1]))
		tap_bail("setup: the pair did not stop");
	for (i = 0; i < 2; i++)
		n[i] = read_count(pids[i]);

	/* leak detection first: the child alone */
	crid = checkpoint_to(pids[1], IMG);
	{
		char who[64];

		snprintf(who, sizeof(who), "also mapped by %d", pids[0]);
		tap_ok(crid == -EBUSY && strstr(engine_stat("checkpoint.refused"), who),
		       "a child whose shared memory its parent maps, alone: EBUSY naming the parent (%ld, \"%s\")",
		       crid, engine_stat("checkpoint.refused"));
	}
	kill(pids[1], SIGCONT);
	kill(pids[0], SIGCONT);
	tap_ok(counts_on(pids[0], n[0], 20) && counts_on(pids[1], n[1], 20),
	       "both carry on");

	if (!stop_task(pids[0]) || !stop_task(pids[1]))
		tap_bail("setup: the pair did not stop again");
	for (i = 0; i < 2; i++)
		n[i] = read_count(pids[i]);
	crid = checkpoint_retry(pids[0], IMG);
	tap_ok(crid > 0, "the parent and child sharing memory checkpoint together (crid %ld)",
	       crid);
	kill_all(pids, 2);
	if (crid <= 0)
		return;
	/* three objects (data, pid page, ping-pong page), not one per process */
	tap_ok(system("ckptinfo " IMG " | grep -qx 'shared memory: 3 objects'") == 0,
	       "the image holds each shared object once for both processes");

	r = rstr_cli(NULL, IMG, NULL);
	moved = counts_on(pids[0], n[0], 50) && counts_on(pids[1], n[1], 50);
	tap_ok(moved, "after restart they still share it: the ping-pong goes on (parent %ld -> %ld, child %ld -> %ld)",
	       n[0], read_count(pids[0]), n[1], read_count(pids[1]));
	why = checked(pids[0]);
	tap_ok(!strcmp(why, "ok"), "the shared contents are intact (%s)", why);
	kill_all(pids, 2);
	wait_exit(r, 30);
}

int main(void)
{
	tap_plan(10);
	engine_on();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	lone();
	pair();
	return tap_done();
}
