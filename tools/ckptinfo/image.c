// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and checking a checkpoint image, record by record, from a file
 * or a pipe: the stream, the order of the records (HEADER ARCH TREE, each
 * live process of the TREE record, TAIL), whose each record is (objrefs),
 * and the image's own records. Nothing in the image is trusted: every
 * length is checked before it is used, and nothing is allocated from it
 * unbounded.
 */
#include "reader.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>

static const char *const names[] = {
	[CKPT_HDR_HEADER] = "HEADER", [CKPT_HDR_ARCH] = "ARCH",
	[CKPT_HDR_TAIL] = "TAIL", [CKPT_HDR_TREE] = "TREE",
	[CKPT_HDR_TASK] = "TASK",
	[CKPT_HDR_CPU] = "CPU", [CKPT_HDR_XSTATE] = "XSTATE",
	[CKPT_HDR_SIGNAL] = "SIGNAL",
	[CKPT_HDR_CREDS] = "CREDS", [CKPT_HDR_RLIMITS] = "RLIMITS",
	[CKPT_HDR_FS] = "FS", [CKPT_HDR_SIGPENDING] = "SIGPENDING",
	[CKPT_HDR_ITIMERS] = "ITIMERS", [CKPT_HDR_PROCESS] = "PROCESS",
	[CKPT_HDR_POSIX_TIMERS] = "POSIX_TIMERS",
	[CKPT_HDR_MM] = "MM", [CKPT_HDR_VMA] = "VMA",
	[CKPT_HDR_PAGES] = "PAGES", [CKPT_HDR_SHMEM] = "SHMEM",
	[CKPT_HDR_GHOST] = "GHOST", [CKPT_HDR_SYSVSHM] = "SYSVSHM",
	[CKPT_HDR_SHM_ATTACH] = "SHM_ATTACH",
	[CKPT_HDR_FILE] = "FILE",
	[CKPT_HDR_FD] = "FD", [CKPT_HDR_PIPE] = "PIPE",
	[CKPT_HDR_EVENTFD] = "EVENTFD", [CKPT_HDR_SIGNALFD] = "SIGNALFD",
	[CKPT_HDR_TIMERFD] = "TIMERFD", [CKPT_HDR_EPOLL] = "EPOLL",
	[CKPT_HDR_EPOLL_ITEMS] = "EPOLL_ITEMS", [CKPT_HDR_LOCK] = "LOCK",
	[CKPT_HDR_UNIX_PAIR] = "UNIX_PAIR", [CKPT_HDR_UNIX_SOCK] = "UNIX_SOCK",
	[CKPT_HDR_INET_SOCK] = "INET_SOCK", [CKPT_HDR_FOWN] = "FOWN",
	[CKPT_HDR_INOTIFY] = "INOTIFY",
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
	case CKPT_VMA_SHARED_ANON: return "shared-anon";
	case CKPT_VMA_SHARED_FILE: return "shared-file";
	case CKPT_VMA_SYSVSHM: return "sysvshm";
	}
	return "unknown";
}

/* Entry @i of the array of names @table, or NULL past its end. */
#define NAME_AT(table, i) ((i) < sizeof(table) / sizeof((table)[0]) ? (table)[i] : NULL)

const char *ci_seal_name(unsigned int bit)
{
	/* F_SEAL_SEAL (0x1) to F_SEAL_EXEC (0x20) */
	static const char *const seals[] = {
		"seal", "shrink", "grow", "write", "future-write", "exec",
	};

	return NAME_AT(seals, bit);
}

const char *ci_unix_type(uint32_t type)
{
	switch (type) {
	case SOCK_STREAM: return "stream";
	case SOCK_DGRAM: return "dgram";
	case SOCK_SEQPACKET: return "seqpacket";
	}
	return NULL;
}

const char *ci_unix_name(char *buf, size_t size, const char *name, uint32_t len)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n = 0;
	uint32_t i = 0;

	if (size)
		*buf = '\0';
	if (!len)
		return buf;
	if (!p[0]) {	/* abstract: "@" for its first byte */
		n = snprintf(buf, size, "@");
		i = 1;
	} else {	/* a path: not its final NUL */
		len--;
	}
	for (; i < len && n < size; i++)
		n += snprintf(buf + n, size - n, p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\' ?
			      "%c" : "\\x%02x", p[i]);
	return buf;
}

const char *ci_unix_opt(unsigned int bit)
{
	/* CKPT_UNIX_SNDBUF (0x1) to CKPT_UNIX_DONTROUTE (0x100) */
	static const char *const opts[] = {
		"SO_SNDBUF", "SO_RCVBUF", "SO_PASSCRED", "SO_PASSPIDFD", "SO_PASSSEC",
		"SO_KEEPALIVE", "SO_OOBINLINE", "SO_BROADCAST", "SO_DONTROUTE",
	};

	return NAME_AT(opts, bit);
}

const char *ci_inotify_event(unsigned int bit)
{
	/* what a watch's mask may have, each named: IN_ALL_EVENTS, IN_EXCL_UNLINK, IN_ONESHOT */
#define IN(m) { m, #m }
	static const struct {
		uint32_t mask;
		const char *name;
	} events[] = {
		IN(IN_ACCESS), IN(IN_MODIFY), IN(IN_ATTRIB), IN(IN_CLOSE_WRITE),
		IN(IN_CLOSE_NOWRITE), IN(IN_OPEN), IN(IN_MOVED_FROM), IN(IN_MOVED_TO),
		IN(IN_CREATE), IN(IN_DELETE), IN(IN_DELETE_SELF), IN(IN_MOVE_SELF),
		IN(IN_EXCL_UNLINK), IN(IN_ONESHOT),
	};
#undef IN
	size_t i;

	for (i = 0; bit < 32 && i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i].mask == 1U << bit)
			return events[i].name;
	return NULL;
}

