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
 *
 * It counts, rewriting DIR/count in place ("count\n", fixed width, through
 * a descriptor opened first) every 5 ms; DIR/ready appears once it runs.
 * Exit 9: set-up failure.
 */
#include <fcntl.h>
#include <linux/capability.h>
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
 * CAP_SYS_CHROOT dropped, so that a restarter without it may have the
 * image's credentials, but not its root.
 */
static int drop_chroot(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1u << CAP_SYS_CHROOT);
	d[0].permitted &= ~(1u << CAP_SYS_CHROOT);
	d[0].inheritable &= ~(1u << CAP_SYS_CHROOT);
	return syscall(SYS_capset, &h, d);
}

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 5000000 };
	char path[4096], line[32];
	long n = 0;
	int fd, dir, ready;

	if (argc != 3)
		return 9;
	snprintf(path, sizeof(path), "%s/count", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	dir = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0 || dir < 0)
		return 9;
	if (!strcmp(argv[2], "rmcwd")) {
		snprintf(path, sizeof(path), "%s/gone", argv[1]);
		if (mkdir(path, 0755) || chdir(path) || rmdir(path))
			return 9;
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
		    (chroot(argv[1]) || chdir("/sub/dir") || drop_chroot()))
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
		nanosleep(&ts, NULL);
	}
}
