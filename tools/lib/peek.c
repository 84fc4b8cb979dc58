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
	size_t got = 0;
	ssize_t n;
	int p[2];

	if (pipe(p))
		return -errno;
	/* tee() returns what is in the pipe now: wait for the writer */
	while (got < len) {
		n = tee(fd, p[1], len, 0);
		if (n <= 0) {
			got = n < 0 ? (size_t)-errno : got;
			break;
		}
		if ((size_t)n >= len) {
			got = len;
			break;
		}
		/* drain what was duplicated, and look again */
		if (read(p[0], buf, n) != n)
			break;
		usleep(1000);
	}
	n = (ssize_t)got;
	if (got == len && read(p[0], buf, len) != (ssize_t)len)
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

pid_t cr_fork_pid(pid_t pid)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uintptr_t)&pid;
	args.set_tid_size = 1;
	return syscall(SYS_clone3, &args, sizeof(args));
}
