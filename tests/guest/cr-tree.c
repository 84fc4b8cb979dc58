// SPDX-License-Identifier: GPL-2.0
/*
 * Process trees across checkpoint/restart (helper: tree; restarted by
 * rstr, as a user would):
 *   - a 3-level tree of 7 counters (a session, two process groups) is
 *     checkpointed whole and restarted: every process counts on, with its
 *     saved pid, parent, process group and session;
 *   - a parent blocked in waitpid() gets its child's exit status after
 *     the restart;
 *   - an unreaped zombie comes back a zombie, and its parent then reaps
 *     it with the saved status;
 *   - a parent and a child sharing a files table and an fs_struct
 *     (CLONE_FILES | CLONE_FS) share them again after restart;
 *   - refusals: the tree's pids taken (the original still runs): rstr
 *     fails and the original carries on; a process sharing its files
 *     table with a task outside the tree: EBUSY; an open file the test
 *     holds too (inherited across fork): EBUSY naming the file and the
 *     test; the same file once the test only maps it: saved;
 *   - a process of the tree killed while the restart runs: rstr fails
 *     and no process of the tree is left;
 *   - rstr --pidns: the tree comes back with its saved pids in a new pid
 *     namespace while the stopped original still holds them outside;
 *   - rstr --new-pids: while the stopped original holds them, the tree
 *     comes back under other pids with the same shape, and a zombie
 *     under another pid, reaped with its saved status;
 *   - a task joining a restart that is not the coordinator's equal: EPERM.
 * The test is a child subreaper: the processes it kills are its to reap,
 * so their pids are free again.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <linux/checkpoint_hdr.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TDIR	"/tmp/tree.d"
#define IMG	"/tmp/tree.img"
#define WAIT_IMG	"/tmp/tree-wait.img"
#define NPROC	7
#define SHARED	"/tmp/tree-shared.dat"

struct line {
	long count;
	int pid, ppid, pgid, sid;
};

static void reap_all(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static bool read_line(pid_t pid, struct line *l)
{
	char path[64], buf[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), TDIR "/%d", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return sscanf(buf, "%ld %d %d %d %d", &l->count, &l->pid, &l->ppid,
		      &l->pgid, &l->sid) == 5;
}

/* The pids the tree's processes wrote their files under. */
static int tree_pids(pid_t *pids, int max)
{
	struct dirent *d;
	DIR *dir = opendir(TDIR);
	int n = 0;

	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < max)
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
		    !strchr(d->d_name, '.'))
			pids[n++] = atoi(d->d_name);
	closedir(dir);
	return n;
}

static void fresh_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s; mkdir -p %s", TDIR, TDIR);
	if (system(cmd))
		tap_bail("setup: %s", cmd);
}

static pid_t start(const char *mode)
{
	char *argv[] = { HELPER("tree"), TDIR, (char *)mode, NULL };
	pid_t pid;

	fresh_dir();
	pid = spawn(argv);
	if (pid < 0 || !wait_file(TDIR "/ready", 30))
		tap_bail("setup: tree %s did not start", mode);
	return pid;
}

/* The count tree, all NPROC processes running; their pids in @pids. */
static pid_t start_count(pid_t *pids)
{
	pid_t root = start("count");
	int i, n = 0;

	for (i = 0; i < 100 && (n = tree_pids(pids, NPROC)) < NPROC; i++)
		sleep_ms(50);
	if (n != NPROC)
		tap_bail("setup: %d of %d processes", n, NPROC);
	return root;
}

static void kill_all(const pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < 200; i++) {
		reap_all();
		sleep_ms(10);
	}
}

static bool stop_all(const pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!stop_task(pids[i]))
			return false;
	return true;
}

static pid_t rstr_opt(const char *opt, const char *img)
{
	return rstr_cli(opt, img, NULL);
}

static pid_t rstr(const char *img)
{
	return rstr_cli(NULL, img, NULL);
}

/*
 * Whether the restarted tree counts on under the saved pids, each process
 * with its saved parent, group and session (the root leads its own).
 */
