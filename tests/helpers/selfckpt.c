// SPDX-License-Identifier: GPL-2.0
/*
 * selfckpt IMG OUT syscall|ctl: build some state (heap, stack, FPU),
 * checkpoint itself into IMG with the checkpoint system call or a write
 * to the control file, and record which side of the checkpoint it is on
 * in OUT: "original <crid or bytes>" (exit 10), or, once restarted,
 * "restarted <state check>" (exit 0 when the state is intact).
 */
#include "crctl.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void note(const char *out, const char *msg)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		if (write(fd, msg, strlen(msg)) < 0)
			_exit(5);
		close(fd);
	}
}

int main(int argc, char **argv)
{
	enum { N = 1 << 18 };
	double acc = 0, check = 0;
	unsigned int *heap;
	char msg[128], req[64];
	long ret;
	int fd, ctl = -1, i, len;

	if (argc != 4)
		return 2;
	heap = malloc(N * sizeof(*heap));
	if (!heap)
		return 2;
	for (i = 0; i < N; i++)
		heap[i] = i * 2654435761u;
	for (i = 1; i < 1000; i++)
		acc += sin(i) / i;

	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return 2;
	if (!strcmp(argv[3], "syscall")) {
		ret = cr_sys_checkpoint(getpid(), fd, 0);
	} else {
		ctl = open(cr_path("checkpoint"), O_RDWR);
		if (ctl < 0)
			return 2;
		len = cr_format_request(req, sizeof(req), getpid(), fd, 0);
		ret = write(ctl, req, len);
		if (ret < 0)
			ret = -errno;
	}
	if (ret < 0) {
		snprintf(msg, sizeof(msg), "error %ld\n", -ret);
		note(argv[2], msg);
		return 3;
	}
	if (ret > 0) {
		snprintf(msg, sizeof(msg), "original %ld\n", ret);
		note(argv[2], msg);
		return 10;
	}

	/* Restarted: everything must be as it was. */
	for (i = 1; i < 1000; i++)
		check += sin(i) / i;
	for (i = 0; i < N; i++)
		if (heap[i] != i * 2654435761u)
			break;
	snprintf(msg, sizeof(msg), "restarted heap=%s fpu=%s ctlfd=%s\n",
		 i == N ? "ok" : "bad", check == acc ? "ok" : "bad",
		 ctl < 0 ? "none" : fcntl(ctl, F_GETFD) < 0 ? "closed" : "open");
	note(argv[2], msg);
	return i == N && check == acc ? 0 : 4;
}
