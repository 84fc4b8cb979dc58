// SPDX-License-Identifier: GPL-2.0
/* rstr: restart what an image holds, through the control file. */
#include "cli.h"
#include "crctl.h"
#include "mktree.h"
#include "peek.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rstr [-i FILE] [-n | --pidns | -N | --new-pids]\n"
		"Restart what FILE (default: standard input) holds.\n"
		"A single-threaded process: this process becomes it and resumes where\n"
		"it was checkpointed, with this process's pid and session.\n"
		"A multi-threaded process, or one that leads its session or process\n"
		"group (a daemon after setsid()), keeps its pid and its threads' ids:\n"
		"rstr creates a child with that pid (it must be free), the child makes\n"
		"its session or group again and becomes the process, and rstr waits\n"
		"for it and exits with its status (128+N if signal N killed it).\n"
		"A process tree (children, zombies): rstr creates every process with\n"
		"its saved pid (all must be free), session and process group, each\n"
		"becomes its saved process, the zombies exit again with their saved\n"
		"status; rstr waits for the root and exits with its status.\n"
		"-n, --pidns: restart in a new pid namespace, every process and thread\n"
		"with its saved pid there (the saved pids may be taken outside). Its\n"
		"init (pid 1) is a child of rstr that restarts the image, reaps orphans\n"
		"and exits with the root's status; /proc is not mounted anew. A saved\n"
		"pid 1 is refused.\n"
		"-N, --new-pids: restart a tree with whatever pids are free, in the\n"
		"same shape (parents, sessions, process groups), when its saved pids\n"
		"are taken. Only single-threaded processes: threads come back only\n"
		"with their saved ids, which libc keeps. What the processes' memory\n"
		"holds of pids (a pid file, a variable, a waitpid() it is blocked in)\n"
		"stays as saved. A lone process restarts in place (this process's\n"
		"pid) anyway, or, if it leads its session or group, as a tree of one.\n"
		"On a failed restart nothing is left running and rstr exits 1.\n"
		"Needs root and the engine on: echo 1 > %s/enable\n", CR_DEBUGFS);
}

static int fail(long ret)
{
	fprintf(stderr, "rstr: restart failed: %s (%s); %s\n", strerror(-ret),
		cr_errname(-ret), cr_hint(-ret));
	cr_print_refusal("rstr", "restart", (int)-ret);
	return 1;
}

/*
 * Wait for @pid, reaping any other child on the way (the orphans an init
 * gets); its status as a shell reports it.
 */
static int wait_for(pid_t pid)
{
	pid_t got;
	int st;

	do
		got = waitpid(-1, &st, 0);
	while (got != pid && (got > 0 || errno == EINTR));
	if (got != pid)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Restarted in a child with pid @as: a multi-threaded process's, a lone
 * process's that leads its session or group (a lone restart, as the
 * tree's coordinated one would check nothing more: the pid is the saved
 * one, the session or group made here), or any single process's with
 * --pidns.
 */
static int restart_child(int fd, pid_t as, const struct cr_image_head *head)
{
	pid_t pid;

	pid = cr_fork_pid(as);
	if (pid < 0) {
		fprintf(stderr, "rstr: cannot create pid %d for the process: %s%s\n",
			as, strerror(errno), errno == EEXIST ? " (the pid is taken)" : "");
		return 1;
	}
	if (!pid) {
		/* its session or group, if it led one (cr_lead_as_saved()) */
		if (cr_lead_as_saved(&head->tasks[0]))
			_exit(1);
		_exit(fail(cr_restart(0, fd, 0)));
	}
	fprintf(stderr, "rstr: restarting pid %d; waiting for it\n", as);
	close(fd);
	return wait_for(pid);
}

/* Whether the image holds more than the root's process (children, zombies). */
static int is_tree(const struct cr_image_head *head)
{
	unsigned int i;

	for (i = 0; i < head->nr_tasks; i++)
		if (head->tasks[i].tgid != head->pid)
			return 1;
	return 0;
}

