// SPDX-License-Identifier: GPL-2.0
/*
 * ckptinfo's human-readable output: the summary (the image, the process
 * tree, each live process's sections) and --records.
 */
#include "image.h"

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

/*
 * "2023-11-14 22:13:20 UTC": @t, seconds since the epoch, in @when; "time
 * N" for a time no calendar holds (gmtime() NULL).
 */
static const char *utc(char when[64], int64_t t)
{
	time_t tt = t;
	struct tm *tm = gmtime(&tt);

	if (!tm || !strftime(when, 64, "%Y-%m-%d %H:%M:%S UTC", tm))
		snprintf(when, 64, "time %" PRIu64, (uint64_t)t);
	return when;
}

/* The descriptors of @p that share its fd @i's open file: "shared with 1, 2". */
static void print_shared(FILE *out, const struct ci_proc *p, size_t i)
{
	const char *sep = "  shared with ";
	size_t j;

	for (j = 0; j < p->nr_fds; j++)
		if (j != i && p->fds[j].file_objref == p->fds[i].file_objref) {
			fprintf(out, "%s%u", sep, p->fds[j].fd);
			sep = ", ";
		}
}

/* "creds: uid 1000 (all four), gid 1000 (all four), groups 1000 24, caps ..." */
static void print_creds(FILE *out, const struct ci_proc *p)
{
	const struct ckpt_hdr_creds *c = &p->creds;
	uint32_t i;

	fprintf(out, "creds: uid %u euid %u suid %u fsuid %u, gid %u egid %u sgid %u fsgid %u\n",
		c->uid, c->euid, c->suid, c->fsuid, c->gid, c->egid, c->sgid, c->fsgid);
	fputs("  groups", out);
	for (i = 0; i < c->nr_groups; i++)
		fprintf(out, " %u", p->groups[i]);
	fprintf(out, "%s\n  caps effective %#" PRIx64 " permitted %#" PRIx64
		" inheritable %#" PRIx64 " ambient %#" PRIx64 " bounding %#" PRIx64
		", securebits %#x%s\n", c->nr_groups ? "" : " none",
		(uint64_t)c->cap_effective, (uint64_t)c->cap_permitted,
		(uint64_t)c->cap_inheritable, (uint64_t)c->cap_ambient,
		(uint64_t)c->cap_bset, c->securebits,
		c->flags & CKPT_CREDS_NO_NEW_PRIVS ? ", no_new_privs" : "");
}

/* A limit's value: "inf", or bytes with the largest exact suffix ("8M"). */
static void print_limit(FILE *out, unsigned int i, uint64_t v)
{
	static const char suffix[] = "KMGTPE";
	int n = -1;

	if (v == CI_RLIM_INFINITY) {
		fputs("inf", out);
		return;
	}
	while (ci_rlimit_bytes(i) && v && !(v % 1024) && n < 5) {
		v /= 1024;
		n++;
	}
	fprintf(out, "%" PRIu64, v);
	if (n >= 0)
		fputc(suffix[n], out);
}

/*
 * "limits: STACK 8M/inf, NOFILE 1024/4096 (others unlimited)": soft/hard,
 * each limit not unlimited, in RLIMIT_* order; bytes with K, M, G...
 */
static void print_rlimits(FILE *out, const struct ckpt_hdr_rlimits *l)
{
	const char *sep = " ";
	unsigned int i, shown = 0;

	fputs("limits:", out);
	for (i = 0; i < CKPT_RLIM_NLIMITS; i++) {
		if (l->rlim[i].cur == CI_RLIM_INFINITY && l->rlim[i].max == CI_RLIM_INFINITY)
			continue;
		fprintf(out, "%s%s ", sep, ci_rlimit_name(i, false));
		print_limit(out, i, l->rlim[i].cur);
		fputc('/', out);
		print_limit(out, i, l->rlim[i].max);
		sep = ", ";
		shown++;
	}
	if (!shown)
		fputs(" all unlimited\n", out);
	else if (shown < CKPT_RLIM_NLIMITS)
		fputs(" (others unlimited)\n", out);
	else
		fputc('\n', out);
}

