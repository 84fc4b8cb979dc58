// SPDX-License-Identifier: GPL-2.0
/*
 * A process's records (TASK SIGNAL SIGPENDING CREDS RLIMITS PROCESS FILE FD FS
 * PIPE EVENTFD SIGNALFD TIMERFD EPOLL EPOLL_ITEMS INOTIFY LOCK FOWN SHMEM GHOST
 * SYSVSHM SHM_ATTACH MM VMA PAGES XSTATE), each checked as restart checks it. Their
 * order and objrefs are image.c's; the unix sockets' records unix.c's.
 */
#include "reader.h"

#include <assert.h>
#include <linux/personality.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>

#define USER_TOP	(1ULL << 56)	/* above any x86_64 user address */
#define VM_WRITE	0x2ULL
#define VM_SHARED	0x8ULL
#define VM_MAYSHARE	0x80ULL
/*
 * What a shared mapping never has: VM_GROWSDOWN, VM_ACCOUNT, VM_WIPEONFORK
 * (mmap(MAP_SHARED) never gives them)
 */
#define VM_NOT_SHARED	(0x100ULL | 0x100000ULL | 0x2000000ULL)
/*
 * The VMA flags restart gives back, its CKPT_VM_FLAGS: VM_READ, VM_WRITE,
 * VM_EXEC, VM_MAYREAD, VM_MAYWRITE, VM_MAYEXEC, VM_GROWSDOWN, VM_ACCOUNT,
 * VM_NORESERVE, VM_SOFTDIRTY, VM_DONTCOPY, VM_WIPEONFORK, VM_DONTDUMP,
 * VM_SEQ_READ, VM_RAND_READ, VM_HUGEPAGE, VM_NOHUGEPAGE, VM_LOCKED,
 * VM_LOCKONFAULT
 */
#define VM_FLAGS	(0x7ULL | 0x70ULL | 0x100ULL | 0x100000ULL | 0x200000ULL | \
			 0x8000000ULL | 0x20000ULL | 0x2000000ULL | 0x4000000ULL | \
			 0x8000ULL | 0x10000ULL | 0x20000000ULL | 0x40000000ULL | \
			 CI_VM_LOCKED | CI_VM_LOCKONFAULT)
#define MAX_LFS_FILESIZE	((uint64_t)INT64_MAX)
/* A memfd's name, its NUL included: MFD_NAME_MAX_LEN (NAME_MAX less "memfd:") + 1 */
#define MEMFD_NAME_MAX	250
/* F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_WRITE, F_SEAL_FUTURE_WRITE, F_SEAL_EXEC */
#define MEMFD_SEALS	0x3fU
#define F_SEAL_WRITES	(0x8U | 0x10U)	/* F_SEAL_WRITE, F_SEAL_FUTURE_WRITE */
#define F_SEAL_EXEC_BIT	0x20U
/* The personality flags a 64-bit task may have (PER_LINUX is 0). */
#define PER_FLAGS	(UNAME26 | ADDR_NO_RANDOMIZE | FDPIC_FUNCPTRS | MMAP_PAGE_ZERO | \
			 ADDR_COMPAT_LAYOUT | READ_IMPLIES_EXEC | ADDR_LIMIT_32BIT | \
			 SHORT_INODE | WHOLE_SECONDS | STICKY_TIMEOUTS | ADDR_LIMIT_3GB)

/* What restart checks of any TASK record, a leader's or a thread's. */
int rd_task(struct reader *r, struct ckpt_hdr_task *t)
{
	uint32_t mode;

	if (rd_payload(r, t, sizeof(*t)))
		return -1;
	t->comm[sizeof(t->comm) - 1] = '\0';
	if (t->pid <= 0 || t->flags & ~(CKPT_TASK_SELF | CKPT_TASK_MCE_KILL | CKPT_TASK_MCE_EARLY))
		return rd_bad(r, "pid %d, flags %#x", t->pid, t->flags);
	mode = t->sas_ss_flags & ~(1U << 31);
	if (mode > 2 || t->sas_ss_size >= USER_TOP ||
	    t->sas_ss_sp >= USER_TOP - t->sas_ss_size)
		return rd_bad(r, "bad alternate signal stack %#llx size %llu flags %#x",
			      (unsigned long long)t->sas_ss_sp,
			      (unsigned long long)t->sas_ss_size, t->sas_ss_flags);
	if ((t->personality & PER_MASK) || (t->personality & ~(PER_MASK | (uint32_t)PER_FLAGS)))
		return rd_bad(r, "personality %#x: not PER_LINUX with its flags", t->personality);
	if (t->pdeath_signal < 0 || t->pdeath_signal > CKPT_NSIG)
		return rd_bad(r, "parent-death signal %d", t->pdeath_signal);
	if (!ci_sched_policy_name(t->sched_policy) || t->nice < -20 || t->nice > 19 ||
	    t->sched_flags & ~CKPT_SCHED_RESET_ON_FORK || t->__reserved2)
		return rd_bad(r, "scheduling policy %u, nice %d, flags %#x, reserved %#x",
			      t->sched_policy, t->nice, t->sched_flags, t->__reserved2);
	if (t->ioprio > UINT16_MAX || ci_ioprio_class(t->ioprio) < 0)
		return rd_bad(r, "I/O priority %#x", t->ioprio);
	if (!ci_cpus_valid(t))
		return rd_bad(r, "CPU affinity over %u CPUs: none, or beyond them", t->nr_cpus);
	return rd_restart_block(r, &t->restart);
}

/* What restart checks of a SIGNAL record. */
int rd_signal(struct reader *r, struct ckpt_hdr_signal *s)
{
	int i;

	if (rd_payload(r, s, sizeof(*s)))
		return -1;
	if (s->nr_actions != CKPT_NSIG)
		return rd_bad(r, "%u signal actions, expected %u", s->nr_actions, CKPT_NSIG);
	for (i = 0; i < CKPT_NSIG; i++) {
		const struct ckpt_sigaction *a = &s->action[i];

		if (a->handler >= USER_TOP || a->restorer >= USER_TOP)
			return rd_bad(r, "signal %d: handler or restorer %#llx is no user address",
				      i + 1, (unsigned long long)(a->handler >= USER_TOP ?
								  a->handler : a->restorer));
		if ((i + 1 == 9 || i + 1 == 19) && (a->handler || a->flags))
			return rd_bad(r, "signal %d (SIGKILL or SIGSTOP) has a handler", i + 1);
	}
	return 0;
}

/* Entry @i of @p's SIGPENDING record, as restart checks it. */
static int pending_ok(struct reader *r, const struct ci_proc *p, size_t i)
{
	const struct ckpt_sigpending *e = &p->pending[i];
	size_t t;
	char name[16];

	if (e->__reserved || e->__pad)
		return rd_bad(r, "entry %zu: reserved field %#x, padding %#x: not 0", i,
			      e->__reserved, e->__pad);
	if (e->signo < 1 || e->signo > CKPT_NSIG)
		return rd_bad(r, "entry %zu: signal %d, not 1 to %d", i, e->signo, CKPT_NSIG);
	if (e->signo == 9)
		return rd_bad(r, "entry %zu: SIGKILL pending (checkpoint refuses such a process)", i);
	if (e->signo >= 19 && e->signo <= 22)	/* SIGSTOP SIGTSTP SIGTTIN SIGTTOU */
		return rd_bad(r, "entry %zu: %s (%d), a stop signal, pending (checkpoint never saves one)",
			      i, ci_signal_name(e->signo, name), e->signo);
	t = e->tid ? ci_tree_find(r->img, e->tid) : p->entry;
	if (t == CI_NONE || t < p->entry || t >= p->entry + p->nr_entries)
		return rd_bad(r, "entry %zu: %s for task %d, which is not a task of process %d",
			      i, ci_signal_name(e->signo, name), e->tid, p->task.pid);
	return 0;
}

/*
 * What restart checks of a SIGPENDING record: its count and length, and
 * each signal (not the caller's RLIMIT_SIGPENDING). Read as it comes, in
 * batches, so that nothing is allocated beyond what the image holds.
 */
int rd_counted(struct reader *r, const char *name, const char *what, size_t size,
	       uint64_t *room)
{
	struct {
		uint32_t nr, __reserved;
	} h;

	if (r->rec.len < sizeof(h) || (r->rec.len - sizeof(h)) % size)
		return rd_bad(r, "length %llu is no %s record (%zu bytes, then %zu a %s)",
			      (unsigned long long)r->rec.len, name, sizeof(h), size, what);
	*room = (r->rec.len - sizeof(h)) / size;
	if (rd_get(r, &h, sizeof(h)))
		return -1;
	if (h.__reserved)
		return rd_bad(r, "reserved field %#x, not 0", h.__reserved);
	if (h.nr != *room)
		return rd_bad(r, "%u %ss, but room for %llu", h.nr, what,
			      (unsigned long long)*room);
	return 0;
}

