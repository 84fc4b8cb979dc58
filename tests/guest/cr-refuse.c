// SPDX-License-Identifier: GPL-2.0
/*
 * Refusals: each gets its documented errno, and neither the target nor
 * the caller is harmed.
 *   checkpoint: a running target (EBUSY), a target holding a netlink
 *   socket (EOPNOTSUPP), a target with a local descriptor table (EOPNOTSUPP; kernels with modify_ldt(), skipped
 *   elsewhere); process state not saved yet (EOPNOTSUPP): a seccomp
 *   filter, syscall user dispatch, a child subreaper, SCHED_FIFO, RDTSC
 *   faulting, a NUMA memory policy (NUMA kernels), PR_SET_IO_FLUSHER, a
 *   named anonymous mapping (kernels with it), a file owned by another
 *   process or a process group (F_SETOWN), a regular file with an owner,
 *   a directory watched with F_NOTIFY (kernels with it), a FIFO opened
 *   with O_ASYNC, a flock() lock through a pipe, a detached mount held by an
 *   O_PATH descriptor (open_tree()), a utilization clamp, a core
 *   scheduling cookie, speculation control (kernels and CPUs with them),
 *   a child forked by a non-leader thread with a parent-death signal;
 *   all run on to their end afterwards.
 *   restart: bad magic, another format version, a different xstate in
 *   the arch record (EINVAL), truncation (EIO), a bad tail (EINVAL, found
 *   after the whole address space was built); the caller carries on
 *   with its memory intact.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define IMG "/tmp/refuse.img"
#define BAD "/tmp/refuse-bad.img"

static char *image;
static long long image_len;

static bool exited(int st, int code)
{
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == code;
}

static void load_image(void)
{
	FILE *f = fopen(IMG, "r");

	image_len = file_size(IMG);
	image = malloc(image_len);
	if (!f || !image || fread(image, 1, image_len, f) != (size_t)image_len)
		tap_bail("cannot read %s", IMG);
	fclose(f);
}

/* Write the good image with @len bytes, @off patched by xor @mask. */
static void write_bad(long long len, long long off, unsigned char mask)
{
	FILE *f = fopen(BAD, "w");

	if (!f)
		tap_bail("cannot write %s", BAD);
	if (off >= 0)
		image[off] ^= mask;
	fwrite(image, 1, len, f);
	if (off >= 0)
		image[off] ^= mask;
	fclose(f);
}

/*
 * A caller that tries to restart from BAD: with a canary in its heap, it
 * exits with the restart's errno if it survived with the canary intact.
 */
static int try_restart(void)
{
	pid_t pid = fork();

	if (!pid) {
		size_t n = 1 << 20, i;
		unsigned char *canary = malloc(n);
		int fd = open(BAD, O_RDONLY);
		long ret;

		for (i = 0; canary && i < n; i++)
			canary[i] = i * 7;
		ret = cr_restart(0, fd, 0);
		for (i = 0; canary && i < n; i++)
			if (canary[i] != (unsigned char)(i * 7))
				_exit(99);
		_exit(ret < 0 ? -ret : 98);
	}
	return wait_exit(pid, 120);
}

static void refuse_running(void)
{
	char *argv[] = { HELPER("counter"), "/tmp/refuse.out", "300", "5000", NULL };
	long long before;
	pid_t pid;
	int st;

	unlink("/tmp/refuse.out.ready");
	pid = spawn(argv);
	wait_file("/tmp/refuse.out.ready", 60);
	tap_errno(checkpoint_to(pid, IMG), EBUSY, "checkpoint of a running task: EBUSY");
	before = count_lines("/tmp/refuse.out");
	usleep(300000);
	tap_ok(count_lines("/tmp/refuse.out") > before, "the refused target keeps running");
	st = wait_exit(pid, 120);
	tap_ok(exited(st, 0), "and runs to its end (status %#x)", st);
}

