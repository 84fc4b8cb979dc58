/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line handling shared by the tools. */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

/*
 * Parse "[-OPT FILE | --NAME FILE] [-h | --help]" and exactly @nargs
 * other arguments. Prints @usage and exits (0 for --help, 2 for a usage
 * error) when it must; otherwise returns the index of the first other
 * argument and sets *file (NULL when not given).
 */
int cli_parse(int argc, char **argv, char opt, const char *name,
	      const char **file, int nargs, void (*usage)(FILE *));

/* An option without argument, "-FLAG | --NAME", counted in *set. */
struct cli_flag {
	char flag;
	const char *name;
	int *set;
};

/* The same, with the @nflags options of @flags too. */
int cli_parse_flags(int argc, char **argv, char opt, const char *name,
		    const char **file, const struct cli_flag *flags,
		    int nflags, int nargs, void (*usage)(FILE *));

#endif /* CLI_H */