/* "fs: cwd /tmp, root the restarter's, umask 0022" */
static void print_fs(FILE *out, const struct ci_image *img, const struct ci_proc *p)
{
	const struct ci_proc *o = p->fs_from == CI_NONE ? p : &img->procs[p->fs_from];

	fprintf(out, "fs: cwd %s, root %s, umask %04o",
		ci_file_by_ref(img, o->fs.cwd_objref)->path,
		o->fs.root_objref ? ci_file_by_ref(img, o->fs.root_objref)->path :
				    "the restarter's", o->fs.umask);
	if (o != p)
		fprintf(out, " (shared with %d: CLONE_FS)", o->task.pid);
	fputc('\n', out);
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

/*
 * "signals pending: SIGUSR1 (process, SI_USER from 52), SIGRTMIN+0 (thread
 * 57, SI_QUEUE from 52, value 7) x2": each in image order (a run of equal
 * ones once, with its count); "none".
 */
static void print_pending(FILE *out, const struct ci_proc *p)
{
	size_t i, n;

	fputs("signals pending:", out);
	if (!p->nr_pending)
		fputs(" none", out);
	for (i = 0; i < p->nr_pending; i += n) {
		const struct ckpt_sigpending *e = &p->pending[i];
		struct ci_siginfo si;
		char name[16];

		for (n = 1; i + n < p->nr_pending && !memcmp(e, e + n, sizeof(*e)); n++)
			;
		ci_siginfo(e, &si);
		fprintf(out, "%s %s (", i ? "," : "", ci_signal_name(e->signo, name));
		if (e->tid)
			fprintf(out, "thread %d, ", e->tid);
		else
			fputs("process, ", out);
		if (si.code)
			fputs(si.code, out);
		else
			fprintf(out, "code %d", e->code);
		if (si.sender && si.pid)
			fprintf(out, " from %d", si.pid);
		else if (si.sender)
			fputs(", no sender", out);
		/* sival_int, unless sival_ptr is more than its sign or zero extension */
		if (si.value && (!(si.value_ptr >> 32) || (int64_t)si.value_ptr == si.value_int))
			fprintf(out, ", value %d", si.value_int);
		else if (si.value)
			fprintf(out, ", value %#" PRIx64, si.value_ptr);
		fputc(')', out);
		if (n > 1)
			fprintf(out, " x%zu", n);
	}
	fputc('\n', out);
}

/* "  thread 1235 "worker": blocked 0x0, altstack 0x...+8192, fs_base 0x..." */
/* "1.950 s" */
static void print_ns(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%03" PRIu64 " s", ns / 1000000000, ns / 1000000 % 1000);
}

/*
 * "timers: real 1.950 s left, every 1.000 s; virtual ...; prof ...":
 * the armed interval timers; "none armed".
 */
static void print_itimers(FILE *out, const struct ckpt_hdr_itimers *h)
{
	const char *sep = " ";
	unsigned int i;

	fputs("timers:", out);
	for (i = 0; i < CKPT_NR_ITIMERS; i++) {
		if (!h->it[i].value)
			continue;
		fprintf(out, "%s%s ", sep, ci_itimer_name(i));
		print_ns(out, h->it[i].value);
		fputs(" left", out);
		if (h->it[i].interval) {
			fputs(", every ", out);
			print_ns(out, h->it[i].interval);
		}
		sep = "; ";
	}
	fputs(*sep == ' ' ? " none armed\n" : "\n", out);
}

/*
 * "posix timer 0: CLOCK_MONOTONIC, signal 10 (value 0x6f), 1.950 s left,
 * every 1.000 s, signal pending": one line a POSIX timer.
 */
static void print_posix_timers(FILE *out, const struct ci_proc *p)
{
	const struct ckpt_posix_timer *e;
	size_t i;

	for (i = 0; i < p->nr_posix; i++) {
		e = &p->posix[i];
		fprintf(out, "posix timer %d: %s, ", e->id, ci_posix_clock_name(e->clock));
		if (e->notify == SIGEV_NONE)
			fputs("no signal", out);
		else
			fprintf(out, "signal %d (value %#llx)", e->signo,
				(unsigned long long)e->sigval);
		if (e->tid)
			fprintf(out, " to thread %d", e->tid);
		if (!e->value) {
			fputs(", disarmed", out);
		} else if (e->flags & CKPT_POSIX_TIMER_ABSTIME) {
			fputs(", until CLOCK_REALTIME ", out);
			print_ns(out, e->value);
		} else {
			fputs(", ", out);
			print_ns(out, e->value);
			fputs(" left", out);
		}
		if (e->interval) {
			fputs(", every ", out);
			print_ns(out, e->interval);
		}
		if (e->flags & CKPT_POSIX_TIMER_PENDING)
			fputs(e->flags & CKPT_POSIX_TIMER_REARM ?
			      ", signal pending (its delivery arms it again)" : ", signal pending", out);
		fputc('\n', out);
	}
}

/*
 * ", in nanosleep (CLOCK_MONOTONIC), 1.950 s left": the sleep a task goes
 * on with after restart; nothing if none.
 */
static void print_sleep(FILE *out, const struct ckpt_restart_block *c)
{
	if (!ci_restart_name(c->kind))
		return;
	fprintf(out, ", in %s", ci_restart_name(c->kind));
	if (c->kind == CKPT_RESTART_NANOSLEEP)
		fprintf(out, " (%s)", ci_clock_name(c->clockid));
	if (c->kind == CKPT_RESTART_FUTEX_WAIT && c->flags & CKPT_FUTEX_CLOCKRT) {
		fputs(", until CLOCK_REALTIME ", out);
		print_ns(out, c->timeout);
	} else if (c->timeout >= 0) {
		fputs(", ", out);
		print_ns(out, c->timeout);
		fputs(" left", out);
	} else {
		fputs(", no timeout", out);
	}
}

/*
 * "SCHED_BATCH nice 5, reset on fork, personality 0x40000, pdeath signal
 * 10, timer slack 50000 ns, CPUs 0,2-3, I/O best-effort 4, MCE kill early":
 * a task's own attributes (personality, the signal, reset on fork, CPUs,
 * I/O priority and MCE policy only when set; the timer slack's default
 * when it differs).
 */
/* "0,2-3": the CPUs of an affinity mask that is not every CPU */
static void print_cpus(FILE *out, const struct ckpt_hdr_task *t)
{
	const char *sep = "";
	unsigned int cpu, end;

	for (cpu = 0; cpu < t->nr_cpus; cpu = end + 1) {
		end = cpu;
		if (!ci_cpu_set(t, cpu))
			continue;
		while (end + 1 < t->nr_cpus && ci_cpu_set(t, end + 1))
			end++;
		fprintf(out, end > cpu ? "%s%u-%u" : "%s%u", sep, cpu, end);
		sep = ",";
	}
}

static void print_task_attrs(FILE *out, const struct ckpt_hdr_task *t)
{
	fprintf(out, "%s nice %d", ci_sched_policy_name(t->sched_policy), t->nice);
	if (t->sched_flags & CKPT_SCHED_RESET_ON_FORK)
		fputs(", reset on fork", out);
	if (t->personality)
		fprintf(out, ", personality %#x", t->personality);
	if (t->pdeath_signal)
		fprintf(out, ", pdeath signal %d", t->pdeath_signal);
	fprintf(out, ", timer slack %" PRIu64 " ns", (uint64_t)t->timer_slack_ns);
	if (t->timer_slack_ns != t->default_timer_slack_ns)
		fprintf(out, " (default %" PRIu64 ")", (uint64_t)t->default_timer_slack_ns);
	if (t->nr_cpus) {
		fputs(", CPUs ", out);
		print_cpus(out, t);
	}
	if (t->ioprio)
		fprintf(out, ", I/O %s %u", ci_ioprio_class_name(t->ioprio), t->ioprio & 7);
	if (t->flags & CKPT_TASK_MCE_KILL)
		fprintf(out, ", MCE kill %s", t->flags & CKPT_TASK_MCE_EARLY ? "early" : "late");
}

static void print_threads(FILE *out, const struct ci_proc *p, bool regs)
{
	size_t i;

	fprintf(out, "threads: %zu besides the leader\n", p->nr_threads);
	for (i = 0; i < p->nr_threads; i++) {
		const struct ci_thread *th = &p->threads[i];

		fprintf(out, "  thread %d \"%s\": blocked %#" PRIx64, th->task.pid,
			th->task.comm, (uint64_t)th->task.blocked);
		if (th->task.sas_ss_size)
			fprintf(out, ", altstack %#" PRIx64 "+%" PRIu64,
				(uint64_t)th->task.sas_ss_sp,
				(uint64_t)th->task.sas_ss_size);
		fprintf(out, ", fs_base %#" PRIx64 ", ip %#" PRIx64,
			(uint64_t)th->cpu.fs_base, (uint64_t)th->cpu.ip);
		print_sleep(out, &th->task.restart);
		fputs("\n    ", out);
		print_task_attrs(out, &th->task);
		fputc('\n', out);
		if (regs)
			print_regs(out, &th->cpu);
	}
}

/*
 * "  sysvshm 7 @0x1000 (shmid 32769, attach 8, read-only)": the segment a
 * SysV shared memory VMA @v maps, its offset in it, its attach.
 */
static void print_attach(FILE *out, const struct ci_image *img, const struct ckpt_hdr_vma *v)
{
	const struct ci_shm_attach *at = ci_vma_shm_attach(img, v);
	const struct ci_sysvshm *seg = ci_sysvshm_by_ref(img, at->a.shm_objref);

	fprintf(out, "  sysvshm %u @%#" PRIx64 " (shmid %d, attach %u%s)", seg->objref,
		(uint64_t)v->pgoff * 4096, seg->s.id, at->objref,
		at->a.flags & CKPT_SHM_ATTACH_RDONLY ? ", read-only" : "");
}

static void print_memory(FILE *out, const struct ci_image *img,
			 const struct ci_proc *p)
{
	const struct ckpt_hdr_mm *m = &p->mm;
	char prot[5];
	size_t i;

	fprintf(out, "memory: %zu VMAs, %" PRIu64 " pages; code %#" PRIx64 "-%#" PRIx64
		", brk %#" PRIx64 "-%#" PRIx64 ", stack %#" PRIx64 "\n",
		p->nr_vmas, p->pages, (uint64_t)m->start_code,
		(uint64_t)m->end_code, (uint64_t)m->start_brk, (uint64_t)m->brk,
		(uint64_t)m->start_stack);
	if (m->exe_objref) {
		/* a deleted one's: "/usr/sbin/app (deleted)" */
		char exe[CI_NAME_MAX];

		ci_file_name(img, ci_file_by_ref(img, m->exe_objref), exe, sizeof(exe));
		fprintf(out, "  executable %s\n", exe);
	}
	fprintf(out, "  coredump_filter %#x%s%s%s%s%s\n", m->coredump_filter,
		m->flags & CKPT_MM_THP_DISABLE ? ", THP disabled" : "",
		m->flags & CKPT_MM_MDWE ? ", memory-deny-write-execute" : "",
		m->flags & CKPT_MM_MDWE_NO_INHERIT ? " (not inherited)" : "",
		m->flags & CKPT_MM_MERGE_ANY ? ", KSM merges all" : "",
		m->def_flags & CI_VM_LOCKED ? ", mlockall(MCL_FUTURE)" : "");
	for (i = 0; i < p->nr_vmas; i++) {
		const struct ckpt_hdr_vma *v = &p->vmas[i].v;
		const struct ci_file *f = ci_file_by_ref(img, v->file_objref);
		char name[CI_NAME_MAX];

		fprintf(out, "  %012" PRIx64 "-%012" PRIx64 " %s %-4s %6" PRIu64 " pages",
			(uint64_t)v->start, (uint64_t)v->end,
			ci_prot(v->vm_flags, prot), ci_vma_kind(v->kind),
			(uint64_t)v->nr_pages);
		if (f)
			fprintf(out, "  %s @%#" PRIx64, ci_file_name(img, f, name, sizeof(name)),
				(uint64_t)v->pgoff * 4096);
		if (v->kind == CKPT_VMA_SHARED_ANON)
			fprintf(out, "  shmem %u @%#" PRIx64, v->file_objref,
				(uint64_t)v->pgoff * 4096);
		if (v->kind == CKPT_VMA_SYSVSHM)
			print_attach(out, img, v);
		fprintf(out, "%s\n", ci_lock_name(v->vm_flags));
	}
}

/*
 * The processes that map a SHMEM, GHOST or SYSVSHM (image.h): its "mapped
 * by" list, a memfd's and a deleted file's through a file open on it, a
 * segment's through an attach of it.
 */
size_t ci_print_mappers(FILE *out, const struct ci_image *img, uint32_t objref)
{
	size_t i, n = 0;

	for (i = 0; i < img->nr_procs; i++)
		if (ci_proc_maps(img, &img->procs[i], objref))
			fprintf(out, "%s%d", n++ ? ", " : "", img->procs[i].task.pid);
	return n;
}

/*
 * ", saved with 100, mapped by 100, 110": the process whose records hold
 * the SHMEM, GHOST or SYSVSHM @objref (@proc), and those that map it; a
 * newline.
 */
static void print_holders(FILE *out, const struct ci_image *img, size_t proc,
			  uint32_t objref)
{
	fprintf(out, ", saved with %d, mapped by ", img->procs[proc].task.pid);
	if (!ci_print_mappers(out, img, objref))
		fputs("no VMA", out);
	fputc('\n', out);
}

/*
 * "shared memory: 2 objects": the heading of the image's @n objects of a
 * kind, @what, each a @noun; nothing, and false, if @n is 0.
 */
static bool print_count(FILE *out, const char *what, size_t n, const char *noun)
{
	if (n)
		fprintf(out, "%s: %zu %s%s\n", what, n, noun, n == 1 ? "" : "s");
	return n;
}

/*
 * "shared memory: 1 object", then each SHMEM record: its objref, a
 * memfd's name, size, pages, a memfd's seals, the process whose records
 * hold it and those that map it.
 */
static void print_shmems(FILE *out, const struct ci_image *img)
{
	size_t i;

	if (!print_count(out, "shared memory", img->nr_shmems, "object"))
		return;
	for (i = 0; i < img->nr_shmems; i++) {
		const struct ci_shmem *sh = &img->shmems[i];
		char seals[128];

		fprintf(out, "  shmem %u: ", sh->objref);
		if (sh->name)
			fprintf(out, "memfd \"%s\", ", sh->name);
		fprintf(out, "%" PRIu64 " bytes, %" PRIu64 " pages%s",
			(uint64_t)sh->s.size, (uint64_t)sh->s.nr_pages,
			sh->s.flags & CKPT_SHMEM_NORESERVE ? ", noreserve" : "");
		/* ", seals shrink,grow,exec" (", seals none"): a memfd's F_SEAL_* */
		if (sh->s.flags & CKPT_SHMEM_MEMFD)
			fprintf(out, ", seals %s",
				ci_bit_names(seals, sizeof(seals), sh->s.seals, ci_seal_name, ",") ?
				seals : "none");
		fputs(sh->s.flags & CKPT_SHMEM_EXEC ? ", executable" : "", out);
		print_holders(out, img, sh->proc, sh->objref);
	}
}

/*
 * "deleted files: 1", then each GHOST record: its objref, the path it had,
 * size, saved pages, mode, owner, whether linkable (an O_TMPFILE file
 * made without O_EXCL), the process whose records hold it and those that
 * map it (through a file open on it).
 */
static void print_ghosts(FILE *out, const struct ci_image *img)
{
	size_t i;

	if (!img->nr_ghosts)
		return;
	fprintf(out, "deleted files: %zu\n", img->nr_ghosts);
	for (i = 0; i < img->nr_ghosts; i++) {
		const struct ci_ghost *gh = &img->ghosts[i];

		fprintf(out, "  ghost %u: %s (deleted), %" PRIu64 " bytes, %" PRIu64
			" pages, mode %04o, owner %u:%u", gh->objref, gh->path,
			(uint64_t)gh->g.size, (uint64_t)gh->g.nr_pages, gh->g.mode,
			gh->g.uid, gh->g.gid);
		fputs(gh->g.flags & CKPT_GHOST_LINKABLE ? ", linkable" : "", out);
		print_holders(out, img, gh->proc, gh->objref);
	}
}

/*
 * "SysV shared memory: 1 segment", then each SYSVSHM record: its objref,
 * shmid, key, size, saved pages, mode, owner, creator (restart attaches
 * the segment at its id again only if it is this one: that key, size and
 * creator, removed if it was), ctime (made or last changed), whether removed
 * (IPC_RMID) and noreserve, how many attaches of it the image has, the
 * process whose records hold it and those that map it.
 */
static void print_sysvshms(FILE *out, const struct ci_image *img)
{
	size_t i;

	if (!print_count(out, "SysV shared memory", img->nr_sysvshms, "segment"))
		return;
	for (i = 0; i < img->nr_sysvshms; i++) {
		const struct ci_sysvshm *seg = &img->sysvshms[i];
		const struct ckpt_hdr_sysvshm *s = &seg->s;
		char when[64];

		fprintf(out, "  sysvshm %u: shmid %d, key 0x%08x, %" PRIu64 " bytes, %" PRIu64
			" pages, mode %04o, owner %u:%u, creator %u:%u, ctime %s%s%s, %zu attach%s",
			seg->objref, s->id, (uint32_t)s->key, (uint64_t)s->size,
			(uint64_t)s->nr_pages, s->mode, s->uid, s->gid, s->cuid, s->cgid,
			utc(when, s->ctime), s->flags & CKPT_SYSVSHM_REMOVED ? ", removed" : "",
			s->flags & CKPT_SYSVSHM_NORESERVE ? ", noreserve" : "", seg->attaches,
			seg->attaches == 1 ? "" : "es");
		print_holders(out, img, seg->proc, seg->objref);
	}
}

/* "signalfd SIGUSR1 SIGUSR2, nonblocking": the signals it reads. */
static void signalfd_name(char *buf, size_t size, const struct ckpt_hdr_signalfd *s)
{
	size_t n = snprintf(buf, size, "signalfd");
	char one[16];
	int sig;

	for (sig = 1; sig <= 64 && n < size; sig++)
		if (s->mask & 1ULL << (sig - 1))
			n += snprintf(buf + n, size - n, " %s", ci_signal_name(sig, one));
	if (s->f_flags & 04000 /* O_NONBLOCK */ && n < size)
		snprintf(buf + n, size - n, ", nonblocking");
}

/*
 * "timerfd CLOCK_MONOTONIC, 0.950 s left, every 1.000 s, 2 expirations
 * unread, nonblocking": its clock and how it is armed.
 */
static void timerfd_name(char *buf, size_t size, const struct ckpt_hdr_timerfd *t)
{
	size_t n = snprintf(buf, size, "timerfd %s", ci_timerfd_clock_name(t->clockid));

	if (!t->value)
		n += snprintf(buf + n, n < size ? size - n : 0, ", disarmed");
	else if (t->flags & CKPT_TIMERFD_ABSTIME && (t->clockid == 0 || t->clockid == 8))
		n += snprintf(buf + n, n < size ? size - n : 0, ", until %" PRIu64 ".%03" PRIu64,
			      (uint64_t)t->value / 1000000000, (uint64_t)t->value / 1000000 % 1000);
	else
		n += snprintf(buf + n, n < size ? size - n : 0, ", %" PRIu64 ".%03" PRIu64 " s left",
			      (uint64_t)t->value / 1000000000, (uint64_t)t->value / 1000000 % 1000);
	if (t->interval)
		n += snprintf(buf + n, n < size ? size - n : 0, ", every %" PRIu64 ".%03" PRIu64 " s",
			      (uint64_t)t->interval / 1000000000,
			      (uint64_t)t->interval / 1000000 % 1000);
	if (t->ticks)
		n += snprintf(buf + n, n < size ? size - n : 0, ", %" PRIu64 " unread",
			      (uint64_t)t->ticks);
	if (t->f_flags & 04000 /* O_NONBLOCK */)
		snprintf(buf + n, n < size ? size - n : 0, ", nonblocking");
}

/*
 * ", SO_RCVTIMEO 1.500 s" (", ... 0.000250 s" below a millisecond's
 * precision): a socket timeout @us (microseconds) that is set.
 */
static size_t unix_timeo(char *buf, size_t size, const char *name, int64_t us)
{
	if (!us)
		return 0;
	if (us < 0)
		return snprintf(buf, size, ", %s 0 (does not wait)", name);
	if (us % 1000)
		return snprintf(buf, size, ", %s %" PRId64 ".%06" PRId64 " s", name,
				us / 1000000, us % 1000000);
	return snprintf(buf, size, ", %s %" PRId64 ".%03" PRId64 " s", name,
			us / 1000000, us / 1000 % 1000);
}

/* Where in @buf (@size bytes) what comes after its @n bytes goes, and its room: none past the end */
#define AT (n < size ? buf + n : NULL)
#define ROOM (n < size ? size - n : 0)

/*
 * ", shut down for writing, SO_SNDBUF 65536, SO_PASSCRED, nonblocking": the
 * shutdown of a unix socket's end @e (a pair's, a socket of no pair's) and
 * the options set on it, in @buf (@size bytes); their length.
 */
static size_t unix_opts(char *buf, size_t size, const struct ckpt_unix_end *e)
{
	uint32_t shut = e->shutdown;
	uint32_t opts = e->opts & ~(CKPT_UNIX_SNDBUF | CKPT_UNIX_RCVBUF);
	size_t n = 0;

	if (size)
		*buf = '\0';
	if (shut)
		n += snprintf(AT, ROOM, ", shut down for %s",
			      shut == (CKPT_UNIX_SHUT_RD | CKPT_UNIX_SHUT_WR) ?
			      "reading and writing" : shut & CKPT_UNIX_SHUT_RD ?
			      "reading" : "writing");
	/*
	 * the options in CKPT_UNIX_* order: the buffer sizes (the first two)
	 * with their values, then the others (each named: the reader refuses
	 * unknown ones)
	 */
	if (e->opts & CKPT_UNIX_SNDBUF)
		n += snprintf(AT, ROOM, ", SO_SNDBUF %u", e->sndbuf);
	if (e->opts & CKPT_UNIX_RCVBUF)
		n += snprintf(AT, ROOM, ", SO_RCVBUF %u", e->rcvbuf);
	if (opts) {
		n += snprintf(AT, ROOM, ", ");
		n += ci_bit_names(AT, ROOM, opts, ci_unix_opt, ", ");
	}
	if (e->peek_off >= 0)
		n += snprintf(AT, ROOM, ", SO_PEEK_OFF %d", e->peek_off);
	if (e->rcvlowat > 1)	/* 1: the default */
		n += snprintf(AT, ROOM, ", SO_RCVLOWAT %d", e->rcvlowat);
	n += unix_timeo(AT, ROOM, "SO_RCVTIMEO", e->rcvtimeo);
	n += unix_timeo(AT, ROOM, "SO_SNDTIMEO", e->sndtimeo);
	if (e->f_flags & 04000 /* O_NONBLOCK */)
		n += snprintf(AT, ROOM, ", nonblocking");
	return n;
}

/*
 * "unix dgram socket, end 0 of pair 12, 3 messages, 120 bytes queued,
 * shut down for writing, SO_SNDBUF 65536, SO_PASSCRED, nonblocking": an end
 * of a socketpair (@f, a UNIX_PAIR record's), what is queued to it (to be
 * read from it), its shutdown, the options set on it.
 */
static void unix_name(char *buf, size_t size, const struct ci_file *f)
{
	const struct ckpt_unix_end *e = &f->up.end[f->end];
	size_t n = snprintf(buf, size, "unix %s socket, end %d of pair %u",
			    ci_unix_type(f->up.type), f->end, f->up.end[0].objref);

	if (!f->up.end[1].objref)
		n += snprintf(AT, ROOM, ", its other end closed");
	if (e->nr_msgs)
		n += snprintf(AT, ROOM, ", %u message%s, %" PRIu64 " bytes queued",
			      e->nr_msgs, e->nr_msgs == 1 ? "" : "s", (uint64_t)e->bytes);
	else if (e->bytes)
		n += snprintf(AT, ROOM, ", %" PRIu64 " bytes queued", (uint64_t)e->bytes);
	unix_opts(AT, ROOM, e);
}

/*
 * "unix stream listening /tmp/x.sock (backlog 5, mode 0666, 0:0, its file
 * removed), SO_PASSCRED", "unix dgram bound @name", "unix stream unbound":
 * a unix socket of no pair (@f, a UNIX_SOCK record's), its name (an
 * abstract one after "@", as ss shows it), whether it listens and its
 * backlog, its socket file's mode and owner, then as a pair's end.
 */
static void unix_sock_name(char *buf, size_t size, const struct ci_file *f)
{
	const struct ckpt_hdr_unix_sock *us = &f->us;
	bool path = us->addr_len && f->sun_path[0];
	char name[CI_UNIX_NAME_MAX];
	const char *sep = " (";
	size_t n;

	n = snprintf(buf, size, "unix %s %s%s%s", ci_unix_type(us->type),
		     us->flags & CKPT_UNIX_LISTEN ? "listening" : us->addr_len ? "bound" : "unbound",
		     us->addr_len ? " " : "", ci_unix_name(name, sizeof(name), f->sun_path,
							   us->addr_len));
	if (us->flags & CKPT_UNIX_LISTEN) {
		n += snprintf(AT, ROOM, "%sbacklog %u", sep, us->backlog);
		sep = ", ";
	}
	if (path) {
		n += snprintf(AT, ROOM, "%smode %04o, %u:%u", sep, us->mode, us->uid, us->gid);
		sep = ", ";
	}
	if (us->flags & CKPT_UNIX_UNLINKED)
		n += snprintf(AT, ROOM, "%sits file removed", sep);
	if (*sep == ',')
		n += snprintf(AT, ROOM, ")");
	unix_opts(AT, ROOM, &us->end);
}

/*
 * "tcp listening 127.0.0.1:8080 (backlog 128, owner 0:0, cc cubic,
 * SO_REUSEADDR 1, TCP_NODELAY 1, 69 options saved)", "udp6 bound
 * [::1]:5353 (owner 0:0, 31 options saved)": a TCP or UDP socket (@f, an
 * INET_SOCK record's), its protocol ("6" after it for IPv6), whether it
 * listens, is bound or neither, its address and port (an IPv6 address in
 * brackets); then in parentheses its backlog when listening, its owner,
 * SO_SNDBUF, SO_RCVBUF, SO_LINGER and the timeouts when set, TCP_MAXSEG
 * when set ("mss 1000"), the congestion control of a TCP socket, each
 * option of the record the table marks shown whose value is not 0, how
 * many options the record has, nonblocking.
 */
static void inet_name(char *buf, size_t size, const struct ci_file *f)
{
	const struct ckpt_hdr_inet_sock *is = &f->is;
	bool v6 = is->family == AF_INET6;
	char addr[CI_INET_ADDR_MAX], cc[CI_UNIX_NAME_MAX];
	const struct ci_inet_opt *t;
	size_t n;
	uint32_t i;

	n = snprintf(buf, size, "%s%s %s", ci_inet_protocol(is->protocol), v6 ? "6" : "",
		     is->flags & CKPT_INET_LISTEN ? "listening" :
		     is->flags & CKPT_INET_BOUND ? "bound" : "unbound");
	if (is->flags & CKPT_INET_BOUND)
		n += snprintf(AT, ROOM, v6 ? " [%s]:%u" : " %s:%u", ci_inet_addr(addr, is),
			      is->port);
	n += snprintf(AT, ROOM, " (");
	if (is->flags & CKPT_INET_LISTEN)
		n += snprintf(AT, ROOM, "backlog %u, ", is->backlog);
	n += snprintf(AT, ROOM, "owner %u:%u", is->uid, is->gid);
	if (is->sndbuf)
		n += snprintf(AT, ROOM, ", SO_SNDBUF %u", is->sndbuf);
	if (is->rcvbuf)
		n += snprintf(AT, ROOM, ", SO_RCVBUF %u", is->rcvbuf);
	if (is->linger >= 0)
		n += snprintf(AT, ROOM, ", SO_LINGER %d s", is->linger);
	n += unix_timeo(AT, ROOM, "SO_RCVTIMEO", is->rcvtimeo);
	n += unix_timeo(AT, ROOM, "SO_SNDTIMEO", is->sndtimeo);
	if (is->mss)
		n += snprintf(AT, ROOM, ", mss %u", is->mss);
	if (is->congestion[0])
		n += snprintf(AT, ROOM, ", cc %s",
			      ci_unix_name(cc, sizeof(cc), is->congestion,
					   strlen(is->congestion) + 1));
	for (i = 0; i < is->nr_opts; i++) {
		const struct ckpt_sockopt *o = &f->sockopts[i];

		t = ci_inet_opt(ci_inet_opt_index(o->level, o->name));
		if (t->shown && o->value)
			n += snprintf(AT, ROOM, ", %s %d", t->opt_name, o->value);
	}
	n += snprintf(AT, ROOM, ", %u option%s saved", is->nr_opts, is->nr_opts == 1 ? "" : "s");
	if (is->f_flags & 04000 /* O_NONBLOCK */)
		n += snprintf(AT, ROOM, ", nonblocking");
	snprintf(AT, ROOM, ")");
}

/*
 * "inotify, 2 watches: 1 /etc (IN_CREATE|IN_DELETE), 3 /tmp/x.conf
 * (IN_MODIFY), next wd 4, nonblocking": an inotify instance (@f, an
 * INOTIFY record's), each watch's descriptor, what it watches (its FILE
 * record's name, ci_file_name()) and the bits of its mask, where the
 * search for a new descriptor starts; "..." at the end if cut.
 */
static void inotify_name(char *buf, size_t size, const struct ci_image *img,
			 const struct ci_file *f)
{
	const struct ckpt_hdr_inotify *h = f->ino;
	char path[CI_NAME_MAX], events[256];
	size_t n;
	uint32_t i;

	n = snprintf(buf, size, "inotify, %u watch%s", h->nr_watches,
		     h->nr_watches == 1 ? "" : "es");
	for (i = 0; i < h->nr_watches; i++) {
		const struct ckpt_inotify_watch *w = &h->watches[i];

		ci_bit_names(events, sizeof(events), w->mask, ci_inotify_event, "|");
		n += snprintf(AT, ROOM, "%s%d %s (%s)", i ? ", " : ": ", w->wd,
			      ci_file_name(img, ci_file_by_ref(img, w->file_objref), path,
					   sizeof(path)), events);
	}
	n += snprintf(AT, ROOM, ", next wd %u%s", h->next_wd,
		      f->f.f_flags & 04000 /* O_NONBLOCK */ ? ", nonblocking" : "");
	if (n >= size && size >= 4)
		memcpy(buf + size - 4, "...", 4);
}
#undef AT
#undef ROOM

/* Whether @p's descriptor @i is the first of its descriptors on its file. */
static bool first_fd(const struct ci_proc *p, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (p->fds[j].file_objref == p->fds[i].file_objref)
			return false;
	return true;
}

/*
 * "    watches fd 5 (file 12): events 0x19, data 0x2a": the items of the
 * epoll instance @f (under the first descriptor on it).
 */
static void print_epoll_items(FILE *out, const struct ci_file *f)
{
	size_t j;

	for (j = 0; j < f->nr_items; j++)
		fprintf(out, "    watches fd %u (file %u): events %#x, data %#" PRIx64 "\n",
			f->items[j].fd, f->items[j].file_objref, f->items[j].events,
			(uint64_t)f->items[j].data);
}

/*
 * "    lock: OFD, write, bytes 10-19": the locks taken through @f (under the
 * first of @p's descriptors on it): the file's own, and @p's POSIX locks.
 */
static void print_locks(FILE *out, const struct ci_proc *p, const struct ci_file *f)
{
	size_t j;

	for (j = 0; j < f->nr_locks; j++) {
		const struct ckpt_hdr_lock *l = &f->locks[j];

		/* a POSIX lock under its own table's descriptor only */
		if (l->kind == CKPT_LOCK_POSIX && l->owner != p->files_objref)
			continue;
		fprintf(out, "    lock: %s, %s", l->kind == CKPT_LOCK_FLOCK ? "flock" :
			l->kind == CKPT_LOCK_OFD ? "OFD" : "POSIX",
			l->type == CKPT_LOCK_WRITE ? "write" : "read");
		if (l->kind != CKPT_LOCK_FLOCK && l->end == INT64_MAX)
			fprintf(out, ", bytes %" PRId64 " to the end", (int64_t)l->start);
		else if (l->kind != CKPT_LOCK_FLOCK)
			fprintf(out, ", bytes %" PRId64 "-%" PRId64, (int64_t)l->start,
				(int64_t)l->end);
		fputc('\n', out);
	}
}

/*
 * "    owner: the process (F_SETOWN), signal SIGUSR1, O_ASYNC (si_fd 5)":
 * @f's FOWN record (under the first descriptor on it), if it has one.
 */
static void print_fown(FILE *out, const struct ci_file *f)
{
	const struct ckpt_hdr_fown *o = &f->fown;
	char sig[16];

	if (!f->has_fown)
		return;
	fprintf(out, "    owner: %s, signal %s",
		o->owner == CKPT_FOWN_PROCESS ? "the process (F_SETOWN)" :
		o->owner == CKPT_FOWN_THREAD ? "its main thread (F_SETOWN_EX F_OWNER_TID)" :
		"none", o->signum ? ci_signal_name(o->signum, sig) : "SIGIO (default)");
	if (o->flags & CKPT_FOWN_ASYNC)
		fprintf(out, ", O_ASYNC (si_fd %d)", o->fd);
	fputc('\n', out);
}

/* "/tmp/fifo (FIFO, pipe 9, no writer seen)": a file open on a FIFO, @f. */
static void fifo_name(char *buf, size_t size, const struct ci_image *img,
		      const struct ci_file *f)
{
	const struct ci_pipe *cp = ci_pipe_by_ref(img, f->f.obj_objref);

	snprintf(buf, size, "%s (FIFO, pipe %u%s)", f->path, f->f.obj_objref,
		 cp->p.flags & CKPT_PIPE_NO_WRITER ? ", no writer seen" : "");
}

/* Its descriptors; those on a file saved with an earlier process say whose. */
static void print_files(FILE *out, const struct ci_image *img,
			const struct ci_proc *p)
{
	size_t i, inherited = 0, me = p - img->procs;

	if (p->files_from != CI_NONE) {
		const struct ci_proc *o = &img->procs[p->files_from];

		fprintf(out, "files: the files table of %d (CLONE_FILES), %zu descriptors\n",
			o->task.pid, o->nr_fds);
		return;
	}

	for (i = 0; i < p->nr_fds; i++)
		inherited += ci_file_by_ref(img, p->fds[i].file_objref)->proc != me;
	fprintf(out, "files: %zu open files, %zu descriptors", p->nr_files, p->nr_fds);
	if (inherited)
		fprintf(out, " (%zu on files saved with an earlier process)", inherited);
	fputc('\n', out);
	for (i = 0; i < p->nr_fds; i++) {
		const struct ci_file *f = ci_file_by_ref(img, p->fds[i].file_objref);
		/* a FIFO's path (up to PATH_MAX - 1 bytes) and what fifo_name() adds */
		char name[PATH_MAX + 64] = "";

		switch (f->kind) {
		case CI_FILE_PATH:
			break;
		case CI_FILE_FIFO:
			fifo_name(name, sizeof(name), img, f);
			break;
		case CI_FILE_MEMFD:	/* "memfd:NAME (shmem 6)" */
		case CI_FILE_GHOST:	/* "/var/log/app.log (deleted) (ghost 6)" */
			ci_file_name(img, f, name, sizeof(name));
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " (%s %u)",
				 f->kind == CI_FILE_MEMFD ? "shmem" : "ghost", f->f.obj_objref);
			break;
		case CI_FILE_PIPE:
			snprintf(name, sizeof(name), "pipe %u, %s end", f->f.obj_objref,
				 f->f.f_flags & 3 ? "write" : "read");
			break;
		case CI_FILE_EVENTFD:
			snprintf(name, sizeof(name), "eventfd count %" PRIu64 "%s%s",
				 (uint64_t)f->ev.count,
				 f->ev.flags & CKPT_EVENTFD_SEMAPHORE ? ", semaphore" : "",
				 f->ev.f_flags & 04000 /* O_NONBLOCK */ ?
				 ", nonblocking" : "");
			break;
		case CI_FILE_SIGNALFD:
			signalfd_name(name, sizeof(name), &f->sfd);
			break;
		case CI_FILE_TIMERFD:
			timerfd_name(name, sizeof(name), &f->tfd);
			break;
		case CI_FILE_EPOLL:
			snprintf(name, sizeof(name), "epoll, %zu items%s", f->nr_items,
				 f->f.f_flags & 04000 /* O_NONBLOCK */ ? ", nonblocking" : "");
			break;
		case CI_FILE_INOTIFY:
			inotify_name(name, sizeof(name), img, f);
			break;
		case CI_FILE_UNIX:
			unix_name(name, sizeof(name), f);
			break;
		case CI_FILE_UNIX_SOCK:
			unix_sock_name(name, sizeof(name), f);
			break;
		case CI_FILE_INET:
			inet_name(name, sizeof(name), f);
			break;
		}
		fprintf(out, "  fd %-3u %s  flags %#o  pos %" PRId64 "%s", p->fds[i].fd,
			*name ? name : f->path,
			f->f.f_flags,
			(int64_t)f->f.f_pos,
			p->fds[i].flags & CKPT_FD_CLOEXEC ? "  cloexec" : "");
		print_shared(out, p, i);
		if (f->proc != me)
			fprintf(out, "  (saved with %d)", img->procs[f->proc].task.pid);
		fputc('\n', out);
		if (!first_fd(p, i))
			continue;
		print_epoll_items(out, f);
		print_locks(out, p, f);
		print_fown(out, f);
	}
}

