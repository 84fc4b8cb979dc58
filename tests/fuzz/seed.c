// SPDX-License-Identifier: GPL-2.0
/*
 * seed DIR: write into DIR, for make fuzz's corpus, a synthetic image
 * (mkimage) holding a record of every kind the fixtures lack: a pipe with
 * bytes in flight, an eventfd, a signalfd, a timerfd, an epoll instance
 * with its items, flock(), OFD and POSIX locks, a datagram socketpair
 * with messages queued and options set, its first end owned for SIGIO by
 * the process (SIGUSR1, O_ASYNC) and the pipe's read end by its main
 * thread (FOWN records), unix sockets of no pair (a
 * stream one listening on a path, its file removed, a seqpacket one
 * listening on an abstract name, an unbound datagram one with options
 * set), TCP and UDP sockets (an IPv4 and an IPv6 one listening, a UDP
 * one bound, each with every option it has, its owner, the TCP ones
 * their congestion control, the IPv6 one TCP_MAXSEG), a FIFO with bytes
 * in flight open for reading, writing and both, a memfd with its name,
 * seals and pages, open and mapped shared and privately, a deleted file
 * (a GHOST with its pages and holes, linkable) open and mapped shared and
 * privately, a shared mapping of a regular file, and a SysV shared memory
 * segment (a SYSVSHM with its pages and a hole) the root attaches
 * read-write and maps in two VMAs, the other processes attach read-only
 * (a SHM_ATTACH each), and an inotify instance watching a directory and
 * a regular file (each an O_PATH FILE record); the process tree of a root,
 * a thread, two children and a zombie. Exit 0 once written.
 */
#include "mkimage.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

static const struct ckpt_tree_task tree[] = {
	{ .pid = 100, .tgid = 100, .ppid = 1, .pgid = 100, .sid = 100 },
	{ .pid = 101, .tgid = 100, .ppid = 1, .pgid = 100, .sid = 100 },
	{ .pid = 110, .tgid = 110, .ppid = 100, .pgid = 110, .sid = 100 },
	{ .pid = 130, .tgid = 130, .ppid = 100, .pgid = 100, .sid = 100,
	  .flags = CKPT_TREE_ZOMBIE, .exit_code = 7 << 8 },
	{ .pid = 120, .tgid = 120, .ppid = 110, .pgid = 110, .sid = 100 },
};

int main(int argc, char **argv)
{
	struct mk_spec s = {
		.tree = tree, .nr_tree = sizeof(tree) / sizeof(tree[0]),
		.pipe = true, .pipe_bytes = 100, .eventfd = true,
		.signalfd_mask = 1 << 9, .timerfd = true, .timerfd_clock = 1,
		.epoll = true, .locks = true,
		.unix_pair = true, .unix_type = SOCK_DGRAM, .fown_unix = true, .fown_pipe = true,
		.unix_end = {
			{ .f_flags = 04000, .shutdown = CKPT_UNIX_SHUT_WR, .peek_off = -1,
			  .rcvlowat = 1, .opts = CKPT_UNIX_SNDBUF | CKPT_UNIX_PASSCRED,
			  .sndbuf = 65536, .rcvtimeo = 1500000, .nr_msgs = 3, .bytes = 100 },
			{ .peek_off = 5, .rcvlowat = 1, .nr_msgs = 1, .bytes = 7 },
		},
		.unix_listen = true, .unix_unlinked = true, .unix_abstract = true,
		.unix_unbound = true,
		.tcp_listen = true, .tcp6_listen = true, .udp_bound = true,
		.fifo = true, .fifo_bytes = 10, .fifo_acc = { 0, 1, 2 }, .nr_fifo = 3,
		.memfd = true, .shared_file = true, .memfd_private = true,
		.ghost = true, .ghost_private = true, .ghost_linkable = true,
		.sysvshm_maps = 3, .sysvshm_reattach = true, .inotify = true,
	};
	unsigned char *buf;
	char path[4096];
	size_t len;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: seed DIR\n");
		return 2;
	}
	buf = mk_image(&s, &len);
	snprintf(path, sizeof(path), "%s/kinds.img", argv[1]);
	f = fopen(path, "wb");
	if (!buf || !f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		return 1;
	}
	free(buf);
	return 0;
}
