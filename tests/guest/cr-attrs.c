// SPDX-License-Identifier: GPL-2.0
/*
 * Process attributes across checkpoint/restart (helper: attrs; restarted
 * by rstr from a caller whose own differ: cwd /, umask 022, its limits):
 *   - the working directory, umask and every resource limit come back as
 *     saved (/proc/PID/cwd, the Umask line of /proc/PID/status and
 *     /proc/PID/limits read the same before and after);
 *   - a chroot()ed process comes back with its root, and a caller without
 *     CAP_SYS_CHROOT is refused that image (EPERM, before the point of no
 *     return: it carries on);
 *   - a caller sharing its working directory with another process
 *     (CLONE_FS) is refused (EBUSY) and carries on;
 *   - a process whose working directory was removed: checkpoint refused
 *     (EOPNOTSUPP), never restarted elsewhere;
 *   - each thread's scheduling (/proc/PID/task/TID/stat: nice -5 and
 *     SCHED_OTHER, nice 7 and SCHED_BATCH), the personality
 *     (/proc/PID/personality) and what prctl() reads in each thread
 *     (parent-death signal, timer slack) come back; a caller that may not
 *     lower its nice value to -5 (no CAP_SYS_NICE, RLIMIT_NICE 0) is
 *     refused that image (EPERM) and carries on;
 *   - each thread's machine-check kill policy and, with two CPUs, its CPU
 *     affinity (the leader on CPU 1, the thread on CPU 0, the restarter on
 *     both), with a block layer its I/O priority, come back;
 *   - oom_score_adj (-100) comes back; a caller without CAP_SYS_RESOURCE,
 *     whose oom_score_adj_min (0) is above it, is refused (EACCES);
 *   - the mm flags come back (coredump_filter, THP disabled, MDWE, not
 *     dumpable), and a
 *     caller with memory-deny-write-execute is refused an image without
 *     it (EPERM: exec would keep the caller's).
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ADIR	"/tmp/attrs.d"
#define IMG	"/tmp/attrs.img"
#define ROOT_IMG	"/tmp/attrs-root.img"

struct attrs {
	char cwd[256], root[256], umask[16];
	char limits[4096];
};

static void slurp(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	buf[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
}

static void read_attrs(pid_t pid, struct attrs *a)
{
	char path[64], status[4096], *u;
	ssize_t n;

	memset(a, 0, sizeof(*a));
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	n = readlink(path, a->cwd, sizeof(a->cwd) - 1);
	a->cwd[n > 0 ? n : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/root", pid);
	n = readlink(path, a->root, sizeof(a->root) - 1);
	a->root[n > 0 ? n : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	slurp(path, status, sizeof(status));
	u = strstr(status, "Umask:");
	if (u)
		sscanf(u, "Umask: %15s", a->umask);
	snprintf(path, sizeof(path), "/proc/%d/limits", pid);
	slurp(path, a->limits, sizeof(a->limits));
}

static long read_count(void)
{
	char buf[64];

	slurp(ADIR "/count", buf, sizeof(buf));
	return buf[0] ? atol(buf) : -1;
}

static bool counts_on(long base)
{
	int k;

	for (k = 0; k < 200; k++) {
		if (read_count() > base + 20)
			return true;
		sleep_ms(50);
	}
	return false;
}

static pid_t start(const char *mode)
{
	char *argv[] = { HELPER("attrs"), ADIR, (char *)mode, NULL };
	pid_t pid;

	if (system("rm -rf " ADIR "; mkdir -p " ADIR "/sub/dir"))
		tap_bail("setup: " ADIR);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(ADIR "/ready", 30) || !stop_task(pid))
		tap_bail("setup: attrs %s did not start", mode);
	return pid;
}

static void kill_wait_quiet(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The lines of @a that @b does not have, as diagnostics. */
static void diff_lines(char *a, char *b)
{
	char *save = NULL, *line, copy[4096];

	snprintf(copy, sizeof(copy), "%s", a);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strstr(b, line))
			tap_diag("saved, not restored: %s", line);
}

/* Checkpoint @mode's process, restart it with rstr, compare. */
static void round_trip(const char *mode, const char *img)
{
	struct attrs before, after;
	pid_t pid, r;
	long crid, n;
	int k;

	pid = start(mode);
	read_attrs(pid, &before);
	n = read_count();
	crid = checkpoint_to(pid, img);
	kill_wait_quiet(pid);
	if (crid <= 0)
		tap_bail("%s: checkpoint: %ld (%s)", mode, crid,
			 engine_stat("checkpoint.refused"));
	r = rstr_cli(NULL, img, NULL);
	for (k = 0; k < 100 && !wait_comm(r, "attrs", 0); k++)
		sleep_ms(50);
	read_attrs(r, &after);
	tap_ok(counts_on(n), "%s: the restarted process runs on", mode);
	tap_ok(before.cwd[0] && !strcmp(before.cwd, after.cwd),
	       "%s: its working directory comes back (%s, saved %s)", mode,
	       after.cwd, before.cwd);
	tap_ok(!strcmp(before.umask, "0077") && !strcmp(before.umask, after.umask),
	       "%s: its umask comes back (%s, saved %s)", mode, after.umask,
	       before.umask);
	tap_ok(before.limits[0] && !strcmp(before.limits, after.limits),
	       "%s: /proc/PID/limits reads the same", mode);
	diff_lines(before.limits, after.limits);
	if (!strcmp(mode, "chroot"))
		tap_ok(!strcmp(after.root, ADIR),
		       "chroot: its root comes back (%s)", after.root);
	kill_wait_quiet(r);
}