/*
 * "pipes: 1", then each PIPE record: its objref, whether a FIFO's, size,
 * bytes in flight, the process whose records hold it, and which of its
 * ends are open (a FIFO's: how many files, how many reading and writing,
 * and whether its readers saw no writer).
 */
static void print_pipes(FILE *out, const struct ci_image *img)
{
	size_t i;

	if (!img->nr_pipes)
		return;
	fprintf(out, "pipes: %zu\n", img->nr_pipes);
	for (i = 0; i < img->nr_pipes; i++) {
		const struct ci_pipe *cp = &img->pipes[i];
		bool fifo = cp->p.flags & CKPT_PIPE_FIFO;

		fprintf(out, "  pipe %u: %s%u bytes, %u in flight, saved with %d, ", cp->objref,
			fifo ? "FIFO, " : "", cp->p.size, cp->p.bytes,
			img->procs[cp->proc].task.pid);
		if (fifo)
			fprintf(out, "files open: %zu (%zu reading, %zu writing)%s\n", cp->files,
				cp->readers, cp->writers,
				cp->p.flags & CKPT_PIPE_NO_WRITER ? ", no writer seen" : "");
		else
			fprintf(out, "ends open: %s\n", cp->ends[0] && cp->ends[1] ?
				"read and write" : cp->ends[0] ? "read only" :
				cp->ends[1] ? "write only" : "none");
	}
}

