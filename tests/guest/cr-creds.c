// SPDX-License-Identifier: GPL-2.0
/*
 * Credentials across checkpoint/restart (the CREDS record):
 *   - a counter running as uid/gid 1000 with groups 1000 and 2000,
 *     restarted by root, runs as uid/gid 1000 with those groups and no
 *     capabilities, not as root;
 *   - a caller that is not root (uid 1000, CAP_SYS_ADMIN alone, no
 *     CAP_SETUID) may restart the uid-1000 image, and gets it;
 *   - the same caller restarting a root program's image is refused with
 *     EPERM before the point of no return, and carries on.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/creds"
#define OUT DIR "/count"
#define IMG DIR "/user.img"
#define ROOT_IMG DIR "/root.img"

/* The value of @key in /proc/@pid/status, without the tab; "" if none. */
static const char *status_line(pid_t pid, const char *key, char *buf, size_t len)
{
	char path[64], line[256];
	size_t n = strlen(key);
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, n) || line[n] != ':')
			continue;
		snprintf(buf, len, "%s", line + n + 2);
		buf[strcspn(buf, "\n")] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

/* Become uid/gid 1000 with groups 1000 and 2000; false on failure. */
static bool become_user(void)
{
	gid_t groups[] = { 1000, 2000 };

	return !setgroups(2, groups) && !setresgid(1000, 1000, 1000) &&
	       !setresuid(1000, 1000, 1000);
}

/* The uid-1000 counter, stopped and checkpointed into IMG, killed. */
static void user_image(void)
{
	char *argv[] = { HELPER("counter"), OUT, "100000", "5000", NULL };
	pid_t pid;

	unlink(OUT ".ready");
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		if (!null_stdio() || !become_user())
			_exit(1);
		execv(argv[0], argv);
		_exit(1);
	}
	if (!wait_file(OUT ".ready", 60) || !stop_task(pid) || checkpoint_to(pid, IMG) <= 0) {
		kill_wait(pid);
		tap_bail("setup: no image of the uid-1000 counter");
	}
	kill_wait(pid);
}

/*
 * Fork a caller that is uid 1000 with CAP_SYS_ADMIN alone (what the
 * engine needs), restarting from @img; its pid.
 */
static pid_t restart_as_user(const char *img)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = {};
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	data[0].effective = data[0].permitted = 1U << CAP_SYS_ADMIN;
	if (prctl(PR_SET_KEEPCAPS, 1) || !become_user() ||
	    syscall(SYS_capset, &hdr, data))
		_exit(RESTART_FAILED(errno));
	fd = open(img, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(RESTART_FAILED(errno));
	/* the system call: the control files are root's */
	_exit(RESTART_FAILED(-cr_sys_restart(0, fd, 0)));
}

/* The restarted task's ids, groups and effective capabilities. */
static void check_user(pid_t pid, const char *who)
{
	char uid[64], gid[64], groups[64], capeff[64], capprm[64];

	if (!wait_comm(pid, "counter", 60)) {
		tap_ok(false, "%s: the uid-1000 counter restarts", who);
		return;
	}
	status_line(pid, "Uid", uid, sizeof(uid));
	status_line(pid, "Gid", gid, sizeof(gid));
	status_line(pid, "Groups", groups, sizeof(groups));
	status_line(pid, "CapEff", capeff, sizeof(capeff));
	status_line(pid, "CapPrm", capprm, sizeof(capprm));
	tap_ok(!strcmp(uid, "1000\t1000\t1000\t1000") &&
	       !strcmp(gid, "1000\t1000\t1000\t1000") &&
	       !strncmp(groups, "1000 2000", 9) &&
	       !strcmp(capeff, "0000000000000000") && !strcmp(capprm, "0000000000000000"),
	       "%s: the restarted counter runs as uid 1000 (Uid %s, Gid %s, Groups %s, CapEff %s, CapPrm %s)",
	       who, uid, gid, groups, capeff, capprm);
}

int main(void)
{
	pid_t pid;
	int st;

	tap_plan(3);
	engine_on();
	mkdir(DIR, 0777);
	chmod(DIR, 0777);
	user_image();
	counter_image(DIR "/root-count", ROOT_IMG);
	chmod(IMG, 0644);
	chmod(ROOT_IMG, 0644);

	pid = restart_from(IMG);
	check_user(pid, "root restarts it");
	kill_wait(pid);

	pid = restart_as_user(IMG);
	check_user(pid, "uid 1000 with CAP_SYS_ADMIN restarts it");
	kill_wait(pid);

	pid = restart_as_user(ROOT_IMG);
	st = wait_exit(pid, 60);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == RESTART_FAILED(EPERM),
	       "uid 1000 restarting a root program's image: EPERM, and it carries on (status %#x)",
	       st);
	return tap_done();
}
