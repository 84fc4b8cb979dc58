// SPDX-License-Identifier: GPL-2.0
/* The first records of an image, read in place; a child with a chosen pid. */
#include "peek.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/checkpoint_hdr.h>

/* HEADER ARCH TASK, as they start every image. */
struct head_records {
	struct ckpt_hdr h1;
	struct ckpt_hdr_header header;
	struct ckpt_hdr h2;
	struct ckpt_hdr_arch arch;
	struct ckpt_hdr h3;
	struct ckpt_hdr_task task;
};

/* Copy the pipe's first @len bytes without consuming them. */
static ssize_t peek_pipe(int fd, void *buf, size_t len)
{
	ssize_t n;
	int p[2];

	if (pipe(p))
		return -errno;
	/* tee() copies what the pipe holds now: wait until it holds @len */
	while ((n = tee(fd, p[1], len, 0)) > 0 && (size_t)n < len) {
		if (read(p[0], buf, n) != n)	/* drop the partial copy */
			break;
		usleep(1000);
	}
	if (n < 0)
		n = -errno;
	else if ((size_t)n == len && read(p[0], buf, len) != n)
		n = -EIO;
	close(p[0]);
	close(p[1]);
	return n;
}

int cr_image_peek(int fd, struct cr_image_head *head)
{
	struct head_records r;
	ssize_t n;

	n = pread(fd, &r, sizeof(r), 0);
	if (n < 0 && errno == ESPIPE) {
		n = peek_pipe(fd, &r, sizeof(r));
		if (n == -EINVAL)	/* not a pipe */
			return -ESPIPE;
	} else if (n < 0) {
		n = -errno;
	}
	if (n < 0)
		return (int)n;
	if ((size_t)n < sizeof(r) || r.h1.type != CKPT_HDR_HEADER ||
	    memcmp(r.header.magic, CKPT_MAGIC, sizeof(r.header.magic)) ||
	    r.h3.type != CKPT_HDR_TASK || r.h3.len < sizeof(r.task))
		return -EINVAL;
	head->pid = r.task.pid;
	head->nr_tasks = r.header.nr_tasks;
	return 0;
}

pid_t cr_restart_pid(int fd)
{
	struct cr_image_head head;

	if (cr_image_peek(fd, &head) || head.nr_tasks < 2)
		return 0;
	return head.pid;
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