/* One live process's sections, from its "task:" line to its files. */
static void print_process(FILE *out, const struct ci_image *img,
			  const struct ci_proc *p, bool regs)
{
	fprintf(out, "task: pid %d, comm \"%s\"%s", p->task.pid, p->task.comm,
		p->task.flags & CKPT_TASK_SELF ? ", checkpointed itself" : "");
	if (p != img->procs)
		fprintf(out, ", parent %d", img->tree[p->entry].ppid);
	print_sleep(out, &p->task.restart);
	fputc('\n', out);
	fputs("sched: ", out);
	print_task_attrs(out, &p->task);
	fputc('\n', out);
	print_signals(out, &p->signal, &p->task);
	print_pending(out, p);
	print_creds(out, p);
	print_rlimits(out, &p->rlimits);
	print_itimers(out, &p->itimers);
	print_posix_timers(out, p);
	fprintf(out, "oom_score_adj: %d\n", p->process.oom_score_adj);
	print_fs(out, img, p);
	if (regs)
		print_regs(out, &p->cpu);
	if (p->nr_threads)
		print_threads(out, p, regs);
	print_memory(out, img, p);
	print_files(out, img, p);
}

#define TREE_DEPTH 32	/* drawn deeper than this: no more indentation */

/* The tree's links: each process's parent, first child and next sibling. */
struct links {
	size_t *child, *sibling, *last, *proc;
};