static void counting(const pid_t *pids, const struct line *before, pid_t root,
		     const char *how)
{
	int n = NPROC, i, moved = 0, same = 0;
	struct line after;

	sleep_ms(500);
	for (i = 0; i < n; i++) {
		int k;

		for (k = 0; k < 100; k++) {
			if (read_line(pids[i], &after) &&
			    after.count > before[i].count + 5)
				break;
			sleep_ms(50);
		}
		if (after.count <= before[i].count + 5)
			continue;
		moved++;
		if (pids[i] == root ?
		    after.pgid == root && after.sid == root :
		    after.ppid == before[i].ppid &&
		    after.pgid == before[i].pgid && after.sid == before[i].sid)
			same++;
		else
			tap_diag("%d: ppid %d pgid %d sid %d, saved %d %d %d", pids[i],
				 after.ppid, after.pgid, after.sid,
				 before[i].ppid, before[i].pgid, before[i].sid);
	}
	tap_ok(moved == n, "after restart%s all %d processes count on under their pids (%d did)",
	       how, n, moved);
	tap_ok(same == n, "each keeps its parent, process group and session%s (%d of %d)",
	       how, same, n);
}

static void counters(void)
{
	struct line before[NPROC];
	pid_t pids[NPROC], root, r;
	int n, i;
	long ret;

	root = start_count(pids);
	n = NPROC;
	if (!stop_all(pids, n))
		tap_bail("setup: not all %d processes stopped", n);
	for (i = 0; i < n; i++)
		if (!read_line(pids[i], &before[i]))
			tap_bail("setup: no line from %d", pids[i]);
	ret = checkpoint_retry(root, IMG);
	tap_ok(ret > 0, "a 3-level tree of %d processes checkpoints whole (crid %ld)",
	       n, ret);
	kill_all(pids, n);

	r = rstr(IMG);
	counting(pids, before, root, "");
	kill(root, SIGKILL);
	tap_ok(wait_exit(r, 30) == 137 << 8,
	       "rstr waits for the root and returns 137 when it is killed");
	kill_all(pids, n);
}

static void taken(void)
{
	pid_t pids[NPROC], root, r;
	struct line before, after;
	char msg[512] = "", want[64];
	int n, st, fd;

	root = start_count(pids);
	n = NPROC;
	if (!stop_all(pids, n) || checkpoint_retry(root, IMG) <= 0)
		tap_bail("setup: no image of the tree");
	/* the original runs on: its pids are taken */
	kill(root, SIGCONT);
	read_line(root, &before);
	r = rstr_cli(NULL, IMG, TDIR "/rstr.err");
	st = wait_exit(r, 60);
	sleep_ms(100);
	fd = open(TDIR "/rstr.err", O_RDONLY);
	if (fd >= 0 && read(fd, msg, sizeof(msg) - 1) < 0)
		msg[0] = '\0';
	if (fd >= 0)
		close(fd);
	msg[strcspn(msg, "\n")] = '\0';
	snprintf(want, sizeof(want), "pid %d: the pid is taken", root);
	tap_ok(st == 1 << 8 && read_line(root, &after) && after.count > before.count &&
	       strstr(msg, "(EBUSY)") && strstr(msg, want),
	       "the tree's pids taken: rstr fails with EBUSY naming the pid (status %#x, \"%s\") and the original counts on",
	       st, msg);
	kill_all(pids, n);
	kill_all(&root, 1);
}

