// SPDX-License-Identifier: GPL-2.0
/*
 * Threads across checkpoint/restart (helper: threads):
 *   - 8 workers, each with its own pattern in its vector registers, its
 *     own __thread counter (FS base), name and blocked mask, stopped
 *     mid-computation, checkpointed into one image, killed, restarted:
 *     all 8 keep counting with their registers intact, under the same
 *     thread ids, names and masks;
 *   - two threads handing a turn through a mutex and a condition
 *     variable keep handing it over, in order;
 *   - the restarted process keeps its pid (restart_from() restarts it in a
 *     child with that pid, as rstr does);
 *   - refusals: new pids (RESTART_NEW_PIDS, rstr --new-pids: EOPNOTSUPP),
 *     a process whose child runs (EBUSY, and it carries on),
 *     a thread instead of its process (EINVAL), thread ids still taken
 *     at restart, a caller of another pid (EBUSY, the caller unharmed);
 *   - restarts killed at every point: each ends, no thread is left.
 */
#include "crctl.h"
#include "crtest.h"
#include "peek.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NR_WORKERS	8
#define OUT		"/tmp/threads.out"
#define IMG		"/tmp/threads.img"

struct rec {
	int64_t tid;
	int64_t count;
	int64_t errors;
	int64_t spare;
};

