// SPDX-License-Identifier: GPL-2.0
/* ckpt: checkpoint a stopped task into an image, through the control file. */
#include "cli.h"
#include "crctl.h"

#include <linux/checkpoint_hdr.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ckpt PID [-o FILE | -k]\n"
		"Checkpoint process PID with its threads and all its descendants (all\n"
		"stopped with kill -STOP, or frozen) into FILE (default: standard\n"
		"output) and print the checkpoint id on stderr.\n"
		"FILE is written under a temporary name beside it and renamed once the\n"
		"checkpoint is complete: a failed checkpoint leaves an older FILE as it\n"
		"was (a FILE that is not a regular file, a FIFO say, is written directly).\n"
		"-k, --keep: keep the image in kernel memory instead, as\n"
		"%s/images/CRID, and print the crid on stdout\n"
		"(restart it with rstr -i on that file; drop it with echo CRID > .../drop).\n"
		"Needs root and the engine on: echo 1 > %s/enable\n", CR_DEBUGFS, CR_DEBUGFS);
}

/*
 * The descriptor to write @out through: a temporary file beside it
 * (its name in @tmp) when @out is a regular file or does not exist yet,
 * else @out itself (@tmp empty). -1 on failure, said.
 */
static int open_output(const char *out, char *tmp, size_t len)
{
	struct stat st;
	int fd;

	tmp[0] = '\0';
	if (stat(out, &st) || S_ISREG(st.st_mode)) {
		snprintf(tmp, len, "%s.XXXXXX", out);
		fd = mkostemp(tmp, O_CLOEXEC);
		if (fd < 0)
			fprintf(stderr, "ckpt: %s: %s\n", tmp, strerror(errno));
		return fd;
	}
	fd = open(out, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "ckpt: %s: %s\n", out, strerror(errno));
	return fd;
}

int main(int argc, char **argv)
{
	const char *out;
	char *end, tmp[4096] = "";
	long pid, crid;
	int fd = STDOUT_FILENO, keep;
	const struct cli_flag flags[] = { { 'k', "keep", &keep } };
	int arg = cli_parse_flags(argc, argv, 'o', "output", &out, flags, 1, 1,
				  usage);

	pid = strtol(argv[arg], &end, 10);
	if (*end || pid <= 0) {
		fprintf(stderr, "ckpt: '%s' is not a pid\n", argv[arg]);
		return 2;
	}
	if (keep && out) {
		fprintf(stderr, "ckpt: -k keeps the image in kernel memory, -o writes it to a file: one or the other\n");
		return 2;
	}
	if (keep) {
		fd = -1;
	} else if (out) {
		fd = open_output(out, tmp, sizeof(tmp));
		if (fd < 0)
			return 1;
	} else if (isatty(fd)) {
		fprintf(stderr, "ckpt: not writing an image to a terminal: use -o FILE or a redirection\n");
		return 2;
	}
	crid = cr_checkpoint(pid, fd, keep ? CHECKPOINT_KEPT : 0);
	if (crid < 0) {
		fprintf(stderr, "ckpt: checkpoint of pid %ld failed: %s (%s); %s\n",
			pid, strerror(-crid), cr_errname(-crid), cr_hint(-crid));
		cr_print_refusal("ckpt", "checkpoint", (int)-crid);
		if (*tmp)
			unlink(tmp);
		return 1;
	}
	if (*tmp && (close(fd) || rename(tmp, out))) {
		fprintf(stderr, "ckpt: %s: %s (the image is in %s)\n", out,
			strerror(errno), tmp);
		return 1;
	}
	if (keep) {
		printf("%ld\n", crid);
		fprintf(stderr, "ckpt: pid %ld checkpointed, crid %ld, kept: %s/images/%ld\n",
			pid, crid, CR_DEBUGFS, crid);
		return 0;
	}
	fprintf(stderr, "ckpt: pid %ld checkpointed, crid %ld%s%s\n", pid, crid,
		out ? " -> " : "", out ? out : "");
	return 0;
}
