// SPDX-License-Identifier: GPL-2.0
/*
 * The TREE record's entries: every process of the tree, the root first
 * and a parent before its children, each followed by its other threads;
 * a zombie as its wait() status only. Checked with the rules restart
 * applies (the kernel's tree_check()), and found by pid through an
 * open-addressing index.
 */
#include "image.h"

#include <stdarg.h>
#include <stdlib.h>

static size_t slot(int32_t pid, size_t mask)
{
	return ((uint32_t)pid * 2654435761U) & mask;
}

size_t ci_tree_find(const struct ci_image *img, int32_t pid)
{
	size_t i;

	if (!img->tree_index)
		return CI_NONE;
	for (i = slot(pid, img->tree_mask); img->tree_index[i];
	     i = (i + 1) & img->tree_mask)
		if (img->tree[img->tree_index[i] - 1].pid == pid)
			return img->tree_index[i] - 1;
	return CI_NONE;
}

/* Entry @n into the index; false if its pid is there already. */
static bool index_add(struct ci_image *img, size_t n)
{
	int32_t pid = img->tree[n].pid;
	size_t i;

	for (i = slot(pid, img->tree_mask); img->tree_index[i];
	     i = (i + 1) & img->tree_mask)
		if (img->tree[img->tree_index[i] - 1].pid == pid)
			return false;
	img->tree_index[i] = n + 1;
	return true;
}

bool ci_exit_code_valid(int32_t code)
{
	/* SIGCHLD SIGCONT SIGURG SIGWINCH (ignored), SIGSTOP SIGTSTP SIGTTIN SIGTTOU */
	const uint32_t not_fatal = 1U << 17 | 1U << 18 | 1U << 23 | 1U << 28 |
				   1U << 19 | 1U << 20 | 1U << 21 | 1U << 22;
	uint32_t c = code, sig = c & 0x7f;

	if (!(c & ~0xff00U))
		return true;		/* exit() */
	if (c & ~0x7fU || !sig || sig > 64)
		return false;		/* a core dump, a stop, no signal */
	return sig >= 32 || !(not_fatal & 1U << sig);
}

static int why_not(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* One entry, in order: ids, its place, its parent, its session. */
static int check_entry(struct ci_image *img, size_t i,
		       const struct ckpt_tree_task **leader, uint32_t *nr_procs,
		       char *why, size_t len)
{
	const struct ckpt_tree_task *e = &img->tree[i], *l = *leader, *p;
	size_t pe;

	if (e->pid <= 0 || e->tgid <= 0)
		return why_not(why, len, "entry %zu: pid %d, tgid %d", i, e->pid, e->tgid);
	if (e->flags & ~CKPT_TREE_ZOMBIE)
		return why_not(why, len, "entry %zu (pid %d): unknown flags %#x",
			       i, e->pid, e->flags);
	if (e->__reserved)
		return why_not(why, len, "entry %zu (pid %d): reserved field %#x, not 0",
			       i, e->pid, e->__reserved);
	if (!index_add(img, i))
		return why_not(why, len, "entry %zu: pid %d twice", i, e->pid);
	if (e->tgid != e->pid) {
		if (!i)
			return why_not(why, len, "entry 0: the root %d is a thread of %d",
				       e->pid, e->tgid);
		if (!l || e->tgid != l->pid)
			return why_not(why, len, "entry %zu: thread %d is not right after its process %d and its other threads",
				       i, e->pid, e->tgid);
		if (e->flags || e->exit_code)
			return why_not(why, len, "entry %zu: thread %d has flags %#x or an exit code %#x",
				       i, e->pid, e->flags, e->exit_code);
		if (e->ppid != l->ppid || e->pgid != l->pgid || e->sid != l->sid)
			return why_not(why, len, "entry %zu: thread %d has another parent, group or session than its leader %d",
				       i, e->pid, l->pid);
		return 0;
	}
	*leader = e;
	if (ci_entry_zombie(e)) {
		if (!i)
			return why_not(why, len, "entry 0: the root %d is a zombie", e->pid);
		if (!ci_exit_code_valid(e->exit_code))
			return why_not(why, len, "entry %zu: zombie %d has status %#x, no exit() or fatal signal without a core dump",
				       i, e->pid, e->exit_code);
		*leader = NULL;		/* no threads */
	} else if (e->exit_code) {
		return why_not(why, len, "entry %zu: live process %d has an exit code %#x",
			       i, e->pid, e->exit_code);
	} else {
		(*nr_procs)++;
	}
	if (!i)
		return 0;		/* the root's parent is outside */
	pe = ci_tree_find(img, e->ppid);
	p = pe == CI_NONE ? NULL : &img->tree[pe];
	if (!p || pe == i)
		return why_not(why, len, "entry %zu: the parent %d of process %d is not listed before it",
			       i, e->ppid, e->pid);
	if (p->tgid != p->pid || ci_entry_zombie(p))
		return why_not(why, len, "entry %zu: the parent %d of process %d is a %s",
			       i, e->ppid, e->pid, ci_entry_zombie(p) ? "zombie" : "thread");
	if (e->sid != e->pid && e->sid != p->sid)
		return why_not(why, len, "entry %zu: the session %d of process %d is neither its own nor its parent's",
			       i, e->sid, e->pid);
	return 0;
}

int ci_tree_check(struct ci_image *img, char *why, size_t len)
{
	const struct ckpt_tree_task *root = &img->tree[0], *leader = NULL, *g;
	uint32_t nr_procs = 0;
	size_t i, size = 2, ge;

	while (size < 2 * img->nr_tree)
		size *= 2;
	free(img->tree_index);
	img->tree_index = calloc(size, sizeof(*img->tree_index));
	img->tree_mask = size - 1;
	if (!img->tree_index)
		return why_not(why, len, "out of memory");
	for (i = 0; i < img->nr_tree; i++)
		if (check_entry(img, i, &leader, &nr_procs, why, len))
			return -1;
	if (nr_procs != img->tree_procs)
		return why_not(why, len, "%u live processes, but its entries have %u",
			       img->tree_procs, nr_procs);
	/* A group is the root's, the process's own, or led in its session. */
	for (i = 1; i < img->nr_tree; i++) {
		const struct ckpt_tree_task *e = &img->tree[i];

		if (e->tgid != e->pid || e->pgid == e->pid ||
		    (e->pgid == root->pgid && e->sid == root->sid))
			continue;
		ge = ci_tree_find(img, e->pgid);
		g = ge == CI_NONE ? NULL : &img->tree[ge];
		if (!g || g->tgid != g->pid || g->pgid != g->pid || g->sid != e->sid)
			return why_not(why, len, "entry %zu: the process group %d of process %d is not led by a process of the tree in its session",
				       i, e->pgid, e->pid);
	}
	return 0;
}