int rd_sigpending(struct reader *r, struct ci_proc *p)
{
	const size_t size = sizeof(struct ckpt_sigpending);
	struct ckpt_sigpending *sp;
	uint64_t room;
	size_t have = 0, want, i;

	static_assert(sizeof(struct ckpt_hdr_sigpending) == 8, "count, reserved");
	if (rd_counted(r, "SIGPENDING", "signal", size, &room))
		return -1;
	while (have < room) {
		want = have + (room - have < 4096 ? room - have : 4096);
		sp = realloc(p->pending, want * size);
		if (!sp)
			return rd_bad(r, "out of memory");
		p->pending = sp;
		if (rd_get(r, sp + have, (want - have) * size))
			return -1;
		p->nr_pending = have = want;
	}
	for (i = 0; i < p->nr_pending; i++)
		if (pending_ok(r, p, i))
			return -1;
	return 0;
}

/* What restart checks of a CREDS record's shape (not the caller's rights). */
int rd_creds(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_creds *c = &p->creds;
	const uint64_t caps = (1ULL << 41) - 1;	/* CAP_LAST_CAP 40 */
	uint64_t n;
	char *buf;

	if (r->rec.len < sizeof(*c) || (r->rec.len - sizeof(*c)) % 4 ||
	    (r->rec.len - sizeof(*c)) / 4 > 65536)
		return rd_bad(r, "length %llu is no CREDS record with up to 65536 groups",
			      (unsigned long long)r->rec.len);
	buf = rd_payload_alloc(r);
	if (!buf)
		return -1;
	memcpy(c, buf, sizeof(*c));
	n = (r->rec.len - sizeof(*c)) / 4;
	if (c->nr_groups != n) {
		free(buf);
		return rd_bad(r, "%u groups, but room for %llu", c->nr_groups,
			      (unsigned long long)n);
	}
	memmove(buf, buf + sizeof(*c), n * 4);
	p->groups = (uint32_t *)buf;
	if ((c->cap_inheritable | c->cap_permitted | c->cap_effective |
	     c->cap_bset | c->cap_ambient) & ~caps)
		return rd_bad(r, "unknown capabilities");
	if (c->flags & ~CKPT_CREDS_NO_NEW_PRIVS || c->__reserved)
		return rd_bad(r, "unknown flags %#x", c->flags);
	if ((c->cap_effective & ~c->cap_permitted) ||
	    (c->cap_ambient & ~(c->cap_permitted & c->cap_inheritable)))
		return rd_bad(r, "effective or ambient capabilities not permitted");
	return 0;
}

/*
 * What restart checks of an RLIMITS record's shape: every limit, none with
 * its soft limit above its hard one (not the caller's right to raise them,
 * nor fs.nr_open: the restarting machine's).
 */
int rd_rlimits(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_rlimits *l = &p->rlimits;
	char cur[24];
	unsigned int i;

	if (rd_payload(r, l, sizeof(*l)))
		return -1;
	if (l->nr_limits != CKPT_RLIM_NLIMITS)
		return rd_bad(r, "%u limits, expected %u", l->nr_limits, CKPT_RLIM_NLIMITS);
	if (l->__reserved)
		return rd_bad(r, "reserved field %#x, not 0", l->__reserved);
	for (i = 0; i < CKPT_RLIM_NLIMITS; i++) {
		if (l->rlim[i].cur <= l->rlim[i].max)
			continue;
		if (l->rlim[i].cur == CI_RLIM_INFINITY)
			snprintf(cur, sizeof(cur), "unlimited");
		else
			snprintf(cur, sizeof(cur), "%llu", (unsigned long long)l->rlim[i].cur);
		return rd_bad(r, "RLIMIT_%s: soft limit %s above the hard limit %llu",
			      ci_rlimit_name(i, false), cur,
			      (unsigned long long)l->rlim[i].max);
	}
	return 0;
}

/* What restart checks of a PROCESS record: an oom_score_adj /proc takes. */
int rd_process(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_process *h = &p->process;

	if (rd_payload(r, h, sizeof(*h)))
		return -1;
	if (h->oom_score_adj < -1000 || h->oom_score_adj > 1000)
		return rd_bad(r, "oom_score_adj %d outside -1000..1000", h->oom_score_adj);
	if (h->__reserved)
		return rd_bad(r, "reserved field %#x, not 0", h->__reserved);
	return 0;
}

/* The FS record's directory @what (cwd, root): a FILE record before it. */
static int fs_dir(struct reader *r, const char *what, uint32_t objref)
{
	const struct ci_file *f = ci_file_by_ref(r->img, objref);

	if (!f)
		return rd_bad(r, "%s objref %u has no FILE record before it", what, objref);
	if (!S_ISDIR(f->f.i_mode))
		return rd_bad(r, "%s objref %u is %s, mode %#o: not a directory", what,
			      objref, f->path, f->f.i_mode);
	return 0;
}

/* The record's regular file @what (executable, file): a FILE record before it. */
static int reg_file(struct reader *r, const char *what, uint32_t objref)
{
	const struct ci_file *f = ci_file_by_ref(r->img, objref);

	if (!f || !S_ISREG(f->f.i_mode))
		return rd_bad(r, "%s objref %u has no FILE record of a regular file", what,
			      objref);
	return 0;
}

int rd_fs(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_fs *fs = &p->fs;

	if (p->has_fs)
		return rd_bad(r, "a second FS record for process %d", p->task.pid);
	if (rd_payload(r, fs, sizeof(*fs)))
		return -1;
	if (fs->umask & ~0777U)
		return rd_bad(r, "umask %#o has bits outside 0777", fs->umask);
	if (fs->__reserved)
		return rd_bad(r, "reserved field %#x, not 0", fs->__reserved);
	if (fs_dir(r, "working directory", fs->cwd_objref) ||
	    (fs->root_objref && fs_dir(r, "root", fs->root_objref)))
		return -1;
	p->has_fs = true;
	return 0;
}

/* x86_64's O_LARGEFILE (which open() forces on a 64-bit kernel) and O_PATH */
#define O_LARGEFILE_FLAG	0100000U
#define O_PATH_FLAG		010000000U

/*
 * The open() flags a FILE record reopened by path may have, restart's
 * CKPT_OPEN_FLAGS (x86_64): the access mode, O_APPEND, O_NONBLOCK, O_DSYNC,
 * O_DIRECT, O_LARGEFILE, O_DIRECTORY, O_NOFOLLOW, O_NOATIME, __O_SYNC,
 * O_PATH (O_ASYNC is a FOWN record's).
 */
#define OPEN_FLAGS	(3U | 02000U | 04000U | 010000U | 040000U | 0100000U | \
			 0200000U | 0400000U | 01000000U | 04000000U | 010000000U)

/*
 * Of them, those a FIFO's file may have, restart's CKPT_FIFO_FLAGS: the
 * access mode, O_APPEND, O_NONBLOCK, O_DSYNC, O_LARGEFILE, O_NOATIME,
 * __O_SYNC (open() refuses O_DIRECT on a FIFO; no O_PATH, O_DIRECTORY or
 * O_NOFOLLOW).
 */
#define FIFO_FLAGS	(3U | 02000U | 04000U | 010000U | 0100000U | 01000000U | 04000000U)

/*
 * The flags a file of an object restart makes again (a memfd's, a deleted
 * file's) may have,
 * restart's CKPT_OPEN_FLAGS less O_DIRECTORY and O_NOFOLLOW (it opens the
 * object again as a reopen through /proc/PID/fd would)
 */
#define REMADE_FILE_FLAGS	(OPEN_FLAGS & ~(0200000U | 0400000U))

/* The PIPE record @f names: a FIFO's (@fifo) or pipe()'s, before it; or NULL (error set). */
static struct ci_pipe *named_pipe(struct reader *r, const struct ckpt_hdr_file *f, bool fifo)
{
	struct ci_pipe *cp = (struct ci_pipe *)ci_pipe_by_ref(r->img, f->obj_objref);

	if (!cp)
		rd_bad(r, fifo ? "a FIFO's file of objref %u, which no PIPE record before it has" :
			 "a pipe end, a memfd's or a deleted file's file (no path) of objref %u, which no PIPE, SHMEM or GHOST record before it has",
		       f->obj_objref);
	else if (!(cp->p.flags & CKPT_PIPE_FIFO) != !fifo)
		rd_bad(r, fifo ? "a FIFO's file (a path) naming pipe %u, which is no FIFO's" :
			 "a pipe end (no path) naming pipe %u, a FIFO's (its files have its path)",
		       f->obj_objref);
	else
		return cp;
	return NULL;
}

/*
 * Whether @f names a file's identity (a pipe end's, a memfd's and a deleted
 * file's file have none).
 */
static bool has_identity(const struct ckpt_hdr_file *f)
{
	return f->ino || f->dev || f->rdev || f->generation || f->size || f->mtime_sec ||
	       f->mtime_nsec;
}

