// SPDX-License-Identifier: GPL-2.0
/* ckptinfo's human-readable output: the summary and --records. */
#include "image.h"

#include <inttypes.h>
#include <time.h>

static void print_regs(FILE *out, const struct ckpt_hdr_cpu *c)
{
	fprintf(out, "    rip %016" PRIx64 "  rsp %016" PRIx64 "  rflags %08" PRIx64 "\n",
		(uint64_t)c->ip, (uint64_t)c->sp, (uint64_t)c->flags);
	fprintf(out, "    rax %016" PRIx64 "  rbx %016" PRIx64 "  rcx %016" PRIx64 "\n",
		(uint64_t)c->ax, (uint64_t)c->bx, (uint64_t)c->cx);
	fprintf(out, "    rdx %016" PRIx64 "  rsi %016" PRIx64 "  rdi %016" PRIx64 "\n",
		(uint64_t)c->dx, (uint64_t)c->si, (uint64_t)c->di);
	fprintf(out, "    rbp %016" PRIx64 "  r8  %016" PRIx64 "  r9  %016" PRIx64 "\n",
		(uint64_t)c->bp, (uint64_t)c->r8, (uint64_t)c->r9);
	fprintf(out, "    r10 %016" PRIx64 "  r11 %016" PRIx64 "  r12 %016" PRIx64 "\n",
		(uint64_t)c->r10, (uint64_t)c->r11, (uint64_t)c->r12);
	fprintf(out, "    r13 %016" PRIx64 "  r14 %016" PRIx64 "  r15 %016" PRIx64 "\n",
		(uint64_t)c->r13, (uint64_t)c->r14, (uint64_t)c->r15);
	fprintf(out, "    cs %" PRIx64 " ss %" PRIx64 " ds %" PRIx64 " es %" PRIx64
		" fs %" PRIx64 " gs %" PRIx64 "  fs_base %" PRIx64 " gs_base %" PRIx64 "\n",
		(uint64_t)c->cs, (uint64_t)c->ss, (uint64_t)c->ds, (uint64_t)c->es,
		(uint64_t)c->fs, (uint64_t)c->gs, (uint64_t)c->fs_base,
		(uint64_t)c->gs_base);
}

/* The descriptors that share @fd's open file, as "shared with 1, 2". */
static void print_shared(FILE *out, const struct ci_image *img, size_t i)
{
	const char *sep = "  shared with ";
	size_t j;

	for (j = 0; j < img->nr_fds; j++)
		if (j != i && img->fds[j].file_objref == img->fds[i].file_objref) {
			fprintf(out, "%s%u", sep, img->fds[j].fd);
			sep = ", ";
		}
}

/* "creds: uid 1000 (all four), gid 1000 (all four), groups 1000 24, caps ..." */
static void print_creds(FILE *out, const struct ci_image *img)
{
	const struct ckpt_hdr_creds *c = &img->creds;
	uint32_t i;

	fprintf(out, "creds: uid %u euid %u suid %u fsuid %u, gid %u egid %u sgid %u fsgid %u\n",
		c->uid, c->euid, c->suid, c->fsuid, c->gid, c->egid, c->sgid, c->fsgid);
	fputs("  groups", out);
	for (i = 0; i < c->nr_groups; i++)
		fprintf(out, " %u", img->groups[i]);
	fprintf(out, "%s\n  caps effective %#" PRIx64 " permitted %#" PRIx64
		" inheritable %#" PRIx64 " ambient %#" PRIx64 " bounding %#" PRIx64
		", securebits %#x%s\n", c->nr_groups ? "" : " none",
		(uint64_t)c->cap_effective, (uint64_t)c->cap_permitted,
		(uint64_t)c->cap_inheritable, (uint64_t)c->cap_ambient,
		(uint64_t)c->cap_bset, c->securebits,
		c->flags & CKPT_CREDS_NO_NEW_PRIVS ? ", no_new_privs" : "");
}

/* "signals: caught 10 12, ignored 13, blocked 0x1, altstack 0x...+8192" */
static void print_signals(FILE *out, const struct ckpt_hdr_signal *s,
			  const struct ckpt_hdr_task *t)
{
	static const enum ci_disposition kinds[] = { CI_SIG_CAUGHT, CI_SIG_IGNORED };
	const char *sep;
	int i, kind;

	fputs("signals:", out);
	for (kind = 0; kind < 2; kind++) {
		sep = kind ? ", ignored" : " caught";
		for (i = 1; i <= CKPT_NSIG; i++) {
			if (ci_signal_disposition(s, i) != kinds[kind])
				continue;
			fprintf(out, "%s %d", sep, i);
			sep = "";
		}
		if (*sep)
			fprintf(out, "%s none", sep);
	}
	fprintf(out, ", blocked %#" PRIx64, (uint64_t)t->blocked);
	if (t->sas_ss_size)
		fprintf(out, ", altstack %#" PRIx64 "+%" PRIu64 "\n",
			(uint64_t)t->sas_ss_sp, (uint64_t)t->sas_ss_size);
	else
		fputs(", no altstack\n", out);
}

