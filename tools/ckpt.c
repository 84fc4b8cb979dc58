// SPDX-License-Identifier: GPL-2.0
/* ckpt: checkpoint a stopped task into an image, through the control file. */
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
		"usage: ckpt PID [-o FILE]\n"
		"Checkpoint task PID (stopped with kill -STOP, or frozen) into FILE\n"
		"(default: standard output) and print the checkpoint id on stderr.\n"
		"Needs root and the engine on: echo 1 > %s/enable\n", CR_DEBUGFS);
}

int main(int argc, char **argv)
{
	const char *out;
	char *end;
	long pid, crid;
	int fd = STDOUT_FILENO;
	int arg = cli_parse(argc, argv, 'o', "output", &out, 1, usage);

	pid = strtol(argv[arg], &end, 10);
	if (*end || pid <= 0) {
		fprintf(stderr, "ckpt: '%s' is not a pid\n", argv[arg]);
		return 2;
	}
	if (out) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			fprintf(stderr, "ckpt: %s: %s\n", out, strerror(errno));
			return 1;
		}
	} else if (isatty(fd)) {
		fprintf(stderr, "ckpt: not writing an image to a terminal: use -o FILE or a redirection\n");
		return 2;
	}
	crid = cr_checkpoint(pid, fd, 0);
	if (crid < 0) {
		fprintf(stderr, "ckpt: checkpoint of pid %ld failed: %s (%s); %s\n",
			pid, strerror(-crid), strerrorname_np(-crid), cr_hint(-crid));
		cr_print_refusal("ckpt", "checkpoint", (int)-crid);
		if (out)
			unlink(out);
		return 1;
	}
	fprintf(stderr, "ckpt: pid %ld checkpointed, crid %ld%s%s\n", pid, crid,
		out ? " -> " : "", out ? out : "");
	return 0;
}