/* A FILE record of a pipe end: its PIPE record's, each end once. */
static int pipe_end(struct reader *r, const struct ckpt_hdr_file *f)
{
	struct ci_pipe *cp = named_pipe(r, f, false);
	uint32_t acc = f->f_flags & 3;	/* O_ACCMODE */

	if (!cp)
		return -1;
	if (!S_ISFIFO(f->i_mode) || f->f_pos || (acc != 0 && acc != 1) ||
	    f->f_flags & ~(3U | SETFL_FLAGS | O_LARGEFILE_FLAG) || has_identity(f))
		return rd_bad(r, "a pipe end: mode %#o, flags %#o, an offset or a file's identity",
			      f->i_mode, f->f_flags);
	if (cp->ends[acc])
		return rd_bad(r, "the %s end of pipe %u named twice", acc ? "write" : "read",
			      f->obj_objref);
	cp->ends[acc] = true;
	return 0;
}

/*
 * A FILE record (no path) of a file open on an object restart makes again
 * (a memfd, a deleted file), @what ("a memfd's file") of the @obj ("memfd") of mode
 * @mode, with @more_flags allowed too: as restart's rstr_open_remade() opens it, as a reopen through
 * /proc/PID/fd would, no file's identity, the object's mode, flags a
 * reopen keeps (with O_PATH, none but O_LARGEFILE, as open() keeps them).
 */
static int remade_file(struct reader *r, const struct ckpt_hdr_file *f, const char *what,
		       const char *obj, uint32_t mode, uint32_t more_flags)
{
	if (has_identity(f))
		return rd_bad(r, "%s with a file's identity (ino %llu, dev %#x, rdev %#x, generation %u, size %llu or an mtime): all 0",
			      what, (unsigned long long)f->ino, f->dev, f->rdev, f->generation,
			      (unsigned long long)f->size);
	if (f->i_mode != mode)
		return rd_bad(r, "%s of mode %#o, its %s's is %#o", what, f->i_mode, obj, mode);
	if ((f->f_flags & 3) == 3)
		return rd_bad(r, "%s opened neither for reading nor for writing (flags %#o)", what,
			      f->f_flags);
	if (f->f_flags & ~(REMADE_FILE_FLAGS | more_flags))
		return rd_bad(r, "%s with flags %#o restart does not open a %s with (%#o)", what,
			      f->f_flags, obj, f->f_flags & ~(REMADE_FILE_FLAGS | more_flags));
	if (f->f_flags & O_PATH_FLAG && f->f_flags & ~(O_PATH_FLAG | O_LARGEFILE_FLAG))
		return rd_bad(r, "%s opened O_PATH with flags %#o beyond O_LARGEFILE (%#o): open() keeps no other",
			      what, f->f_flags, f->f_flags & ~(O_PATH_FLAG | O_LARGEFILE_FLAG));
	return 0;
}

/* A FILE record of a file open on a memfd (no path), @sh its SHMEM record. */
static int memfd_file(struct reader *r, const struct ckpt_hdr_file *f,
		      const struct ci_shmem *sh)
{
	if (!(sh->s.flags & CKPT_SHMEM_MEMFD))
		return rd_bad(r, "a memfd's file (no path) naming shmem %u, shared anonymous memory, no memfd",
			      f->obj_objref);
	return remade_file(r, f, "a memfd's file", "memfd",
			   S_IFREG | (sh->s.flags & CKPT_SHMEM_EXEC ? 0777 : 0666), 0);
}

/*
 * A FILE record of a file open on a deleted file (no path), @gh its GHOST
 * record: of the file's mode (a regular file's, the GHOST's permissions).
 */
static int ghost_file(struct reader *r, const struct ckpt_hdr_file *f,
		      const struct ci_ghost *gh)
{
	char what[MAX_PATH + 32];

	snprintf(what, sizeof(what), "a file of %s (deleted)", gh->path);
	/* an O_TMPFILE file keeps O_TMPFILE's O_DIRECTORY (0200000) in its flags */
	return remade_file(r, f, what, "deleted file", S_IFREG | gh->g.mode, 0200000);
}

/*
 * A FILE record of a file open on a FIFO, reopened by @path: its PIPE
 * record's (a FIFO's), any number of them, none writing to a FIFO whose
 * readers saw no writer.
 */
static int fifo_file(struct reader *r, const struct ckpt_hdr_file *f, const char *path)
{
	struct ci_pipe *cp = named_pipe(r, f, true);
	uint32_t acc = f->f_flags & 3;	/* O_ACCMODE */

	if (!cp)
		return -1;
	if (acc == 3)
		return rd_bad(r, "%s: a FIFO's file opened neither for reading nor for writing (flags %#o)",
			      path, f->f_flags);
	if (f->f_flags & ~FIFO_FLAGS)
		return rd_bad(r, "%s: a FIFO's file with flags %#o a FIFO is not reopened with (%#o)",
			      path, f->f_flags, f->f_flags & ~FIFO_FLAGS);
	if (cp->p.flags & CKPT_PIPE_NO_WRITER && acc != 0)
		return rd_bad(r, "%s: a FIFO's file opened for writing (flags %#o), its pipe %u saw no writer",
			      path, f->f_flags, f->obj_objref);
	cp->ends[0] |= acc != 1;
	cp->ends[1] |= acc != 0;
	cp->files++;
	cp->readers += acc != 1;
	cp->writers += acc != 0;
	return 0;
}

/*
 * A FILE record reopened by @path (a FIFO's among them): its flags those
 * open() is given again (a FIFO's: fifo_file()'s), rdev a character
 * device's only.
 */
static int path_file(struct reader *r, const struct ckpt_hdr_file *f, const char *path)
{
	if (f->obj_objref && (!S_ISFIFO(f->i_mode) || f->f_pos))
		return rd_bad(r, "%s: a FIFO's file: mode %#o, offset %lld: not a FIFO's, or not 0",
			      path, f->i_mode, (long long)f->f_pos);
	if (!f->obj_objref && f->f_flags & ~OPEN_FLAGS)
		return rd_bad(r, "%s: flags %#o: open() flags restart does not give back (%#o)",
			      path, f->f_flags, f->f_flags & ~OPEN_FLAGS);
	if (f->rdev && !S_ISCHR(f->i_mode))
		return rd_bad(r, "%s: rdev %#x on a file of mode %#o, no character device", path,
			      f->rdev, f->i_mode);
	return f->obj_objref ? fifo_file(r, f, path) : 0;
}

/* A FILE record: the image's, named by this process and any later one. */
int rd_file(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ci_file *cf;
	char *buf;

	if (r->rec.len <= sizeof(cf->f) || r->rec.len > sizeof(cf->f) + MAX_PATH)
		return rd_bad(r, "length out of range for a FILE record");
	buf = rd_payload_alloc(r);
	if (!buf)
		return -1;
	cf = rd_grow(img->files, &img->nr_files, sizeof(*cf), MAX_FILES);
	if (!cf) {
		free(buf);
		return rd_bad(r, "too many files");
	}
	img->files = cf;
	cf = &img->files[img->nr_files - 1];
	memcpy(&cf->f, buf, sizeof(cf->f));
	memmove(buf, buf + sizeof(cf->f), r->rec.len - sizeof(cf->f));
	cf->path = buf;
	cf->objref = r->rec.objref;
	cf->proc = img->nr_procs - 1;
	/*
	 * a pipe end's, a memfd's file's and a deleted file's file's path is
	 * empty, a FIFO's file's (a obj_objref too) a path
	 */
	if (cf->f.path_len != r->rec.len - sizeof(cf->f) ||
	    buf[cf->f.path_len - 1] || strlen(buf) != cf->f.path_len - 1 ||
	    (buf[0] ? buf[0] != '/' : !cf->f.obj_objref)) {
		cf->path = NULL;
		free(buf);
		img->nr_files--;
		return rd_bad(r, "path length, termination or not absolute (a pipe end's, a memfd's or a deleted file's: empty)");
	}
	img->procs[img->nr_procs - 1].nr_files++;
	if (!cf->f.obj_objref)
		cf->kind = CI_FILE_PATH;
	else if (buf[0])
		cf->kind = CI_FILE_FIFO;
	else if (ci_shmem_by_ref(img, cf->f.obj_objref))
		cf->kind = CI_FILE_MEMFD;
	else
		cf->kind = ci_ghost_by_ref(img, cf->f.obj_objref) ? CI_FILE_GHOST : CI_FILE_PIPE;
	if (cf->f.f_pos < 0)
		return rd_bad(r, "negative file offset");
	if (cf->kind == CI_FILE_MEMFD)
		return memfd_file(r, &cf->f, ci_shmem_by_ref(img, cf->f.obj_objref));
	if (cf->kind == CI_FILE_GHOST)
		return ghost_file(r, &cf->f, ci_ghost_by_ref(img, cf->f.obj_objref));
	if (cf->kind == CI_FILE_PIPE)
		return pipe_end(r, &cf->f);
	return path_file(r, &cf->f, buf);
}