/* "  thread 1235 "worker": blocked 0x0, altstack 0x...+8192, fs_base 0x..." */
static void print_threads(FILE *out, const struct ci_image *img, bool regs)
{
	size_t i;

	fprintf(out, "threads: %zu besides the leader\n", img->nr_threads);
	for (i = 0; i < img->nr_threads; i++) {
		const struct ci_thread *th = &img->threads[i];

		fprintf(out, "  thread %d \"%s\": blocked %#" PRIx64, th->task.pid,
			th->task.comm, (uint64_t)th->task.blocked);
		if (th->task.sas_ss_size)
			fprintf(out, ", altstack %#" PRIx64 "+%" PRIu64,
				(uint64_t)th->task.sas_ss_sp,
				(uint64_t)th->task.sas_ss_size);
		fprintf(out, ", fs_base %#" PRIx64 ", ip %#" PRIx64 "\n",
			(uint64_t)th->cpu.fs_base, (uint64_t)th->cpu.ip);
		if (regs)
			print_regs(out, &th->cpu);
	}
}

void ci_print_summary(FILE *out, const struct ci_image *img, bool regs)
{
	const struct ckpt_hdr_header *h = &img->header;
	const struct ckpt_hdr_mm *m = &img->mm;
	time_t t = h->time;
	char when[64], prot[5];
	struct tm *tm;
	size_t i;

	tm = gmtime(&t);	/* NULL for a time no calendar holds */
	if (!tm || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", tm))
		snprintf(when, sizeof(when), "time %" PRIu64, (uint64_t)h->time);
	fprintf(out, "image: format %u, crid %d, %s\n", h->version, h->crid, when);
	fprintf(out, "kernel: %s %s %s\n", h->release, h->version_str, h->machine);
	fprintf(out, "arch: xstate features %#" PRIx64 ", %u bytes (in use %#" PRIx64 ")\n",
		(uint64_t)img->arch.xfeatures, img->arch.xstate_size,
		img->xstate_features);
	fprintf(out, "task: pid %d, comm \"%s\"%s\n", img->task.pid, img->task.comm,
		img->task.flags & CKPT_TASK_SELF ? ", checkpointed itself" : "");
	print_signals(out, &img->signal, &img->task);
	print_creds(out, img);
	if (regs)
		print_regs(out, &img->cpu);
	if (img->nr_threads)
		print_threads(out, img, regs);

	fprintf(out, "memory: %zu VMAs, %" PRIu64 " pages; code %#" PRIx64 "-%#" PRIx64
		", brk %#" PRIx64 "-%#" PRIx64 ", stack %#" PRIx64 "\n",
		img->nr_vmas, img->pages, (uint64_t)m->start_code,
		(uint64_t)m->end_code, (uint64_t)m->start_brk, (uint64_t)m->brk,
		(uint64_t)m->start_stack);
	if (m->exe_objref)
		fprintf(out, "  executable %s\n", ci_file_by_ref(img, m->exe_objref)->path);
	for (i = 0; i < img->nr_vmas; i++) {
		const struct ckpt_hdr_vma *v = &img->vmas[i].v;
		const struct ci_file *f = ci_file_by_ref(img, v->file_objref);

		fprintf(out, "  %012" PRIx64 "-%012" PRIx64 " %s %-4s %6" PRIu64 " pages",
			(uint64_t)v->start, (uint64_t)v->end,
			ci_prot(v->vm_flags, prot), ci_vma_kind(v->kind),
			(uint64_t)v->nr_pages);
		if (f)
			fprintf(out, "  %s @%#" PRIx64, f->path, (uint64_t)v->pgoff * 4096);
		fputc('\n', out);
	}

	fprintf(out, "files: %zu open files, %zu descriptors\n", img->nr_files, img->nr_fds);
	for (i = 0; i < img->nr_fds; i++) {
		const struct ci_file *f = ci_file_by_ref(img, img->fds[i].file_objref);

		fprintf(out, "  fd %-3u %s  flags %#o  pos %" PRId64 "%s", img->fds[i].fd,
			f->path, f->f.f_flags, (int64_t)f->f.f_pos,
			img->fds[i].flags & CKPT_FD_CLOEXEC ? "  cloexec" : "");
		print_shared(out, img, i);
		fputc('\n', out);
	}
	fprintf(out, "total: %zu records, %" PRIu64 " pages, %" PRIu64 " bytes\n",
		img->nr_records, img->pages, img->size);
	fprintf(out, "tail: ok at offset %" PRIu64 "\n", (uint64_t)img->tail.pos);
	if (img->trailing)
		fprintf(out, "note: %" PRIu64 " bytes after the tail (restart ignores them)\n",
			img->trailing);
}

/* The fields the record trace events print, one record a line. */
void ci_print_records(FILE *out, const struct ci_image *img)
{
	size_t i;

	for (i = 0; i < img->nr_kept; i++)
		fprintf(out, "pos=%" PRIu64 " type=%s(%u) len=%" PRIu64 " objref=%u\n",
			img->records[i].pos, ci_type_name(img->records[i].type),
			img->records[i].type, img->records[i].len,
			img->records[i].objref);
}