size_t ci_bit_names(char *buf, size_t size, uint32_t mask,
		    const char *(*name)(unsigned int bit), const char *sep)
{
	unsigned int bit;
	size_t n = 0;

	if (size)
		*buf = '\0';
	for (bit = 0; bit < 32; bit++)
		if (mask & 1U << bit && name(bit))
			n += snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s",
				      n ? sep : "", name(bit));
	return n;
}

const char *ci_sched_policy_name(uint32_t policy)
{
	switch (policy) {
	case 0: return "SCHED_OTHER";
	case 3: return "SCHED_BATCH";
	case 5: return "SCHED_IDLE";
	}
	return NULL;
}

/* ioprio_check_cap()'s validity, without the rights: 0 none, 1 rt, 2 be, 3 idle */
int ci_ioprio_class(uint32_t ioprio)
{
	unsigned int class = ioprio >> 13 & 7, level = ioprio & 7;

	if (class > 3 || (class == 0 && level))
		return -1;
	return (int)class;
}

const char *ci_ioprio_class_name(uint32_t ioprio)
{
	static const char *const names[] = { "none", "realtime", "best-effort", "idle" };
	int class = ci_ioprio_class(ioprio);

	return class < 0 ? "invalid" : names[class];
}

bool ci_cpu_set(const struct ckpt_hdr_task *t, unsigned int cpu)
{
	return !t->nr_cpus || (cpu < t->nr_cpus && t->cpus[cpu / 64] >> (cpu % 64) & 1);
}

/* An affinity mask as restart takes it: within nr_cpus, and one CPU at least. */
bool ci_cpus_valid(const struct ckpt_hdr_task *t)
{
	uint64_t any = 0;
	unsigned int i;
	int bits;

	if (t->nr_cpus > CKPT_CPUS_WORDS * 64)
		return false;
	for (i = 0; i < CKPT_CPUS_WORDS; i++) {
		bits = (int)t->nr_cpus - (int)i * 64;
		if (bits < 64 && t->cpus[i] & ~(bits <= 0 ? 0 : (1ULL << bits) - 1))
			return false;
		any |= t->cpus[i];
	}
	return !t->nr_cpus || any;
}

/* RLIMIT_* n: n's name, upper case then lower case. */
static const char *const rlimit_names[CKPT_RLIM_NLIMITS][2] = {
	{ "CPU", "cpu" }, { "FSIZE", "fsize" }, { "DATA", "data" },
	{ "STACK", "stack" }, { "CORE", "core" }, { "RSS", "rss" },
	{ "NPROC", "nproc" }, { "NOFILE", "nofile" }, { "MEMLOCK", "memlock" },
	{ "AS", "as" }, { "LOCKS", "locks" }, { "SIGPENDING", "sigpending" },
	{ "MSGQUEUE", "msgqueue" }, { "NICE", "nice" }, { "RTPRIO", "rtprio" },
	{ "RTTIME", "rttime" },
};

const char *ci_rlimit_name(unsigned int i, bool lower)
{
	return i < CKPT_RLIM_NLIMITS ? rlimit_names[i][lower] : NULL;
}

bool ci_rlimit_bytes(unsigned int i)
{
	/* FSIZE DATA STACK CORE RSS, MEMLOCK AS, MSGQUEUE */
	static const unsigned int bytes = 1U << 1 | 1U << 2 | 1U << 3 | 1U << 4 |
		1U << 5 | 1U << 8 | 1U << 9 | 1U << 12;

	return i < CKPT_RLIM_NLIMITS && (bytes & 1U << i);
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

bool ci_lock_flags_valid(uint64_t flags)
{
	return !(flags & ~(CI_VM_LOCKED | CI_VM_LOCKONFAULT)) &&
	       (!(flags & CI_VM_LOCKONFAULT) || flags & CI_VM_LOCKED);
}

const char *ci_lock_name(uint64_t flags)
{
	if (!(flags & CI_VM_LOCKED))
		return "";
	return flags & CI_VM_LOCKONFAULT ? ", locked on fault" : ", locked";
}

enum ci_disposition ci_signal_disposition(const struct ckpt_hdr_signal *s, int sig)
{
	uint64_t h = s->action[sig - 1].handler;

	return h == 0 ? CI_SIG_DEFAULT : h == 1 ? CI_SIG_IGNORED : CI_SIG_CAUGHT;
}

const char *ci_signal_name(int32_t sig, char buf[16])
{
	static const char *const sig_names[32] = {
		NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
		"SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
		"SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
		"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
		"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
		"SIGSYS",
	};

	if (sig >= 1 && sig < 32)
		return sig_names[sig];
	if (sig >= 32 && sig <= CKPT_NSIG)
		snprintf(buf, 16, "SIGRTMIN+%d", sig - 32);
	else
		snprintf(buf, 16, "signal %d", sig);
	return buf;
}

/*
 * The si_code values of <asm-generic/siginfo.h> that any signal may have;
 * the union (fields) is the kill layout (pid, uid) for SI_USER and
 * SI_TKILL, the rt one (pid, uid, sigval at 8) for SI_QUEUE and SI_MESGQ,
 * and SIGCHLD's (pid, uid, ...) for its own codes CLD_EXITED to
 * CLD_CONTINUED (1-6).
 */
void ci_siginfo(const struct ckpt_sigpending *e, struct ci_siginfo *si)
{
	static const struct {
		int32_t code;
		const char *name;
		bool sender, value;
	} codes[] = {
		{ 0, "SI_USER", true, false }, { 0x80, "SI_KERNEL", false, false },
		{ -1, "SI_QUEUE", true, true }, { -2, "SI_TIMER", false, false },
		{ -3, "SI_MESGQ", true, true }, { -4, "SI_ASYNCIO", false, false },
		{ -5, "SI_SIGIO", false, false }, { -6, "SI_TKILL", true, false },
	};
	size_t i;

	memset(si, 0, sizeof(*si));
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].code == e->code) {
			si->code = codes[i].name;
			si->sender = codes[i].sender;
			si->value = codes[i].value;
		}
	if (e->signo == 17 && e->code >= 1 && e->code <= 6)
		si->sender = true;
	memcpy(&si->pid, e->fields, 4);
	memcpy(&si->uid, e->fields + 4, 4);
	memcpy(&si->value_int, e->fields + 8, 4);
	memcpy(&si->value_ptr, e->fields + 8, 8);
}

