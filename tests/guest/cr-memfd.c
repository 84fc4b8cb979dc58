// SPDX-License-Identifier: GPL-2.0
/*
 * memfds and shared file mappings across checkpoint/restart (helper:
 * memfds, restarted by rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: each
 *     memfd's name, mode, size, offset, seals and bytes, shared and
 *     private mappings of it, a read-only reopen of it; a regular file's
 *     shared mapping, written before and after (see the helper);
 *   - ckptinfo validates that image;
 *   - refusals, each refused child carrying on: a memfd the test has
 *     another file of (EBUSY, naming the test), or has one in flight in a
 *     socket (EBUSY, "try again"), one only the test maps (EBUSY), one
 *     whose mode was changed (EOPNOTSUPP); a SysV attachment shared with the
 *     test: saved;
 *   - a memfd shared with a child that changed its uid since is saved:
 *     the memfd is judged once, by the process saved first;
 *   - a process run from a memfd (fexecve()) saved and restarted, running
 *     the memfd made again; one that keeps memfd_create()'s fd open for
 *     writing refused (EOPNOTSUPP: exec would find it busy at restart),
 *     the child carrying on.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MFD_EXEC
#define MFD_EXEC	0x0010U	/* linux/memfd.h, 6.3 */
#endif

#define READY	"/tmp/memfds.ready"
#define GO	"/tmp/memfds.go"
#define OUT	"/tmp/memfds.out"
#define IMG	"/tmp/memfds.img"

static int run(bool ckpt)
{
	char *argv[] = { HELPER("memfds"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

static int memfd(const char *name)
{
	int fd = memfd_create(name, 0);

	if (fd < 0 || ftruncate(fd, 4096))
		tap_bail("setup: memfd_create: %m");
	return fd;
}

/* A memfd made afresh, and another file of it (a reopen) in *@other. */
static int memfd_reopened(const char *name, int *other)
{
	int fd = memfd(name);
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	*other = open(path, O_RDWR);
	if (*other < 0)
		tap_bail("setup: reopen %s: %m", path);
	return fd;
}

/*
 * A child holding a memfd the test has a file of too (another open file
 * of it): EBUSY, naming the test.
 */
static void refuse_open(void)
{
	int mine, fd = memfd_reopened("held", &mine);
	char want[64];
	pid_t pid;

	snprintf(want, sizeof(want), "also open by task %d", getpid());
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EBUSY, want, "a memfd the test has another file of");
	close(mine);
}

/*
 * The same with that other file in flight in a socket, held by no
 * descriptor: EBUSY, "try again".
 */
static void refuse_in_flight(void)
{
	int mine, sv[2], fd = memfd_reopened("flying", &mine);
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		tap_bail("setup: socketpair: %m");
	send_fd(sv[0], mine);
	close(mine);
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EBUSY, "held outside the tree (passed in a socket",
		      "a memfd with another file of it in flight in a socket");
	close(sv[0]);
	close(sv[1]);
}

/* A child holding a memfd only the test maps: EBUSY. */
static void refuse_mapped(void)
{
	int fd = memfd("mapped");
	char want[64];
	void *map;
	pid_t pid;

	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		tap_bail("setup: mmap: %m");
	pid = fork_holding(fd, fd, true);
	close(fd);
	snprintf(want, sizeof(want), "also mapped by task %d", getpid());
	check_refused(pid, IMG, EBUSY, want, "a memfd the test maps");
	munmap(map, 4096);
}

/* A child holding a memfd of mode 0600: EOPNOTSUPP. */
static void refuse_mode(void)
{
	int fd = memfd("chmod");
	pid_t pid;

	if (fchmod(fd, 0600))
		tap_bail("setup: fchmod: %m");
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EOPNOTSUPP, "mode was changed", "a memfd whose mode was changed");
}

/* In a child of the test: keep @fd as descriptor 3 alone, and stop. */
static void hold_and_stop(int fd)
{
	if (!null_stdio() || dup2(fd, 3) != 3 || close_range(4, ~0U, 0))
		_exit(126);
	raise(SIGSTOP);
	pause();
	_exit(0);
}

/*
 * A memfd a process shares with its child, which changed its uid since
 * (setuid()): the memfd is judged once, by the process saved first (its
 * maker), not again by each holder: the tree is saved.
 */