/* DIR/result, once it is there (30 s at most), into @buf; "" if none. */
static void read_result(char *buf, size_t size)
{
	ssize_t n = -1;
	int fd;

	wait_file(TDIR "/result", 30);
	fd = open(TDIR "/result", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

/* The state letter of /proc/@pid/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f && fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	if (f)
		fclose(f);
	return state;
}

static void waiter(bool zombie)
{
	char buf[64] = "", state = 0;
	pid_t root, child, r;
	int k, got_pid = 0, got_st = 0;

	root = start(zombie ? "zombie" : "wait");
	/* the child: the root's only one, named in DIR/child */
	child = pid_in(TDIR "/child");
	if (!child || !stop_task(root) || (!zombie && !stop_task(child)))
		tap_bail("setup: the child did not start");
	if (zombie) {
		for (k = 0; k < 100 && proc_state(child) != 'Z'; k++)
			sleep_ms(20);
	}
	if (checkpoint_retry(root, IMG) <= 0)
		tap_bail("setup: no image of the %s tree", zombie ? "zombie" : "wait");
	/* kept for stranger(): processes that sleep with no file open */
	if (!zombie && system("cp " IMG " " WAIT_IMG))
		tap_bail("setup: cp " IMG " " WAIT_IMG);
	kill(root, SIGKILL);
	kill(child, SIGKILL);
	kill_all(&root, 1);

	r = rstr(IMG);
	if (zombie) {
		for (k = 0; k < 200 && (state = proc_state(child)) != 'Z'; k++)
			sleep_ms(20);
		tap_ok(state == 'Z', "after restart the unreaped child %d is a zombie again",
		       child);
		close(open(TDIR "/reap", O_CREAT | O_WRONLY, 0644));
	} else {
		sleep_ms(300);
		close(open(TDIR "/go", O_CREAT | O_WRONLY, 0644));
	}
	read_result(buf, sizeof(buf));
	sscanf(buf, "%d %d", &got_pid, &got_st);
	if (zombie)
		tap_ok(got_pid == child && got_st == 7 << 8,
		       "its parent reaps it with the saved status (\"%d %d\")",
		       got_pid, got_st);
	else
		tap_ok(got_pid == child && got_st == 42 << 8,
		       "a parent blocked in waitpid() gets its child's status after restart (\"%d %d\")",
		       got_pid, got_st);
	kill(root, SIGKILL);
	wait_exit(r, 30);
	kill_all(&root, 1);
}

/* A task created with CLONE_FILES: its files table is the test's. */
static void shared_files(void)
{
	const char *why;
	char who[32];
	pid_t pid;
	long ret;

	pid = (pid_t)syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0, NULL, NULL, 0);
	if (pid < 0)
		tap_bail("clone: %m");
	if (!pid) {
		for (;;)
			pause();
	}
	if (!stop_task(pid))
		tap_bail("setup: the CLONE_FILES child did not stop");
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	snprintf(who, sizeof(who), "with task %d", getpid());
	tap_ok(ret == -EBUSY && strstr(why, "files table") && strstr(why, who),
	       "a files table shared with a task outside the tree: EBUSY naming it (%ld, \"%s\")",
	       ret, why);
	kill_all(&pid, 1);
}

/*
 * A child holding an open file the test holds too, as fork() left it:
 * restart would give the child a file of its own (reopened by path), no
 * longer sharing its offset with the test: refused, naming both. Once the
 * test closes its descriptor, keeping only a mapping of that file (which
 * cannot see the offset), the child is checkpointed.
 */
static void shared_file(void)
{
	const char *why;
	char who[32];
	void *map;
	pid_t pid;
	long ret;
	int fd;

	fd = open(SHARED, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 4096) || lseek(fd, 100, SEEK_SET) != 100)
		tap_bail("setup: %s: %m", SHARED);
	pid = fork_holding(fd, fd, false);
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	snprintf(who, sizeof(who), "with task %d,", getpid());
	tap_ok(ret == -EBUSY && strstr(why, SHARED) && strstr(why, who),
	       "an open file shared with a task outside the tree: EBUSY naming it and the task (%ld, \"%s\")",
	       ret, why);

	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("mmap %s: %m", SHARED);
	close(fd);
	ret = checkpoint_to(pid, IMG);
	tap_ok(ret >= 0, "the same file once the test only maps it: saved (%ld, \"%s\")",
	       ret, ret >= 0 ? "" : engine_stat("checkpoint.refused"));
	munmap(map, 4096);
	kill_all(&pid, 1);
	unlink(SHARED);
}

/*
 * A parent and a child sharing one files table and one fs_struct
 * (CLONE_FILES | CLONE_FS): saved once, and shared again after restart:
 * the fd the child opens, the directory it changes to and the umask it
 * sets are the parent's too.
 */
