// SPDX-License-Identifier: GPL-2.0
/*
 * ckptinfo: read, check and explain a checkpoint image.
 * Exit 0: a valid image; 1: an invalid one (one line says where and why);
 * 2: a usage or I/O error.
 */
#include "image.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ckptinfo [--records] [--json] [--regs] IMAGE\n"
		"Check a checkpoint image (IMAGE, or - for standard input; a pipe is\n"
		"fine) as restart would, and summarize it: header, the process tree\n"
		"(drawn as pstree draws it: pid, comm, process group, session, threads;\n"
		"zombies with their wait() status), the shared memory, the deleted\n"
		"files, the pipes, then each live process: task, signals (handled\n"
		"and pending), credentials, resource limits, working directory, root\n"
		"and umask, threads, memory, files; then the totals.\n"
		"  --records  one line per record: pos, type, len, objref (the fields\n"
		"             of the checkpoint trace events)\n"
		"  --json     the same content as JSON: the root process's keys at the\n"
		"             top level, \"tree\" (every task), \"processes\" (each\n"
		"             live process), \"shmem\", \"ghosts\" and \"pipes\";\n"
		"             docs/ckptinfo.md\n"
		"  --regs     include the general registers\n"
		"Exit 0 for a valid image, 1 for an invalid one, 2 for usage errors.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "records", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "regs", no_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool records = false, json = false, regs = false;
	struct ci_image img;
	const char *path;
	FILE *f;
	int c, ret;

	while ((c = getopt_long(argc, argv, "rjgh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': records = true; break;
		case 'j': json = true; break;
		case 'g': regs = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "ckptinfo: %s: %s\n", path, strerror(errno));
		return 2;
	}
	ret = ci_read(f, &img, records);
	if (ret) {
		fprintf(stderr, "ckptinfo: %s: invalid image: %s\n", path, img.error);
		if (records)
			ci_print_records(stdout, &img);
	} else if (json) {
		ci_print_json(stdout, &img, regs, records);
	} else if (records) {
		ci_print_records(stdout, &img);
	} else {
		ci_print_summary(stdout, &img, regs);
	}
	ci_free(&img);
	if (f != stdin)
		fclose(f);
	return ret ? 1 : 0;
}
