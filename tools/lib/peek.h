/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a restarting tool needs to know of an image before it restarts it:
 * the TREE record (the root's pid, the processes and threads), read from
 * the first records without consuming them (pread() on a file, tee() on
 * a pipe).
 */
#ifndef PEEK_H
#define PEEK_H

#include <sys/types.h>

#include <linux/checkpoint_hdr.h>

struct cr_image_head {
	pid_t pid;			/* the root's, at checkpoint */
	unsigned int nr_tasks;		/* TREE entries: threads, zombies */
	unsigned int nr_procs;		/* live processes */
	struct ckpt_tree_task *tasks;	/* the TREE entries (malloc'd) */
};

/*
 * Fill @head from the image on @fd, leaving its offset alone. 0; -EINVAL
 * when the first records are not HEADER ARCH TREE of this format
 * version; -ESPIPE when @fd can be neither pread() nor tee()'d (a
 * terminal, a socket); -E2BIG when a pipe cannot hold the TREE record;
 * -errno. cr_image_head_free() frees what it allocated.
 */
int cr_image_peek(int fd, struct cr_image_head *head);
void cr_image_head_free(struct cr_image_head *head);

/*
 * The pid a restart of the image on @fd must run in: the leader's for a
 * multi-threaded process (its threads keep their ids, libc caches the
 * leader's), 0 for any (a single task, or an image that cannot be read
 * ahead: the kernel judges it alone).
 */
pid_t cr_restart_pid(int fd);

/* fork() a child whose pid is @pid (clone3()'s set_tid); as fork(). */
pid_t cr_fork_pid(pid_t pid);

#endif /* PEEK_H */
