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

/* The same, with one more option "-FLAG | --FLAGNAME" counted in *@set. */
int cli_parse_flag(int argc, char **argv, char opt, const char *name,
		   const char **file, char flag, const char *flagname,
		   int *set, int nargs, void (*usage)(FILE *));

#endif /* CLI_H */
