/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ckptinfo's reader of checkpoint images: it follows the record stream,
 * checks everything restart checks (and the structure around it), and
 * keeps what the printers show. The format is the kernel's uapi header
 * <linux/checkpoint_hdr.h>; docs/image-format.md describes it.
 */
#ifndef CKPTINFO_IMAGE_H
#define CKPTINFO_IMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/checkpoint_hdr.h>

struct ci_record {
	uint64_t pos;
	uint32_t type, objref;
	uint64_t len;
};

struct ci_file {
	uint32_t objref;
	struct ckpt_hdr_file f;
	char *path;
};

struct ci_vma {
	struct ckpt_hdr_vma v;
	uint64_t pages;		/* counted in its PAGES records */
};

/* A thread besides the leader: its own TASK, CPU and XSTATE. */
struct ci_thread {
	uint32_t objref;
	struct ckpt_hdr_task task;
	struct ckpt_hdr_cpu cpu;
	uint64_t xstate_features;	/* XSAVE header xfeatures */
};

struct ci_image {
	struct ckpt_hdr_header header;
	struct ckpt_hdr_arch arch;
	struct ckpt_hdr_task task;
	uint32_t task_objref;
	struct ckpt_hdr_signal signal;
	struct ckpt_hdr_creds creds;
	uint32_t *groups;		/* creds.nr_groups supplementary groups */
	struct ckpt_hdr_mm mm;
	struct ckpt_hdr_cpu cpu;
	uint64_t xstate_len, xstate_features;	/* XSAVE header xfeatures */
	struct ckpt_hdr_tail tail;
	struct ci_thread *threads;	/* header.nr_tasks - 1, image order */
	size_t nr_threads;

	struct ci_file *files;
	size_t nr_files;
	struct ckpt_hdr_fd *fds;
	size_t nr_fds;
	struct ci_vma *vmas;
	size_t nr_vmas;
	size_t nr_records;
	struct ci_record *records;	/* kept when asked for */
	size_t nr_kept;

	uint64_t pages;			/* in all PAGES records */
	uint64_t size;			/* bytes up to the end of the tail */
	uint64_t trailing;		/* bytes after the tail (ignored) */
	char error[320];		/* why the image is invalid */
};

/* Read and check the image on @f. 0: valid; -1: invalid, see img->error. */
int ci_read(FILE *f, struct ci_image *img, bool keep_records);
void ci_free(struct ci_image *img);

const char *ci_type_name(uint32_t type);
const char *ci_vma_kind(uint32_t kind);
/* What signal @sig (1-64) does in the image: SIG_DFL, SIG_IGN or a handler. */
enum ci_disposition { CI_SIG_DEFAULT, CI_SIG_IGNORED, CI_SIG_CAUGHT };
enum ci_disposition ci_signal_disposition(const struct ckpt_hdr_signal *s, int sig);
const struct ci_file *ci_file_by_ref(const struct ci_image *img, uint32_t objref);
/* "rwxp"-style protection of a VMA's vm_flags, into @buf (5 bytes). */
const char *ci_prot(uint64_t vm_flags, char buf[5]);

/* print.c, json.c */
void ci_print_summary(FILE *out, const struct ci_image *img, bool regs);
void ci_print_records(FILE *out, const struct ci_image *img);
void ci_print_json(FILE *out, const struct ci_image *img, bool regs, bool records);

#endif /* CKPTINFO_IMAGE_H */
