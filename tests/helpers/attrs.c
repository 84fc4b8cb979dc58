// SPDX-License-Identifier: GPL-2.0
/*
 * attrs DIR plain|chroot|rmcwd: a process whose attributes differ from
 * whoever restarts it, for the process-attribute tests.
 *
 *   plain   working directory DIR/sub/dir, umask 077, fd 100 open and
 *           then RLIMIT_NOFILE 64/128, RLIMIT_CORE 0/0, RLIMIT_STACK 4 MiB/hard, RLIMIT_NPROC
 *           1000/2000, RLIMIT_FSIZE 1 GiB/2 GiB.
 *   chroot  the same, then chroot(DIR) (working directory /sub/dir in it),
 *           and CAP_SYS_CHROOT dropped.
 *   rmcwd   its working directory removed under it (DIR/gone).
 *   sched   oom_score_adj -100, coredump_filter 0x7 (with CONFIG_ELF_CORE),
 *           not dumpable, THP disabled,
 *           memory-deny-write-execute, nice -5, personality
 *           ADDR_NO_RANDOMIZE, parent-death signal
 *           SIGWINCH, timer slack 123456 ns; a second thread SCHED_BATCH,
 *           nice 7, timer slack 777000 ns. The leader on CPU 1 (where there
 *           is one), MCE kill
 *           early, I/O best-effort 4; the thread on CPU 0, MCE kill late,
 *           I/O idle (the I/O priority where the kernel has a block
 *           layer). Each writes DIR/self.leader or DIR/self.thread
 *           whenever it is missing: "pdeath P slack S personality X ..."
 *           as prctl(), personality(), sched_getaffinity() and
 *           ioprio_get() read them.
 *
 * It counts, rewriting DIR/count in place ("count\n", fixed width, through
 * a descriptor opened first) every 5 ms; DIR/ready appears once it runs.
 * Exit 9: set-up failure.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/ioprio.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void limit(int resource, rlim_t cur, rlim_t max)
{
	struct rlimit r = { cur, max };

	if (max == RLIM_INFINITY && getrlimit(resource, &r) == 0)
		r.rlim_cur = cur;
	if (setrlimit(resource, &r))
		_exit(9);
}

/*
 * Capability @cap dropped, so that a restarter without it may have the
 * image's credentials, but not what the capability allowed.
 */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1u << cap);
	d[0].permitted &= ~(1u << cap);
	d[0].inheritable &= ~(1u << cap);
	return syscall(SYS_capset, &h, d);
}

#ifndef PR_SET_MDWE
#define PR_SET_MDWE			65
#define PR_GET_MDWE			66
#define PR_MDWE_REFUSE_EXEC_GAIN	1
#endif

static const char *top;

/* DIR/self.@who, when missing: what this thread's prctl() state reads. */
static void report(const char *who)
{
	char path[4096], text[128];
	int sig = -1;

	snprintf(path, sizeof(path), "%s/self.%s", top, who);
	if (!access(path, F_OK))
		return;
	cpu_set_t cpus;
	unsigned long mask = 0;

	prctl(PR_GET_PDEATHSIG, &sig);
	if (!sched_getaffinity(0, sizeof(cpus), &cpus))
		for (int cpu = 0; cpu < 64; cpu++)
			mask |= CPU_ISSET(cpu, &cpus) ? 1UL << cpu : 0;
	snprintf(text, sizeof(text),
		 "pdeath %d slack %d personality %#x thp %d mdwe %d dumpable %d cpus %#lx ioprio %ld mce %d\n",
		 sig, prctl(PR_GET_TIMERSLACK), personality(0xffffffff),
		 prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0), prctl(PR_GET_MDWE, 0, 0, 0, 0),
		 prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), mask,
		 syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0),
		 prctl(PR_MCE_KILL_GET, 0, 0, 0, 0));
	helper_result(path, text);
}

/*
 * This thread's CPU affinity @cpu, machine-check kill policy @mce and,
 * where the kernel has a block layer, I/O priority @ioprio.
 */
