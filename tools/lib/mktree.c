// SPDX-License-Identifier: GPL-2.0
/*
 * mktree: create the saved process tree and restart it, coordinated.
 *
 * Phase 1: each process, created by its parent with its saved pid (or,
 * new pids, any), notes its pid in the shared map, makes its session
 * (setsid()) or its own process group, creates its children and reports
 * on the "ready" pipe ('R', or 'E' after printing why).
 * Phase 2, once the coordinator has heard from every process: each joins
 * a group led by another process of the tree (its pid now from the map),
 * then a zombie exits with its saved status and a live process joins the
 * restart. The coordinator waits for the zombies to be zombies, then
 * coordinates the restart.
 */
#include "mktree.h"
#include "crctl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MKTREE_TIMEOUT_MS	30000

struct mktree {
	int fd;				/* the image */
	const struct cr_image_head *head;
	bool new_pids;
	pid_t *now;			/* each TREE entry's pid now (shared) */
	int ready[2], go[2];
};

static int is_process(const struct ckpt_tree_task *e)
{
	return e->pid == e->tgid;
}

/* The pid now of process @nr of the tree (its saved pid), or 0. */
static pid_t pid_now(const struct mktree *m, pid_t nr)
{
	unsigned int i;

	for (i = 0; i < m->head->nr_tasks; i++)
		if (m->head->tasks[i].pid == nr && is_process(&m->head->tasks[i]))
			return m->now[i];
	return 0;
}

/* A child with saved pid @nr: that pid, or (new pids) any. */
static pid_t fork_as(const struct mktree *m, pid_t nr)
{
	return m->new_pids ? fork() : cr_fork_pid(nr);
}

/* A zombie: end as the saved one did, without a core dump. */
static void __attribute__((noreturn)) die_as(int status)
{
	sigset_t set;
	int sig;

	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	prctl(PR_SET_DUMPABLE, 0);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	_exit(127);
}

int cr_lead_as_saved(const struct ckpt_tree_task *e)
{
	if (e->sid == e->pid) {
		if (setsid() < 0) {
			fprintf(stderr, "rstr: process %d: setsid: %m\n", e->pid);
			return -1;
		}
	} else if (e->pgid == e->pid && setpgid(0, 0) < 0) {
		fprintf(stderr, "rstr: process %d: setpgid: %m\n", e->pid);
		return -1;
	}
	return 0;
}

/* In the new process of entry @i; never returns. */
static void __attribute__((noreturn)) make_process(struct mktree *m,
						    unsigned int i)
{
	const struct cr_image_head *head = m->head;
	const struct ckpt_tree_task *e = &head->tasks[i];
	char c = 'R';
	unsigned int j;
	sigset_t set;
	long ret;

	/*
	 * Signals wait until the process is restored (its saved mask comes
	 * back then); SIGCHLD, ignored, is never queued: a zombie child's
	 * exit leaves nothing behind.
	 */
	signal(SIGCHLD, SIG_DFL);	/* the caller's handler is not ours */
	sigfillset(&set);
	sigdelset(&set, SIGCHLD);
	sigprocmask(SIG_SETMASK, &set, NULL);
	close(m->ready[0]);
	close(m->go[1]);
	m->now[i] = getpid();

	if (cr_lead_as_saved(e))
		c = 'E';
	for (j = i + 1; j < head->nr_tasks && c == 'R'; j++) {
		const struct ckpt_tree_task *f = &head->tasks[j];
		pid_t pid;

		if (!is_process(f) || f->ppid != e->pid)
			continue;
		pid = fork_as(m, f->pid);
		if (!pid)
			make_process(m, j);
		if (pid < 0) {
			fprintf(stderr, "rstr: process %d: cannot create child %d: %m%s\n",
				e->pid, f->pid,
				errno == EEXIST ? " (the pid is taken)" : "");
			c = 'E';
		}
	}
	if (write(m->ready[1], &c, 1) != 1 || c != 'R')
		_exit(1);
	close(m->ready[1]);
	if (read(m->go[0], &c, 1) != 1 || c != 'G')
		_exit(1);
	close(m->go[0]);

	/* a group led by another process of the tree, now that all exist */
	if (e->pgid != e->pid && pid_now(m, e->pgid) &&
	    setpgid(0, pid_now(m, e->pgid)) < 0)
		fprintf(stderr, "rstr: process %d: setpgid %d: %m\n", e->pid,
			e->pgid);
	if (e->flags & CKPT_TREE_ZOMBIE)
		die_as(e->exit_code);
	ret = cr_restart(m->new_pids ? e->pid : 0, m->fd, RESTART_JOIN);
	fprintf(stderr, "rstr: process %d: restart failed: %s (%s)\n", e->pid,
		strerror((int)-ret), cr_errname((int)-ret));
	_exit(1);
}