/* A restart by a child without CAP_SYS_CHROOT: its exit status. */
static int restart_without_chroot(const char *img)
{
	pid_t pid = fork();

	if (!pid) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		int fd = open(img, O_RDONLY);

		if (fd < 0 || syscall(SYS_capget, &h, d))
			_exit(2);
		d[0].effective &= ~(1u << CAP_SYS_CHROOT);
		d[0].permitted &= ~(1u << CAP_SYS_CHROOT);
		if (syscall(SYS_capset, &h, d))
			_exit(3);
		_exit(RESTART_FAILED(-cr_restart(0, fd, 0)));
	}
	return wait_exit(pid, 60);
}

/* A restart by a child with memory-deny-write-execute: its exit status. */
static int restart_with_mdwe(const char *img)
{
	pid_t pid = fork();

	if (!pid) {
		int fd = open(img, O_RDONLY);

		if (fd < 0 || prctl(65 /* PR_SET_MDWE */, 1 /* REFUSE_EXEC_GAIN */, 0, 0, 0))
			_exit(2);
		_exit(RESTART_FAILED(-cr_restart(0, fd, 0)));
	}
	return wait_exit(pid, 60);
}

/* A restart by a child sharing the test's fs_struct: its exit status. */
static int restart_clone_fs(const char *img)
{
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, NULL, NULL, 0);

	if (!pid) {
		int fd = open(img, O_RDONLY);

		_exit(fd < 0 ? 2 : RESTART_FAILED(-cr_restart(0, fd, 0)));
	}
	return wait_exit(pid, 60);
}

/* "nice N policy P" of each thread of @pid, thread id order. */
static void read_sched(pid_t pid, char *buf, size_t len)
{
	char path[320], stat[1024], *p;
	struct dirent *e;
	DIR *d;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		long nice, policy;
		int i;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", pid, e->d_name);
		slurp(path, stat, sizeof(stat));
		/* after "comm) ": field 3 on; nice is field 19, policy 41 */
		p = strrchr(stat, ')');
		for (i = 2; p && i < 19; i++)
			p = strchr(p + 1, ' ');
		if (!p || sscanf(p, " %ld", &nice) != 1)
			continue;
		for (; p && i < 41; i++)
			p = strchr(p + 1, ' ');
		if (!p || sscanf(p, " %ld", &policy) != 1)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s nice %ld policy %ld\n",
			 e->d_name, nice, policy);
	}
	if (d)
		closedir(d);
}

/* What the helper's threads say, /proc/PID/personality, oom_score_adj, coredump_filter. */
static void read_self(pid_t pid, char *buf, size_t len)
{
	char path[64], part[256];

	slurp(ADIR "/self.leader", part, sizeof(part));
	snprintf(buf, len, "leader: %s", part);
	slurp(ADIR "/self.thread", part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "thread: %s", part);
	snprintf(path, sizeof(path), "/proc/%d/personality", pid);
	slurp(path, part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "personality: %s", part);
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
	slurp(path, part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "oom_score_adj: %s", part);
	/* only with CONFIG_ELF_CORE */
	snprintf(path, sizeof(path), "/proc/%d/coredump_filter", pid);
	slurp(path, part, sizeof(part));
	snprintf(buf + strlen(buf), len - strlen(buf), "coredump_filter: %s",
		 part[0] ? part : "00000007 (no such file)\n");
}

/*
 * A restart by a child without capability @cap (and RLIMIT_NICE 0): its
 * status.
 */
static int restart_without(const char *img, int cap)
{
	pid_t pid = fork();

	if (!pid) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		struct rlimit none = { 0, 0 };

		if (syscall(SYS_capget, &h, d) || setrlimit(RLIMIT_NICE, &none))
			_exit(2);
		d[0].effective &= ~(1u << cap);
		d[0].permitted &= ~(1u << cap);
		if (syscall(SYS_capset, &h, d))
			_exit(3);
		_exit(wait_exit(restart_from(img), 60) >> 8);
	}
	return wait_exit(pid, 90);
}