static bool get_rec(unsigned int i, struct rec *r)
{
	int fd = open(OUT, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = pread(fd, r, sizeof(*r), (off_t)i * sizeof(*r));
	close(fd);
	return n == sizeof(*r);
}

/* Wait up to @seconds until record @i counts above @above. */
static bool wait_count(unsigned int i, int64_t above, int seconds)
{
	struct rec r;
	int n;

	for (n = 0; n < seconds * 50; n++) {
		if (get_rec(i, &r) && r.count > above)
			return true;
		usleep(20000);
	}
	return false;
}

static pid_t start(const char *mode)
{
	char *argv[] = { HELPER("threads"), OUT, (char *)mode, NULL };

	unlink(OUT);
	return spawn(argv);
}

/* The image's task count, as rstr reads it ahead; -1 if unreadable. */
static int nr_tasks_of(const char *img)
{
	struct cr_image_head head;
	int fd = open(img, O_RDONLY);
	int ret = -1;

	if (fd >= 0 && !cr_image_peek(fd, &head)) {
		ret = (int)head.nr_tasks;
		cr_image_head_free(&head);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* A line "key:\tvalue" of /proc/PID/task/TID/status, or "". */
static const char *task_status(pid_t pid, pid_t tid, const char *key)
{
	static char line[256];
	char path[64];
	size_t len = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return "";
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			fclose(f);
			line[strcspn(line, "\n")] = '\0';
			return line + len + 1 + strspn(line + len + 1, " \t");
		}
	fclose(f);
	return "";
}

static int count_tasks(pid_t pid)
{
	char path[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

static void workers(void)
{
	struct rec before[NR_WORKERS + 1], after;
	int i, ok_count = 0, ok_tid = 0, ok_name = 0, ok_mask = 0;
	int64_t errors = 0;
	pid_t pid, r, holder;
	int ended, left;
	long crid;

	pid = start("count");
	for (i = 1; i <= NR_WORKERS; i++)
		if (!wait_count(i, 0, 60))
			break;
	tap_ok(i > NR_WORKERS, "8 worker threads count");
	crid = stop_task(pid) ? checkpoint_to(pid, IMG) : -1;
	for (i = 1; i <= NR_WORKERS; i++)
		get_rec(i, &before[i]);
	tap_ok(crid > 0 && nr_tasks_of(IMG) == NR_WORKERS + 1,
	       "checkpointed stopped mid-computation: one image of %d tasks (crid %ld)",
	       nr_tasks_of(IMG), crid);
	kill_wait(pid);

	r = restart_from(IMG);
	for (i = 1; i <= NR_WORKERS; i++) {
		ok_count += wait_count(i, before[i].count + 3, 60);
		if (!get_rec(i, &after))
			continue;
		errors += after.errors;
		ok_tid += after.tid == before[i].tid;
	}
	tap_ok(ok_count == NR_WORKERS && !errors,
	       "after restart all %d threads count on, each with its own vector registers and __thread counter (%d counting, %lld register mismatches)",
	       NR_WORKERS, ok_count, (long long)errors);
	for (i = 1; i <= NR_WORKERS; i++) {
		char name[16];
		unsigned long long blk = strtoull(task_status(r, before[i].tid, "SigBlk"),
						  NULL, 16);

		snprintf(name, sizeof(name), "worker-%d", i - 1);
		ok_name += !strcmp(task_status(r, before[i].tid, "Name"), name);
		ok_mask += blk == 1ULL << (SIGRTMIN + i - 2);
	}
	tap_ok(ok_tid == NR_WORKERS && count_tasks(r) == NR_WORKERS + 1,
	       "the same thread ids (%d of %d), %d tasks in the process", ok_tid,
	       NR_WORKERS, count_tasks(r));
	tap_ok(ok_name == NR_WORKERS && ok_mask == NR_WORKERS,
	       "each thread's name and blocked mask are its own (%d names, %d masks of %d)",
	       ok_name, ok_mask, NR_WORKERS);

	/*
	 * A caller of another pid: the leader's id is cached by libc. (The
	 * pid itself is the harness's: restart_from() creates the restarting
	 * task with it, as rstr does; what is checked is that the engine
	 * requires it.)
	 */
	pid = restart_as(IMG, 0);
	i = wait_exit(pid, 60);
	tap_ok(i >= 0 && WIFEXITED(i) && WEXITSTATUS(i) == RESTART_FAILED(EBUSY) &&
	       wait_count(1, 0, 1),
	       "restarted from a task of another pid: EBUSY, the caller exits as it was (status %#x)",
	       i);
	kill_wait(r);

	/* the leader's pid free, one thread's id taken by another process */
	holder = cr_fork_pid((pid_t)before[3].tid);
	if (!holder)
		for (;;)
			pause();
	pid = restart_from(IMG);
	i = wait_exit(pid, 60);
	tap_ok(holder > 0 && i >= 0 && WIFEXITED(i) &&
	       WEXITSTATUS(i) == RESTART_FAILED(EBUSY),
	       "a thread id taken by another process: EBUSY, the caller exits as it was (status %#x)",
	       i);
	if (holder > 0)
		kill_wait(holder);

	/* killed at every point of the restart: each one ends, nothing stays */
	for (i = 0, ended = 0; i < 20; i++) {
		pid = restart_from(IMG);
		usleep(i * 700);
		kill(pid, SIGKILL);
		ended += wait_exit(pid, 30) >= 0;
	}
	for (i = 1, left = 0; i <= NR_WORKERS; i++)
		left += kill((pid_t)before[i].tid, 0) == 0;
	truncate(OUT, 0);	/* only the next restart's counts from here */
	r = restart_from(IMG);
	tap_ok(ended == 20 && !left && wait_count(1, before[1].count + 3, 60),
	       "20 restarts killed along the way: %d ended, %d thread ids left behind; the next restart counts on",
	       ended, left);
	kill_wait(r);
}

static void handoffs(void)
{
	struct rec before = { 0 }, after = { 0 };
	pid_t pid, r;
	long crid;
	bool ok;

	pid = start("handoff");
	tap_ok(wait_count(0, 100, 60), "two threads hand a turn through a mutex and a condition variable");
	crid = stop_task(pid) ? checkpoint_to(pid, IMG) : -1;
	get_rec(0, &before);
	kill_wait(pid);
	r = restart_from(IMG);
	ok = crid > 0 && wait_count(0, before.count + 200, 60) && get_rec(0, &after);
	tap_ok(ok && !after.errors,
	       "after restart they keep handing it over, in order (%lld turns at the checkpoint, %lld after, %lld errors)",
	       (long long)before.count, (long long)after.count, (long long)after.errors);
	kill_wait(r);
}

/*
 * New pids are for single-threaded processes (threads come back with
 * their saved ids only):
 * the kernel refuses the coordinated restart of this image under new
 * pids (EOPNOTSUPP, saying why), and rstr --new-pids refuses it too.
 */
static void new_pids_refused(void)
{
	int fd = open(IMG, O_RDONLY | O_CLOEXEC), st;
	const char *why;
	long ret;

	if (fd < 0)
		tap_bail("setup: no image");
	ret = cr_restart(0, fd, RESTART_COORDINATE | RESTART_NEW_PIDS);
	close(fd);
	why = engine_stat("restart.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "has threads"),
	       "RESTART_NEW_PIDS for a multi-threaded process: EOPNOTSUPP (%ld, \"%s\")",
	       ret, why);
	st = system("rstr --new-pids -i " IMG " 2>/dev/null");
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 1,
	       "rstr --new-pids refuses it, exit 1 (status %#x)", st);
}

static void refusals(void)
{
	struct rec rec = { 0 };
	pid_t pid;
	long ret;

	pid = start("child");
	wait_count(0, 0, 60);
	get_rec(0, &rec);
	ret = stop_task(pid) ? checkpoint_to(pid, IMG) : 0;
	kill(pid, SIGCONT);
	/* the tree is saved whole: a child that runs is refused */
	tap_ok(ret == -EBUSY && waitpid(pid, NULL, WNOHANG) == 0,
	       "a process whose child runs: EBUSY (%ld), and it carries on", ret);
	kill_wait(pid);
	if (rec.tid > 0)
		kill((pid_t)rec.tid, SIGKILL);

	pid = start("count");
	wait_count(1, 0, 60);
	get_rec(1, &rec);
	ret = stop_task(pid) && rec.tid > 0 ? checkpoint_to((pid_t)rec.tid, IMG) : 0;
	tap_ok(ret == -EINVAL, "a thread id instead of its process: EINVAL (%ld)", ret);
	kill_wait(pid);
}

int main(void)
{
	tap_plan(14);
	engine_on();
	workers();
	new_pids_refused();
	handoffs();
	refusals();
	return tap_done();
}
