/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic checkpoint images for the host tests: a process tree written
 * as the kernel writes it (HEADER ARCH TREE, each live process's records,
 * TAIL), small enough to build by the dozen, and damaged on purpose by
 * giving the TREE record and the process records different tasks.
 */
#ifndef MKIMAGE_H
#define MKIMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <linux/checkpoint_hdr.h>

struct mk_spec {
	/* the TREE record's entries */
	const struct ckpt_tree_task *tree;
	size_t nr_tree;
	/* whose records follow (each live process of these, with its
	 * threads); NULL: the TREE record's */
	const struct ckpt_tree_task *recs;
	size_t nr_recs;
	/* the header's and the TREE record's counts; 0: what the entries say */
	uint32_t nr_tasks, nr_procs;
};

/*
 * The image of @s in a new buffer (free() it), its length in *@len. Each
 * live process: TASK SIGNAL CREDS, a FILE of its own (/tmp/out.PID) and
 * FDs 0 and 1 on the root's /dev/null (saved once, in the root's
 * records) and 3 on its own file, MM with one anonymous VMA of one page,
 * CPU XSTATE; each thread TASK CPU XSTATE; objrefs new in image order.
 */
unsigned char *mk_image(const struct mk_spec *s, size_t *len);

/* Write @len bytes of @buf into a new temporary file; its path (static). */
const char *mk_file(const unsigned char *buf, size_t len);

#endif /* MKIMAGE_H */