static void refuse_socket(void)
{
	char *argv[] = { HELPER("counter"), "/tmp/refuse.out", "300", "5000", NULL };
	struct stat st_sock;
	char want[128];
	int sock, st;
	pid_t pid;

	/* netlink: unix, TCP and UDP sockets only are saved */
	sock = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (sock < 0 || fstat(sock, &st_sock))
		tap_bail("socket: %m");
	unlink("/tmp/refuse.out.ready");
	pid = fork();
	if (!pid) {
		dup2(sock, 5);
		close(sock);
		if (!null_stdio())	/* the socket is the first file refused */
			_exit(126);
		execl(HELPER("counter"), argv[0], argv[1], argv[2], argv[3], NULL);
		_exit(127);
	}
	close(sock);
	wait_file("/tmp/refuse.out.ready", 60);
	stop_task(pid);
	tap_errno(checkpoint_to(pid, IMG), EOPNOTSUPP,
		  "checkpoint of a task holding a netlink socket: EOPNOTSUPP");
	snprintf(want, sizeof(want),
		 "file: socket:[%lu]: a socket of a family not saved (netlink, packet...) (-95)",
		 (unsigned long)st_sock.st_ino);
	tap_ok(!strcmp(engine_stat("checkpoint.refused"), want),
	       "the reason names the socket as /proc does (\"%s\")",
	       engine_stat("checkpoint.refused"));
	kill(pid, SIGCONT);
	st = wait_exit(pid, 120);
	tap_ok(exited(st, 0), "the refused target continues and runs to its end (status %#x)", st);
}

/*
 * A forked child that runs @setup (exit 3: it failed; exit 4: the kernel
 * lacks it, both tests skipped), then stops itself: its checkpoint must
 * be refused with EOPNOTSUPP, and continued it must exit 0.
 */
static void refuse_stopped_child(bool (*setup)(void), const char *what)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		/* not the test's stdout: a file shared with it is refused too */
		if (!null_stdio())
			_exit(3);
		if (!setup())
			_exit(errno == ENOSYS ? 4 : 3);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &st, WUNTRACED) == pid && exited(st, 4)) {
		tap_skip("%s: not in this kernel", what);
		tap_skip("%s: not in this kernel", what);
		return;
	}
	if (!WIFSTOPPED(st))
		tap_bail("the child with %s did not stop (status %#x)", what, st);
	if (!tap_errno(checkpoint_to(pid, IMG), EOPNOTSUPP,
		       "checkpoint of a task with %s: EOPNOTSUPP", what))
		tap_diag("the engine says: %s", engine_stat("checkpoint.refused"));
	kill(pid, SIGCONT);
	st = wait_exit(pid, 120);
	tap_ok(exited(st, 0), "the refused target continues and exits (status %#x)", st);
}

/*
 * A file on a file system not marked FS_CHECKPOINTABLE (/proc): refused
 * by the file system's own word, the reason saying so.
 */
static void refuse_proc_file(void)
{
	char *argv[] = { HELPER("counter"), "/tmp/refuse.out", "300", "5000", NULL };
	const char *why;
	pid_t pid;
	int st;

	unlink("/tmp/refuse.out.ready");
	pid = fork();
	if (!pid) {
		int fd = open("/proc/self/stat", O_RDONLY);

		if (fd < 0 || dup2(fd, 5) != 5 || !null_stdio())
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	wait_file("/tmp/refuse.out.ready", 60);
	stop_task(pid);
	tap_errno(checkpoint_to(pid, IMG), EOPNOTSUPP,
		  "checkpoint of a task holding a /proc file: EOPNOTSUPP");
	why = engine_stat("checkpoint.refused");
	tap_ok(strstr(why, "/stat: file on a file system not marked FS_CHECKPOINTABLE") != NULL,
	       "the reason names the file and the missing FS_CHECKPOINTABLE (\"%s\")", why);
	kill(pid, SIGCONT);
	st = wait_exit(pid, 120);
	tap_ok(exited(st, 0), "the refused target continues and runs to its end (status %#x)", st);
}

/* An LDT entry (modify_ldt()): the mm restart's exec makes has none. */
static bool ldt_entry(void)
{
	struct {
		unsigned int entry_number, base_addr, limit, flags;
	} desc = { 0, 0, 0xfffff, 0x51 };	/* 32-bit, limit in pages, usable */

	return !syscall(SYS_modify_ldt, 1, &desc, sizeof(desc));
}

/* A seccomp filter that allows everything: still a filter exec would keep. */
static bool seccomp_filter(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	return !prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) &&
	       !syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static char dispatch_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

/* Syscall user dispatch on, every system call let through by the selector. */
static bool syscall_dispatch(void)
{
	return !prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0,
		      &dispatch_selector);
}

static bool child_subreaper(void)
{
	return !prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

static bool realtime_policy(void)
{
	struct sched_param p = { .sched_priority = 1 };

	return !sched_setscheduler(0, SCHED_FIFO, &p);
}

/* RDTSC faulting: PR_SET_TSC PR_TSC_SIGSEGV. */
static bool tsc_sigsegv(void)
{
	return !prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
}

/* A NUMA memory policy: only on NUMA kernels (ENOSYS: skipped). */
static bool numa_policy(void)
{
	unsigned long node0 = 1;

	return !syscall(SYS_set_mempolicy, 2 /* MPOL_BIND */, &node0, 2);
}

static bool io_flusher(void)
{
	return !prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0);
}