/*
 * The element of the array @arr (@nr elements of @size bytes, each
 * starting with its objref) that is @objref's, or NULL (@objref 0: none).
 */
static const void *by_ref(const void *arr, size_t nr, size_t size, uint32_t objref)
{
	const char *p = arr;
	size_t i;

	for (i = 0; objref && i < nr; i++, p += size)
		if (*(const uint32_t *)p == objref)
			return p;
	return NULL;
}

#define BY_REF(arr, nr, objref) by_ref(arr, nr, sizeof(*(arr)), objref)

static_assert(offsetof(struct ci_file, objref) == 0 && offsetof(struct ci_shmem, objref) == 0 &&
	      offsetof(struct ci_ghost, objref) == 0 && offsetof(struct ci_pipe, objref) == 0 &&
	      offsetof(struct ci_sysvshm, objref) == 0 &&
	      offsetof(struct ci_shm_attach, objref) == 0, "by_ref(): the objref first");

const struct ci_file *ci_file_by_ref(const struct ci_image *img, uint32_t objref)
{
	return BY_REF(img->files, img->nr_files, objref);
}

const struct ci_shmem *ci_shmem_by_ref(const struct ci_image *img, uint32_t objref)
{
	return BY_REF(img->shmems, img->nr_shmems, objref);
}

const struct ci_ghost *ci_ghost_by_ref(const struct ci_image *img, uint32_t objref)
{
	return BY_REF(img->ghosts, img->nr_ghosts, objref);
}

const struct ci_pipe *ci_pipe_by_ref(const struct ci_image *img, uint32_t objref)
{
	return BY_REF(img->pipes, img->nr_pipes, objref);
}

const struct ci_sysvshm *ci_sysvshm_by_ref(const struct ci_image *img, uint32_t objref)
{
	return BY_REF(img->sysvshms, img->nr_sysvshms, objref);
}

const struct ci_shm_attach *ci_shm_attach_by_ref(const struct ci_image *img, uint32_t objref)
{
	return BY_REF(img->shm_attaches, img->nr_shm_attaches, objref);
}

const struct ci_shmem *ci_file_memfd(const struct ci_image *img, const struct ci_file *f)
{
	return f && f->kind == CI_FILE_MEMFD ? ci_shmem_by_ref(img, f->f.obj_objref) : NULL;
}

const struct ci_ghost *ci_file_ghost(const struct ci_image *img, const struct ci_file *f)
{
	return f && f->kind == CI_FILE_GHOST ? ci_ghost_by_ref(img, f->f.obj_objref) : NULL;
}

const char *ci_file_name(const struct ci_image *img, const struct ci_file *f,
			 char *buf, size_t size)
{
	const struct ci_shmem *sh = ci_file_memfd(img, f);
	const struct ci_ghost *gh = ci_file_ghost(img, f);

	if (sh)
		snprintf(buf, size, "memfd:%s", sh->name);
	else if (gh)
		snprintf(buf, size, "%s (deleted)", gh->path);
	else
		return f->path;
	return buf;
}

const struct ci_shm_attach *ci_vma_shm_attach(const struct ci_image *img,
					      const struct ckpt_hdr_vma *v)
{
	return v->kind == CKPT_VMA_SYSVSHM ? ci_shm_attach_by_ref(img, v->file_objref) : NULL;
}

uint32_t ci_vma_object(const struct ci_image *img, const struct ckpt_hdr_vma *v)
{
	const struct ci_shm_attach *a = ci_vma_shm_attach(img, v);
	const struct ci_file *f;

	if (v->kind == CKPT_VMA_SHARED_ANON)
		return v->file_objref;
	if (a)
		return a->a.shm_objref;
	if (v->kind != CKPT_VMA_FILE && v->kind != CKPT_VMA_SHARED_FILE)
		return 0;
	f = ci_file_by_ref(img, v->file_objref);
	return f && (f->kind == CI_FILE_MEMFD || f->kind == CI_FILE_GHOST) ? f->f.obj_objref : 0;
}

uint32_t ci_vma_shmem(const struct ci_image *img, const struct ckpt_hdr_vma *v)
{
	uint32_t objref = ci_vma_object(img, v);

	return ci_shmem_by_ref(img, objref) ? objref : 0;
}

uint32_t ci_vma_ghost(const struct ci_image *img, const struct ckpt_hdr_vma *v)
{
	uint32_t objref = ci_vma_object(img, v);

	return ci_ghost_by_ref(img, objref) ? objref : 0;
}