struct ci_file *rd_anon_file(struct reader *r, uint32_t objref, uint32_t f_flags,
			     enum ci_file_kind kind)
{
	struct ci_image *img = r->img;
	struct ci_file *cf;
	char *empty = calloc(1, 1);

	if (!empty) {
		rd_bad(r, "out of memory");
		return NULL;
	}
	cf = rd_grow(img->files, &img->nr_files, sizeof(*cf), MAX_FILES);
	if (!cf) {
		free(empty);
		rd_bad(r, "too many files");
		return NULL;
	}
	img->files = cf;
	cf = &img->files[img->nr_files - 1];
	*cf = (struct ci_file){ .objref = objref, .proc = img->nr_procs - 1, .kind = kind,
				.path = empty, .f = { .f_flags = (kind == CI_FILE_INOTIFY ? 0 : 02) |
							       f_flags, .path_len = 1 } };
	img->procs[img->nr_procs - 1].nr_files++;
	return cf;
}

int rd_eventfd(struct reader *r)
{
	struct ckpt_hdr_eventfd e;
	struct ci_file *cf;

	if (rd_payload(r, &e, sizeof(e)))
		return -1;
	if (e.flags & ~CKPT_EVENTFD_SEMAPHORE || e.f_flags & ~SETFL_FLAGS)
		return rd_bad(r, "unknown flags %#x or f_flags %#x", e.flags, e.f_flags);
	cf = rd_anon_file(r, r->rec.objref, e.f_flags, CI_FILE_EVENTFD);
	if (!cf)
		return -1;
	cf->ev = e;
	return 0;
}

int rd_signalfd(struct reader *r)
{
	struct ckpt_hdr_signalfd s;
	struct ci_file *cf;

	if (rd_payload(r, &s, sizeof(s)))
		return -1;
	/* SIGKILL (9) and SIGSTOP (19) are never read */
	if (s.mask & (1ULL << 8 | 1ULL << 18) || s.f_flags & ~SETFL_FLAGS || s.__reserved)
		return rd_bad(r, "mask %#llx (SIGKILL or SIGSTOP), f_flags %#x or reserved field",
			      (unsigned long long)s.mask, s.f_flags);
	cf = rd_anon_file(r, r->rec.objref, s.f_flags, CI_FILE_SIGNALFD);
	if (!cf)
		return -1;
	cf->sfd = s;
	return 0;
}

int rd_timerfd(struct reader *r)
{
	const uint64_t max = INT64_MAX;
	struct ckpt_hdr_timerfd t;
	struct ci_file *cf;
	bool realtime;

	if (rd_payload(r, &t, sizeof(t)))
		return -1;
	/* CLOCK_REALTIME, CLOCK_REALTIME_ALARM: an absolute value is a deadline */
	realtime = t.clockid == 0 || t.clockid == 8;
	if (!ci_timerfd_clock_name(t.clockid) || t.f_flags & ~SETFL_FLAGS || t.__reserved ||
	    t.flags & ~(CKPT_TIMERFD_ABSTIME | CKPT_TIMERFD_CANCEL_ON_SET) ||
	    t.value > max || t.interval > max ||
	    (t.flags & CKPT_TIMERFD_ABSTIME && !realtime && t.value > max / 2))
		return rd_bad(r, "clock %d, flags %#x, f_flags %#x, reserved field or time out of range",
			      t.clockid, t.flags, t.f_flags);
	cf = rd_anon_file(r, r->rec.objref, t.f_flags, CI_FILE_TIMERFD);
	if (!cf)
		return -1;
	cf->tfd = t;
	return 0;
}

int rd_epoll(struct reader *r)
{
	struct ckpt_hdr_epoll e;

	if (rd_payload(r, &e, sizeof(e)))
		return -1;
	if (e.f_flags & ~SETFL_FLAGS || e.__reserved)
		return rd_bad(r, "f_flags %#x or reserved field", e.f_flags);
	return rd_anon_file(r, r->rec.objref, e.f_flags, CI_FILE_EPOLL) ? 0 : -1;
}

int rd_epoll_items(struct reader *r)
{
	struct ci_file *ep = (struct ci_file *)ci_file_by_ref(r->img, r->rec.objref);
	struct ckpt_epoll_item *items;
	size_t i, n = r->rec.len / sizeof(*items);

	if (!ep || ep->kind != CI_FILE_EPOLL || ep->epoll_items)
		return rd_bad(r, "objref %u: no EPOLL record before it, or its items twice",
			      r->rec.objref);
	if (!r->rec.len || r->rec.len % sizeof(*items))
		return rd_bad(r, "length %llu: not a whole number of items",
			      (unsigned long long)r->rec.len);
	items = rd_payload_alloc(r);
	if (!items)
		return -1;
	for (i = 0; i < n; i++) {
		const struct ci_file *tf = ci_file_by_ref(r->img, items[i].file_objref);

		if (!tf || tf->kind == CI_FILE_EPOLL || items[i].fd > INT32_MAX || items[i].__reserved) {
			rd_bad(r, "item %zu: fd %u, file objref %u (none before it, or an epoll instance) or reserved field",
			       i, items[i].fd, items[i].file_objref);
			free(items);
			return -1;
		}
	}
	ep->epoll_items = true;
	ep->items = items;
	ep->nr_items = n;
	return 0;
}

/* What a watch's mask may have: its events, the flags inotify_mark_user_mask() keeps */
#define WATCH_BITS	(IN_ALL_EVENTS | IN_EXCL_UNLINK | IN_ONESHOT)

/*
 * Watch @i of the INOTIFY record @h, as restart adds it again: its
 * descriptor above the one before (the first's 1 or more), its reserved
 * field 0, its file an O_PATH FILE record before it (of any file type),
 * its mask no bit beyond WATCH_BITS (0: a watch of no event, as one added
 * with flag bits only is saved).
 */
static int inotify_watch(struct reader *r, const struct ckpt_hdr_inotify *h, uint32_t i)
{
	const struct ckpt_inotify_watch *w = &h->watches[i];
	const struct ci_file *f = ci_file_by_ref(r->img, w->file_objref);
	int32_t prev = i ? h->watches[i - 1].wd : 0;

	if (w->wd <= prev)
		return rd_bad(r, "watch %u: wd %d, not above the one before (%d; the first 1 or more)",
			      i, w->wd, prev);
	if (w->__reserved)
		return rd_bad(r, "wd %d: reserved field %#x, not 0", w->wd, w->__reserved);
	if (!f)
		return rd_bad(r, "wd %d: file objref %u has no FILE record before it", w->wd,
			      w->file_objref);
	if (!(f->f.f_flags & O_PATH_FLAG))
		return rd_bad(r, "wd %d: file objref %u not opened O_PATH (flags %#o): a watch names the O_PATH FILE record of what it watches",
			      w->wd, w->file_objref, f->f.f_flags);
	if (w->mask & ~WATCH_BITS)
		return rd_bad(r, "wd %d: mask %#x: bits beyond IN_ALL_EVENTS|IN_EXCL_UNLINK|IN_ONESHOT (%#x)",
			      w->wd, w->mask, w->mask & ~WATCH_BITS);
	return 0;
}

/*
 * An INOTIFY record: the image's, an inotify instance in place of a FILE
 * record (FD records name it), as restart takes it: 16 bytes then 16 a
 * watch, up to CKPT_INOTIFY_MAX_WATCHES (max_len()), exactly nr_watches;
 * f_flags what fcntl(F_SETFL) sets (an EVENTFD's), next_wd any, the
 * reserved field 0; each watch as inotify_watch() says, in ascending wd
 * order.
 */
int rd_inotify(struct reader *r)
{
	struct ckpt_hdr_inotify *h;
	struct ci_file *cf;
	uint32_t i;

	static_assert(sizeof(*h) == 16 && sizeof(h->watches[0]) == 16,
		      "f_flags, nr_watches, next_wd, reserved; wd, mask, file_objref, reserved");
	if (r->rec.len < sizeof(*h))
		return rd_bad(r, "length %llu, shorter than an INOTIFY record (16 bytes)",
			      (unsigned long long)r->rec.len);
	h = rd_payload_alloc(r);
	if (!h)
		return -1;
	if (r->rec.len != sizeof(*h) + (uint64_t)h->nr_watches * sizeof(h->watches[0])) {
		rd_bad(r, "nr_watches %u, but length %llu (16 bytes, then 16 a watch)",
		       h->nr_watches, (unsigned long long)r->rec.len);
		goto bad;
	}
	if (h->f_flags & ~SETFL_FLAGS) {
		rd_bad(r, "f_flags %#o: more than fcntl(F_SETFL) sets (%#o)", h->f_flags,
		       h->f_flags & ~SETFL_FLAGS);
		goto bad;
	}
	if (h->__reserved) {
		rd_bad(r, "reserved field %#x, not 0", h->__reserved);
		goto bad;
	}
	for (i = 0; i < h->nr_watches; i++)
		if (inotify_watch(r, h, i))
			goto bad;
	cf = rd_anon_file(r, r->rec.objref, h->f_flags, CI_FILE_INOTIFY);
	if (!cf)
		goto bad;
	cf->ino = h;
	return 0;
bad:
	free(h);
	return -1;
}

