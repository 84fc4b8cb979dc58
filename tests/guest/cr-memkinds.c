// SPDX-License-Identifier: GPL-2.0
/*
 * Memory the engine refuses, on kernels that have it (the distro variant;
 * each part is skipped elsewhere):
 *   hugetlb: a task with a MAP_HUGETLB mapping, or a private mapping of a
 *   hugetlbfs file, is refused at checkpoint (EOPNOTSUPP); an image whose
 *   mapped file now names a hugetlbfs file is refused at restart (EINVAL,
 *   before the point of no return, the caller intact).
 *   swap: a task with pages swapped out (MADV_PAGEOUT onto a loop-device
 *   swap area) is refused at checkpoint (EOPNOTSUPP), and its memory is
 *   intact when it runs on.
 * The refusal's reason must be the one in the engine's stats.
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
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/mk"		/* a tmpfs directory */
#define HUGE "/tmp/hh"		/* a hugetlbfs mount: the same path length */
#define HPAGE (2UL << 20)
#define IMG "/tmp/mk.img"
#define SWAPLEN (8UL << 20)

static bool exited(int st, int code)
{
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == code;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * A child that maps @path privately (or anonymous huge memory if @path is
 * NULL), touches it and stops itself; it exits 0 when continued.
 */
static pid_t stopped_mapper(const char *path)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		int fd = path ? open(path, O_RDWR) : -1;
		char *p;

		if (path && fd < 0)
			_exit(3);
		p = mmap(NULL, HPAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | (path ? 0 : MAP_ANONYMOUS | MAP_HUGETLB), fd, 0);
		if (p == MAP_FAILED)
			_exit(4);
		if (fd >= 0)
			close(fd);	/* only the mapping names the file */
		p[0] = 1;
		if (!null_stdio())
			_exit(5);
		raise(SIGSTOP);
		_exit(p[0] == 1 ? 0 : 6);
	}
	if (pid < 0 || waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		tap_bail("the mapping child did not stop (status %#x)", pid < 0 ? -1 : st);
	return pid;
}

static void hugetlb(void)
{
	long crid;
	pid_t pid;
	int st, fd;

	if (write_str("/proc/sys/vm/nr_hugepages", "4") ||
	    (mkdir(HUGE, 0700) && errno != EEXIST) ||
	    mount("none", HUGE, "hugetlbfs", 0, NULL)) {
		for (st = 0; st < 4; st++)
			tap_skip("no hugetlbfs in this kernel");
		return;
	}
	fd = open(HUGE "/data", O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, HPAGE))
		tap_bail("cannot make a hugetlbfs file: %m");
	close(fd);

	pid = stopped_mapper(NULL);
	crid = checkpoint_to(pid, IMG);
	tap_ok(crid == -EOPNOTSUPP && strstr(engine_stat("checkpoint.refused"), "hugetlb mapping"),
	       "a MAP_HUGETLB mapping: checkpoint refused, EOPNOTSUPP (%ld: %s)", crid,
	       engine_stat("checkpoint.refused"));
	kill(pid, SIGCONT);
	st = wait_exit(pid, 60);
	tap_ok(exited(st, 0), "and the task runs on and exits (status %#x)", st);

	pid = stopped_mapper(HUGE "/data");
	crid = checkpoint_to(pid, IMG);
	tap_ok(crid == -EOPNOTSUPP && strstr(engine_stat("checkpoint.refused"), "hugetlb mapping"),
	       "a private mapping of a hugetlbfs file: checkpoint refused, EOPNOTSUPP (%ld: %s)",
	       crid, engine_stat("checkpoint.refused"));
	kill(pid, SIGCONT);
	wait_exit(pid, 60);

	/* An image whose mapped file's path now names a hugetlbfs file. */
	fd = open(DIR "/data", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, HPAGE))
		tap_bail("cannot make " DIR "/data: %m");
	close(fd);
	pid = stopped_mapper(DIR "/data");
	crid = checkpoint_to(pid, IMG);
	kill_wait(pid);
	if (crid <= 0)
		tap_bail("no image of a task mapping " DIR "/data: %ld", crid);
	{
		long long len = file_size(IMG), i, hits = 0;
		char *img = malloc(len);
		FILE *f = fopen(IMG, "r+");

		if (!img || !f || fread(img, 1, len, f) != (size_t)len)
			tap_bail("cannot read %s", IMG);
		for (i = 0; i + (long long)sizeof(DIR "/data") <= len; i++)
			if (!memcmp(img + i, DIR "/data", sizeof(DIR "/data"))) {
				memcpy(img + i, HUGE "/data", sizeof(HUGE "/data"));
				hits++;
			}
		if (hits != 1 || fseek(f, 0, SEEK_SET) || fwrite(img, 1, len, f) != (size_t)len)
			tap_bail("cannot rewrite the path in %s (%lld copies)", IMG, hits);
		fclose(f);
		free(img);
	}
	pid = restart_from(IMG);
	st = wait_exit(pid, 60);
	tap_ok(exited(st, RESTART_FAILED(EINVAL)) &&
	       strstr(engine_stat("restart.refused"), HUGE "/data: file on a file system not marked FS_CHECKPOINTABLE"),
	       "an image whose file now names a hugetlbfs file: restart refused, EINVAL, before the point of no return (status %#x: %s)",
	       st, engine_stat("restart.refused"));
	umount(HUGE);
}

