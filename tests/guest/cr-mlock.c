// SPDX-License-Identifier: GPL-2.0
/*
 * Locked memory across checkpoint/restart (helper: lockmem, restarted by
 * rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: an
 *     mlock()ed range locked and resident, an mlock2(MLOCK_ONFAULT) one
 *     locked on fault only, mlockall(MCL_FUTURE) locking a later mapping;
 *   - ckptinfo validates that image;
 *   - a restart refused before its point of no return: an image holding
 *     more locked memory than its own RLIMIT_MEMLOCK (0) allows, without
 *     CAP_IPC_LOCK (EPERM), the caller carrying on.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READY	"/tmp/lockmem.ready"
#define GO	"/tmp/lockmem.go"
#define OUT	"/tmp/lockmem.out"
#define IMG	"/tmp/lockmem.img"

static int run(bool ckpt)
{
	char *argv[] = { HELPER("lockmem"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

/* The image of a process locked beyond its own rights: EPERM at restart. */
static void refuse_beyond_limit(void)
{
	char *argv[] = { HELPER("lockmem"), READY, GO, OUT, "nocap", NULL };
	const char *why;
	pid_t pid;
	long crid;
	int st;

	unlink(READY);
	unlink(GO);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(READY, 30) || !stop_task(pid))
		tap_bail("setup: lockmem nocap did not start");
	crid = checkpoint_retry(pid, IMG);
	kill_wait(pid);
	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld (%s)", crid, engine_stat("checkpoint.refused"));
	st = wait_exit(restart_from(IMG), 60);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(EPERM) << 8 &&
	       strstr(why, "locked pages above its RLIMIT_MEMLOCK (0 bytes), without CAP_IPC_LOCK"),
	       "locked memory beyond the image's RLIMIT_MEMLOCK, without CAP_IPC_LOCK: EPERM, the caller carries on (%#x, \"%s\")",
	       st, why);
}

int main(void)
{
	tap_plan(4);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/lockmem.info") == 0,
	       "ckptinfo validates the image");
	refuse_beyond_limit();
	return tap_done();
}
