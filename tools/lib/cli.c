// SPDX-License-Identifier: GPL-2.0
/* Command-line handling shared by the tools: see cli.h. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>

#define CLI_MAX_FLAGS 4

int cli_parse_flags(int argc, char **argv, char opt, const char *name,
		    const char **file, const struct cli_flag *flags,
		    int nflags, int nargs, void (*usage)(FILE *))
{
	struct option opts[CLI_MAX_FLAGS + 3] = {
		{ name, required_argument, NULL, opt },
		{ "help", no_argument, NULL, 'h' },
	};
	char shortopts[CLI_MAX_FLAGS + 4] = { opt, ':', 'h' };
	int c, i;

	if (nflags > CLI_MAX_FLAGS)
		abort();
	for (i = 0; i < nflags; i++) {
		opts[2 + i] = (struct option){ flags[i].name, no_argument, NULL,
					       flags[i].flag };
		shortopts[3 + i] = flags[i].flag;
		*flags[i].set = 0;
	}
	*file = NULL;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		for (i = 0; i < nflags && c != flags[i].flag; i++)
			;
		if (i < nflags) {
			++*flags[i].set;
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
	return cli_parse_flags(argc, argv, opt, name, file, NULL, 0, nargs,
			       usage);
}