/* A named anonymous mapping: only with CONFIG_ANON_VMA_NAME (skipped). */
static bool named_mapping(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return false;
	if (!prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, p, 4096, "ckpt-test"))
		return true;
	if (errno == EINVAL)
		errno = ENOSYS;
	return false;
}

/* A pipe whose SIGIO goes to another process, the parent (F_SETOWN). */
static bool file_owner(void)
{
	int p[2];

	return !pipe(p) && !fcntl(p[0], F_SETOWN, getppid());
}

/* A regular file owned by the process: an owner is saved on pipes and sockets only. */
static bool file_regular_owner(void)
{
	int fd = open("/tmp/refuse.owner", O_RDWR | O_CREAT, 0600);

	return fd >= 0 && !fcntl(fd, F_SETOWN, getpid());
}

/* A directory watched with F_NOTIFY (it sets the file's owner): CONFIG_DNOTIFY. */
static bool dir_notify(void)
{
	int fd = open("/tmp", O_RDONLY | O_DIRECTORY);

	if (fd >= 0 && !fcntl(fd, F_NOTIFY, DN_CREATE))
		return true;
	if (errno == EINVAL)
		errno = ENOSYS;
	return false;
}

/* A FIFO opened with O_ASYNC: open() sets the flag, no signal-driven I/O. */
static bool fifo_open_async(void)
{
	unlink("/tmp/refuse.fifo");
	return !mkfifo("/tmp/refuse.fifo", 0600) &&
	       open("/tmp/refuse.fifo", O_RDONLY | O_NONBLOCK | O_ASYNC) >= 0;
}

/*
 * A pipe in signal-driven I/O whose SIGIO goes to a process group, the
 * child's own (the test's may be 0, under init: no owner then).
 */
static bool file_group_owner(void)
{
	int p[2];

	return !setpgid(0, 0) && !pipe(p) && !fcntl(p[0], F_SETFL, O_ASYNC) &&
	       !fcntl(p[0], F_SETOWN, -getpid());
}

/*
 * A detached mount's root, held by an O_PATH descriptor (open_tree()): its
 * path names another file.
 */
static bool detached_mount(void)
{
	/* OPEN_TREE_CLONE, from <linux/mount.h> */
	return syscall(SYS_open_tree, AT_FDCWD, "/tmp", 1) >= 0;
}

/*
 * A flock() lock taken through a pipe's end (the locks of files reopened
 * by path are saved: cr-locks).
 */
static bool pipe_lock(void)
{
	int p[2];

	return !pipe(p) && !flock(p[0], LOCK_EX);
}

/* A utilization clamp: only with CONFIG_UCLAMP_TASK (skipped). */
static bool util_clamp(void)
{
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t priority;
		uint64_t runtime, deadline, period;
		uint32_t util_min, util_max;
	} attr = { .size = sizeof(attr), .flags = 0x20 | 0x08 /* UTIL_CLAMP_MIN, KEEP_PARAMS */,
		   .util_min = 512 };

	if (!syscall(SYS_sched_setattr, 0, &attr, 0))
		return true;
	if (errno == EOPNOTSUPP)
		errno = ENOSYS;
	return false;
}

/* A core scheduling cookie: only with CONFIG_SCHED_CORE and SMT (skipped). */
static bool core_cookie(void)
{
	if (!prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, 0 /* PIDTYPE_PID */, 0))
		return true;
	if (errno == EINVAL || errno == ENODEV)
		errno = ENOSYS;
	return false;
}

/*
 * The speculative store bypass mitigation asked for: only where the CPU
 * needs it and the kernel leaves it to each task (skipped elsewhere).
 */
static bool spec_ctrl(void)
{
	if (!prctl(PR_SET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, PR_SPEC_DISABLE, 0, 0))
		return true;
	if (errno == ENXIO || errno == ERANGE || errno == EINVAL || errno == EPERM)
		errno = ENOSYS;
	return false;
}

/*
 * A child forked by a thread other than the leader, with a parent-death
 * signal: it follows that thread, and restart would make it the leader's
 * child. The thread stays (its exit would fire the signal) until the
 * process exits; the child, stopped, dies with it (SIGKILL).
 */