int rd_lock(struct reader *r)
{
	struct ci_file *cf = (struct ci_file *)ci_file_by_ref(r->img, r->rec.objref);
	const int64_t max = INT64_MAX;	/* OFFSET_MAX: to the end of the file */
	struct ckpt_hdr_lock l, *locks;

	if (rd_payload(r, &l, sizeof(l)))
		return -1;
	/* a regular file or directory reopened by path, as restart wants */
	if (!cf || cf->kind != CI_FILE_PATH ||
	    !(S_ISREG(cf->f.i_mode) || S_ISDIR(cf->f.i_mode)))
		return rd_bad(r, "objref %u: no FILE record of a regular file or directory reopened by path before it",
			      r->rec.objref);
	if (l.kind == CKPT_LOCK_POSIX) {
		const struct ci_proc *p = &r->img->procs[r->img->nr_procs - 1];
		size_t i;

		/* its table's, after the table's FD record on the file */
		for (i = 0; i < p->nr_fds && p->fds[i].file_objref != r->rec.objref; i++)
			;
		if (!l.owner || l.owner != p->files_objref || i == p->nr_fds)
			return rd_bad(r, "a POSIX lock of owner %u: not the files table of the process (%u), or no FD record of it on the file before it",
				      l.owner, p->files_objref);
	} else if (l.owner) {
		return rd_bad(r, "owner %u on a lock the file owns", l.owner);
	}
	if (l.__reserved ||
	    (l.kind != CKPT_LOCK_FLOCK && l.kind != CKPT_LOCK_OFD && l.kind != CKPT_LOCK_POSIX) ||
	    (l.type != CKPT_LOCK_READ && l.type != CKPT_LOCK_WRITE) ||
	    l.start < 0 || l.end < l.start ||
	    (l.kind == CKPT_LOCK_FLOCK && (l.start || l.end != max)))
		return rd_bad(r, "kind %u, type %u, range %lld-%lld or reserved field",
			      l.kind, l.type, (long long)l.start, (long long)l.end);
	locks = rd_grow(cf->locks, &cf->nr_locks, sizeof(*locks), MAX_FILES);
	if (!locks)
		return rd_bad(r, "too many locks");
	cf->locks = locks;
	cf->locks[cf->nr_locks - 1] = l;
	return 0;
}

/*
 * What restart checks of a FOWN record: 16 bytes; its objref a file saved
 * before it (a FILE record's, an end of a UNIX_PAIR, a UNIX_SOCK's,
 * INET_SOCK's, EVENTFD's, SIGNALFD's, TIMERFD's or EPOLL's; checkpoint
 * writes it among the records of the process that saved the file, restart
 * does not check it), no FOWN before it for that file; an owner of
 * CKPT_FOWN_*, a signal of 0 (SIGIO) to 64, no flag but CKPT_FOWN_ASYNC,
 * a descriptor (0 or more) with it and -1 without; not all of owner,
 * signal and flags 0 (checkpoint writes none for such a file).
 */
int rd_fown(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ci_file *cf = (struct ci_file *)ci_file_by_ref(img, r->rec.objref);
	struct ckpt_hdr_fown o;

	static_assert(sizeof(o) == 16, "owner, signum, flags, fd");
	if (rd_payload(r, &o, sizeof(o)))
		return -1;
	if (!cf)
		return rd_bad(r, "objref %u names no file saved before it (a FILE record's, a UNIX_PAIR end's, a UNIX_SOCK's, INET_SOCK's, EVENTFD's, SIGNALFD's, TIMERFD's or EPOLL's; a PIPE, SHMEM or GHOST is none)",
			      r->rec.objref);
	if (cf->kind != CI_FILE_FIFO && cf->kind != CI_FILE_PIPE && cf->kind != CI_FILE_UNIX &&
	    cf->kind != CI_FILE_UNIX_SOCK && cf->kind != CI_FILE_INET)
		return rd_bad(r, "objref %u: not a pipe end, a FIFO's file or a socket (the files an owner, signal and O_ASYNC are saved for)",
			      r->rec.objref);
	if (cf->has_fown)
		return rd_bad(r, "a second FOWN record for file %u (one per file)", r->rec.objref);
	if (o.owner > CKPT_FOWN_THREAD)
		return rd_bad(r, "owner %u: not CKPT_FOWN_NONE, CKPT_FOWN_PROCESS or CKPT_FOWN_THREAD (0 to 2)",
			      o.owner);
	if (o.signum < 0 || o.signum > CKPT_NSIG)
		return rd_bad(r, "signal %d: not 0 (SIGIO) nor a signal (1 to %d)", o.signum,
			      CKPT_NSIG);
	if (o.flags & ~CKPT_FOWN_ASYNC)
		return rd_bad(r, "unknown flags %#x (only CKPT_FOWN_ASYNC, %#x)", o.flags,
			      CKPT_FOWN_ASYNC);
	if (o.flags & CKPT_FOWN_ASYNC ? o.fd < 0 : o.fd != -1)
		return rd_bad(r, "fd %d %s CKPT_FOWN_ASYNC: a descriptor (0 or more) with it, -1 without",
			      o.fd, o.flags & CKPT_FOWN_ASYNC ? "with" : "without");
	if (!o.owner && !o.signum && !o.flags)
		return rd_bad(r, "no owner, no signal and no O_ASYNC: a record that says nothing (checkpoint writes none for such a file)");
	cf->has_fown = true;
	cf->fown = o;
	return 0;
}

/*
 * A PIPE record: the image's, its ends (a FIFO's: the files open on it)
 * named by FILE records after it.
 */
int rd_pipe(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_pipe hp;
	struct ci_pipe *cp;

	if (rd_head(r, &hp, sizeof(hp)))
		return -1;
	if (hp.flags & ~(CKPT_PIPE_FIFO | CKPT_PIPE_NO_WRITER))
		return rd_bad(r, "unknown flags %#x", hp.flags);
	if (hp.flags & CKPT_PIPE_NO_WRITER && !(hp.flags & CKPT_PIPE_FIFO))
		return rd_bad(r, "flags %#x: no writer seen, on no FIFO's pipe", hp.flags);
	if (hp.__reserved)
		return rd_bad(r, "reserved field %#x, not 0", hp.__reserved);
	if (hp.size < PAGE_SIZE || hp.size > INT32_MAX || hp.size & (hp.size - 1) ||
	    hp.bytes > hp.size || r->rec.len != sizeof(hp) + (uint64_t)hp.bytes)
		return rd_bad(r, "size %u with %u bytes in flight (length %llu): not a power of two of pages, or more bytes than fit",
			      hp.size, hp.bytes, (unsigned long long)r->rec.len);
	if (rd_skip(r, hp.bytes, false) ||
	    rd_skip(r, ((hp.bytes + 7) & ~7ULL) - hp.bytes, true))
		return -1;
	cp = rd_grow(img->pipes, &img->nr_pipes, sizeof(*cp), MAX_PIPES);
	if (!cp)
		return rd_bad(r, "too many pipes");
	img->pipes = cp;
	img->pipes[img->nr_pipes - 1] = (struct ci_pipe){
		.objref = r->rec.objref, .proc = img->nr_procs - 1, .p = hp };
	return 0;
}

/*
 * The @size bytes and @nr_pages pages of an object restart makes again (a
 * SHMEM's, a GHOST's): @size not beyond MAX_LFS_FILESIZE (nor 0 if
 * @no_empty), no more pages than it holds; @why says so in the refusal.
 */
static int size_fits(struct reader *r, uint64_t size, uint64_t nr_pages, bool no_empty,
		     const char *why)
{
	if ((no_empty && !size) || size > MAX_LFS_FILESIZE ||
	    nr_pages > (size + PAGE_SIZE - 1) / PAGE_SIZE)
		return rd_bad(r, "size %llu with %llu pages: %s", (unsigned long long)size,
			      (unsigned long long)nr_pages, why);
	return 0;
}

/*
 * The record just read (@type, its objref) is an object of @size bytes
 * whose @nr_pages pages follow in PAGES records, counted in *@pages.
 */
static void pages_follow(struct reader *r, uint32_t type, uint64_t size, uint64_t nr_pages,
			 uint64_t *pages)
{
	r->obj.type = type;
	r->obj.objref = r->rec.objref;
	r->obj.size = size;
	r->obj.nr_pages = nr_pages;
	r->obj.pages = pages;
	r->next_page = 0;
}

/*
 * A memfd's SHMEM record @hs (after its flags, size and reserved field):
 * as memfd_create() makes one, its @name (the payload after @hs) as
 * long as name_len says, terminated there.
 */