static void setuid_child(void)
{
	int fd = memfd("shared"), p[2], st;
	pid_t pid, kid = 0;
	long crid;

	if (pipe(p))
		tap_bail("setup: pipe: %m");
	pid = fork();
	if (pid < 0)
		tap_bail("setup: fork: %m");
	/* each stops itself, its descriptors set: the test's stdout is not in */
	if (!pid) {
		kid = fork();
		if (!kid && setresuid(65534, 65534, 65534))
			_exit(125);
		if (kid > 0 && (waitpid(kid, &st, WUNTRACED) != kid || !WIFSTOPPED(st) ||
				write(p[1], &kid, sizeof(kid)) != sizeof(kid)))
			_exit(125);
		hold_and_stop(fd);
	}
	close(p[1]);
	if (read(p[0], &kid, sizeof(kid)) != sizeof(kid) || kid <= 0 ||
	    waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		tap_bail("setup: the memfd's holders did not stop");
	close(p[0]);
	close(fd);
	crid = checkpoint_retry(pid, IMG);
	tap_ok(crid > 0, "a memfd shared with a child that setuid() since: saved (%ld %s)", crid,
	       crid > 0 ? "" : engine_stat("checkpoint.refused"));
	kill(kid, SIGKILL);
	kill_wait(pid);
}

/*
 * A child that inherited a SysV shared memory attachment the test keeps
 * too: saved (a segment is its IPC namespace's, shared by design, not
 * split as a memfd would be), and the child carries on.
 */
static void shared_sysv(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600), fd;
	void *at;
	long crid;
	pid_t pid;

	if (id < 0 && errno == ENOSYS) {	/* a kernel without SYSVIPC */
		tap_skip("SysV shared memory: not in this kernel");
		tap_skip("SysV shared memory: not in this kernel");
		return;
	}
	at = id < 0 ? (void *)-1 : shmat(id, NULL, 0);
	fd = at == (void *)-1 ? -1 : open("/dev/null", O_RDONLY);
	if (fd < 0) {
		int err = errno;

		/* no segment left behind: detached, removed */
		if (at != (void *)-1)
			shmdt(at);
		if (id >= 0)
			shmctl(id, IPC_RMID, NULL);
		errno = err;
		tap_bail("setup: SysV shared memory: %m");
	}
	pid = fork_holding(fd, fd, true);
	close(fd);
	crid = checkpoint_to(pid, IMG);
	tap_ok(crid > 0, "a child with a SysV attachment the test keeps too: saved (%ld, \"%s\")",
	       crid, crid > 0 ? "" : engine_stat("checkpoint.refused"));
	kill(pid, SIGCONT);
	tap_ok(wait_exit(pid, 30) == 0, "and it carries on");
	shmdt(at);
	shmctl(id, IPC_RMID, NULL);
}

/* /proc/@pid/exe's target, in @buf; "" if it cannot be read. */
static const char *exe_of(pid_t pid, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	n = readlink(link, buf, size - 1);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/*
 * A child running busybox sleep 5 from a memfd (fexecve()), stopped.
 * @keep: run from the fd memfd_create() gave, kept open for writing
 * across the exec; else from a read-only reopen of it, the writer
 * closed (as a runtime runs a copy of itself).
 */
static pid_t run_memfd(bool keep)
{
	char exe[256] = "";
	pid_t pid = fork();
	int i;

	if (pid < 0)
		tap_bail("setup: fork: %m");
	if (!pid) {
		char *argv[] = { "sleep", "5", NULL }, link[64];
		int fd = memfd_create("exe", (keep ? 0 : MFD_CLOEXEC) | MFD_EXEC), in, ro;
		static char buf[1 << 16];
		ssize_t n;

		in = open("/bin/busybox", O_RDONLY);
		if (fd < 0 || in < 0 || !null_stdio())
			_exit(126);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(fd, buf, n) != n)
				_exit(126);
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ro = keep ? fd : open(link, O_RDONLY | O_CLOEXEC);
		if (n || ro < 0 || (!keep && close(fd)) || close(in))
			_exit(126);
		fexecve(ro, argv, environ);
		_exit(127);
	}
	for (i = 0; i < 1000 && strncmp(exe_of(pid, exe, sizeof(exe)), "/memfd:exe", 10); i++)
		usleep(10000);
	if (strncmp(exe, "/memfd:exe", 10) || !stop_task(pid))
		tap_bail("setup: the memfd did not run (exe \"%s\")", exe);
	return pid;
}

/*
 * A process run from a memfd, its writer closed: saved, restarted
 * running the memfd made again, its sleep ending with status 0.
 */
static void restart_fexecve(void)
{
	char again[256] = "";
	pid_t pid = run_memfd(false), rpid = -1;
	int i, st = -1;
	long crid;

	crid = checkpoint_to(pid, IMG);
	kill_wait(pid);
	if (crid > 0)
		rpid = rstr_cli(NULL, IMG, NULL);
	/* rstr's child becomes the restarted process once the restart ends */
	for (i = 0; rpid > 0 && i < 1000 &&
	     strncmp(exe_of(rpid, again, sizeof(again)), "/memfd:exe", 10); i++)
		usleep(10000);
	if (rpid > 0)
		st = wait_exit(rpid, 60);
	tap_ok(crid > 0 && !strncmp(again, "/memfd:exe", 10) && WIFEXITED(st) &&
	       !WEXITSTATUS(st),
	       "a process run from a memfd (fexecve()): saved (%ld, \"%s\"), restarted running \"%s\", exits 0 (status %#x)",
	       crid, crid > 0 ? "" : engine_stat("checkpoint.refused"), again, st);
}

int main(void)
{
	tap_plan(17);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/memfds.info") == 0,
	       "ckptinfo validates the image");
	refuse_open();
	refuse_in_flight();
	refuse_mapped();
	refuse_mode();
	shared_sysv();
	setuid_child();
	restart_fexecve();
	check_refused(run_memfd(true), IMG, EOPNOTSUPP, "has it open for writing",
		      "a process run from a memfd it has open for writing");
	return tap_done();
}