static void *fork_from_thread(void *arg)
{
	int *ready = arg;
	pid_t pid = fork();
	bool stopped;
	int st;

	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		raise(SIGSTOP);
		for (;;)
			pause();
	}
	stopped = pid > 0 && waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st);
	if (write(ready[1], stopped ? "y" : "n", 1) != 1)
		_exit(3);
	for (;;)
		pause();
	return NULL;
}

static bool thread_child_pdeath(void)
{
	pthread_t th;
	int ready[2];
	char c = 'n';

	if (pipe(ready) || pthread_create(&th, NULL, fork_from_thread, ready))
		return false;
	return read(ready[0], &c, 1) == 1 && c == 'y';
}

int main(void)
{
	pid_t pid;
	int st;

	tap_plan(21 + 2 * 18);
	engine_on();
	refuse_running();
	refuse_socket();
	refuse_proc_file();
	refuse_stopped_child(ldt_entry, "a local descriptor table (modify_ldt())");
	refuse_stopped_child(seccomp_filter, "a seccomp filter");
	refuse_stopped_child(syscall_dispatch, "syscall user dispatch");
	refuse_stopped_child(child_subreaper, "PR_SET_CHILD_SUBREAPER");
	refuse_stopped_child(realtime_policy, "SCHED_FIFO");
	refuse_stopped_child(tsc_sigsegv, "PR_SET_TSC SIGSEGV");
	refuse_stopped_child(numa_policy, "a NUMA memory policy");
	refuse_stopped_child(io_flusher, "PR_SET_IO_FLUSHER");
	refuse_stopped_child(named_mapping, "a named anonymous mapping");
	refuse_stopped_child(file_owner, "a file owned by another process (F_SETOWN)");
	refuse_stopped_child(file_group_owner, "a file owned by a process group (F_SETOWN)");
	refuse_stopped_child(file_regular_owner, "a regular file with an owner (F_SETOWN)");
	refuse_stopped_child(dir_notify, "a directory watched with F_NOTIFY");
	refuse_stopped_child(fifo_open_async, "a FIFO opened with O_ASYNC");
	refuse_stopped_child(pipe_lock, "a flock() lock through a pipe");
	refuse_stopped_child(detached_mount, "a detached mount (open_tree())");
	refuse_stopped_child(util_clamp, "a utilization clamp");
	refuse_stopped_child(core_cookie, "a core scheduling cookie");
	refuse_stopped_child(spec_ctrl, "PR_SPEC_STORE_BYPASS disabled");
	refuse_stopped_child(thread_child_pdeath,
			     "a child of a non-leader thread with PR_SET_PDEATHSIG");

	/* A good image to damage. */
	counter_image("/tmp/refuse.out", IMG);
	load_image();

	write_bad(image_len, 16, 0xff);			/* HEADER magic */
	st = try_restart();
	tap_ok(exited(st, EINVAL), "bad magic: EINVAL, caller intact (status %#x)", st);
	write_bad(image_len, 16 + 8, 0x40);		/* HEADER version */
	st = try_restart();
	tap_ok(exited(st, EINVAL), "unknown format version: EINVAL, caller intact (status %#x)", st);
	write_bad(image_len, 256 + 16, 0x01);		/* ARCH xfeatures: x87 bit */
	st = try_restart();
	tap_ok(exited(st, EINVAL), "different xstate features: EINVAL, caller intact (status %#x)", st);
	write_bad(image_len / 2, -1, 0);
	st = try_restart();
	tap_ok(exited(st, EIO), "truncated in the middle: EIO, caller intact (status %#x)", st);
	write_bad(image_len - 40, -1, 0);
	st = try_restart();
	tap_ok(exited(st, EIO), "tail record missing: EIO, caller intact (status %#x)", st);
	write_bad(image_len, image_len - 24, 0xff);	/* TAIL magic */
	st = try_restart();
	tap_ok(exited(st, EINVAL), "bad tail magic: EINVAL, caller intact (status %#x)", st);
	write_bad(image_len, image_len - 8, 0x08);	/* TAIL pos */
	st = try_restart();
	tap_ok(exited(st, EINVAL), "tail offset wrong: EINVAL, caller intact (status %#x)", st);

	write_bad(image_len, -1, 0);
	pid = restart_from(BAD);
	usleep(500000);
	st = count_lines("/tmp/refuse.out");
	usleep(500000);
	tap_ok(count_lines("/tmp/refuse.out") > st && waitpid(pid, NULL, WNOHANG) == 0,
	       "the undamaged image restarts and counts on");
	kill_wait(pid);
	return tap_done();
}