static int links_make(const struct ci_image *img, struct links *l)
{
	size_t i, n = img->nr_tree, parent;

	l->child = malloc(4 * n * sizeof(size_t));
	if (!l->child)
		return -1;
	l->sibling = l->child + n;
	l->last = l->sibling + n;
	l->proc = l->last + n;
	for (i = 0; i < 4 * n; i++)
		l->child[i] = CI_NONE;
	for (i = 0; i < img->nr_procs; i++)
		l->proc[img->procs[i].entry] = i;
	for (i = 1; i < n; i++) {
		if (img->tree[i].tgid != img->tree[i].pid)
			continue;
		parent = ci_tree_find(img, img->tree[i].ppid);
		if (l->last[parent] == CI_NONE)
			l->child[parent] = i;
		else
			l->sibling[l->last[parent]] = i;
		l->last[parent] = i;
	}
	return 0;
}

static void print_node(FILE *out, const struct ci_image *img,
		       const struct links *l, size_t i)
{
	const struct ckpt_tree_task *e = &img->tree[i];
	uint32_t st = e->exit_code;

	if (!ci_entry_zombie(e)) {
		const struct ci_proc *p = &img->procs[l->proc[i]];

		fprintf(out, "%d \"%s\" pgid %d sid %d threads %zu\n", e->pid,
			p->task.comm, e->pgid, e->sid, p->nr_entries);
		return;
	}
	fprintf(out, "%d zombie (status %d) ", e->pid, e->exit_code);
	if (st & 0x7f)
		fprintf(out, "signal %u", st & 0x7f);
	else
		fprintf(out, "exit %u", st >> 8);
	fprintf(out, " pgid %d sid %d\n", e->pgid, e->sid);
}

