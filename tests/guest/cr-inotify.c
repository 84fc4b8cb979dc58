// SPDX-License-Identifier: GPL-2.0
/*
 * inotify instances across checkpoint/restart (helper: inotifys, which
 * checks its own instances once restarted; restarted by rstr, as a user
 * would):
 *   - two instances (one non-blocking) with watches on a directory, a
 *     file and a one-shot watch: their watch descriptors, masks and flags
 *     kept, events told after restart with the saved descriptors, the next
 *     new watch's descriptor as it would have been (the helper's run
 *     without a checkpoint checks the same);
 *   - ckptinfo validates the image;
 *   - a watch on the process's root directory (a file system's root,
 *     whose dentry is never hashed) saved;
 *   - refused: an event queued and not read (EBUSY), a watch on a mount
 *     the process holds nothing of (EOPNOTSUPP); each refused helper is
 *     killed.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define READY	"/tmp/inotifys.ready"
#define GO	"/tmp/inotifys.go"
#define OUT	"/tmp/inotifys.out"
#define IMG	"/tmp/inotifys.img"
#define DIR	"/tmp/inotifys.d"
#define MNT	"/tmp/inotifys.mnt"

static void fresh_dir(void)
{
	if (system("rm -rf " DIR " && mkdir -p " DIR))
		tap_bail("setup: " DIR);
}

static int run(bool ckpt)
{
	char *argv[] = { HELPER("inotifys"), READY, GO, OUT, DIR, NULL };

	fresh_dir();
	return run_checked(argv, READY, GO, IMG, ckpt);
}

/* The helper in @mode (@arg), stopped: its checkpoint's result; killed. */
static long saved(const char *mode, const char *arg)
{
	char *argv[] = { HELPER("inotifys"), READY, GO, OUT, DIR, (char *)mode,
			 (char *)arg, NULL };
	long crid;
	pid_t pid;

	fresh_dir();
	unlink(READY);
	unlink(GO);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(READY, 60))
		tap_bail("setup: inotifys %s did not start", mode);
	if (!stop_task(pid))
		tap_bail("setup: inotifys did not stop");
	crid = checkpoint_to(pid, IMG);
	kill_wait(pid);
	return crid;
}

int main(void)
{
	long crid;

	tap_plan(6);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/inotifys.info") == 0,
	       "ckptinfo validates the image");

	crid = saved("queued", NULL);
	tap_ok(crid == -EBUSY && strstr(engine_stat("checkpoint.refused"), "events queued"),
	       "an event queued and not read: refused (%ld, \"%s\")", crid,
	       engine_stat("checkpoint.refused"));

	crid = saved("root", NULL);
	tap_ok(crid > 0, "a watch on the process's root directory (a file system's root): saved (%ld, \"%s\")",
	       crid, crid > 0 ? "" : engine_stat("checkpoint.refused"));

	if (mkdir(MNT, 0755) && errno != EEXIST)
		tap_bail("setup: " MNT ": %m");
	if (mount("none", MNT, "tmpfs", 0, NULL))
		tap_bail("setup: mount tmpfs on " MNT ": %m");
	crid = saved("unreachable", MNT);
	tap_ok(crid == -EOPNOTSUPP &&
	       strstr(engine_stat("checkpoint.refused"), "no mount of the process reaches it"),
	       "a watch on a mount the process holds nothing of: refused (%ld, \"%s\")",
	       crid, engine_stat("checkpoint.refused"));
	umount(MNT);
	return tap_done();
}