/*
 * Whether the root leads its session or process group: made again only
 * by a process with its saved pid that calls setsid() or setpgid() (in
 * place, it would be left in this process's session).
 */
static int leads(const struct cr_image_head *head)
{
	return head->tasks[0].sid == head->pid || head->tasks[0].pgid == head->pid;
}

/* A process tree: made and restarted, the root waited for. */
static int restart_tree(int fd, const struct cr_image_head *head, bool new_pids)
{
	char why[256] = "";
	pid_t root;

	root = cr_restart_tree(fd, head, new_pids, why, sizeof(why));
	if (root < 0) {
		fprintf(stderr, "rstr: restart of the process tree failed (%s): %s\n",
			cr_errname((int)-root), why);
		cr_print_refusal("rstr", "restart", (int)-root);
		return 1;
	}
	fprintf(stderr, "rstr: restarted a tree of %u processes and threads%s, root pid %d; waiting for it\n",
		head->nr_tasks, new_pids ? " under new pids" : "", root);
	close(fd);
	return wait_for(root);
}

/*
 * --pidns: a new pid namespace whose init, a child, restarts the image
 * with every saved pid (a lone task too) and reaps; rstr waits for it.
 */
static int restart_pidns(int fd, const struct cr_image_head *head)
{
	pid_t init;

	if (head->pid == 1) {
		fprintf(stderr, "rstr: the image's root is pid 1: it cannot be restarted under the init of a new pid namespace\n");
		return 1;
	}
	if (unshare(CLONE_NEWPID)) {
		fprintf(stderr, "rstr: unshare(CLONE_NEWPID): %s\n", strerror(errno));
		return 1;
	}
	init = fork();
	if (init < 0) {
		fprintf(stderr, "rstr: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!init)
		_exit(is_tree(head) ? restart_tree(fd, head, false) :
		      restart_child(fd, head->pid, head));
	close(fd);
	return wait_for(init);
}

int main(int argc, char **argv)
{
	struct cr_image_head head;
	const char *in;
	int fd = STDIN_FILENO, pidns, new_pids;
	const struct cli_flag flags[] = {
		{ 'n', "pidns", &pidns }, { 'N', "new-pids", &new_pids },
	};

	cli_parse_flags(argc, argv, 'i', "input", &in, flags, 2, 0, usage);
	if (pidns && new_pids) {
		fprintf(stderr, "rstr: --pidns keeps the saved pids, --new-pids changes them: one or the other\n");
		return 2;
	}
	if (in) {
		fd = open(in, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "rstr: %s: %s\n", in, strerror(errno));
			return 1;
		}
	}
	if (cr_image_peek(fd, &head)) {
		if (pidns || new_pids) {
			fprintf(stderr, "rstr: %s: the image cannot be read ahead (not an image of this format, or a terminal or socket)\n",
				pidns ? "--pidns" : "--new-pids");
			return 1;
		}
		/* the kernel judges an image that cannot be read ahead alone */
		return fail(cr_restart(0, fd, 0));
	}
	if (pidns)
		return restart_pidns(fd, &head);
	if (is_tree(&head) || (leads(&head) && new_pids))
		return restart_tree(fd, &head, new_pids);
	/* a multi-threaded process keeps its pid: see cr_restart_pid() */
	if (head.nr_tasks > 1 && new_pids) {
		fprintf(stderr, "rstr: --new-pids: process %d has threads, which come back only with their saved ids: it restarts only under its saved pids (or --pidns)\n",
			head.pid);
		return 1;
	}
	if (head.nr_tasks > 1 || leads(&head))
		return restart_child(fd, head.pid, &head);
	fprintf(stderr, "rstr: restarting process %d in place, as pid %d (this process)\n",
		head.pid, getpid());
	cr_image_head_free(&head);
	/* Only a failure comes back here. */
	return fail(cr_restart(0, fd, 0));
}