static void place(int cpu, int mce, long ioprio)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) ||
	    prctl(PR_MCE_KILL, PR_MCE_KILL_SET, mce, 0, 0) ||
	    (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, ioprio) && errno != ENOSYS))
		_exit(9);
}

static void *sched_thread(void *arg)
{
	struct sched_param none = { 0 };
	struct timespec ts = { 0, 5000000 };

	(void)arg;
	if (sched_setscheduler(0, SCHED_BATCH, &none) ||
	    setpriority(PRIO_PROCESS, syscall(SYS_gettid), 7) ||
	    prctl(PR_SET_TIMERSLACK, 777000))
		_exit(9);
	place(0, PR_MCE_KILL_LATE, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0));
	helper_touch(top, "/thread-ready");
	for (;;) {
		report("thread");
		nanosleep(&ts, NULL);
	}
}

/* The "sched" mode's attributes; returns once its thread has set its own. */
static void sched_attrs(void)
{
	pthread_t th;
	char path[4096];

	int oom = open("/proc/self/oom_score_adj", O_WRONLY);
	/* only with CONFIG_ELF_CORE */
	int filter = open("/proc/self/coredump_filter", O_WRONLY);

	if (filter >= 0 && (write(filter, "0x7", 3) != 3 || close(filter)))
		_exit(9);
	if (oom < 0 || write(oom, "-100", 4) != 4 || close(oom) ||
	    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) ||
	    prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0))
		_exit(9);
	/* CPU 1 where there is one */
	place(sysconf(_SC_NPROCESSORS_ONLN) > 1, PR_MCE_KILL_EARLY,
	      IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4));
	if (setpriority(PRIO_PROCESS, 0, -5) || personality(ADDR_NO_RANDOMIZE) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGWINCH) || prctl(PR_SET_TIMERSLACK, 123456) ||
	    /* what they allowed is done: a restarter without them may have the rest */
	    drop_cap(CAP_SYS_NICE) || drop_cap(CAP_SYS_RESOURCE) ||
	    pthread_create(&th, NULL, sched_thread, NULL))
		_exit(9);
	snprintf(path, sizeof(path), "%s/thread-ready", top);
	while (access(path, F_OK))
		usleep(1000);

}

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 5000000 };
	char path[4096], line[32];
	long n = 0;
	int fd, dir, ready;

	if (argc != 3)
		return 9;
	top = argv[1];
	snprintf(path, sizeof(path), "%s/count", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	dir = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0 || dir < 0)
		return 9;
	if (!strcmp(argv[2], "rmcwd")) {
		snprintf(path, sizeof(path), "%s/gone", argv[1]);
		if (mkdir(path, 0755) || chdir(path) || rmdir(path))
			return 9;
	} else if (!strcmp(argv[2], "sched")) {
		sched_attrs();
	} else {
		snprintf(path, sizeof(path), "%s/sub/dir", argv[1]);
		if (chdir(path))
			return 9;
		umask(077);
		/* a descriptor above the limit it then lowers: legal */
		if (dup2(fd, 100) != 100)
			return 9;
		limit(RLIMIT_NOFILE, 64, 128);
		limit(RLIMIT_CORE, 0, 0);
		limit(RLIMIT_STACK, 4 << 20, RLIM_INFINITY);
		limit(RLIMIT_NPROC, 1000, 2000);
		limit(RLIMIT_FSIZE, 1UL << 30, 2UL << 30);
		if (!strcmp(argv[2], "chroot") &&
		    (chroot(argv[1]) || chdir("/sub/dir") || drop_cap(CAP_SYS_CHROOT)))
			return 9;
	}
	/* ready once all is set (through DIR: it may be out of reach now) */
	ready = openat(dir, "ready", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (ready < 0)
		return 9;
	close(ready);
	close(dir);
	for (;;) {
		snprintf(line, sizeof(line), "%012ld\n", ++n);
		if (pwrite(fd, line, strlen(line), 0) < 0)
			return 9;
		if (!strcmp(argv[2], "sched"))
			report("leader");
		nanosleep(&ts, NULL);
	}
}