bool ci_proc_maps(const struct ci_image *img, const struct ci_proc *p, uint32_t objref)
{
	size_t i;

	for (i = 0; i < p->nr_vmas; i++)
		if (ci_vma_object(img, &p->vmas[i].v) == objref)
			return true;
	return false;
}

int rd_bad(struct reader *r, const char *fmt, ...)
{
	char what[384];
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

int rd_get(struct reader *r, void *buf, size_t n)
{
	size_t got = fread(buf, 1, n, r->f);

	r->pos += got;
	if (got != n)
		return rd_bad(r, "truncated: the image ends at offset %llu",
			      (unsigned long long)r->pos);
	return 0;
}

int rd_skip(struct reader *r, uint64_t n, bool zero)
{
	static char buf[65536];
	size_t chunk, i;

	while (n) {
		chunk = n < sizeof(buf) ? n : sizeof(buf);
		if (rd_get(r, buf, chunk))
			return -1;
		for (i = 0; zero && i < chunk; i++)
			if (buf[i])
				return rd_bad(r, "non-zero padding at offset %llu",
					      (unsigned long long)(r->pos - chunk + i));
		n -= chunk;
	}
	return 0;
}

int rd_payload(struct reader *r, void *buf, size_t len)
{
	if (r->rec.len != len)
		return rd_bad(r, "length %llu, expected %zu",
			      (unsigned long long)r->rec.len, len);
	if (rd_get(r, buf, len))
		return -1;
	return rd_skip(r, ((len + 7) & ~7ULL) - len, true);
}

int rd_head(struct reader *r, void *buf, size_t len)
{
	const char *name = ci_type_name(r->rec.type);

	if (r->rec.len < len)
		return rd_bad(r, "length %llu, shorter than %s %s record",
			      (unsigned long long)r->rec.len, strchr("AEIOU", *name) ? "an" : "a",
			      name);
	return rd_get(r, buf, len);
}

void *rd_payload_alloc(struct reader *r)
{
	void *buf = malloc(r->rec.len);

	if (!buf) {
		rd_bad(r, "out of memory");
		return NULL;
	}
	if (rd_payload(r, buf, r->rec.len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void *rd_grow(void *arr, size_t *nr, size_t size, size_t max)
{
	void *p = arr;

	if (*nr >= max)
		return NULL;
	if ((*nr & (*nr - 1)) == 0) {	/* 0, 1, 2, 4...: double */
		p = realloc(arr, (*nr ? *nr * 2 : 1) * size);
		if (!p)
			return NULL;
	}
	/* the new element zeroed: its owner sets only what it knows */
	memset((char *)p + *nr * size, 0, size);
	(*nr)++;
	return p;
}

/* Add @ref to @s: 1 added, 0 there already, -1 out of memory. */
static int objset_add(struct objset *s, uint32_t ref)
{
	size_t i, size = s->mask + 1;

	if (2 * (s->n + 1) > size || !s->slot) {
		struct objset bigger = { .n = 0 };

		size = s->slot ? 2 * size : 64;
		bigger.slot = calloc(size, sizeof(*bigger.slot));
		if (!bigger.slot)
			return -1;
		bigger.mask = size - 1;
		for (i = 0; s->slot && i <= s->mask; i++)
			if (s->slot[i])
				objset_add(&bigger, s->slot[i]);
		free(s->slot);
		*s = bigger;
	}
	for (i = (ref * 2654435761U) & s->mask; s->slot[i]; i = (i + 1) & s->mask)
		if (s->slot[i] == ref)
			return 0;
	s->slot[i] = ref;
	s->n++;
	return 1;
}

int rd_fresh(struct reader *r, uint32_t ref, const char *what)
{
	int ret = ref ? objset_add(&r->used, ref) : 0;

	if (ret < 0)
		return rd_bad(r, "out of memory");
	if (!ret)
		return rd_bad(r, "%s %u is zero or already another object's", what, ref);
	return 0;
}

/*
 * The record's objref is a new one: an owner's (TASK, MM, files table), a
 * file's (FILE, EVENTFD, SIGNALFD, TIMERFD, EPOLL, INOTIFY, UNIX_PAIR,
 * UNIX_SOCK, INET_SOCK), a PIPE's, a SHMEM's, a GHOST's, a SYSVSHM's or a
 * SHM_ATTACH's.
 */
static int fresh(struct reader *r)
{
	return rd_fresh(r, r->rec.objref, "objref");
}

/* The record's objref is its owner's, @ref (0 for the image's own records). */
static int owned(struct reader *r, uint32_t ref)
{
	if (r->rec.objref != ref)
		return rd_bad(r, "objref %u is not its owner's (%u)", r->rec.objref, ref);
	return 0;
}

static int read_header(struct reader *r)
{
	struct ckpt_hdr_header *h = &r->img->header;

	if (r->rec.type != CKPT_HDR_HEADER)
		return rd_bad(r, "the image must start with a HEADER record (bad magic?)");
	if (rd_payload(r, h, sizeof(*h)))
		return -1;
	if (memcmp(h->magic, CKPT_MAGIC, sizeof(h->magic)))
		return rd_bad(r, "bad magic: not a checkpoint image");
	if (h->version != CKPT_FORMAT_VERSION)
		return rd_bad(r, "format version %u, this ckptinfo reads %u",
			      h->version, CKPT_FORMAT_VERSION);
	if (h->page_size != PAGE_SIZE)
		return rd_bad(r, "page size %u, expected 4096", h->page_size);
	if (!h->nr_tasks || h->nr_tasks > MAX_TASKS)
		return rd_bad(r, "%u tasks", h->nr_tasks);
	if (!memchr(h->release, 0, sizeof(h->release)) ||
	    !memchr(h->version_str, 0, sizeof(h->version_str)) ||
	    !memchr(h->machine, 0, sizeof(h->machine)))
		return rd_bad(r, "unterminated kernel release, version or machine");
	if (strcmp(h->machine, "x86_64"))
		return rd_bad(r, "machine \"%s\", not x86_64", h->machine);
	return owned(r, 0);
}

static int read_arch(struct reader *r)
{
	struct ci_image *img = r->img;

	if (owned(r, 0) || rd_payload(r, &img->arch, sizeof(img->arch)))
		return -1;
	if (img->arch.xstate_size > MAX_META)
		return rd_bad(r, "xstate size %u", img->arch.xstate_size);
	return 0;
}

/* The TREE record: the header's nr_tasks entries, read as they come. */
static int read_tree(struct reader *r)
{
	struct ci_image *img = r->img;
	uint32_t n = img->header.nr_tasks, counts[2];
	struct ckpt_tree_task *tree;
	size_t have = 0, want;
	char why[200];

	if (owned(r, 0))
		return -1;
	if (r->rec.len != sizeof(counts) + (uint64_t)n * sizeof(*tree))
		return rd_bad(r, "no TREE record of the header's %u tasks", n);
	if (rd_get(r, counts, sizeof(counts)))
		return -1;
	if (counts[0] != n || !counts[1] || counts[1] > n)
		return rd_bad(r, "%u tasks and %u live processes; the header says %u tasks",
			      counts[0], counts[1], n);
	img->tree_procs = counts[1];
	while (have < n) {
		want = have + (n - have < 4096 ? n - have : 4096);
		tree = realloc(img->tree, want * sizeof(*tree));
		if (!tree)
			return rd_bad(r, "out of memory");
		img->tree = tree;
		if (rd_get(r, tree + have, (want - have) * sizeof(*tree)))
			return -1;
		img->nr_tree = have = want;
	}
	if (ci_tree_check(img, why, sizeof(why)))
		return rd_bad(r, "%s", why);
	return 0;
}

static int read_tail(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_tail *t = &img->tail;
	uint64_t nr = img->nr_records - 1, pos = r->rec.pos;

	if (owned(r, 0) || rd_payload(r, t, sizeof(*t)))
		return -1;
	if (memcmp(t->magic, CKPT_TAIL_MAGIC, sizeof(t->magic)))
		return rd_bad(r, "bad tail magic");
	if (t->nr_records != nr || t->pos != pos)
		return rd_bad(r, "the tail says %llu records before offset %llu; there were %llu before offset %llu",
			      (unsigned long long)t->nr_records,
			      (unsigned long long)t->pos, (unsigned long long)nr,
			      (unsigned long long)pos);
	return 0;
}

/* A TASK record as restart reads it against its TREE entry @e. */
static int read_task(struct reader *r, struct ckpt_hdr_task *t,
		     const struct ckpt_tree_task *e)
{
	if (fresh(r) || rd_task(r, t))
		return -1;
	if (t->pid != e->pid || t->tgid != e->tgid)
		return rd_bad(r, "task %d (tgid %d) where the TREE record has %d (tgid %d)",
			      t->pid, t->tgid, e->pid, e->tgid);
	r->task_ref = r->rec.objref;
	return 0;
}

/* The leader's TASK record of the next live process of the TREE record. */
static int read_process(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ci_proc *p;
	size_t i = r->next_entry;

	while (i < img->nr_tree && ci_entry_zombie(&img->tree[i]))
		i++;		/* a zombie has no records */
	if (i >= img->nr_tree)	/* ci_tree_check() counted them: never */
		return rd_bad(r, "a process beyond the TREE record's");
	p = rd_grow(img->procs, &img->nr_procs, sizeof(*p), img->tree_procs);
	if (!p)
		return rd_bad(r, "out of memory");
	img->procs = p;
	p = &img->procs[img->nr_procs - 1];
	memset(p, 0, sizeof(*p));
	p->entry = i;
	for (i++; i < img->nr_tree && img->tree[i].tgid == img->tree[p->entry].pid; i++)
		;
	p->nr_entries = i - p->entry;
	r->next_entry = i;
	if (read_task(r, &p->task, &img->tree[p->entry]))
		return -1;
	p->task_objref = r->rec.objref;
	return 0;
}

/* A thread's TASK record: the process's next TREE entry. */
static int read_thread(struct reader *r, struct ci_proc *p)
{
	struct ci_thread *th;
	uint32_t prev = r->task_ref;

	th = rd_grow(p->threads, &p->nr_threads, sizeof(*th), MAX_TASKS);
	if (!th)
		return rd_bad(r, "too many threads");
	p->threads = th;
	th = &p->threads[p->nr_threads - 1];
	memset(th, 0, sizeof(*th));
	th->objref = r->rec.objref;
	if (r->rec.objref <= prev)
		return rd_bad(r, "objref %u is not above the task's before it (%u)",
			      r->rec.objref, prev);
	if (read_task(r, &th->task, &r->img->tree[p->entry + p->nr_threads]))
		return -1;
	if (th->task.flags & CKPT_TASK_SELF || th->task.pid <= 1)
		return rd_bad(r, "thread %d is not a thread of process %d",
			      th->task.pid, p->task.pid);
	return 0;
}

/*
 * A PROCESS record's files table or fs_struct objref @ref: the first
 * earlier process's with the same (shared: CLONE_FILES, CLONE_FS), as
 * its index, or a new objref (CI_NONE).
 */
static int shared_obj(struct reader *r, const struct ci_proc *p, bool fs,
		      size_t *from)
{
	const struct ci_image *img = r->img;
	uint32_t ref = fs ? p->process.fs_objref : p->process.files_objref;
	size_t i, me = p - img->procs;
	int ret;

	for (i = 0; i < me; i++) {
		const struct ckpt_hdr_process *q = &img->procs[i].process;

		if ((fs ? q->fs_objref : q->files_objref) == ref) {
			*from = i;
			return 0;
		}
	}
	*from = CI_NONE;
	ret = ref ? objset_add(&r->used, ref) : 0;
	if (ret < 0)
		return rd_bad(r, "out of memory");
	if (!ret)
		return rd_bad(r, "%s objref %u is zero or another object's",
			      fs ? "fs_struct" : "files table", ref);
	return 0;
}

/* The files table and fs_struct of process @p: its own or an earlier's. */
static int read_shares(struct reader *r, struct ci_proc *p)
{
	if (shared_obj(r, p, false, &p->files_from) ||
	    shared_obj(r, p, true, &p->fs_from))
		return -1;
	if (p->files_from == CI_NONE)
		p->files_objref = p->process.files_objref;
	return 0;
}

/* The record types allowed next, as restart reads them. */
enum stage {
	S_HEADER, S_ARCH, S_TREE, S_TASK, S_SIGNAL, S_SIGPENDING, S_CREDS, S_RLIMITS,
	S_ITIMERS, S_POSIX_TIMERS, S_PROCESS, S_FILES, S_VMAS, S_XSTATE, S_THREAD, S_THREAD_CPU, S_THREAD_XSTATE, S_DONE
};

/* After a process's CPU and XSTATE: a thread, the next process or TAIL. */
static int read_after_process(struct reader *r, enum stage *st)
{
	struct ci_image *img = r->img;
	struct ci_proc *p = &img->procs[img->nr_procs - 1];
	bool threads_done = p->nr_threads + 1 >= p->nr_entries;

	if (r->rec.type == CKPT_HDR_TASK) {
		if (!threads_done) {
			*st = S_THREAD_CPU;
			return read_thread(r, p);
		}
		if (img->nr_procs < img->tree_procs) {
			*st = S_SIGNAL;
			return read_process(r);
		}
		return rd_bad(r, "a task beyond the TREE record's %zu", img->nr_tree);
	}
	if (r->rec.type != CKPT_HDR_TAIL)
		return 1;
	*st = S_DONE;
	if (!threads_done)
		return rd_bad(r, "process %d: the TREE record has %zu tasks, the image %zu",
			      p->task.pid, p->nr_entries, p->nr_threads + 1);
	if (img->nr_procs < img->tree_procs)
		return rd_bad(r, "the TREE record has %u live processes, the image %zu",
			      img->tree_procs, img->nr_procs);
	return read_tail(r);
}

/*
 * A process's FILE, FD, FS, SHMEM, GHOST, SYSVSHM, SHM_ATTACH, PIPE, EVENTFD,
 * SIGNALFD, TIMERFD, EPOLL, EPOLL_ITEMS, INOTIFY, LOCK, UNIX_PAIR, UNIX_SOCK,
 * INET_SOCK and FOWN records, each SHMEM, GHOST and SYSVSHM followed by the PAGES
 * records of its pages, up to its MM record; one FS record among them.
 */
static int read_files(struct reader *r, struct ci_proc *p, enum stage *st)
{
	struct ci_image *img = r->img;
	uint32_t t = r->rec.type;

	if (t == CKPT_HDR_PAGES && r->obj.type)
		return owned(r, r->obj.objref) || rd_obj_pages(r) ? -1 : 0;
	if (r->obj.type && *r->obj.pages != r->obj.nr_pages)
		return rd_bad(r, "the %s before has %llu of its %llu pages",
			      ci_type_name(r->obj.type), (unsigned long long)*r->obj.pages,
			      (unsigned long long)r->obj.nr_pages);
	r->obj.type = 0;
	if (t == CKPT_HDR_FILE)
		return fresh(r) || rd_file(r) ? -1 : 0;
	if (t == CKPT_HDR_SHMEM)
		return fresh(r) || rd_shmem(r) ? -1 : 0;
	if (t == CKPT_HDR_GHOST)
		return fresh(r) || rd_ghost(r) ? -1 : 0;
	if (t == CKPT_HDR_SYSVSHM)
		return fresh(r) || rd_sysvshm(r) ? -1 : 0;
	if (t == CKPT_HDR_SHM_ATTACH)
		return fresh(r) || rd_shm_attach(r) ? -1 : 0;
	if (t == CKPT_HDR_PIPE)
		return fresh(r) || rd_pipe(r) ? -1 : 0;
	if (t == CKPT_HDR_EVENTFD)
		return fresh(r) || rd_eventfd(r) ? -1 : 0;
	if (t == CKPT_HDR_SIGNALFD)
		return fresh(r) || rd_signalfd(r) ? -1 : 0;
	if (t == CKPT_HDR_TIMERFD)
		return fresh(r) || rd_timerfd(r) ? -1 : 0;
	if (t == CKPT_HDR_EPOLL)
		return fresh(r) || rd_epoll(r) ? -1 : 0;
	if (t == CKPT_HDR_EPOLL_ITEMS)
		return rd_epoll_items(r);
	if (t == CKPT_HDR_INOTIFY)
		return fresh(r) || rd_inotify(r) ? -1 : 0;
	if (t == CKPT_HDR_LOCK)
		return rd_lock(r);
	if (t == CKPT_HDR_FOWN)
		return rd_fown(r);
	if (t == CKPT_HDR_UNIX_PAIR)
		return fresh(r) || rd_unix_pair(r) ? -1 : 0;
	if (t == CKPT_HDR_UNIX_SOCK)
		return fresh(r) || rd_unix_sock(r) ? -1 : 0;
	if (t == CKPT_HDR_INET_SOCK)
		return fresh(r) || rd_inet_sock(r) ? -1 : 0;
	if (t == CKPT_HDR_FS) {
		if (p->fs_from != CI_NONE)
			return rd_bad(r, "process %d shares the fs_struct of %d: no FS record of its own",
				      p->task.pid, img->procs[p->fs_from].task.pid);
		return owned(r, p->task_objref) || rd_fs(r, p) ? -1 : 0;
	}
	if (t == CKPT_HDR_FD) {
		if (p->files_from != CI_NONE)
			return rd_bad(r, "process %d shares the files table of %d: no FD record of its own",
				      p->task.pid, img->procs[p->files_from].task.pid);
		return owned(r, p->files_objref) || rd_fd(r, p) ? -1 : 0;
	}
	if (t != CKPT_HDR_MM)
		return 1;
	if (!p->has_fs && p->fs_from == CI_NONE)
		return rd_bad(r, "process %d has no FS record (one before its MM record)",
			      p->task.pid);
	*st = S_VMAS;
	if (fresh(r))
		return -1;
	p->mm_objref = r->rec.objref;
	return rd_mm(r, p);
}

/* 0 or -1: the record read; 1: not one that may come now. */
static int read_record(struct reader *r, enum stage *st)
{
	struct ci_image *img = r->img;
	struct ci_proc *p = img->nr_procs ? &img->procs[img->nr_procs - 1] : NULL;
	uint32_t t = r->rec.type;

	switch (*st) {
	case S_HEADER:
		*st = S_ARCH;
		return read_header(r);
	case S_ARCH:
		*st = S_TREE;
		return t == CKPT_HDR_ARCH ? read_arch(r) : 1;
	case S_TREE:
		*st = S_TASK;
		return t == CKPT_HDR_TREE ? read_tree(r) : 1;
	case S_TASK:
		*st = S_SIGNAL;
		return t == CKPT_HDR_TASK ? read_process(r) : 1;
	case S_SIGNAL:
		*st = S_SIGPENDING;
		if (t != CKPT_HDR_SIGNAL)
			return 1;
		return owned(r, p->task_objref) || rd_signal(r, &p->signal) ? -1 : 0;
	case S_SIGPENDING:
		*st = S_CREDS;
		if (t == CKPT_HDR_CREDS)
			return rd_bad(r, "process %d has no SIGPENDING record (one right after its SIGNAL record)",
				      p->task.pid);
		if (t != CKPT_HDR_SIGPENDING)
			return 1;
		return owned(r, p->task_objref) || rd_sigpending(r, p) ? -1 : 0;
	case S_CREDS:
		*st = S_RLIMITS;
		if (t != CKPT_HDR_CREDS)
			return 1;
		return owned(r, p->task_objref) || rd_creds(r, p) ? -1 : 0;
	case S_RLIMITS:
		*st = S_ITIMERS;
		if (t != CKPT_HDR_RLIMITS)
			return 1;
		return owned(r, p->task_objref) || rd_rlimits(r, p) ? -1 : 0;
	case S_ITIMERS:
		*st = S_POSIX_TIMERS;
		if (t != CKPT_HDR_ITIMERS)
			return 1;
		return owned(r, p->task_objref) || rd_itimers(r, p) ? -1 : 0;
	case S_POSIX_TIMERS:
		*st = S_PROCESS;
		if (t != CKPT_HDR_POSIX_TIMERS)
			return 1;
		return owned(r, p->task_objref) || rd_posix_timers(r, p) ? -1 : 0;
	case S_PROCESS:
		*st = S_FILES;
		if (t != CKPT_HDR_PROCESS)
			return 1;
		return owned(r, p->task_objref) || rd_process(r, p) ||
		       read_shares(r, p) ? -1 : 0;
	case S_FILES:
		return read_files(r, p, st);
	case S_VMAS:
		if (t == CKPT_HDR_PAGES && p->nr_vmas)
			return owned(r, p->mm_objref) || rd_pages(r, p) ? -1 : 0;
		if (p->nr_vmas && p->vmas[p->nr_vmas - 1].pages !=
				  p->vmas[p->nr_vmas - 1].v.nr_pages)
			return rd_bad(r, "the VMA before has %llu of its %llu pages",
				      (unsigned long long)p->vmas[p->nr_vmas - 1].pages,
				      (unsigned long long)p->vmas[p->nr_vmas - 1].v.nr_pages);
		if (t == CKPT_HDR_VMA && p->nr_vmas < p->mm.nr_vmas)
			return owned(r, p->mm_objref) || rd_vma(r, p) ? -1 : 0;
		if (t != CKPT_HDR_CPU || p->nr_vmas != p->mm.nr_vmas)
			return 1;
		*st = S_XSTATE;
		return owned(r, p->task_objref) ||
		       rd_payload(r, &p->cpu, sizeof(p->cpu)) ? -1 : 0;
	case S_XSTATE:
		*st = S_THREAD;
		if (t != CKPT_HDR_XSTATE)
			return 1;
		return owned(r, p->task_objref) ||
		       rd_xstate(r, &p->xstate_features) ? -1 : 0;
	case S_THREAD:
		return read_after_process(r, st);
	case S_THREAD_CPU:
		*st = S_THREAD_XSTATE;
		if (t != CKPT_HDR_CPU)
			return 1;
		return owned(r, r->task_ref) ||
		       rd_payload(r, &p->threads[p->nr_threads - 1].cpu,
				  sizeof(p->threads[0].cpu)) ? -1 : 0;
	case S_THREAD_XSTATE:
		*st = S_THREAD;
		if (t != CKPT_HDR_XSTATE)
			return 1;
		return owned(r, r->task_ref) ||
		       rd_xstate(r, &p->threads[p->nr_threads - 1].xstate_features) ? -1 : 0;
	case S_DONE:
		break;
	}
	return 1;
}

static uint64_t max_len(uint32_t type)
{
	if (type == CKPT_HDR_PAGES)
		return MAX_PAGES_LEN;
	if (type == CKPT_HDR_TREE)
		return sizeof(struct ckpt_hdr_tree) +
		       (uint64_t)MAX_TASKS * sizeof(struct ckpt_tree_task);
	if (type == CKPT_HDR_SIGPENDING)
		return sizeof(struct ckpt_hdr_sigpending) +
		       (uint64_t)MAX_SIGNALS * sizeof(struct ckpt_sigpending);
	if (type == CKPT_HDR_PIPE)	/* the bytes of the largest pipe */
		return sizeof(struct ckpt_hdr_pipe) + (uint64_t)INT32_MAX;
	if (type == CKPT_HDR_UNIX_PAIR)	/* each end: the most messages and bytes */
		return sizeof(struct ckpt_hdr_unix_pair) +
		       2 * (4ULL * MAX_UNIX_MSGS + (((uint64_t)INT32_MAX + 7) & ~7ULL));
	if (type == CKPT_HDR_INOTIFY)	/* the most watches restart takes */
		return sizeof(struct ckpt_hdr_inotify) +
		       (uint64_t)CKPT_INOTIFY_MAX_WATCHES * sizeof(struct ckpt_inotify_watch);
	return MAX_META;
}

int ci_read(FILE *f, struct ci_image *img, bool keep_records)
{
	struct reader r = { .f = f, .img = img, .keep = keep_records };
	enum stage st = S_HEADER;
	struct ckpt_hdr h;
	size_t got;
	int ret;

	memset(img, 0, sizeof(*img));
	while (st != S_DONE) {
		r.rec = (struct ci_record){ .pos = r.pos };
		got = fread(&h, 1, sizeof(h), f);
		r.pos += got;
		if (got != sizeof(h)) {
			if (!got && r.pos && st != S_HEADER)
				rd_bad(&r, "the image ends without a TAIL record");
			else
				rd_bad(&r, "truncated record header: the image ends at offset %llu",
				       (unsigned long long)r.pos);
			goto fail;
		}
		r.rec = (struct ci_record){ .pos = r.rec.pos, .type = h.type,
					   .objref = h.objref, .len = h.len };
		if (h.len > max_len(h.type)) {
			rd_bad(&r, "length beyond any record's");
			goto fail;
		}
		if (st == S_HEADER && h.type != CKPT_HDR_HEADER) {
			rd_bad(&r, "not a checkpoint image: it does not start with a HEADER record");
			goto fail;
		}
		img->nr_records++;
		if (keep_records) {
			struct ci_record *p = rd_grow(img->records, &img->nr_kept,
						      sizeof(*p), MAX_RECORDS);

			if (!p) {
				rd_bad(&r, "too many records");
				goto fail;
			}
			img->records = p;
			img->records[img->nr_kept - 1] = r.rec;
		}
		ret = read_record(&r, &st);
		if (ret < 0)
			goto fail;
		if (ret > 0) {
			if (h.type >= sizeof(names) / sizeof(names[0]) || !names[h.type])
				rd_bad(&r, "unknown record type");
			else
				rd_bad(&r, "not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS RLIMITS ITIMERS POSIX_TIMERS PROCESS (FILE|FD|FS|PIPE|EVENTFD|SIGNALFD|TIMERFD|EPOLL|EPOLL_ITEMS|INOTIFY|LOCK|UNIX_PAIR|UNIX_SOCK|INET_SOCK|FOWN|SHMEM PAGES*|GHOST PAGES*|SYSVSHM PAGES*|SHM_ATTACH)* MM (VMA PAGES*)* CPU XSTATE (TASK CPU XSTATE)*, TAIL)");
			goto fail;
		}
	}
	img->size = r.pos;
	while ((got = fread(&h, 1, sizeof(h), f)) > 0)
		img->trailing += got;
	free(r.used.slot);
	return 0;
fail:
	free(r.used.slot);
	return -1;
}

void ci_free(struct ci_image *img)
{
	size_t i;

	for (i = 0; i < img->nr_procs; i++) {
		free(img->procs[i].pending);
		free(img->procs[i].posix);
		free(img->procs[i].groups);
		free(img->procs[i].threads);
		free(img->procs[i].fds);
		free(img->procs[i].vmas);
	}
	free(img->procs);
	for (i = 0; i < img->nr_files; i++) {
		free(img->files[i].path);
		free(img->files[i].items);
		free(img->files[i].ino);
		free(img->files[i].locks);
		free(img->files[i].sun_path);
		free(img->files[i].sockopts);
	}
	free(img->files);
	for (i = 0; i < img->nr_shmems; i++)
		free(img->shmems[i].name);
	free(img->shmems);
	for (i = 0; i < img->nr_ghosts; i++)
		free(img->ghosts[i].path);
	free(img->ghosts);
	free(img->sysvshms);
	free(img->shm_attaches);
	free(img->pipes);
	free(img->tree);
	free(img->tree_index);
	free(img->records);
	memset(img, 0, sizeof(*img));
}
