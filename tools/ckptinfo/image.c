// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and checking a checkpoint image, record by record, from a file
 * or a pipe. Nothing in the image is trusted: every length is checked
 * before it is used, and nothing is allocated from it unbounded.
 */
#include "image.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_SIZE	4096ULL
#define MAX_META	(64 * 1024)	/* largest non-page payload read */
#define MAX_PATH	4096
#define MAX_FDS		(1 << 20)
#define MAX_FILES	(1 << 20)
#define MAX_VMAS	(1 << 20)
#define MAX_TASKS	(1 << 22)	/* PID_MAX_LIMIT */
#define MAX_RECORDS	(1 << 24)
#define MAX_PAGES_LEN	(16 + 512 * 8 + PAGE_SIZE + 512 * PAGE_SIZE)

struct reader {
	FILE *f;
	struct ci_image *img;
	uint64_t pos;			/* stream offset of the next byte */
	struct ci_record rec;		/* the record being read */
	bool keep;
};

static const char *const names[] = {
	[CKPT_HDR_HEADER] = "HEADER", [CKPT_HDR_ARCH] = "ARCH",
	[CKPT_HDR_TAIL] = "TAIL", [CKPT_HDR_TASK] = "TASK",
	[CKPT_HDR_CPU] = "CPU", [CKPT_HDR_XSTATE] = "XSTATE",
	[CKPT_HDR_SIGNAL] = "SIGNAL",
	[CKPT_HDR_CREDS] = "CREDS",
	[CKPT_HDR_MM] = "MM", [CKPT_HDR_VMA] = "VMA",
	[CKPT_HDR_PAGES] = "PAGES", [CKPT_HDR_FILE] = "FILE",
	[CKPT_HDR_FD] = "FD",
};

const char *ci_type_name(uint32_t type)
{
	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "UNKNOWN";
}

const char *ci_vma_kind(uint32_t kind)
{
	switch (kind) {
	case CKPT_VMA_ANON: return "anon";
	case CKPT_VMA_FILE: return "file";
	case CKPT_VMA_VDSO: return "vdso";
	case CKPT_VMA_VVAR: return "vvar";
	}
	return "unknown";
}

const char *ci_prot(uint64_t vm_flags, char buf[5])
{
	buf[0] = vm_flags & 0x1 ? 'r' : '-';
	buf[1] = vm_flags & 0x2 ? 'w' : '-';
	buf[2] = vm_flags & 0x4 ? 'x' : '-';
	buf[3] = vm_flags & 0x8 ? 's' : 'p';
	buf[4] = '\0';
	return buf;
}

enum ci_disposition ci_signal_disposition(const struct ckpt_hdr_signal *s, int sig)
{
	uint64_t h = s->action[sig - 1].handler;

	return h == 0 ? CI_SIG_DEFAULT : h == 1 ? CI_SIG_IGNORED : CI_SIG_CAUGHT;
}

const struct ci_file *ci_file_by_ref(const struct ci_image *img, uint32_t objref)
{
	size_t i;

	for (i = 0; objref && i < img->nr_files; i++)
		if (img->files[i].objref == objref)
			return &img->files[i];
	return NULL;
}

/* Record what is wrong, with the offset and the record; always -1. */
static int bad(struct reader *r, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->img->error, sizeof(r->img->error),
		 "offset %llu: %s record (type %u, len %llu): %s",
		 (unsigned long long)r->rec.pos, ci_type_name(r->rec.type),
		 r->rec.type, (unsigned long long)r->rec.len, what);
	return -1;
}

static int get(struct reader *r, void *buf, size_t n)
{
	size_t got = fread(buf, 1, n, r->f);

	r->pos += got;
	if (got != n)
		return bad(r, "truncated: the image ends at offset %llu",
			   (unsigned long long)r->pos);
	return 0;
}

/* Read and drop @n bytes; @zero: they must be zero (padding). */
static int skip(struct reader *r, uint64_t n, bool zero)
{
	static char buf[65536];
	size_t chunk, i;

	while (n) {
		chunk = n < sizeof(buf) ? n : sizeof(buf);
		if (get(r, buf, chunk))
			return -1;
		for (i = 0; zero && i < chunk; i++)
			if (buf[i])
				return bad(r, "non-zero padding at offset %llu",
					   (unsigned long long)(r->pos - chunk + i));
		n -= chunk;
	}
	return 0;
}

