/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mktree: restart the process tree of an image, the original series'
 * coordinated restart. The caller coordinates (RESTART_COORDINATE); it
 * creates every process of the tree with its saved pid (clone3()'s
 * set_tid), session and process group, and every zombie as a child that
 * exits with the saved status; each live process then joins the restart
 * (RESTART_JOIN) with the same open image and becomes its saved process.
 * With new pids, the processes are created with whatever pids fork()
 * gives, in the same shape (parents, sessions, groups), and each joins
 * as its saved pid (RESTART_NEW_PIDS).
 */
#ifndef MKTREE_H
#define MKTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "peek.h"

/*
 * Restart the tree of the image on @fd, whose TREE record is in @head,
 * under its saved pids or (@new_pids) new ones. Returns the root's pid (a
 * child of the caller, running the restored program) on success. On
 * failure returns -errno and says why in @why: every process it made has
 * exited or is exiting (the caller reaps the root with waitpid()).
 */
pid_t cr_restart_tree(int fd, const struct cr_image_head *head, bool new_pids,
		      char *why, size_t whylen);

/*
 * In a process created with the saved pid of TREE entry @e: make the
 * session (setsid()) or process group (setpgid()) it led, if any. 0, or
 * -1 after saying why on stderr.
 */
int cr_lead_as_saved(const struct ckpt_tree_task *e);

#endif /* MKTREE_H */
