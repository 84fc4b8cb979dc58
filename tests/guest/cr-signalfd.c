// SPDX-License-Identifier: GPL-2.0
/*
 * Signal fds across checkpoint/restart (helper: sigfds, restarted by rstr
 * as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: a
 *     non-blocking signalfd for SIGUSR1 and SIGUSR2 reads the SIGUSR1
 *     pending since before the checkpoint, then EAGAIN, then a SIGUSR2
 *     sent after the restart; a blocking one for SIGUSR2 keeps its mask;
 *   - ckptinfo validates that image and lists both signalfds.
 */
#include "crtest.h"
#include "tap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define READY	"/tmp/sigfds.ready"
#define GO	"/tmp/sigfds.go"
#define OUT	"/tmp/sigfds.out"
#define IMG	"/tmp/sigfds.img"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("sigfds"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

int main(void)
{
	tap_plan(3);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/sigfds.info && "
		      "grep -q 'signalfd SIGUSR1 SIGUSR2, nonblocking  ' /tmp/sigfds.info && "
		      "grep -q 'signalfd SIGUSR2  ' /tmp/sigfds.info") == 0,
	       "ckptinfo validates the image and lists both signalfds with their signals");
	return tap_done();
}