/* Read one byte per process from the ready pipe: 0, or -errno. */
static int wait_ready(struct mktree *m, unsigned int n, char *why,
		      size_t whylen)
{
	struct pollfd p = { .fd = m->ready[0], .events = POLLIN };
	unsigned int got = 0;
	char buf[256];

	while (got < n) {
		ssize_t r;
		int k = poll(&p, 1, MKTREE_TIMEOUT_MS);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			snprintf(why, whylen, "%u of %u processes made after %d s",
				 got, n, MKTREE_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		r = read(m->ready[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || memchr(buf, 'E', r)) {
			snprintf(why, whylen, "a process of the tree could not be made (see above)");
			return -EBUSY;
		}
		got += r;
	}
	return 0;
}

/* Each zombie must have exited before the restart checks it. */
static int wait_zombies(const struct mktree *m, char *why, size_t whylen)
{
	const struct cr_image_head *head = m->head;
	struct timespec nap = { 0, 2000000 };
	unsigned int i, tries;

	for (i = 0; i < head->nr_tasks; i++) {
		const struct ckpt_tree_task *e = &head->tasks[i];
		char path[64], buf[512], *s = NULL;

		if (!(e->flags & CKPT_TREE_ZOMBIE))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", m->now[i]);
		for (tries = 0; tries < MKTREE_TIMEOUT_MS / 2; tries++) {
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

			if (fd >= 0)
				close(fd);
			buf[n > 0 ? n : 0] = '\0';
			s = strrchr(buf, ')');
			if (s && s[1] == ' ' && s[2] == 'Z')
				break;
			nanosleep(&nap, NULL);
		}
		if (!s || s[2] != 'Z') {
			snprintf(why, whylen, "zombie %d did not exit", e->pid);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

pid_t cr_restart_tree(int fd, const struct cr_image_head *head, bool new_pids,
		      char *why, size_t whylen)
{
	struct mktree m = { .fd = fd, .head = head, .new_pids = new_pids };
	size_t maplen = head->nr_tasks * sizeof(*m.now);
	unsigned int i, n = 0;
	char *go = NULL;
	pid_t root;
	long ret;

	for (i = 0; i < head->nr_tasks; i++)
		n += is_process(&head->tasks[i]);
	/* replaced by each restored process's own memory: only mktree's */
	m.now = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m.now == MAP_FAILED)
		return -errno;
	if (pipe2(m.ready, O_CLOEXEC)) {
		ret = -errno;
		munmap(m.now, maplen);
		return ret;
	}
	if (pipe2(m.go, O_CLOEXEC)) {
		ret = -errno;
		close(m.ready[0]);
		close(m.ready[1]);
		munmap(m.now, maplen);
		return ret;
	}
	root = fork_as(&m, head->tasks[0].pid);
	if (!root)
		make_process(&m, 0);
	close(m.ready[1]);
	close(m.go[0]);
	if (root < 0) {
		/* clone3() says EEXIST for a taken pid: EBUSY, as the kernel's */
		ret = errno == EEXIST ? -EBUSY : -errno;
		snprintf(why, whylen, "cannot create the root, pid %d%s",
			 head->tasks[0].pid,
			 errno == EEXIST ? ": the pid is taken" : "");
		goto out;
	}
	ret = wait_ready(&m, n, why, whylen);
	if (ret)
		goto out;
	go = malloc(n);
	if (!go) {
		ret = -ENOMEM;
		goto out;
	}
	memset(go, 'G', n);
	if (write(m.go[1], go, n) != (ssize_t)n) {
		ret = -errno;
		snprintf(why, whylen, "cannot release the processes: %m");
		goto out;
	}
	close(m.go[1]);
	m.go[1] = -1;
	ret = wait_zombies(&m, why, whylen);
	if (ret)
		goto out;
	ret = cr_restart(0, fd, RESTART_COORDINATE |
			 (new_pids ? RESTART_NEW_PIDS : 0));
	if (ret < 0)
		snprintf(why, whylen, "the restart failed: %s (%s); %s",
			 strerror((int)-ret), cr_errname((int)-ret),
			 cr_hint((int)-ret));
out:
	free(go);
	if (m.go[1] >= 0)
		close(m.go[1]);	/* without 'G': every process exits */
	close(m.ready[0]);
	munmap(m.now, maplen);
	if (ret < 0 && root > 0)
		kill(root, SIGKILL);
	return ret < 0 ? (pid_t)ret : root;
}