/* The whole payload of a metadata record, exactly @len bytes, plus padding. */
static int payload(struct reader *r, void *buf, size_t len)
{
	if (r->rec.len != len)
		return bad(r, "length %llu, expected %zu",
			   (unsigned long long)r->rec.len, len);
	if (get(r, buf, len))
		return -1;
	return skip(r, ((len + 7) & ~7ULL) - len, true);
}

/* The whole payload of the record in a new buffer, or NULL (error set). */
static void *payload_alloc(struct reader *r)
{
	void *buf = malloc(r->rec.len);

	if (!buf) {
		bad(r, "out of memory");
		return NULL;
	}
	if (payload(r, buf, r->rec.len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Room for one more element of @size in @arr (which holds *nr): the array,
 * possibly moved, with *nr counting the new element; NULL (nothing
 * changed) when out of memory or at @max.
 */
static void *grow(void *arr, size_t *nr, size_t size, size_t max)
{
	void *p = arr;

	if (*nr >= max)
		return NULL;
	if ((*nr & (*nr - 1)) == 0) {	/* 0, 1, 2, 4...: double */
		p = realloc(arr, (*nr ? *nr * 2 : 1) * size);
		if (!p)
			return NULL;
	}
	(*nr)++;
	return p;
}

static int read_header(struct reader *r)
{
	struct ckpt_hdr_header *h = &r->img->header;

	if (r->rec.type != CKPT_HDR_HEADER)
		return bad(r, "the image must start with a HEADER record (bad magic?)");
	if (payload(r, h, sizeof(*h)))
		return -1;
	if (memcmp(h->magic, CKPT_MAGIC, sizeof(h->magic)))
		return bad(r, "bad magic: not a checkpoint image");
	if (h->version != CKPT_FORMAT_VERSION)
		return bad(r, "format version %u, this ckptinfo reads %u",
			   h->version, CKPT_FORMAT_VERSION);
	if (h->page_size != PAGE_SIZE)
		return bad(r, "page size %u, expected 4096", h->page_size);
	if (!h->nr_tasks || h->nr_tasks > MAX_TASKS)
		return bad(r, "%u tasks", h->nr_tasks);
	if (!memchr(h->release, 0, sizeof(h->release)) ||
	    !memchr(h->version_str, 0, sizeof(h->version_str)) ||
	    !memchr(h->machine, 0, sizeof(h->machine)))
		return bad(r, "unterminated kernel release, version or machine");
	if (strcmp(h->machine, "x86_64"))
		return bad(r, "machine \"%s\", not x86_64", h->machine);
	return 0;
}

static int read_file(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ci_file *cf;
	char *buf;

	if (r->rec.len <= sizeof(cf->f) || r->rec.len > sizeof(cf->f) + MAX_PATH)
		return bad(r, "length out of range for a FILE record");
	if (!r->rec.objref || ci_file_by_ref(img, r->rec.objref))
		return bad(r, "objref %u is zero or already used", r->rec.objref);
	buf = payload_alloc(r);
	if (!buf)
		return -1;
	cf = grow(img->files, &img->nr_files, sizeof(*cf), MAX_FILES);
	if (!cf) {
		free(buf);
		return bad(r, "too many files");
	}
	img->files = cf;
	cf = &img->files[img->nr_files - 1];
	memcpy(&cf->f, buf, sizeof(cf->f));
	memmove(buf, buf + sizeof(cf->f), r->rec.len - sizeof(cf->f));
	cf->path = buf;
	cf->objref = r->rec.objref;
	if (cf->f.path_len != r->rec.len - sizeof(cf->f) ||
	    buf[cf->f.path_len - 1] || strlen(buf) != cf->f.path_len - 1 ||
	    buf[0] != '/') {
		cf->path = NULL;
		free(buf);
		img->nr_files--;
		return bad(r, "path length, termination or not absolute");
	}
	if (cf->f.f_pos < 0)
		return bad(r, "negative file offset");
	return 0;
}

static int read_fd(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_fd d, *fds;

	if (payload(r, &d, sizeof(d)))
		return -1;
	if (!ci_file_by_ref(img, d.file_objref))
		return bad(r, "fd %u names objref %u, which no FILE record before it has",
			   d.fd, d.file_objref);
	if (d.flags & ~CKPT_FD_CLOEXEC)
		return bad(r, "unknown fd flags %#x", d.flags);
	if (img->nr_fds && d.fd <= img->fds[img->nr_fds - 1].fd)
		return bad(r, "fd %u out of order", d.fd);
	fds = grow(img->fds, &img->nr_fds, sizeof(d), MAX_FDS);
	if (!fds)
		return bad(r, "too many fds");
	img->fds = fds;
	img->fds[img->nr_fds - 1] = d;
	return 0;
}

static int read_mm(struct reader *r)
{
	struct ckpt_hdr_mm *m = &r->img->mm;

	if (payload(r, m, sizeof(*m)))
		return -1;
	if (m->exe_objref && !ci_file_by_ref(r->img, m->exe_objref))
		return bad(r, "executable objref %u has no FILE record", m->exe_objref);
	if (m->nr_vmas > MAX_VMAS)
		return bad(r, "%u VMAs", m->nr_vmas);
	if (m->start_code > m->end_code || m->start_brk > m->brk ||
	    m->arg_start > m->arg_end || m->env_start > m->env_end)
		return bad(r, "inconsistent mm fields (a start after its end)");
	return 0;
}

static int read_vma(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_vma v;
	struct ci_vma *vmas;
	uint64_t prev_end = img->nr_vmas ? img->vmas[img->nr_vmas - 1].v.end : 0;

	if (payload(r, &v, sizeof(v)))
		return -1;
	if (v.start >= v.end || v.start % PAGE_SIZE || v.end % PAGE_SIZE ||
	    v.start < prev_end)
		return bad(r, "range %#llx-%#llx empty, unaligned or overlapping the one before",
			   (unsigned long long)v.start, (unsigned long long)v.end);
	if (v.kind < CKPT_VMA_ANON || v.kind > CKPT_VMA_VVAR)
		return bad(r, "unknown VMA kind %u", v.kind);
	if (v.kind == CKPT_VMA_FILE && !ci_file_by_ref(img, v.file_objref))
		return bad(r, "file objref %u has no FILE record", v.file_objref);
	if (v.nr_pages > (v.end - v.start) / PAGE_SIZE ||
	    (v.nr_pages && v.kind != CKPT_VMA_ANON && v.kind != CKPT_VMA_FILE))
		return bad(r, "%llu pages do not fit this VMA",
			   (unsigned long long)v.nr_pages);
	vmas = grow(img->vmas, &img->nr_vmas, sizeof(*vmas), MAX_VMAS);
	if (!vmas)
		return bad(r, "too many VMAs");
	img->vmas = vmas;
	img->vmas[img->nr_vmas - 1] = (struct ci_vma){ .v = v };
	return 0;
}

static int read_pages(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ci_vma *cv = &img->vmas[img->nr_vmas - 1];
	uint64_t start = r->pos, addr, last = 0, meta, i;
	struct ckpt_hdr_pages hp;

	if (r->rec.len < sizeof(hp))
		return bad(r, "too short for a PAGES record");
	if (get(r, &hp, sizeof(hp)))
		return -1;
	if (!hp.nr_pages || hp.nr_pages > 512)
		return bad(r, "%llu pages in one record (1 to 512)",
			   (unsigned long long)hp.nr_pages);
	meta = sizeof(hp) + hp.nr_pages * 8;
	if (hp.data_offset < meta || (start + hp.data_offset) % PAGE_SIZE ||
	    hp.data_offset - meta >= PAGE_SIZE ||
	    r->rec.len != hp.data_offset + hp.nr_pages * PAGE_SIZE)
		return bad(r, "data offset %llu or length inconsistent with %llu pages",
			   (unsigned long long)hp.data_offset,
			   (unsigned long long)hp.nr_pages);
	if (cv->pages + hp.nr_pages > cv->v.nr_pages)
		return bad(r, "more pages than its VMA record says (%llu)",
			   (unsigned long long)cv->v.nr_pages);
	for (i = 0; i < hp.nr_pages; i++) {
		if (get(r, &addr, sizeof(addr)))
			return -1;
		if (addr < cv->v.start || addr >= cv->v.end || addr % PAGE_SIZE ||
		    (i && addr <= last))
			return bad(r, "page address %#llx outside its VMA or out of order",
				   (unsigned long long)addr);
		last = addr;
	}
	cv->pages += hp.nr_pages;
	img->pages += hp.nr_pages;
	if (skip(r, hp.data_offset - meta, true))
		return -1;
	return skip(r, hp.nr_pages * PAGE_SIZE, false);
}

static int read_xstate(struct reader *r, uint64_t *features)
{
	struct ci_image *img = r->img;
	unsigned char *buf;
	uint64_t xcomp;

	if (r->rec.len != img->arch.xstate_size || r->rec.len < 576)
		return bad(r, "length %llu, the ARCH record says %u",
			   (unsigned long long)r->rec.len, img->arch.xstate_size);
	buf = payload_alloc(r);
	if (!buf)
		return -1;
	memcpy(features, buf + 512, 8);
	memcpy(&xcomp, buf + 520, 8);
	free(buf);
	img->xstate_len = r->rec.len;
	if (*features & ~img->arch.xfeatures || xcomp)
		return bad(r, "XSAVE header features %#llx beyond the ARCH record's, or compacted",
			   (unsigned long long)*features);
	return 0;
}

static int read_tail(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_tail *t = &img->tail;
	uint64_t nr = img->nr_records - 1, pos = r->rec.pos;

	if (payload(r, t, sizeof(*t)))
		return -1;
	if (memcmp(t->magic, CKPT_TAIL_MAGIC, sizeof(t->magic)))
		return bad(r, "bad tail magic");
	if (t->nr_records != nr || t->pos != pos)
		return bad(r, "the tail says %llu records before offset %llu; there were %llu before offset %llu",
			   (unsigned long long)t->nr_records,
			   (unsigned long long)t->pos, (unsigned long long)nr,
			   (unsigned long long)pos);
	return 0;
}

/* The record types allowed next, as restart reads them. */
enum stage {
	S_HEADER, S_ARCH, S_TASK, S_SIGNAL, S_CREDS, S_FILES, S_VMAS, S_XSTATE,
	S_THREAD, S_THREAD_CPU, S_THREAD_XSTATE, S_DONE
};

/* What restart checks of any TASK record, the leader's or a thread's. */
static int read_task(struct reader *r, struct ckpt_hdr_task *t)
{
	const uint64_t top = 1ULL << 56;	/* above any x86_64 user address */
	uint32_t mode;

	if (!r->rec.objref)
		return bad(r, "objref 0");
	if (payload(r, t, sizeof(*t)))
		return -1;
	t->comm[sizeof(t->comm) - 1] = '\0';
	if (t->pid <= 0 || t->flags & ~CKPT_TASK_SELF)
		return bad(r, "pid %d, flags %#x", t->pid, t->flags);
	mode = t->sas_ss_flags & ~(1U << 31);
	if (mode > 2 || t->sas_ss_size >= top || t->sas_ss_sp >= top - t->sas_ss_size)
		return bad(r, "bad alternate signal stack %#llx size %llu flags %#x",
			   (unsigned long long)t->sas_ss_sp,
			   (unsigned long long)t->sas_ss_size, t->sas_ss_flags);
	return 0;
}

/* A thread's TASK record: of the leader's process, its id once. */
static int read_thread(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ci_thread *th;
	size_t i;

	th = grow(img->threads, &img->nr_threads, sizeof(*th), MAX_TASKS);
	if (!th)
		return bad(r, "too many threads");
	img->threads = th;
	th = &img->threads[img->nr_threads - 1];
	memset(th, 0, sizeof(*th));
	th->objref = r->rec.objref;
	if (read_task(r, &th->task))
		return -1;
	if (th->task.tgid != img->task.pid || th->task.pid == img->task.pid ||
	    th->task.flags)
		return bad(r, "thread %d is not a thread of process %d",
			   th->task.pid, img->task.pid);
	for (i = 0; i + 1 < img->nr_threads; i++)
		if (img->threads[i].task.pid == th->task.pid)
			return bad(r, "thread id %d twice", th->task.pid);
	return 0;
}

/* What restart checks of a SIGNAL record. */
static int read_signal(struct reader *r)
{
	struct ckpt_hdr_signal *s = &r->img->signal;
	const uint64_t top = 1ULL << 56;	/* above any x86_64 user address */
	int i;

	if (payload(r, s, sizeof(*s)))
		return -1;
	if (s->nr_actions != CKPT_NSIG)
		return bad(r, "%u signal actions, expected %u", s->nr_actions, CKPT_NSIG);
	for (i = 0; i < CKPT_NSIG; i++) {
		const struct ckpt_sigaction *a = &s->action[i];

		if (a->handler >= top || a->restorer >= top)
			return bad(r, "signal %d: handler or restorer %#llx is no user address",
				   i + 1, (unsigned long long)(a->handler >= top ? a->handler : a->restorer));
		if ((i + 1 == 9 || i + 1 == 19) && (a->handler || a->flags))
			return bad(r, "signal %d (SIGKILL or SIGSTOP) has a handler", i + 1);
	}
	return 0;
}

/* What restart checks of a CREDS record's shape (not the caller's rights). */
static int read_creds(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_creds *c = &img->creds;
	const uint64_t caps = (1ULL << 41) - 1;	/* CAP_LAST_CAP 40 */
	uint64_t n;
	char *buf;

	if (r->rec.len < sizeof(*c) || (r->rec.len - sizeof(*c)) % 4 ||
	    (r->rec.len - sizeof(*c)) / 4 > 65536)
		return bad(r, "length %llu is no CREDS record with up to 65536 groups",
			   (unsigned long long)r->rec.len);
	buf = payload_alloc(r);
	if (!buf)
		return -1;
	memcpy(c, buf, sizeof(*c));
	n = (r->rec.len - sizeof(*c)) / 4;
	if (c->nr_groups != n) {
		free(buf);
		return bad(r, "%u groups, but room for %llu", c->nr_groups,
			   (unsigned long long)n);
	}
	memmove(buf, buf + sizeof(*c), n * 4);
	img->groups = (uint32_t *)buf;
	if ((c->cap_inheritable | c->cap_permitted | c->cap_effective |
	     c->cap_bset | c->cap_ambient) & ~caps)
		return bad(r, "unknown capabilities");
	if (c->flags & ~CKPT_CREDS_NO_NEW_PRIVS || c->__reserved)
		return bad(r, "unknown flags %#x", c->flags);
	if ((c->cap_effective & ~c->cap_permitted) ||
	    (c->cap_ambient & ~(c->cap_permitted & c->cap_inheritable)))
		return bad(r, "effective or ambient capabilities not permitted");
	return 0;
}

static int read_record(struct reader *r, enum stage *st)
{
	struct ci_image *img = r->img;
	uint32_t t = r->rec.type;

	switch (*st) {
	case S_HEADER:
		*st = S_ARCH;
		return read_header(r);
	case S_ARCH:
		*st = S_TASK;
		if (t != CKPT_HDR_ARCH)
			break;
		if (payload(r, &img->arch, sizeof(img->arch)))
			return -1;
		if (img->arch.xstate_size > MAX_META)
			return bad(r, "xstate size %u", img->arch.xstate_size);
		return 0;
	case S_TASK:
		*st = S_SIGNAL;
		if (t != CKPT_HDR_TASK)
			break;
		img->task_objref = r->rec.objref;
		if (read_task(r, &img->task))
			return -1;
		if (img->task.tgid != img->task.pid)
			return bad(r, "the first task (%d) is not its process's leader (%d)",
				   img->task.pid, img->task.tgid);
		return 0;
	case S_SIGNAL:
		*st = S_CREDS;
		if (t != CKPT_HDR_SIGNAL)
			break;
		return read_signal(r);
	case S_CREDS:
		*st = S_FILES;
		if (t != CKPT_HDR_CREDS)
			break;
		return read_creds(r);
	case S_FILES:
		if (t == CKPT_HDR_FILE)
			return read_file(r);
		if (t == CKPT_HDR_FD)
			return read_fd(r);
		if (t != CKPT_HDR_MM)
			break;
		*st = S_VMAS;
		return read_mm(r);
	case S_VMAS:
		if (t == CKPT_HDR_PAGES && img->nr_vmas)
			return read_pages(r);
		if (img->nr_vmas && img->vmas[img->nr_vmas - 1].pages !=
				    img->vmas[img->nr_vmas - 1].v.nr_pages)
			return bad(r, "the VMA before has %llu of its %llu pages",
				   (unsigned long long)img->vmas[img->nr_vmas - 1].pages,
				   (unsigned long long)img->vmas[img->nr_vmas - 1].v.nr_pages);
		if (t == CKPT_HDR_VMA && img->nr_vmas < img->mm.nr_vmas)
			return read_vma(r);
		if (t != CKPT_HDR_CPU || img->nr_vmas != img->mm.nr_vmas)
			break;
		*st = S_XSTATE;
		return payload(r, &img->cpu, sizeof(img->cpu));
	case S_XSTATE:
		*st = S_THREAD;
		if (t != CKPT_HDR_XSTATE)
			break;
		return read_xstate(r, &img->xstate_features);
	case S_THREAD:
		if (t == CKPT_HDR_TASK && img->nr_threads + 1 < img->header.nr_tasks) {
			*st = S_THREAD_CPU;
			return read_thread(r);
		}
		if (t != CKPT_HDR_TAIL)
			break;
		*st = S_DONE;
		if (img->nr_threads + 1 != img->header.nr_tasks)
			return bad(r, "the header says %u tasks, the image has %zu",
				   img->header.nr_tasks, img->nr_threads + 1);
		return read_tail(r);
	case S_THREAD_CPU:
		*st = S_THREAD_XSTATE;
		if (t != CKPT_HDR_CPU)
			break;
		return payload(r, &img->threads[img->nr_threads - 1].cpu,
			       sizeof(img->threads[0].cpu));
	case S_THREAD_XSTATE:
		*st = S_THREAD;
		if (t != CKPT_HDR_XSTATE)
			break;
		return read_xstate(r, &img->threads[img->nr_threads - 1].xstate_features);
	case S_DONE:
		break;
	}
	if (t >= sizeof(names) / sizeof(names[0]) || !names[t])
		return bad(r, "unknown record type");
	return bad(r, "not expected here (records must come as HEADER ARCH TASK SIGNAL CREDS (FILE|FD)* MM (VMA PAGES*)* CPU XSTATE (TASK CPU XSTATE)* TAIL)");
}

int ci_read(FILE *f, struct ci_image *img, bool keep_records)
{
	struct reader r = { .f = f, .img = img, .keep = keep_records };
	enum stage st = S_HEADER;
	struct ckpt_hdr h;
	size_t got;

	memset(img, 0, sizeof(*img));
	while (st != S_DONE) {
		r.rec = (struct ci_record){ .pos = r.pos };
		got = fread(&h, 1, sizeof(h), f);
		r.pos += got;
		if (got != sizeof(h)) {
			if (!got && r.pos && st != S_HEADER)
				return bad(&r, "the image ends without a TAIL record");
			return bad(&r, "truncated record header: the image ends at offset %llu",
				   (unsigned long long)r.pos);
		}
		r.rec = (struct ci_record){ .pos = r.rec.pos, .type = h.type,
					   .objref = h.objref, .len = h.len };
		if (h.len > MAX_META && h.type != CKPT_HDR_PAGES)
			return bad(&r, "length beyond any record's");
		if (h.type == CKPT_HDR_PAGES && h.len > MAX_PAGES_LEN)
			return bad(&r, "length beyond a PAGES record's");
		if (st == S_HEADER && h.type != CKPT_HDR_HEADER)
			return bad(&r, "not a checkpoint image: it does not start with a HEADER record");
		img->nr_records++;
		if (keep_records) {
			struct ci_record *p = grow(img->records, &img->nr_kept,
						   sizeof(*p), MAX_RECORDS);

			if (!p)
				return bad(&r, "too many records");
			img->records = p;
			img->records[img->nr_kept - 1] = r.rec;
		}
		if (read_record(&r, &st))
			return -1;
	}
	img->size = r.pos;
	while ((got = fread(&h, 1, sizeof(h), f)) > 0)
		img->trailing += got;
	return 0;
}

void ci_free(struct ci_image *img)
{
	size_t i;

	for (i = 0; i < img->nr_files; i++)
		free(img->files[i].path);
	free(img->files);
	free(img->fds);
	free(img->vmas);
	free(img->records);
	free(img->groups);
	free(img->threads);
	memset(img, 0, sizeof(*img));
}
