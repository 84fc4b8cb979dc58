// SPDX-License-Identifier: GPL-2.0
/*
 * keptsys checkpoint PID: checkpoint(PID, -1, CHECKPOINT_KEPT); print the
 * crid.
 * keptsys restart CRID: restart(CRID, -1, RESTART_KEPT); returns only on
 * failure. The system-call side of images kept in kernel memory (the
 * control files are the shell's). Exit 1 with the errno on failure, 9
 * on a usage error.
 */
#include "crctl.h"

#include <linux/checkpoint_hdr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long id, ret;
	char *end;

	if (argc != 3)
		goto usage;
	id = strtol(argv[2], &end, 10);
	if (*end || id <= 0)
		goto usage;
	if (!strcmp(argv[1], "checkpoint"))
		ret = cr_sys_checkpoint((pid_t)id, -1, CHECKPOINT_KEPT);
	else if (!strcmp(argv[1], "restart"))
		ret = cr_sys_restart((int)id, -1, RESTART_KEPT);
	else
		goto usage;
	if (ret < 0) {
		fprintf(stderr, "keptsys: %s: %s\n", argv[1], strerrorname_np(-ret));
		return 1;
	}
	printf("%ld\n", ret);
	return 0;
usage:
	fprintf(stderr, "usage: keptsys checkpoint PID | keptsys restart CRID\n");
	return 9;
}
