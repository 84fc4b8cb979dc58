// SPDX-License-Identifier: GPL-2.0
/* Command-line handling shared by the tools: see cli.h. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>

int cli_parse_flag(int argc, char **argv, char opt, const char *name,
		   const char **file, char flag, const char *flagname,
		   int *set, int nargs, void (*usage)(FILE *))
{
	const struct option opts[] = {
		{ name, required_argument, NULL, opt },
		{ "help", no_argument, NULL, 'h' },
		{ flagname, no_argument, NULL, flag },
		{ NULL, 0, NULL, 0 },
	};
	char shortopts[] = { opt, ':', 'h', flag, '\0' };
	int c;

	*file = NULL;
	if (set)
		*set = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (flag && c == flag) {
			++*set;
			continue;
		}
		if (c != opt) {
			usage(stderr);
			exit(2);
		}
		*file = optarg;
	}
	if (argc - optind != nargs) {
		usage(stderr);
		exit(2);
	}
	return optind;
}

int cli_parse(int argc, char **argv, char opt, const char *name,
	      const char **file, int nargs, void (*usage)(FILE *))
{
	return cli_parse_flag(argc, argv, opt, name, file, '\0', NULL, NULL,
			      nargs, usage);
}
