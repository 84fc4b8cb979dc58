// SPDX-License-Identifier: GPL-2.0
/* rstr: restart the process saved in an image, through the control file. */
#include "cli.h"
#include "crctl.h"
#include "peek.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rstr [-i FILE]\n"
		"Restart the process saved in FILE (default: standard input).\n"
		"A single-threaded process: this process becomes it and resumes where\n"
		"it was checkpointed, with this process's pid.\n"
		"A multi-threaded process keeps its pid and its threads' ids: rstr\n"
		"creates a child with that pid (it must be free), the child becomes\n"
		"the process, and rstr waits for it and exits with its status (128+N\n"
		"if signal N killed it).\n"
		"On a failed restart nothing changes and rstr exits 1.\n"
		"Needs root and the engine on: echo 1 > %s/enable\n", CR_DEBUGFS);
}

static int fail(long ret)
{
	fprintf(stderr, "rstr: restart failed: %s (%s); %s\n", strerror(-ret),
		strerrorname_np(-ret), cr_hint(-ret));
	return 1;
}

/* A multi-threaded image: restarted in a child with the leader's pid. */
static int restart_child(int fd, pid_t as)
{
	pid_t pid;
	int st;

	pid = cr_fork_pid(as);
	if (pid < 0) {
		fprintf(stderr, "rstr: cannot create pid %d for the multi-threaded process: %s%s\n",
			as, strerror(errno), errno == EEXIST ? " (the pid is taken)" : "");
		return 1;
	}
	if (!pid)
		_exit(fail(cr_restart(0, fd, 0)));
	fprintf(stderr, "rstr: restarting pid %d (a multi-threaded process); waiting for it\n",
		as);
	close(fd);
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	const char *in;
	int fd = STDIN_FILENO;
	pid_t as;

	cli_parse(argc, argv, 'i', "input", &in, 0, usage);
	if (in) {
		fd = open(in, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "rstr: %s: %s\n", in, strerror(errno));
			return 1;
		}
	}
	as = cr_restart_pid(fd);
	if (as)
		return restart_child(fd, as);
	/* Only a failure comes back here. */
	return fail(cr_restart(0, fd, 0));
}
