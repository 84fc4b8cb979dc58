// SPDX-License-Identifier: GPL-2.0
/* The first records of an image, read in place; a child with a chosen pid. */
#include "peek.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/checkpoint_hdr.h>

/* HEADER ARCH and the TREE record's header, as they start every image. */
struct head_records {
	struct ckpt_hdr h1;
	struct ckpt_hdr_header header;
	struct ckpt_hdr h2;
	struct ckpt_hdr_arch arch;
	struct ckpt_hdr h3;
	struct ckpt_hdr_tree tree;
};

/* Copy the pipe's first @len bytes without consuming them. */
static ssize_t peek_pipe(int fd, void *buf, size_t len)
{
	ssize_t n;
	int p[2];

	/* tee() copies what the pipe holds: it must be able to hold @len */
	n = fcntl(fd, F_GETPIPE_SZ);
	if (n < 0)
		return -errno;
	if ((size_t)n < len && fcntl(fd, F_SETPIPE_SZ, len) < 0)
		return -E2BIG;
	if (pipe(p))
		return -errno;
	if (fcntl(p[1], F_SETPIPE_SZ, len) < 0 && len > 65536) {
		n = -E2BIG;
		goto out;
	}
	/* wait until it holds @len */
	while ((n = tee(fd, p[1], len, 0)) > 0 && (size_t)n < len) {
		if (read(p[0], buf, n) != n)	/* drop the partial copy */
			break;
		usleep(1000);
	}
	if (n < 0)
		n = -errno;
	else if ((size_t)n == len && read(p[0], buf, len) != n)
		n = -EIO;
out:
	close(p[0]);
	close(p[1]);
	return n;
}

/* The first @len bytes of the image on @fd, its offset left alone. */
static ssize_t peek(int fd, void *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len, 0);

	if (n < 0 && errno == ESPIPE) {
		n = peek_pipe(fd, buf, len);
		if (n == -EINVAL)	/* not a pipe */
			return -ESPIPE;
	} else if (n < 0) {
		n = -errno;
	}
	if (n >= 0 && (size_t)n < len)
		n = -EINVAL;
	return n;
}

int cr_image_peek(int fd, struct cr_image_head *head)
{
	size_t off = sizeof(struct head_records), len;
	struct head_records *r;
	ssize_t n;
	void *buf;

	r = malloc(off);
	if (!r)
		return -ENOMEM;
	n = peek(fd, r, off);
	if (n >= 0 && (r->h1.type != CKPT_HDR_HEADER ||
		       memcmp(r->header.magic, CKPT_MAGIC, sizeof(r->header.magic)) ||
		       r->header.version != CKPT_FORMAT_VERSION ||
		       r->h3.type != CKPT_HDR_TREE || !r->tree.nr_tasks ||
		       r->tree.nr_tasks > (1U << 22) ||
		       r->h3.len != sizeof(r->tree) +
				    r->tree.nr_tasks * sizeof(struct ckpt_tree_task)))
		n = -EINVAL;
	if (n < 0) {
		free(r);
		return (int)n;
	}
	len = off + r->tree.nr_tasks * sizeof(struct ckpt_tree_task);
	buf = realloc(r, len);
	if (!buf) {
		free(r);
		return -ENOMEM;
	}
	r = buf;
	n = peek(fd, r, len);
	if (n < 0) {
		free(r);
		return (int)n;
	}
	head->pid = r->tree.tasks[0].pid;
	head->nr_tasks = r->tree.nr_tasks;
	head->nr_procs = r->tree.nr_procs;
	head->tasks = malloc(r->tree.nr_tasks * sizeof(*head->tasks));
	if (!head->tasks) {
		free(r);
		return -ENOMEM;
	}
	memcpy(head->tasks, r->tree.tasks,
	       r->tree.nr_tasks * sizeof(*head->tasks));
	free(r);
	return 0;
}

void cr_image_head_free(struct cr_image_head *head)
{
	free(head->tasks);
	head->tasks = NULL;
}

pid_t cr_restart_pid(int fd)
{
	struct cr_image_head head;
	pid_t pid;

	if (cr_image_peek(fd, &head))
		return 0;
	pid = head.nr_tasks < 2 ? 0 : head.pid;
	cr_image_head_free(&head);
	return pid;
}

pid_t cr_fork_pid(pid_t pid)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uintptr_t)&pid;
	args.set_tid_size = 1;
	return syscall(SYS_clone3, &args, sizeof(args));
}
