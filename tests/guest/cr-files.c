// SPDX-License-Identifier: GPL-2.0
/*
 * Open files across checkpoint/restart: offsets, access mode, O_APPEND,
 * close-on-exec, dup'd descriptors sharing one offset, a directory
 * descriptor (fileshog checks them all).
 */
#include "crtest.h"
#include "tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(bool ckpt)
{
	char *argv[] = { HELPER("fileshog"), "/tmp/files.ready", "/tmp/files.go",
			 "/tmp/files.out", "/tmp/files.d", NULL };
	pid_t pid;

	unlink("/tmp/files.ready");
	unlink("/tmp/files.go");
	mkdir("/tmp/files.d", 0755);
	pid = spawn(argv);
	if (!wait_file("/tmp/files.ready", 60))
		return -1;
	if (ckpt) {
		if (!stop_task(pid) || checkpoint_to(pid, "/tmp/files.img") <= 0)
			return -1;
		kill_wait(pid);
		pid = restart_from("/tmp/files.img");
	}
	close(open("/tmp/files.go", O_WRONLY | O_CREAT, 0644));
	return wait_exit(pid, 60);
}

int main(void)
{
	tap_plan(2);
	engine_on();
	check_both(run, "/tmp/files.out");
	return tap_done();
}
