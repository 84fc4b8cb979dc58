// SPDX-License-Identifier: GPL-2.0
/*
 * The development interface and its gate: /sys/kernel/debug/checkpoint
 * with its "enable" switch (off at boot), the control files and the two
 * system calls refusing while it is off, strict parsing, root only.
 *
 * Must run before anything else turns the switch on (first in the list).
 */
#include "crctl.h"
#include "tap.h"

#include <linux/checkpoint_hdr.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write a raw string to a control file; 0 or -errno. */
static long write_str(const char *name, const char *s)
{
	int fd = open(cr_path(name), O_WRONLY | O_CLOEXEC);
	long ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static void check_off(void)
{
	int img = open("/dev/null", O_WRONLY);
	pid_t self = getpid();

	tap_ok(cr_enable_get() == 0, "enable reads 0 at boot");
	tap_errno(cr_checkpoint(self, img, 0), ENODEV, "off: checkpoint file refuses with ENODEV");
	tap_errno(cr_restart(0, img, 0), ENODEV, "off: restart file refuses with ENODEV");
	tap_errno(write_str("checkpoint", "garbage"), ENODEV,
		  "off: even a malformed request gets ENODEV");
	tap_errno(cr_sys_checkpoint(self, img, 0), ENOSYS, "off: checkpoint syscall returns ENOSYS");
	tap_errno(cr_sys_restart(0, img, 0), ENOSYS, "off: restart syscall returns ENOSYS");
	close(img);
}

static void check_switch(void)
{
	static const char *const bad[] = { "2", "-1", "yes", "on", "1x", "", " 1" };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_errno(write_str("enable", bad[i]), EINVAL,
			  "enable refuses \"%s\" with EINVAL", bad[i]);
	tap_ok(cr_enable_get() == 0, "refused writes leave the switch off");
	tap_ok(cr_enable_set(1) == 0 && cr_enable_get() == 1, "echo 1 > enable turns it on");
	tap_ok(cr_enable_set(0) == 0 && cr_enable_get() == 0, "echo 0 > enable turns it off");
	tap_ok(cr_enable_set(1) == 0 && cr_enable_get() == 1, "and on again");
}

static void check_on(void)
{
	static const char *const bad[] = {
		"1 ", "1 2 3 4", "1  2", "x 1", "1 y", "1 2 z", "1 2\n\n", " 1 2",
		"x", "-",
	};
	int out = open("/dev/null", O_WRONLY);
	int in = open("/tmp/empty.img", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char buf[16];
	unsigned int i;
	int ctl;

	/* Errors only the engine gives show the requests reached it. */
	tap_errno(cr_checkpoint(999999, out, 0), ESRCH,
		  "on: checkpoint file reaches the engine (no such pid: ESRCH)");
	tap_errno(cr_restart(0, in, 0), EIO,
		  "on: restart file reaches the engine (empty image: EIO)");
	tap_errno(cr_sys_checkpoint(999999, out, 0), ESRCH,
		  "on: checkpoint syscall reaches the engine (ESRCH)");
	tap_errno(cr_sys_restart(0, in, 0), EIO,
		  "on: restart syscall reaches the engine (EIO)");
	tap_errno(cr_checkpoint(getpid(), out, 2), EINVAL, "on: unknown checkpoint flags: EINVAL");
	tap_errno(cr_checkpoint(getpid(), out, CHECKPOINT_KEPT), EINVAL,
		  "on: CHECKPOINT_KEPT with an fd: EINVAL");
	tap_errno(cr_sys_checkpoint(getpid(), -1, 0), EBADF,
		  "on: fd -1 without CHECKPOINT_KEPT: EBADF (no image kept)");
	tap_errno(cr_restart(0, in, 4), EINVAL, "on: unknown restart flags: EINVAL");
	tap_errno(cr_restart(0, in, RESTART_COORDINATE | RESTART_JOIN), EINVAL,
		  "on: restart flags to coordinate and to join at once: EINVAL");
	close(in);
	in = open("/tmp/empty.img", O_RDONLY);
	tap_errno(cr_checkpoint(getpid(), in, 0), EBADF,
		  "on: an image fd not open for writing: EBADF");
	tap_errno(cr_restart(0, out, 0), EBADF,
		  "on: an image fd not open for reading: EBADF");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_errno(write_str("checkpoint", bad[i]), EINVAL,
			  "on: request \"%.*s\" refused with EINVAL",
			  (int)strcspn(bad[i], "\n"), bad[i]);
	tap_errno(write_str("restart", "0"), EINVAL,
		  "on: restart of crid 0 with no fd (no kept image is 0): EINVAL");

	ctl = open(cr_path("checkpoint"), O_RDWR);
	tap_ok(ctl >= 0 && read(ctl, buf, sizeof(buf)) < 0 && errno == ENODATA,
	       "reading the checkpoint file before any checkpoint gives ENODATA");
	if (ctl >= 0)
		close(ctl);
	close(in);
	close(out);
}

/* In a child that dropped root, run the refusals; report from the parent. */
static void check_nonroot(void)
{
	const char *files[] = { "enable", "checkpoint", "restart" };
	int results[6], i, status, fds[2];
	pid_t child;

	if (pipe(fds))
		tap_bail("pipe: %m");
	child = fork();
	if (child == 0) {
		close(fds[0]);
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		/* The debugfs modes keep non-root out first... */
		results[0] = open(cr_path("enable"), O_WRONLY) < 0 ? errno : 0;
		_exit(write(fds[1], results, sizeof(int)) == sizeof(int) ? 0 : 4);
	}
	close(fds[1]);
	waitpid(child, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	       read(fds[0], results, sizeof(int)) == sizeof(int) && results[0] == EACCES,
	       "non-root: debugfs modes refuse (EACCES)");
	close(fds[0]);

	/* Open up the modes (as root), and try again as nobody. */
	if (chmod("/sys/kernel/debug", 0755) || chmod(CR_DEBUGFS, 0755))
		tap_bail("chmod debugfs: %m");
	for (i = 0; i < 3; i++)
		if (chmod(cr_path(files[i]), 0666))
			tap_bail("chmod %s: %m", files[i]);
	if (pipe(fds))
		tap_bail("pipe: %m");
	child = fork();
	if (child == 0) {
		int fd;

		close(fds[0]);
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		results[0] = -cr_enable_set(0);
		results[1] = -cr_checkpoint(1, 1, 0);
		results[2] = -cr_restart(0, 0, 0);
		results[3] = -cr_sys_checkpoint(1, 1, 0);
		results[4] = -cr_sys_restart(0, 0, 0);
		fd = open(cr_path("enable"), O_RDONLY);
		results[5] = fd;
		_exit(write(fds[1], results, sizeof(results)) == sizeof(results) ? 0 : 4);
	}
	close(fds[1]);
	waitpid(child, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) ||
	    read(fds[0], results, sizeof(results)) != sizeof(results))
		tap_bail("non-root child failed (status %#x)", status);
	close(fds[0]);
	tap_ok(results[0] == EPERM, "non-root: writing enable refused (EPERM, got %d)", results[0]);
	tap_ok(results[1] == EPERM, "non-root: opening checkpoint refused (EPERM, got %d)", results[1]);
	tap_ok(results[2] == EPERM, "non-root: opening restart refused (EPERM, got %d)", results[2]);
	tap_ok(results[3] == EPERM, "non-root: checkpoint syscall refused (EPERM, got %d)", results[3]);
	tap_ok(results[4] == EPERM, "non-root: restart syscall refused (EPERM, got %d)", results[4]);
	tap_ok(results[5] >= 0, "non-root: reading enable is allowed when the mode allows it");
	tap_ok(cr_enable_get() == 1, "non-root attempts left the switch on");

	chmod("/sys/kernel/debug", 0700);
	chmod(CR_DEBUGFS, 0700);
	chmod(cr_path("enable"), 0600);
	chmod(cr_path("checkpoint"), 0600);
	chmod(cr_path("restart"), 0200);
}

int main(void)
{
	struct stat st;

	tap_plan(49);
	if (!tap_ok(stat(CR_DEBUGFS, &st) == 0 && S_ISDIR(st.st_mode),
		    "%s exists", CR_DEBUGFS))
		tap_bail("no %s: kernel without CONFIG_CHECKPOINT?", CR_DEBUGFS);
	check_off();
	check_switch();
	check_on();
	check_nonroot();
	cr_enable_set(0);
	return tap_done();
}