/* "tree: ..." then the processes drawn as pstree -A draws them. */
static void print_tree(FILE *out, const struct ci_image *img)
{
	size_t i, n = 0, zombies = 0, depth, cur, *path;
	bool more[TREE_DEPTH + 1];
	struct links l;

	for (i = 0; i < img->nr_tree; i++) {
		n += img->tree[i].tgid == img->tree[i].pid;
		zombies += ci_entry_zombie(&img->tree[i]);
	}
	fprintf(out, "tree: %zu process%s", n, n == 1 ? "" : "es");
	if (zombies)
		fprintf(out, " (%zu zombie%s)", zombies, zombies == 1 ? "" : "s");
	fprintf(out, ", %zu task%s\n", img->nr_tree, img->nr_tree == 1 ? "" : "s");
	path = malloc(img->nr_tree * sizeof(*path));
	if (!path || links_make(img, &l)) {
		free(path);
		fputs("  (out of memory)\n", out);
		return;
	}
	fputs("  ", out);
	print_node(out, img, &l, 0);
	path[0] = 0;
	depth = 1;
	cur = l.child[0];
	for (;;) {
		if (cur == CI_NONE) {
			if (depth == 1)
				break;
			cur = l.sibling[path[--depth]];
			continue;
		}
		fputs("  ", out);
		for (i = 1; i < depth && i <= TREE_DEPTH; i++)
			fputs(more[i] ? "| " : "  ", out);
		fputs(l.sibling[cur] == CI_NONE ? "`-" : "|-", out);
		if (depth > TREE_DEPTH)
			fprintf(out, "[depth %zu] ", depth);
		print_node(out, img, &l, cur);
		if (depth <= TREE_DEPTH)
			more[depth] = l.sibling[cur] != CI_NONE;
		path[depth++] = cur;
		cur = l.child[cur];
	}
	free(l.child);
	free(path);
}

void ci_print_summary(FILE *out, const struct ci_image *img, bool regs)
{
	const struct ckpt_hdr_header *h = &img->header;
	char when[64];
	size_t i;

	fprintf(out, "image: format %u, crid %d, %s\n", h->version, h->crid, utc(when, h->time));
	fprintf(out, "kernel: %s %s %s\n", h->release, h->version_str, h->machine);
	fprintf(out, "arch: xstate features %#" PRIx64 ", %u bytes (in use %#" PRIx64 ")\n",
		(uint64_t)img->arch.xfeatures, img->arch.xstate_size,
		img->procs[0].xstate_features);
	print_tree(out, img);
	print_shmems(out, img);
	print_ghosts(out, img);
	print_sysvshms(out, img);
	print_pipes(out, img);
	for (i = 0; i < img->nr_procs; i++)
		print_process(out, img, &img->procs[i], regs);
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