static int memfd_ok(struct reader *r, const struct ckpt_hdr_shmem *hs, const char *name)
{
	if (!(hs->flags & CKPT_SHMEM_NORESERVE))
		return rd_bad(r, "flags %#x: a memfd without CKPT_SHMEM_NORESERVE (memfd_create() charges none)",
			      hs->flags);
	if (hs->seals & ~MEMFD_SEALS)
		return rd_bad(r, "a memfd's seals %#x: unknown seals %#x", hs->seals,
			      hs->seals & ~MEMFD_SEALS);
	if (!(hs->flags & CKPT_SHMEM_EXEC) && !(hs->seals & F_SEAL_EXEC_BIT))
		return rd_bad(r, "flags %#x, seals %#x: a memfd neither executable (CKPT_SHMEM_EXEC) nor sealed F_SEAL_EXEC",
			      hs->flags, hs->seals);
	if (!hs->name_len || hs->name_len > MEMFD_NAME_MAX)
		return rd_bad(r, "a memfd's name length %u, not 1 to %u", hs->name_len,
			      MEMFD_NAME_MAX);
	if (r->rec.len != sizeof(*hs) + hs->name_len)
		return rd_bad(r, "length %llu, expected %zu: a memfd's name of %u bytes after the record",
			      (unsigned long long)r->rec.len, sizeof(*hs) + hs->name_len,
			      hs->name_len);
	if (name[hs->name_len - 1] || strlen(name) != hs->name_len - 1)
		return rd_bad(r, "a memfd's name not NUL-terminated at its length %u, or with a NUL before",
			      hs->name_len);
	return 0;
}

/*
 * A SHMEM record: the image's, shared anonymous memory mapped by this
 * process and any later one, or a memfd a FILE record after it names.
 */
int rd_shmem(struct reader *r)
{
	struct ci_image *img = r->img;
	struct {
		struct ckpt_hdr_shmem hs;
		char name[MEMFD_NAME_MAX + 1];
	} buf = { .name = "" };
	const struct ckpt_hdr_shmem *hs = &buf.hs;
	struct ci_shmem *sh;
	char *name = NULL;

	static_assert(sizeof(buf.hs) == 32, "size, nr_pages, flags, seals, name_len, reserved");
	if (r->rec.len < sizeof(*hs) || r->rec.len > sizeof(*hs) + MEMFD_NAME_MAX)
		return rd_bad(r, "length %llu: not a SHMEM record (%zu bytes, then a memfd's name of up to %u)",
			      (unsigned long long)r->rec.len, sizeof(*hs), MEMFD_NAME_MAX);
	if (rd_payload(r, &buf, r->rec.len))
		return -1;
	if (hs->flags & ~(CKPT_SHMEM_NORESERVE | CKPT_SHMEM_MEMFD | CKPT_SHMEM_EXEC))
		return rd_bad(r, "unknown flags %#x", hs->flags);
	if (hs->__reserved)
		return rd_bad(r, "reserved field %#x, not 0", hs->__reserved);
	if (size_fits(r, hs->size, hs->nr_pages, !(hs->flags & CKPT_SHMEM_MEMFD),
		      "empty, too large or more pages than fit"))
		return -1;
	if (hs->flags & CKPT_SHMEM_MEMFD) {
		if (memfd_ok(r, hs, buf.name))
			return -1;
		name = strdup(buf.name);
		if (!name)
			return rd_bad(r, "out of memory");
	} else if (hs->seals || hs->name_len || hs->flags & CKPT_SHMEM_EXEC ||
		   r->rec.len != sizeof(*hs)) {
		return rd_bad(r, "seals %#x, name length %u, flags %#x, length %llu: a memfd's seals, name or exec flag on shared anonymous memory",
			      hs->seals, hs->name_len, hs->flags, (unsigned long long)r->rec.len);
	}
	sh = rd_grow(img->shmems, &img->nr_shmems, sizeof(*sh), MAX_SHMEMS);
	if (!sh) {
		free(name);
		return rd_bad(r, "too many shared memory objects");
	}
	img->shmems = sh;
	img->shmems[img->nr_shmems - 1] = (struct ci_shmem){
		.objref = r->rec.objref, .proc = img->nr_procs - 1, .s = *hs, .name = name };
	img->procs[img->nr_procs - 1].nr_shmems++;
	pages_follow(r, CKPT_HDR_SHMEM, hs->size, hs->nr_pages,
		     &img->shmems[img->nr_shmems - 1].pages);
	return 0;
}

/*
 * The ids @uid:@gid of @what's @role ("owner", "creator"), in the
 * checkpointing caller's user namespace: -1 is none, and restart finds
 * no id for it.
 */
static int ids_ok(struct reader *r, const char *what, const char *role, uint32_t uid,
		  uint32_t gid)
{
	if (uid == UINT32_MAX || gid == UINT32_MAX)
		return rd_bad(r, "%s: %s %u:%u, and -1 is no user or group id", what, role, uid,
			      gid);
	return 0;
}

/*
 * A GHOST record: the image's, a deleted file the FILE records after it
 * name, as restart makes it again: no flag but CKPT_GHOST_LINKABLE, the
 * reserved field 0, the path it had absolute, ending in a name and
 * NUL-terminated at its length, a mode of permissions only, its size and
 * pages as a memfd's, an owner that has ids.
 */
bool ci_path_names_file(const char *path)
{
	const char *last = strrchr(path, '/');

	return path[0] == '/' && last[1] && strcmp(last, "/.") && strcmp(last, "/..");
}

int rd_ghost(struct reader *r)
{
	struct ci_image *img = r->img;
	struct {
		struct ckpt_hdr_ghost hg;
		char path[MAX_PATH];
	} buf;
	const struct ckpt_hdr_ghost *hg = &buf.hg;
	struct ci_ghost *gh;
	char *path;

	static_assert(sizeof(buf.hg) == 40, "size, nr_pages, mode, uid, gid, path_len, flags, reserved");
	if (r->rec.len <= sizeof(*hg) || r->rec.len > sizeof(*hg) + MAX_PATH)
		return rd_bad(r, "length %llu: not a GHOST record (%zu bytes, then a path of up to %u with its NUL)",
			      (unsigned long long)r->rec.len, sizeof(*hg), (unsigned int)MAX_PATH);
	if (rd_payload(r, &buf, r->rec.len))
		return -1;
	if (hg->flags & ~CKPT_GHOST_LINKABLE)
		return rd_bad(r, "unknown flags %#x", hg->flags);
	if (hg->__reserved)
		return rd_bad(r, "reserved field %#x, not 0", hg->__reserved);
	if (hg->path_len != r->rec.len - sizeof(*hg))
		return rd_bad(r, "path length %u, expected %llu: the path fills the record after its %zu bytes",
			      hg->path_len, (unsigned long long)(r->rec.len - sizeof(*hg)),
			      sizeof(*hg));
	if (buf.path[hg->path_len - 1] || strlen(buf.path) != hg->path_len - 1)
		return rd_bad(r, "a deleted file's path not NUL-terminated at its length %u, or with a NUL before",
			      hg->path_len);
	if (!ci_path_names_file(buf.path))
		return rd_bad(r, "a deleted file's path \"%s\": not absolute, or not ending in a name",
			      buf.path);
	if (hg->mode & ~07777U)
		return rd_bad(r, "%s: mode %#o, more than permissions (07777)", buf.path, hg->mode);
	if (size_fits(r, hg->size, hg->nr_pages, false, "too large or more pages than fit"))
		return -1;
	if (ids_ok(r, buf.path, "owner", hg->uid, hg->gid))
		return -1;
	path = strdup(buf.path);
	if (!path)
		return rd_bad(r, "out of memory");
	gh = rd_grow(img->ghosts, &img->nr_ghosts, sizeof(*gh), MAX_GHOSTS);
	if (!gh) {
		free(path);
		return rd_bad(r, "too many deleted files");
	}
	img->ghosts = gh;
	img->ghosts[img->nr_ghosts - 1] = (struct ci_ghost){
		.objref = r->rec.objref, .proc = img->nr_procs - 1, .g = *hg, .path = path };
	img->procs[img->nr_procs - 1].nr_ghosts++;
	pages_follow(r, CKPT_HDR_GHOST, hg->size, hg->nr_pages,
		     &img->ghosts[img->nr_ghosts - 1].pages);
	return 0;
}

/*
 * A SYSVSHM record: the image's, a SysV shared memory segment the
 * SHM_ATTACH records after it name, as restart takes it: 72 bytes, an id
 * (0 or more), a size of 1 byte to MAX_LFS_FILESIZE with no more pages
 * than it holds (a SHMEM's), a mode of permissions only, no flag but
 * CKPT_SYSVSHM_REMOVED and CKPT_SYSVSHM_NORESERVE, a removed segment's key
 * IPC_PRIVATE (IPC_RMID made it so), an owner and a creator that have ids.
 */
