// SPDX-License-Identifier: GPL-2.0
/* rstr: become the task saved in an image, through the control file. */
#include "cli.h"
#include "crctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rstr [-i FILE]\n"
		"Restart the task saved in FILE (default: standard input). On success\n"
		"this process becomes it and resumes where it was checkpointed, with\n"
		"this process's pid; on failure nothing changes and rstr exits 1.\n"
		"Needs root and the engine on: echo 1 > %s/enable\n", CR_DEBUGFS);
}

int main(int argc, char **argv)
{
	const char *in;
	int fd = STDIN_FILENO;
	long ret;

	cli_parse(argc, argv, 'i', "input", &in, 0, usage);
	if (in) {
		fd = open(in, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "rstr: %s: %s\n", in, strerror(errno));
			return 1;
		}
	}
	ret = cr_restart(0, fd, 0);
	/* Only a failure comes back here. */
	fprintf(stderr, "rstr: restart failed: %s (%s); %s\n", strerror(-ret),
		strerrorname_np(-ret), cr_hint(-ret));
	return 1;
}