static void shared_tables(void)
{
	char buf[64] = "", cmd[256];
	pid_t root, child, pids[2], r;
	long ret;

	root = start("share");
	child = pid_in(TDIR "/child");
	pids[0] = root;
	pids[1] = child;
	if (!child || !stop_all(pids, 2))
		tap_bail("setup: the share tree did not start");
	ret = checkpoint_retry(root, IMG);
	snprintf(cmd, sizeof(cmd),
		 "ckptinfo " IMG " | grep -qx 'files: the files table of %d (CLONE_FILES), [0-9]* descriptors'",
		 root);
	tap_ok(ret > 0 && system(cmd) == 0,
	       "a parent and a child sharing a files table and fs_struct checkpoint, saved once (crid %ld)",
	       ret);
	kill_all(pids, 2);

	r = rstr(IMG);
	sleep_ms(300);
	close(open(TDIR "/go", O_CREAT | O_WRONLY, 0644));
	read_result(buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	tap_ok(!strcmp(buf, "files=1 fs=1 umask=1"),
	       "after restart they share them again: the child's new fd, working directory and umask are the parent's (\"%s\")",
	       buf);
	kill(root, SIGKILL);
	wait_exit(r, 30);
	kill_all(pids, 2);
}

/*
 * The count tree stopped and checkpointed into IMG; its pids in @pids,
 * their lines then in @before. Returns the root's pid.
 */
static pid_t saved_count(pid_t *pids, struct line *before)
{
	pid_t root = start_count(pids);
	int i;

	if (!stop_all(pids, NPROC) || checkpoint_retry(root, IMG) <= 0)
		tap_bail("setup: no image of the tree");
	for (i = 0; i < NPROC; i++)
		if (!read_line(pids[i], &before[i]))
			tap_bail("setup: no line from %d", pids[i]);
	return root;
}

/* The pid now of the process saved as @old, from the lines; 0 if none. */
static pid_t now_of(const pid_t *pids, const struct line *after, pid_t old)
{
	int i;

	for (i = 0; i < NPROC; i++)
		if (pids[i] == old)
			return after[i].pid;
	return 0;
}

/*
 * rstr --new-pids: the saved pids taken (the original, stopped, holds
 * them), the tree comes back under other pids in the same shape: each
 * process the child of its saved parent's, in the session and group of
 * its saved leaders'.
 */
static void new_pids(void)
{
	struct line before[NPROC], after[NPROC];
	pid_t pids[NPROC], root, r;
	int i, k, moved = 0, same = 0;

	root = saved_count(pids, before);
	r = rstr_opt("--new-pids", IMG);
	for (i = 0; i < NPROC; i++) {
		for (k = 0; k < 200; k++) {
			if (read_line(pids[i], &after[i]) &&
			    after[i].count > before[i].count + 5)
				break;
			sleep_ms(50);
		}
		moved += after[i].count > before[i].count + 5 &&
			 after[i].pid != pids[i] && after[i].pid > 0;
	}
	tap_ok(moved == NPROC,
	       "rstr --new-pids: the saved pids taken, all %d processes count on under other pids (%d did)",
	       NPROC, moved);
	for (i = 0; i < NPROC && moved == NPROC; i++) {
		pid_t ppid = pids[i] == root ? r : now_of(pids, after, before[i].ppid);

		if (after[i].ppid == ppid &&
		    after[i].pgid == now_of(pids, after, before[i].pgid) &&
		    after[i].sid == now_of(pids, after, before[i].sid))
			same++;
		else
			tap_diag("%d (saved %d): ppid %d pgid %d sid %d, saved %d %d %d",
				 after[i].pid, pids[i], after[i].ppid, after[i].pgid,
				 after[i].sid, before[i].ppid, before[i].pgid,
				 before[i].sid);
	}
	tap_ok(same == NPROC,
	       "the same shape: each the child of its saved parent's process, in its saved leaders' session and group (%d of %d)",
	       same, NPROC);
	for (i = 0; i < NPROC; i++)
		if (after[i].pid > 0 && after[i].pid != pids[i])
			kill(after[i].pid, SIGKILL);
	wait_exit(r, 30);
	kill_all(pids, NPROC);
}

/* The rstr child that is the new namespace's init, or 0. */
static pid_t child_of(pid_t parent)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	pid_t found = 0;

	while (dir && !found && (d = readdir(dir))) {
		char path[300];
		int pid = atoi(d->d_name), ppid = 0;
		FILE *f;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		f = fopen(path, "r");
		if (f && fscanf(f, "%*d (%*[^)]) %*c %d", &ppid) == 1 &&
		    ppid == parent)
			found = pid;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return found;
}

/*
 * rstr --new-pids with an unreaped zombie, the original (stopped) holding
 * the saved pids: the zombie comes back under another pid, and its
 * parent reaps it with the saved status.
 */
static void new_pids_zombie(void)
{
	pid_t root, child, r, now;
	int k, got_pid = 0, got_st = 0;
	char buf[64];

	root = start("zombie");
	child = pid_in(TDIR "/child");
	if (!child || !stop_task(root))
		tap_bail("setup: the child did not start");
	for (k = 0; k < 100 && proc_state(child) != 'Z'; k++)
		sleep_ms(20);
	if (checkpoint_retry(root, IMG) <= 0)
		tap_bail("setup: no image of the zombie tree");
	r = rstr_opt("--new-pids", IMG);
	close(open(TDIR "/reap", O_CREAT | O_WRONLY, 0644));
	read_result(buf, sizeof(buf));
	sscanf(buf, "%d %d", &got_pid, &got_st);
	tap_ok(got_pid > 0 && got_pid != child && got_st == 7 << 8,
	       "rstr --new-pids: a zombie comes back under another pid than %d, its parent reaps it with the saved status (\"%d %d\")",
	       child, got_pid, got_st);
	now = child_of(r);
	if (now)
		kill(now, SIGKILL);
	wait_exit(r, 30);
	kill_all(&root, 1);
}

/*
 * rstr --pidns: the tree comes back in a new pid namespace with its saved
 * pids while the original, stopped, still holds them outside.
 */
static void pidns(void)
{
	struct line before[NPROC];
	pid_t pids[NPROC], root, r, init = 0;
	int k;

	root = saved_count(pids, before);
	r = rstr_opt("--pidns", IMG);
	counting(pids, before, root, " in a new pid namespace");
	for (k = 0; k < 100 && !(init = child_of(r)); k++)
		sleep_ms(10);
	if (init)
		kill(init, SIGKILL);
	tap_ok(init && wait_exit(r, 30) == 137 << 8,
	       "its init killed, the namespace ends and rstr returns 137");
	kill_all(pids, NPROC);
}

/*
 * A task that is not the coordinator's equal (a lower RLIMIT_NOFILE than
 * the image was judged by) joining its restart: EPERM for it; the
 * coordinator goes on (and fails: the image's processes do not exist).
 */
static void stranger(void)
{
	int fd = open(WAIT_IMG, O_RDONLY), st_s, st_c;
	pid_t s, c;

	if (fd < 0)
		tap_bail("setup: no image");
	s = fork();
	if (!s) {
		struct rlimit rl = { 64, 64 };

		setrlimit(RLIMIT_NOFILE, &rl);
		_exit(RESTART_FAILED(-cr_restart(0, fd, RESTART_JOIN)));
	}
	sleep_ms(200);
	c = fork();
	if (!c)
		_exit(RESTART_FAILED(-cr_restart(0, fd, RESTART_COORDINATE)));
	st_s = wait_exit(s, 60);
	st_c = wait_exit(c, 60);
	close(fd);
	tap_ok(st_s == RESTART_FAILED(EPERM) << 8 && st_c == RESTART_FAILED(ESRCH) << 8,
	       "a joining task that is not the coordinator's equal: EPERM (%#x); the coordinator carries on to ESRCH (%#x)",
	       st_s, st_c);
}

/* Kill a grandchild as soon as it exists during the restart. */
static void killed(void)
{
	pid_t pids[NPROC], root, r, victim = 0;
	struct line l;
	int n, i, k, st, left = 0;

	root = start_count(pids);
	n = NPROC;
	if (!stop_all(pids, n) || checkpoint_retry(root, IMG) <= 0)
		tap_bail("setup: no image of the tree");
	for (i = 0; i < n; i++)
		if (read_line(pids[i], &l) && pids[i] != root && l.ppid != root)
			victim = pids[i];
	kill_all(pids, n);
	if (!victim)
		tap_bail("setup: no grandchild");

	r = rstr(IMG);
	for (k = 0; k < 5000 && kill(victim, SIGKILL); k++)
		usleep(200);
	st = wait_exit(r, 60);
	kill_all(&root, 1);
	for (i = 0; i < n; i++)
		left += !kill(pids[i], 0);
	tap_ok(st >= 0 && st != 0 && !left,
	       "a process killed during the restart: rstr fails (status %#x), no process of the tree is left (%d)",
	       st, left);
}

int main(void)
{
	tap_plan(21);
	engine_on();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	counters();
	waiter(false);
	waiter(true);
	taken();
	shared_files();
	shared_file();
	shared_tables();
	killed();
	new_pids();
	new_pids_zombie();
	pidns();
	stranger();
	return tap_done();
}