int rd_sysvshm(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_sysvshm hs;
	struct ci_sysvshm *seg;
	char what[32];

	static_assert(sizeof(hs) == 72, "id, key, size, nr_pages, owner, creator, mode, flags, times");
	if (rd_payload(r, &hs, sizeof(hs)))
		return -1;
	if (hs.id < 0)
		return rd_bad(r, "segment id %d: no IPC id (0 or more)", hs.id);
	snprintf(what, sizeof(what), "segment %d", hs.id);
	if (size_fits(r, hs.size, hs.nr_pages, true, "empty, too large or more pages than fit"))
		return -1;
	if (hs.mode & ~0777U)
		return rd_bad(r, "%s: mode %#o, more than permissions (0777)", what, hs.mode);
	if (hs.flags & ~(CKPT_SYSVSHM_REMOVED | CKPT_SYSVSHM_NORESERVE))
		return rd_bad(r, "%s: unknown flags %#x", what, hs.flags);
	if (hs.flags & CKPT_SYSVSHM_REMOVED && hs.key)
		return rd_bad(r, "%s: removed (CKPT_SYSVSHM_REMOVED) with key %#x: IPC_RMID leaves a segment the key IPC_PRIVATE (0)",
			      what, (uint32_t)hs.key);
	if (ids_ok(r, what, "owner", hs.uid, hs.gid) ||
	    ids_ok(r, what, "creator", hs.cuid, hs.cgid))
		return -1;
	seg = rd_grow(img->sysvshms, &img->nr_sysvshms, sizeof(*seg), MAX_SYSVSHMS);
	if (!seg)
		return rd_bad(r, "too many SysV shared memory segments");
	img->sysvshms = seg;
	seg = &img->sysvshms[img->nr_sysvshms - 1];
	*seg = (struct ci_sysvshm){ .objref = r->rec.objref, .proc = img->nr_procs - 1, .s = hs };
	pages_follow(r, CKPT_HDR_SYSVSHM, hs.size, hs.nr_pages, &seg->pages);
	return 0;
}

/*
 * A SHM_ATTACH record: the image's, one shmat() of a segment, named by
 * the VMAs after it (in this process and any later one): 8 bytes, the
 * objref of a SYSVSHM record before it, no flag but
 * CKPT_SHM_ATTACH_RDONLY.
 */
int rd_shm_attach(struct reader *r)
{
	struct ci_image *img = r->img;
	struct ckpt_hdr_shm_attach ha;
	struct ci_shm_attach *at;
	struct ci_sysvshm *seg;

	static_assert(sizeof(ha) == 8, "shm_objref, flags");
	if (rd_payload(r, &ha, sizeof(ha)))
		return -1;
	seg = (struct ci_sysvshm *)ci_sysvshm_by_ref(img, ha.shm_objref);
	if (!seg)
		return rd_bad(r, "segment objref %u has no SYSVSHM record before it",
			      ha.shm_objref);
	if (ha.flags & ~CKPT_SHM_ATTACH_RDONLY)
		return rd_bad(r, "unknown flags %#x (only CKPT_SHM_ATTACH_RDONLY, %#x)", ha.flags,
			      CKPT_SHM_ATTACH_RDONLY);
	at = rd_grow(img->shm_attaches, &img->nr_shm_attaches, sizeof(*at), MAX_SHM_ATTACHES);
	if (!at)
		return rd_bad(r, "too many SysV shared memory attaches");
	img->shm_attaches = at;
	img->shm_attaches[img->nr_shm_attaches - 1] = (struct ci_shm_attach){
		.objref = r->rec.objref, .proc = img->nr_procs - 1, .a = ha };
	seg->attaches++;
	return 0;
}

int rd_fd(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_fd d, *fds;

	if (rd_payload(r, &d, sizeof(d)))
		return -1;
	if (!ci_file_by_ref(r->img, d.file_objref))
		return rd_bad(r, "fd %u names objref %u, which no FILE record before it has",
			      d.fd, d.file_objref);
	if (d.flags & ~CKPT_FD_CLOEXEC)
		return rd_bad(r, "unknown fd flags %#x", d.flags);
	if (p->nr_fds && d.fd <= p->fds[p->nr_fds - 1].fd)
		return rd_bad(r, "fd %u out of order", d.fd);
	fds = rd_grow(p->fds, &p->nr_fds, sizeof(d), MAX_FDS);
	if (!fds)
		return rd_bad(r, "too many fds");
	p->fds = fds;
	p->fds[p->nr_fds - 1] = d;
	return 0;
}

int rd_mm(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_mm *m = &p->mm;

	if (rd_payload(r, m, sizeof(*m)))
		return -1;
	if (m->exe_objref && reg_file(r, "executable", m->exe_objref))
		return -1;
	if (m->nr_vmas > MAX_VMAS)
		return rd_bad(r, "%u VMAs", m->nr_vmas);
	if (m->start_code > m->end_code || m->start_brk > m->brk ||
	    m->arg_start > m->arg_end || m->env_start > m->env_end)
		return rd_bad(r, "inconsistent mm fields (a start after its end)");
	/* mlockall(MCL_FUTURE)'s, with MCL_ONFAULT or not, as restart wants */
	if (!ci_lock_flags_valid(m->def_flags))
		return rd_bad(r, "def_flags %#llx: not 0, VM_LOCKED, or VM_LOCKED with VM_LOCKONFAULT (mlockall(MCL_FUTURE))",
			      (unsigned long long)m->def_flags);
	if (m->coredump_filter & ~0x1ffU || m->flags & ~(CKPT_MM_THP_DISABLE | CKPT_MM_MDWE |
							 CKPT_MM_MDWE_NO_INHERIT |
							 CKPT_MM_MERGE_ANY) ||
	    (m->flags & CKPT_MM_MDWE_NO_INHERIT && !(m->flags & CKPT_MM_MDWE)))
		return rd_bad(r, "coredump_filter %#x, flags %#x", m->coredump_filter, m->flags);
	return 0;
}

/*
 * A CKPT_VMA_SHARED_ANON VMA @v: its SHMEM record before it, shared
 * anonymous memory's (a memfd is mapped through a file open on it), its
 * flags shared memory's.
 */
static int shared_anon_vma(struct reader *r, const struct ckpt_hdr_vma *v)
{
	const struct ci_shmem *sh = ci_shmem_by_ref(r->img, v->file_objref);

	if (!sh)
		return rd_bad(r, "shared memory objref %u has no SHMEM record before it",
			      v->file_objref);
	if (sh->s.flags & CKPT_SHMEM_MEMFD)
		return rd_bad(r, "shared memory objref %u is a memfd's SHMEM record: a memfd is mapped through a FILE record (a shared-file or file VMA)",
			      v->file_objref);
	if ((~v->vm_flags & (VM_SHARED | VM_MAYSHARE)) || v->vm_flags & VM_NOT_SHARED)
		return rd_bad(r, "vm_flags %#llx: shared memory without VM_SHARED and VM_MAYSHARE, or growing down, accounted or wiped on fork",
			      (unsigned long long)v->vm_flags);
	return 0;
}

/*
 * The flags of the VMA @v, @what ("a shared file mapping"), as restart
 * gives a shared mapping back: VM_MAYSHARE, none beyond its CKPT_VM_FLAGS,
 * VM_SHARED and VM_MAYSHARE, not growing down, accounted or wiped on fork.
 */
static int shared_flags(struct reader *r, const struct ckpt_hdr_vma *v, const char *what)
{
	if (v->vm_flags & ~(VM_FLAGS | VM_SHARED | VM_MAYSHARE) ||
	    v->vm_flags & VM_NOT_SHARED || !(v->vm_flags & VM_MAYSHARE))
		return rd_bad(r, "vm_flags %#llx: %s without VM_MAYSHARE, growing down, accounted, wiped on fork or with flags restart does not give back",
			      (unsigned long long)v->vm_flags, what);
	return 0;
}

/*
 * A CKPT_VMA_SHARED_FILE VMA @v: its flags a shared file mapping's, its
 * FILE record a regular file's open as mmap(MAP_SHARED) wants it (for
 * reading; for writing iff VM_SHARED, which a writable mapping needs),
 * a memfd's not sealed against writes if writable (a memfd's or a deleted
 * file's file is a regular file's).
 */