static void sched_round_trip(void)
{
	char *argv[] = { HELPER("attrs"), ADIR, "sched", NULL };
	char sched_before[512], sched_after[512], self_before[512], self_after[512];
	const char *why, *io;
	bool smp;
	pid_t pid, r;
	long crid;
	int st;

	if (system("rm -rf " ADIR "; mkdir -p " ADIR))
		tap_bail("setup: " ADIR);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(ADIR "/self.leader", 30) ||
	    !wait_file(ADIR "/self.thread", 30) || !stop_task(pid))
		tap_bail("setup: attrs sched did not start");
	read_sched(pid, sched_before, sizeof(sched_before));
	read_self(pid, self_before, sizeof(self_before));
	crid = checkpoint_to(pid, IMG);
	kill_wait_quiet(pid);
	if (crid <= 0)
		tap_bail("sched: checkpoint: %ld (%s)", crid, engine_stat("checkpoint.refused"));

	st = restart_without(IMG, CAP_SYS_NICE);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EPERM) << 8 && strstr(why, "nice -5 below the caller's 0"),
	       "an image with nice -5, restarted without CAP_SYS_NICE: EPERM, the caller carries on (%#x, \"%s\")",
	       st, why);
	st = restart_without(IMG, CAP_SYS_RESOURCE);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EACCES) << 8 &&
	       strstr(why, "oom_score_adj -100 below the caller's oom_score_adj_min 0"),
	       "an image with oom_score_adj -100, restarted without CAP_SYS_RESOURCE: EACCES, the caller carries on (%#x, \"%s\")",
	       st, why);

	unlink(ADIR "/self.leader");
	unlink(ADIR "/self.thread");
	/* rstr restarts a multi-threaded process in a child with its pid */
	r = rstr_cli(NULL, IMG, NULL);
	if (!wait_file(ADIR "/self.leader", 30) || !wait_file(ADIR "/self.thread", 30))
		tap_diag("the restarted process does not answer");
	read_sched(pid, sched_after, sizeof(sched_after));
	read_self(pid, self_after, sizeof(self_after));
	tap_ok(strstr(sched_before, "nice -5 policy 0") && strstr(sched_before, "nice 7 policy 3") &&
	       !strcmp(sched_before, sched_after),
	       "each thread's nice value and policy come back");
	if (strcmp(sched_before, sched_after))
		tap_diag("before:\n%s# after:\n%s", sched_before, sched_after);
	tap_ok(strstr(self_before, "leader: pdeath 28 slack 123456 personality 0x40000 thp 1 mdwe 1 dumpable 0") &&
	       strstr(self_before, "thread: pdeath 0 slack 777000 personality 0x40000 thp 1 mdwe 1 dumpable 0") &&
	       strstr(self_before, "personality: 00040000") &&
	       strstr(self_before, "oom_score_adj: -100") &&
	       strstr(self_before, "coredump_filter: 00000007") && !strcmp(self_before, self_after),
	       "each thread's parent-death signal, timer slack and personality, oom_score_adj and the mm flags (core dump filter, THP disabled, MDWE, not dumpable) come back");
	if (strcmp(self_before, self_after))
		tap_diag("before:\n%s# after:\n%s", self_before, self_after);
	/* I/O priorities only where the kernel has a block layer: -1 */
	io = strstr(self_before, "ioprio -1 ") ? "-1" : NULL;
	/* CPU 1 only on a kernel with two CPUs */
	smp = sysconf(_SC_NPROCESSORS_ONLN) > 1;
	tap_ok(strstr(self_before, smp ? "dumpable 0 cpus 0x2 ioprio " : "dumpable 0 cpus 0x1 ioprio ") &&
	       strstr(self_before, "dumpable 0 cpus 0x1 ioprio ") &&
	       strstr(self_before, io ? "ioprio -1 mce 1" : "ioprio 16388 mce 1") &&
	       strstr(self_before, io ? "ioprio -1 mce 0" : "ioprio 24576 mce 0") &&
	       !strcmp(self_before, self_after),
	       "each thread's machine-check kill policy%s%s come back",
	       smp ? ", CPU affinity (CPU 1, CPU 0)" : " (one CPU: no affinity to restore)",
	       io ? " (no block layer: no I/O priority)" : " and I/O priority");
	kill(pid, SIGKILL);
	kill_wait_quiet(r);
}

int main(void)
{
	const char *why;
	pid_t pid;
	long ret;
	int st;

	tap_plan(18);
	engine_on();
	/* the restarter's own: unlike the saved process's */
	umask(022);
	if (chdir("/"))
		tap_bail("chdir /: %m");

	round_trip("plain", IMG);
	round_trip("chroot", ROOT_IMG);

	st = restart_without_chroot(ROOT_IMG);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EPERM) << 8 && strstr(why, "cannot be the root"),
	       "an image with its own root, restarted without CAP_SYS_CHROOT: EPERM, the caller carries on (%#x, \"%s\")",
	       st, why);
	st = restart_with_mdwe(ROOT_IMG);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EPERM) << 8 && strstr(why, "memory-deny-write-execute"),
	       "a caller with memory-deny-write-execute, an image without: EPERM, it carries on (%#x, \"%s\")",
	       st, why);
	st = restart_clone_fs(ROOT_IMG);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EBUSY) << 8 && strstr(why, "CLONE_FS"),
	       "a caller sharing its working directory (CLONE_FS): EBUSY, it carries on (%#x, \"%s\")",
	       st, why);

	sched_round_trip();

	pid = start("rmcwd");
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "removed directory"),
	       "a working directory removed under the process: EOPNOTSUPP (%ld, \"%s\")",
	       ret, why);
	kill_wait_quiet(pid);
	return tap_done();
}