/* The task's VmSwap in KiB, or -1. */
static long vm_swap_kb(pid_t pid)
{
	char path[64], line[128];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSwap: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void swapped(void)
{
	long crid, kb;
	pid_t pid;
	int st;

	if (access("/proc/swaps", F_OK) ||
	    system("dd if=/dev/zero of=" DIR "/swap bs=1M count=32 2>/dev/null &&"
		   " losetup /dev/loop0 " DIR "/swap && mkswap /dev/loop0 >/dev/null &&"
		   " swapon /dev/loop0")) {
		tap_skip("no swap (CONFIG_SWAP and a loop device) in this kernel");
		tap_skip("no swap (CONFIG_SWAP and a loop device) in this kernel");
		return;
	}
	pid = fork();
	if (!pid) {
		unsigned char *p = mmap(NULL, SWAPLEN, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t i;

		if (p == MAP_FAILED || !null_stdio())
			_exit(3);
		for (i = 0; i < SWAPLEN; i++)
			p[i] = i * 13;
		if (madvise(p, SWAPLEN, MADV_PAGEOUT))
			_exit(4);
		raise(SIGSTOP);
		for (i = 0; i < SWAPLEN; i++)
			if (p[i] != (unsigned char)(i * 13))
				_exit(5);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		tap_bail("the swapping child did not stop (status %#x)", pid < 0 ? -1 : st);
	kb = vm_swap_kb(pid);
	if (kb <= 0)
		tap_bail("setup: MADV_PAGEOUT swapped nothing out (VmSwap %ld kB)", kb);
	crid = checkpoint_to(pid, IMG);
	tap_ok(crid == -EOPNOTSUPP && strstr(engine_stat("checkpoint.refused"), "swapped out"),
	       "a task with %ld KiB swapped out: checkpoint refused, EOPNOTSUPP (%ld: %s)",
	       kb, crid, engine_stat("checkpoint.refused"));
	kill(pid, SIGCONT);
	st = wait_exit(pid, 120);
	tap_ok(exited(st, 0), "and it runs on with its memory intact (status %#x)", st);
	if (system("swapoff /dev/loop0 && losetup -d /dev/loop0"))
		tap_diag("swapoff /dev/loop0 failed");
	unlink(DIR "/swap");
}

int main(void)
{
	tap_plan(6);
	engine_on();
	mkdir(DIR, 0700);
	hugetlb();
	swapped();
	return tap_done();
}
