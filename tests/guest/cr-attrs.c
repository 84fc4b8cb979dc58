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
 *     (EOPNOTSUPP), never restarted elsewhere.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const char *why;
	pid_t pid;
	long ret;
	int st;

	tap_plan(12);
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
	st = restart_clone_fs(ROOT_IMG);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EBUSY) << 8 && strstr(why, "CLONE_FS"),
	       "a caller sharing its working directory (CLONE_FS): EBUSY, it carries on (%#x, \"%s\")",
	       st, why);

	pid = start("rmcwd");
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "removed directory"),
	       "a working directory removed under the process: EOPNOTSUPP (%ld, \"%s\")",
	       ret, why);
	kill_wait_quiet(pid);
	return tap_done();
}
