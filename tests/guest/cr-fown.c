// SPDX-License-Identifier: GPL-2.0
/*
 * Files in signal-driven I/O across checkpoint/restart (helper: fowns,
 * restarted by rstr as a user would): the helper's checks hold without
 * a checkpoint, and after one: a socket owned by the process (F_SETOWN)
 * with F_SETSIG SIGUSR1 and O_ASYNC signals a write to it with its
 * lowest descriptor in si_fd; a pipe owned by the main thread
 * (F_SETOWN_EX F_OWNER_TID) signals SIGIO; a pipe with F_SETSIG only
 * signals nothing; the owners name the restored process. ckptinfo
 * validates the image and shows the owners.
 */
#include "crtest.h"
#include "tap.h"

#include <stdlib.h>

#define READY	"/tmp/fown.ready"
#define GO	"/tmp/fown.go"
#define OUT	"/tmp/fown.out"
#define IMG	"/tmp/fown.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("fowns"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

int main(void)
{
	tap_plan(3);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/fown.info && grep -q 'SIGUSR1' /tmp/fown.info && "
		      "grep -q 'O_ASYNC' /tmp/fown.info && ckptinfo --json " IMG " > /dev/null") == 0,
	       "ckptinfo validates the image and shows the owners");
	return tap_done();
}