static int shared_file_vma(struct reader *r, const struct ckpt_hdr_vma *v)
{
	const struct ci_file *f = ci_file_by_ref(r->img, v->file_objref);
	const struct ci_shmem *sh = ci_file_memfd(r->img, f);
	uint32_t acc = f ? f->f.f_flags & 3 : 0;	/* O_ACCMODE */
	const char *name;
	char buf[CI_NAME_MAX];

	if (shared_flags(r, v, "a shared file mapping") || reg_file(r, "file", v->file_objref))
		return -1;
	name = ci_file_name(r->img, f, buf, sizeof(buf));
	if (f->f.f_flags & O_PATH_FLAG)
		return rd_bad(r, "a shared mapping of %s, opened O_PATH (flags %#o)", name,
			      f->f.f_flags);
	if (acc != 0 && acc != 2)
		return rd_bad(r, "a shared mapping of %s, not open for reading (flags %#o)", name,
			      f->f.f_flags);
	if (v->vm_flags & VM_WRITE && !(v->vm_flags & VM_SHARED))
		return rd_bad(r, "vm_flags %#llx: a writable shared mapping of %s without VM_SHARED",
			      (unsigned long long)v->vm_flags, name);
	if (!(v->vm_flags & VM_SHARED) != (acc != 2))
		return rd_bad(r, "vm_flags %#llx: VM_SHARED %s, but %s is open %s (flags %#o): mmap() gives VM_SHARED to a file open for writing only",
			      (unsigned long long)v->vm_flags, v->vm_flags & VM_SHARED ? "set" : "clear",
			      name, acc == 2 ? "for reading and writing" : "read-only", f->f.f_flags);
	if (sh && v->vm_flags & VM_WRITE && sh->s.seals & F_SEAL_WRITES)
		return rd_bad(r, "a writable shared mapping of %s, a memfd sealed against writes (seals %#x)",
			      name, sh->s.seals);
	return 0;
}

/*
 * A CKPT_VMA_SYSVSHM VMA @v: its SHM_ATTACH record before it (in this
 * process's records or an earlier one's), its flags a shared mapping's
 * (shared_flags()), VM_SHARED set if and only if the attach is
 * read-write, as shmat() maps it, and a writable one VM_SHARED (mmap()
 * maps a read-only attach's file writable for no one).
 */
static int sysvshm_vma(struct reader *r, const struct ckpt_hdr_vma *v)
{
	const struct ci_shm_attach *at = ci_shm_attach_by_ref(r->img, v->file_objref);
	const struct ci_sysvshm *seg;
	bool rdonly;

	if (!at)
		return rd_bad(r, "SysV shared memory attach objref %u has no SHM_ATTACH record before it",
			      v->file_objref);
	if (shared_flags(r, v, "a SysV shared memory mapping"))
		return -1;
	seg = ci_sysvshm_by_ref(r->img, at->a.shm_objref);
	rdonly = at->a.flags & CKPT_SHM_ATTACH_RDONLY;
	if (v->vm_flags & VM_WRITE && !(v->vm_flags & VM_SHARED))
		return rd_bad(r, "vm_flags %#llx: a writable mapping of segment %d (attach %u) without VM_SHARED",
			      (unsigned long long)v->vm_flags, seg->s.id, at->objref);
	if (!(v->vm_flags & VM_SHARED) != rdonly)
		return rd_bad(r, "vm_flags %#llx: VM_SHARED %s, but attach %u of segment %d is %s: shmat() maps a read-write attach VM_SHARED, a read-only one (SHM_RDONLY) without it",
			      (unsigned long long)v->vm_flags, v->vm_flags & VM_SHARED ? "set" : "clear",
			      at->objref, seg->s.id, rdonly ? "read-only" : "read-write");
	return 0;
}

int rd_vma(struct reader *r, struct ci_proc *p)
{
	uint64_t prev_end = p->nr_vmas ? p->vmas[p->nr_vmas - 1].v.end : 0;
	struct ckpt_hdr_vma v;
	struct ci_vma *vmas;

	if (rd_payload(r, &v, sizeof(v)))
		return -1;
	if (v.start >= v.end || v.start % PAGE_SIZE || v.end % PAGE_SIZE ||
	    v.start < prev_end)
		return rd_bad(r, "range %#llx-%#llx empty, unaligned or overlapping the one before",
			      (unsigned long long)v.start, (unsigned long long)v.end);
	if (v.kind < CKPT_VMA_ANON || v.kind > CKPT_VMA_SYSVSHM)
		return rd_bad(r, "unknown VMA kind %u", v.kind);
	/* mlock() leaves the vDSO alone */
	if (!ci_lock_flags_valid(v.vm_flags & (CI_VM_LOCKED | CI_VM_LOCKONFAULT)) ||
	    (v.vm_flags & CI_VM_LOCKED && (v.kind == CKPT_VMA_VDSO || v.kind == CKPT_VMA_VVAR)))
		return rd_bad(r, "vm_flags %#llx: VM_LOCKONFAULT without VM_LOCKED, or a locked vDSO",
			      (unsigned long long)v.vm_flags);
	if (v.kind == CKPT_VMA_FILE && reg_file(r, "file", v.file_objref))
		return -1;
	if (v.kind == CKPT_VMA_SHARED_ANON && shared_anon_vma(r, &v))
		return -1;
	if (v.kind == CKPT_VMA_SHARED_FILE && shared_file_vma(r, &v))
		return -1;
	if (v.kind == CKPT_VMA_SYSVSHM && sysvshm_vma(r, &v))
		return -1;
	if (v.nr_pages > (v.end - v.start) / PAGE_SIZE ||
	    (v.nr_pages && v.kind != CKPT_VMA_ANON && v.kind != CKPT_VMA_FILE))
		return rd_bad(r, "%llu pages do not fit this VMA",
			      (unsigned long long)v.nr_pages);
	vmas = rd_grow(p->vmas, &p->nr_vmas, sizeof(*vmas), MAX_VMAS);
	if (!vmas)
		return rd_bad(r, "too many VMAs");
	p->vmas = vmas;
	p->vmas[p->nr_vmas - 1] = (struct ci_vma){ .v = v };
	r->next_page = v.start;
	return 0;
}

/*
 * A PAGES record of the VMA, SHMEM or GHOST before it (@what): its pages, up to
 * @want in all with the *@have of its records before, at page-aligned
 * @unit ("address", a SHMEM's "offset") values below @end, ascending
 * across its records from r->next_page.
 */
static int read_pages(struct reader *r, const char *what, const char *unit,
		      uint64_t end, uint64_t want, uint64_t *have)
{
	uint64_t start = r->pos, addr, meta, i;
	struct ckpt_hdr_pages hp;

	if (r->rec.len < sizeof(hp))
		return rd_bad(r, "too short for a PAGES record");
	if (rd_get(r, &hp, sizeof(hp)))
		return -1;
	if (!hp.nr_pages || hp.nr_pages > 512)
		return rd_bad(r, "%llu pages in one record (1 to 512)",
			      (unsigned long long)hp.nr_pages);
	meta = sizeof(hp) + hp.nr_pages * 8;
	/* the pages right after the addresses, or padded to a page boundary */
	if (hp.data_offset < meta ||
	    (hp.data_offset != meta &&
	     ((start + hp.data_offset) % PAGE_SIZE || hp.data_offset - meta >= PAGE_SIZE)) ||
	    r->rec.len != hp.data_offset + hp.nr_pages * PAGE_SIZE)
		return rd_bad(r, "data offset %llu or length inconsistent with %llu pages",
			      (unsigned long long)hp.data_offset,
			      (unsigned long long)hp.nr_pages);
	if (*have + hp.nr_pages > want)
		return rd_bad(r, "more pages than its %s record says (%llu)", what,
			      (unsigned long long)want);
	for (i = 0; i < hp.nr_pages; i++) {
		if (rd_get(r, &addr, sizeof(addr)))
			return -1;
		if (addr < r->next_page || addr >= end || addr % PAGE_SIZE)
			return rd_bad(r, "page %s %#llx outside its %s or out of order",
				      unit, (unsigned long long)addr, what);
		r->next_page = addr + PAGE_SIZE;
	}
	*have += hp.nr_pages;
	r->img->pages += hp.nr_pages;
	if (rd_skip(r, hp.data_offset - meta, true))
		return -1;
	return rd_skip(r, hp.nr_pages * PAGE_SIZE, false);
}

int rd_pages(struct reader *r, struct ci_proc *p)
{
	struct ci_vma *cv = &p->vmas[p->nr_vmas - 1];
	uint64_t before = cv->pages;
	int ret = read_pages(r, "VMA", "address", cv->v.end, cv->v.nr_pages, &cv->pages);

	p->pages += cv->pages - before;
	return ret;
}

int rd_obj_pages(struct reader *r)
{
	return read_pages(r, ci_type_name(r->obj.type), "offset", r->obj.size,
			  r->obj.nr_pages, r->obj.pages);
}

int rd_xstate(struct reader *r, uint64_t *features)
{
	struct ci_image *img = r->img;
	unsigned char *buf;
	uint64_t xcomp;

	if (r->rec.len != img->arch.xstate_size || r->rec.len < 576)
		return rd_bad(r, "length %llu, the ARCH record says %u",
			      (unsigned long long)r->rec.len, img->arch.xstate_size);
	buf = rd_payload_alloc(r);
	if (!buf)
		return -1;
	memcpy(features, buf + 512, 8);
	memcpy(&xcomp, buf + 520, 8);
	free(buf);
	img->xstate_len = r->rec.len;
	if (*features & ~img->arch.xfeatures || xcomp)
		return rd_bad(r, "XSAVE header features %#llx beyond the ARCH record's, or compacted",
			      (unsigned long long)*features);
	return 0;
}
