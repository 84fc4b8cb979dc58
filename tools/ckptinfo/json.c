// SPDX-License-Identifier: GPL-2.0
/*
 * ckptinfo --json: the summary's content as one JSON object
 * (docs/ckptinfo.md): the image, the root process's keys at the top
 * level, "tree" (every TREE entry), "processes" (each live process
 * with the same keys as the top level's), "shmem" (each SHMEM record,
 * an empty list in an image without shared memory), "ghosts" (each GHOST
 * record, an empty list in an image without deleted files), "sysvshm"
 * (each SYSVSHM record, an empty list in an image without one), "pipes"
 * (each PIPE record, an empty list in an image without pipes),
 * "unix_socks" (each UNIX_SOCK record, an empty list in an image without
 * one) and "inet_socks" (each INET_SOCK record, the same).
 */
#include "image.h"

#include <inttypes.h>

/*
 * The length of the well-formed UTF-8 sequence at @s (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0.
 */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/*
 * A JSON string: well-formed UTF-8 as it is, control characters and
 * DEL escaped, and each byte that is not part of well-formed UTF-8 (a
 * path is any bytes) as U+FFFD, the replacement character.
 */
static void str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', out);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, out);
		} else if ((n = utf8_len(p))) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			fputs("\\ufffd", out);
			p++;
		}
	}
	fputc('"', out);
}

static void hex(FILE *out, uint64_t v)
{
	fprintf(out, "\"%#" PRIx64 "\"", v);
}

/* "creds": {"uid": .., ..., "groups": [..], "cap_effective": "0x..", ...} */
static void creds(FILE *out, const struct ci_proc *p)
{
	const struct ckpt_hdr_creds *c = &p->creds;
	const struct {
		const char *name;
		uint64_t v;
	} caps[] = {
		{ "cap_effective", c->cap_effective },
		{ "cap_permitted", c->cap_permitted },
		{ "cap_inheritable", c->cap_inheritable },
		{ "cap_ambient", c->cap_ambient },
		{ "cap_bounding", c->cap_bset },
	};
	uint32_t i;

	fprintf(out, ", \"creds\": {\"uid\": %u, \"euid\": %u, \"suid\": %u, \"fsuid\": %u, "
		"\"gid\": %u, \"egid\": %u, \"sgid\": %u, \"fsgid\": %u, \"groups\": [",
		c->uid, c->euid, c->suid, c->fsuid, c->gid, c->egid, c->sgid, c->fsgid);
	for (i = 0; i < c->nr_groups; i++)
		fprintf(out, "%s%u", i ? ", " : "", p->groups[i]);
	fputs("]", out);
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		fprintf(out, ", \"%s\": ", caps[i].name);
		hex(out, caps[i].v);
	}
	fprintf(out, ", \"securebits\": %u, \"no_new_privs\": %s}", c->securebits,
		c->flags & CKPT_CREDS_NO_NEW_PRIVS ? "true" : "false");
}

/* A limit: a number, or null for RLIM_INFINITY. */
static void limit(FILE *out, uint64_t v)
{
	if (v == CI_RLIM_INFINITY)
		fputs("null", out);
	else
		fprintf(out, "%" PRIu64, v);
}

/*
 * "cwd": "/path", "root": "/path" or null (the restarter's), "umask":
 * "0022", "rlimits": {"cpu": {"cur": N or null, "max": ..}, ...}: every
 * limit, null for unlimited.
 */
static void fs_rlimits(FILE *out, const struct ci_image *img, const struct ci_proc *p)
{
	const struct ci_proc *o = p->fs_from == CI_NONE ? p : &img->procs[p->fs_from];
	unsigned int i;

	fputs(", \"cwd\": ", out);
	str(out, ci_file_by_ref(img, o->fs.cwd_objref)->path);
	fputs(", \"root\": ", out);
	if (o->fs.root_objref)
		str(out, ci_file_by_ref(img, o->fs.root_objref)->path);
	else
		fputs("null", out);
	fprintf(out, ", \"umask\": \"%04o\", \"fs_shared_with\": ", o->fs.umask);
	if (o != p)
		fprintf(out, "%d", o->task.pid);
	else
		fputs("null", out);
	fputs(", \"rlimits\": {", out);
	for (i = 0; i < CKPT_RLIM_NLIMITS; i++) {
		fprintf(out, "%s\"%s\": {\"cur\": ", i ? ", " : "", ci_rlimit_name(i, true));
		limit(out, p->rlimits.rlim[i].cur);
		fputs(", \"max\": ", out);
		limit(out, p->rlimits.rlim[i].max);
		fputc('}', out);
	}
	fputc('}', out);
}

/* A task's own: "0x..", "altstack": {"sp": "0x..", "size": N} or null */
static void blocked_altstack(FILE *out, const struct ckpt_hdr_task *t)
{
	hex(out, t->blocked);
	fputs(", \"altstack\": ", out);
	if (t->sas_ss_size) {
		fputs("{\"sp\": ", out);
		hex(out, t->sas_ss_sp);
		fprintf(out, ", \"size\": %llu}", (unsigned long long)t->sas_ss_size);
	} else {
		fputs("null", out);
	}
}

/*
 * ", "sleep": {"call": "nanosleep", "clock": "CLOCK_MONOTONIC" (nanosleep
 * only), "timeout_ns": N or null, "realtime_deadline": bool}" or null: the
 * sleep a task goes on with after restart.
 */
static void sleep_call(FILE *out, const struct ckpt_restart_block *c)
{
	const char *name = ci_restart_name(c->kind);

	fputs(", \"sleep\": ", out);
	if (!name) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"call\": \"%s\"", name);
	if (c->kind == CKPT_RESTART_NANOSLEEP)
		fprintf(out, ", \"clock\": \"%s\"", ci_clock_name(c->clockid));
	fputs(", \"timeout_ns\": ", out);
	if (c->timeout >= 0)
		fprintf(out, "%lld", (long long)c->timeout);
	else
		fputs("null", out);
	fprintf(out, ", \"realtime_deadline\": %s}",
		c->kind == CKPT_RESTART_FUTEX_WAIT && c->flags & CKPT_FUTEX_CLOCKRT ?
		"true" : "false");
}

/*
 * A task's own: ", "sched": {"policy": "SCHED_OTHER", "nice": 0,
 * "reset_on_fork": false}, "personality": "0x0", "pdeath_signal": 0,
 * "timer_slack_ns": N, "default_timer_slack_ns": N, "cpus": null (every CPU)
 * or [0, 2], "ioprio": {"class": "none", "level": 0}, "mce_kill": null,
 * "early" or "late""
 */
static void task_attrs(FILE *out, const struct ckpt_hdr_task *t)
{
	fprintf(out, ", \"sched\": {\"policy\": \"%s\", \"nice\": %d, \"reset_on_fork\": %s}",
		ci_sched_policy_name(t->sched_policy), t->nice,
		t->sched_flags & CKPT_SCHED_RESET_ON_FORK ? "true" : "false");
	fputs(", \"personality\": ", out);
	hex(out, t->personality);
	fprintf(out, ", \"pdeath_signal\": %d, \"timer_slack_ns\": %llu, \"default_timer_slack_ns\": %llu",
		t->pdeath_signal, (unsigned long long)t->timer_slack_ns,
		(unsigned long long)t->default_timer_slack_ns);
	fputs(", \"cpus\": ", out);
	if (!t->nr_cpus) {
		fputs("null", out);
	} else {
		const char *sep = "";

		fputc('[', out);
		for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (ci_cpu_set(t, cpu)) {
				fprintf(out, "%s%u", sep, cpu);
				sep = ", ";
			}
		}
		fputc(']', out);
	}
	fprintf(out, ", \"ioprio\": {\"class\": \"%s\", \"level\": %u}, \"mce_kill\": ",
		ci_ioprio_class_name(t->ioprio), t->ioprio & 7);
	if (t->flags & CKPT_TASK_MCE_KILL)
		fprintf(out, "\"%s\"", t->flags & CKPT_TASK_MCE_EARLY ? "early" : "late");
	else
		fputs("null", out);
}

/* "itimers": {"real": {"value_ns": N, "interval_ns": N}, "virtual": .., "prof": ..} */
static void itimers(FILE *out, const struct ckpt_hdr_itimers *h)
{
	unsigned int i;

	fputs(", \"itimers\": {", out);
	for (i = 0; i < CKPT_NR_ITIMERS; i++)
		fprintf(out, "%s\"%s\": {\"value_ns\": %llu, \"interval_ns\": %llu}",
			i ? ", " : "", ci_itimer_name(i), (unsigned long long)h->it[i].value,
			(unsigned long long)h->it[i].interval);
	fputc('}', out);
}

/*
 * "posix_timers": [{"id": N, "clock": "CLOCK_MONOTONIC", "notify": N,
 * "signo": N, "sigval": "0x..", "tid": N, "value_ns": N, "interval_ns": N,
 * "absolute": false, "pending": false, "rearm": false, "overrun": N,
 * "overrun_last": N, "queued_overrun": N}]
 */
static void posix_timers(FILE *out, const struct ci_proc *p)
{
	const struct ckpt_posix_timer *e;
	size_t i;

	fputs(", \"posix_timers\": [", out);
	for (i = 0; i < p->nr_posix; i++) {
		e = &p->posix[i];
		fprintf(out, "%s{\"id\": %d, \"clock\": \"%s\", \"notify\": %d, \"signo\": %d, \"sigval\": ",
			i ? ", " : "", e->id, ci_posix_clock_name(e->clock), e->notify, e->signo);
		hex(out, e->sigval);
		fprintf(out, ", \"tid\": %d, \"value_ns\": %llu, \"interval_ns\": %llu, \"absolute\": %s, \"pending\": %s, \"rearm\": %s, \"overrun\": %lld, \"overrun_last\": %lld, \"queued_overrun\": %d}",
			e->tid, (unsigned long long)e->value, (unsigned long long)e->interval,
			e->flags & CKPT_POSIX_TIMER_ABSTIME ? "true" : "false",
			e->flags & CKPT_POSIX_TIMER_PENDING ? "true" : "false",
			e->flags & CKPT_POSIX_TIMER_REARM ? "true" : "false",
			(long long)e->overrun, (long long)e->overrun_last, e->queued_overrun);
	}
	fputc(']', out);
}

/* "signals": {"caught": [..], "ignored": [..], "blocked": "0x..", "altstack": ..} */
static void signals(FILE *out, const struct ckpt_hdr_signal *s,
		    const struct ckpt_hdr_task *t)
{
	static const enum ci_disposition kinds[] = { CI_SIG_CAUGHT, CI_SIG_IGNORED };
	const char *sep;
	int i, kind;

	fputs(", \"signals\": {", out);
	for (kind = 0; kind < 2; kind++) {
		fputs(kind ? ", \"ignored\": [" : "\"caught\": [", out);
		sep = "";
		for (i = 1; i <= CKPT_NSIG; i++) {
			if (ci_signal_disposition(s, i) != kinds[kind])
				continue;
			fprintf(out, "%s%d", sep, i);
			sep = ", ";
		}
		fputs("]", out);
	}
	fputs(", \"blocked\": ", out);
	blocked_altstack(out, t);
	fputc('}', out);
}

/*
 * "pending_signals": [{tid, signo, name, code, pid, uid}, ...]: pid and
 * uid null unless the code names a sender; "value" (sival_int) and
 * "value_ptr" (sival_ptr, hex) for the codes that carry one.
 */
static void pending(FILE *out, const struct ci_proc *p)
{
	size_t i;

	fputs(", \"pending_signals\": [", out);
	for (i = 0; i < p->nr_pending; i++) {
		const struct ckpt_sigpending *e = &p->pending[i];
		struct ci_siginfo si;
		char name[16];

		ci_siginfo(e, &si);
		fprintf(out, "%s{\"tid\": %d, \"signo\": %d, \"name\": \"%s\", \"code\": %d",
			i ? ", " : "", e->tid, e->signo, ci_signal_name(e->signo, name), e->code);
		if (si.sender)
			fprintf(out, ", \"pid\": %d, \"uid\": %u", si.pid, si.uid);
		else
			fputs(", \"pid\": null, \"uid\": null", out);
		if (si.value) {
			fprintf(out, ", \"value\": %d, \"value_ptr\": ", si.value_int);
			hex(out, si.value_ptr);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

static void regs(FILE *out, const struct ckpt_hdr_cpu *c)
{
	static const char *const names[] = {
		"r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8",
		"rax", "rcx", "rdx", "rsi", "rdi", "orig_rax", "rip", "cs",
		"rflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs",
	};
	const __u64 *r = &c->r15;
	size_t i;

	fputs(", \"registers\": {", out);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fprintf(out, "%s\"%s\": ", i ? ", " : "", names[i]);
		hex(out, r[i]);
	}
	fputc('}', out);
}

static void threads(FILE *out, const struct ci_proc *p, bool with_regs)
{
	size_t i;

	fputs(", \"threads\": [", out);
	for (i = 0; i < p->nr_threads; i++) {
		const struct ci_thread *th = &p->threads[i];

		fprintf(out, "%s{\"tid\": %d, \"comm\": ", i ? ", " : "", th->task.pid);
		str(out, th->task.comm);
		fputs(", \"blocked\": ", out);
		blocked_altstack(out, &th->task);
		fputs(", \"fs_base\": ", out);
		hex(out, th->cpu.fs_base);
		fputs(", \"xfeatures_in_use\": ", out);
		hex(out, th->xstate_features);
		sleep_call(out, &th->task.restart);
		task_attrs(out, &th->task);
		if (with_regs)
			regs(out, &th->cpu);
		fputc('}', out);
	}
	fputc(']', out);
}

/*
 * ", "sysvshm": {"objref": 7, "id": 32769, "attach": 8, "rdonly": false},
 * "offset": 4096": the segment a SysV shared memory VMA @v maps (its
 * SYSVSHM's objref, its shmid), its attach (its SHM_ATTACH's objref,
 * whether shmat(SHM_RDONLY)'s), its offset in the segment.
 */
static void attach(FILE *out, const struct ci_image *img, const struct ckpt_hdr_vma *v)
{
	const struct ci_shm_attach *at = ci_vma_shm_attach(img, v);
	const struct ci_sysvshm *seg = ci_sysvshm_by_ref(img, at->a.shm_objref);

	fprintf(out, ", \"sysvshm\": {\"objref\": %u, \"id\": %d, \"attach\": %u, \"rdonly\": %s}"
		", \"offset\": %" PRIu64, seg->objref, seg->s.id, at->objref,
		at->a.flags & CKPT_SHM_ATTACH_RDONLY ? "true" : "false",
		(uint64_t)v->pgoff * 4096);
}

static void mm(FILE *out, const struct ci_image *img, const struct ci_proc *p)
{
	const struct ckpt_hdr_mm *m = &p->mm;
	char prot[5];
	size_t i;

	fputs(", \"mm\": {\"start_code\": ", out);
	hex(out, m->start_code);
	fputs(", \"end_code\": ", out);
	hex(out, m->end_code);
	fputs(", \"start_brk\": ", out);
	hex(out, m->start_brk);
	fputs(", \"brk\": ", out);
	hex(out, m->brk);
	fputs(", \"start_stack\": ", out);
	hex(out, m->start_stack);
	fputs(", \"coredump_filter\": ", out);
	hex(out, m->coredump_filter);
	fprintf(out, ", \"thp_disable\": %s, \"mdwe\": %s, \"mdwe_no_inherit\": %s, \"merge_any\": %s",
		m->flags & CKPT_MM_THP_DISABLE ? "true" : "false",
		m->flags & CKPT_MM_MDWE ? "true" : "false",
		m->flags & CKPT_MM_MDWE_NO_INHERIT ? "true" : "false",
		m->flags & CKPT_MM_MERGE_ANY ? "true" : "false");
	fputs(", \"exe\": ", out);
	if (m->exe_objref) {
		/* a deleted one's: "/usr/sbin/app (deleted)" */
		char exe[CI_NAME_MAX];

		ci_file_name(img, ci_file_by_ref(img, m->exe_objref), exe, sizeof(exe));
		str(out, exe);
	} else {
		fputs("null", out);
	}
	fputs(", \"vmas\": [", out);
	for (i = 0; i < p->nr_vmas; i++) {
		const struct ckpt_hdr_vma *v = &p->vmas[i].v;
		const struct ci_file *f = ci_file_by_ref(img, v->file_objref);
		uint32_t shmem = ci_vma_shmem(img, v), ghost = ci_vma_ghost(img, v);
		char name[CI_NAME_MAX];

		fprintf(out, "%s{\"start\": ", i ? ", " : "");
		hex(out, v->start);
		fputs(", \"end\": ", out);
		hex(out, v->end);
		fprintf(out, ", \"prot\": \"%s\", \"kind\": \"%s\", \"pages\": %" PRIu64
			", \"vm_flags\": ", ci_prot(v->vm_flags, prot),
			ci_vma_kind(v->kind), (uint64_t)v->nr_pages);
		hex(out, v->vm_flags);
		fputs(", \"file\": ", out);
		if (f) {
			str(out, ci_file_name(img, f, name, sizeof(name)));
			fprintf(out, ", \"offset\": %" PRIu64, (uint64_t)v->pgoff * 4096);
		} else {
			fputs("null", out);
		}
		if (v->kind == CKPT_VMA_SHARED_ANON)
			fprintf(out, ", \"shmem\": %u, \"offset\": %" PRIu64,
				v->file_objref, (uint64_t)v->pgoff * 4096);
		else if (shmem)	/* a memfd's file's */
			fprintf(out, ", \"shmem\": %u", shmem);
		else if (ghost)	/* a deleted file's file's */
			fprintf(out, ", \"ghost\": %u", ghost);
		else if (v->kind == CKPT_VMA_SYSVSHM)
			attach(out, img, v);
		fputc('}', out);
	}
	fputs("]}", out);
}

/* ["shrink", "grow"]: the names @name gives the bits set in @mask (ci_bit_names()) */
static void names(FILE *out, uint32_t mask, const char *(*name)(unsigned int bit))
{
	char buf[256];

	if (ci_bit_names(buf, sizeof(buf), mask, name, "\", \""))
		fprintf(out, "[\"%s\"]", buf);
	else
		fputs("[]", out);
}

/*
 * A buffer size a unix socket's end or an INET_SOCK record has set
 * (@set), or null; an INET_SOCK record's mss the same.
 */
static void unix_buf(FILE *out, const char *key, bool set, uint32_t v)
{
	if (set)
		fprintf(out, ", \"%s\": %u", key, v);
	else
		fprintf(out, ", \"%s\": null", key);
}

/*
 * ", "shut_rd": .., "shut_wr": .., "opts": [..], "sndbuf": .., ...": the
 * state of a unix socket's end @e (a pair's, a socket of no pair's):
 * shut_rd, shut_wr, opts (["SO_PASSCRED", ...]), sndbuf, rcvbuf (null: not
 * set), rcvtimeo_us, sndtimeo_us (0: none; -1: zero, no wait), peek_off
 * (-1: off), rcvlowat, nr_msgs, bytes (queued to it).
 */
static void unix_end_keys(FILE *out, const struct ckpt_unix_end *e)
{
	fprintf(out, ", \"shut_rd\": %s, \"shut_wr\": %s, \"opts\": ",
		e->shutdown & CKPT_UNIX_SHUT_RD ? "true" : "false",
		e->shutdown & CKPT_UNIX_SHUT_WR ? "true" : "false");
	names(out, e->opts, ci_unix_opt);
	unix_buf(out, "sndbuf", e->opts & CKPT_UNIX_SNDBUF, e->sndbuf);
	unix_buf(out, "rcvbuf", e->opts & CKPT_UNIX_RCVBUF, e->rcvbuf);
	fprintf(out, ", \"rcvtimeo_us\": %" PRId64 ", \"sndtimeo_us\": %" PRId64
		", \"peek_off\": %d, \"rcvlowat\": %d, \"nr_msgs\": %u, \"bytes\": %" PRIu64,
		(int64_t)e->rcvtimeo, (int64_t)e->sndtimeo, e->peek_off, e->rcvlowat,
		e->nr_msgs, (uint64_t)e->bytes);
}

/*
 * "unix": {type ("stream", "dgram", "seqpacket"), end (0 or 1), peer (the
 * other end's file, null: closed), then its state (unix_end_keys())} for
 * an end of a socketpair, else null.
 */
static void unix_end(FILE *out, const struct ci_file *f)
{
	uint32_t peer = f->up.end[!f->end].objref;

	fputs(", \"unix\": ", out);
	if (f->kind != CI_FILE_UNIX) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"type\": \"%s\", \"end\": %d, \"peer\": ", ci_unix_type(f->up.type),
		f->end);
	if (peer)
		fprintf(out, "%u", peer);
	else
		fputs("null", out);
	unix_end_keys(out, &f->up.end[f->end]);
	fputc('}', out);
}

/*
 * {"nonblock": .., "next_wd": N, "watches": [{"wd": N, "mask": N, "events":
 * ["IN_CREATE", ...], "path": "/etc", "file": objref}]}: the inotify
 * instance @f (an INOTIFY record's), each watch's file named as the fds'
 * "path" names a file.
 */
static void inotify(FILE *out, const struct ci_image *img, const struct ci_file *f)
{
	const struct ckpt_hdr_inotify *h = f->ino;
	char path[CI_NAME_MAX];
	uint32_t i;

	fprintf(out, "{\"nonblock\": %s, \"next_wd\": %u, \"watches\": [",
		f->f.f_flags & 04000 /* O_NONBLOCK */ ? "true" : "false", h->next_wd);
	for (i = 0; i < h->nr_watches; i++) {
		const struct ckpt_inotify_watch *w = &h->watches[i];

		fprintf(out, "%s{\"wd\": %d, \"mask\": %u, \"events\": ", i ? ", " : "", w->wd,
			w->mask);
		names(out, w->mask, ci_inotify_event);
		fputs(", \"path\": ", out);
		str(out, ci_file_name(img, ci_file_by_ref(img, w->file_objref), path, sizeof(path)));
		fprintf(out, ", \"file\": %u}", w->file_objref);
	}
	fputs("]}", out);
}

/* ", "@key": @objref" if @set, else ", "@key": null" */
static void objref_key(FILE *out, const char *key, bool set, uint32_t objref)
{
	if (set)
		fprintf(out, ", \"%s\": %u", key, objref);
	else
		fprintf(out, ", \"%s\": null", key);
}

/*
 * ", "owner": {"owner": "process" ("thread"; null: none), "signum": N (0:
 * SIGIO), "async": true, "fd": N (null: no O_ASYNC)}": @f's FOWN record,
 * or null.
 */
static void fown(FILE *out, const struct ci_file *f)
{
	const struct ckpt_hdr_fown *o = &f->fown;

	fputs(", \"owner\": ", out);
	if (!f->has_fown) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"owner\": %s, \"signum\": %d, \"async\": %s, \"fd\": ",
		o->owner == CKPT_FOWN_PROCESS ? "\"process\"" :
		o->owner == CKPT_FOWN_THREAD ? "\"thread\"" : "null", o->signum,
		o->flags & CKPT_FOWN_ASYNC ? "true" : "false");
	if (o->flags & CKPT_FOWN_ASYNC)
		fprintf(out, "%d}", o->fd);
	else
		fputs("null}", out);
}

static void fds(FILE *out, const struct ci_image *img, const struct ci_proc *p)
{
	size_t i, j;

	fputs(", \"files_shared_with\": ", out);
	if (p->files_from != CI_NONE) {
		p = &img->procs[p->files_from];
		fprintf(out, "%d", p->task.pid);
	} else {
		fputs("null", out);
	}
	fputs(", \"fds\": [", out);
	for (i = 0; i < p->nr_fds; i++) {
		const struct ci_file *f = ci_file_by_ref(img, p->fds[i].file_objref);
		const char *sep = "", *lsep;
		char name[CI_NAME_MAX];

		fprintf(out, "%s{\"fd\": %u, \"path\": ", i ? ", " : "", p->fds[i].fd);
		str(out, ci_file_name(img, f, name, sizeof(name)));
		fprintf(out, ", \"flags\": %u, \"mode\": %u, \"pos\": %" PRId64
			", \"cloexec\": %s, \"file\": %u",
			f->f.f_flags, f->f.i_mode, (int64_t)f->f.f_pos,
			p->fds[i].flags & CKPT_FD_CLOEXEC ? "true" : "false",
			f->objref);
		/*
		 * a pipe end's, or a FIFO's file's (a path) PIPE; a memfd's
		 * file's SHMEM; a deleted file's file's GHOST
		 */
		objref_key(out, "pipe", f->kind == CI_FILE_PIPE || f->kind == CI_FILE_FIFO,
			   f->f.obj_objref);
		objref_key(out, "memfd", f->kind == CI_FILE_MEMFD, f->f.obj_objref);
		objref_key(out, "ghost", f->kind == CI_FILE_GHOST, f->f.obj_objref);
		fputs(", \"eventfd\": ", out);
		if (f->kind == CI_FILE_EVENTFD)
			fprintf(out, "{\"count\": %" PRIu64 ", \"semaphore\": %s}",
				(uint64_t)f->ev.count,
				f->ev.flags & CKPT_EVENTFD_SEMAPHORE ? "true" : "false");
		else
			fputs("null", out);
		fputs(", \"signalfd\": ", out);
		if (f->kind == CI_FILE_SIGNALFD)
			fprintf(out, "{\"mask\": \"%#" PRIx64 "\"}", (uint64_t)f->sfd.mask);
		else
			fputs("null", out);
		fputs(", \"timerfd\": ", out);
		if (f->kind == CI_FILE_TIMERFD)
			fprintf(out, "{\"clockid\": %d, \"absolute\": %s, \"cancel_on_set\": %s"
				", \"value_ns\": %" PRIu64 ", \"interval_ns\": %" PRIu64
				", \"ticks\": %" PRIu64 "}",
				f->tfd.clockid,
				f->tfd.flags & CKPT_TIMERFD_ABSTIME ? "true" : "false",
				f->tfd.flags & CKPT_TIMERFD_CANCEL_ON_SET ? "true" : "false",
				(uint64_t)f->tfd.value, (uint64_t)f->tfd.interval,
				(uint64_t)f->tfd.ticks);
		else
			fputs("null", out);
		fputs(", \"epoll\": ", out);
		if (f->kind == CI_FILE_EPOLL) {
			size_t k;

			fputs("[", out);
			for (k = 0; k < f->nr_items; k++)
				fprintf(out, "%s{\"fd\": %u, \"file\": %u, \"events\": %u"
					", \"data\": \"%#" PRIx64 "\"}", k ? ", " : "",
					f->items[k].fd, f->items[k].file_objref,
					f->items[k].events, (uint64_t)f->items[k].data);
			fputs("]", out);
		} else {
			fputs("null", out);
		}
		fputs(", \"inotify\": ", out);
		if (f->kind == CI_FILE_INOTIFY)
			inotify(out, img, f);
		else
			fputs("null", out);
		unix_end(out, f);
		objref_key(out, "unix_sock", f->kind == CI_FILE_UNIX_SOCK, f->objref);
		objref_key(out, "inet_sock", f->kind == CI_FILE_INET, f->objref);
		fputs(", \"locks\": [", out);
		for (j = 0, lsep = ""; j < f->nr_locks; j++) {
			const struct ckpt_hdr_lock *l = &f->locks[j];

			/* the file's own, and this process's table's POSIX locks */
			if (l->kind == CKPT_LOCK_POSIX && l->owner != p->files_objref)
				continue;
			fprintf(out, "%s{\"kind\": \"%s\", \"type\": \"%s\", \"start\": %" PRId64
				", \"end\": ", lsep,
				l->kind == CKPT_LOCK_FLOCK ? "flock" :
				l->kind == CKPT_LOCK_OFD ? "ofd" : "posix",
				l->type == CKPT_LOCK_WRITE ? "write" : "read", (int64_t)l->start);
			if (l->end == INT64_MAX)
				fputs("null}", out);
			else
				fprintf(out, "%" PRId64 "}", (int64_t)l->end);
			lsep = ", ";
		}
		fputs("]", out);
		fown(out, f);
		fputs(", \"shared_with\": [", out);
		for (j = 0; j < p->nr_fds; j++)
			if (j != i && p->fds[j].file_objref == p->fds[i].file_objref) {
				fprintf(out, "%s%u", sep, p->fds[j].fd);
				sep = ", ";
			}
		fputs("]}", out);
	}
	fputc(']', out);
}

/*
 * A process's keys, each after ", ": task signals pending_signals creds
 * cwd root umask fs_shared_with rlimits itimers oom_score_adj threads mm
 * files_shared_with fds (a shared files table's or fs_struct's are the
 * process's it is shared with, named).
 */
static void process(FILE *out, const struct ci_image *img,
		    const struct ci_proc *p, bool with_regs)
{
	fprintf(out, ", \"task\": {\"pid\": %d, \"tgid\": %d, \"comm\": ",
		p->task.pid, p->task.tgid);
	str(out, p->task.comm);
	fprintf(out, ", \"self\": %s", p->task.flags & CKPT_TASK_SELF ? "true" : "false");
	sleep_call(out, &p->task.restart);
	task_attrs(out, &p->task);
	if (with_regs)
		regs(out, &p->cpu);
	fputc('}', out);
	signals(out, &p->signal, &p->task);
	pending(out, p);
	creds(out, p);
	fs_rlimits(out, img, p);
	itimers(out, &p->itimers);
	posix_timers(out, p);
	fprintf(out, ", \"oom_score_adj\": %d", p->process.oom_score_adj);
	threads(out, p, with_regs);
	mm(out, img, p);
	fds(out, img, p);
}

/*
 * ", "saved_with": 100, "mapped_by": [100, 110]}": the process whose
 * records hold the SHMEM, GHOST or SYSVSHM @objref (@proc), and those that
 * map it; the end of its object.
 */
static void holders(FILE *out, const struct ci_image *img, size_t proc, uint32_t objref)
{
	fprintf(out, ", \"saved_with\": %d, \"mapped_by\": [", img->procs[proc].task.pid);
	ci_print_mappers(out, img, objref);
	fputs("]}", out);
}

/*
 * "shmem": [{objref, size, nr_pages, flags, noreserve, memfd, name, seals,
 * exec, saved_with, mapped_by}, ...], empty in an image without shared
 * memory or memfds.
 */
static void shmems(FILE *out, const struct ci_image *img)
{
	size_t i;

	fputs(", \"shmem\": [", out);
	for (i = 0; i < img->nr_shmems; i++) {
		const struct ci_shmem *sh = &img->shmems[i];

		fprintf(out, "%s{\"objref\": %u, \"size\": %" PRIu64 ", \"nr_pages\": %" PRIu64
			", \"flags\": %u, \"noreserve\": %s, \"memfd\": %s, \"name\": ",
			i ? ", " : "", sh->objref, (uint64_t)sh->s.size,
			(uint64_t)sh->s.nr_pages, sh->s.flags,
			sh->s.flags & CKPT_SHMEM_NORESERVE ? "true" : "false",
			sh->s.flags & CKPT_SHMEM_MEMFD ? "true" : "false");
		if (sh->name)
			str(out, sh->name);
		else
			fputs("null", out);
		fputs(", \"seals\": ", out);
		names(out, sh->s.seals, ci_seal_name);
		fprintf(out, ", \"exec\": %s", sh->s.flags & CKPT_SHMEM_EXEC ? "true" : "false");
		holders(out, img, sh->proc, sh->objref);
	}
	fputc(']', out);
}

/*
 * "ghosts": [{objref, path, size, nr_pages, mode, uid, gid, linkable,
 * saved_with, mapped_by}, ...], empty in an image without deleted files.
 */
static void ghosts(FILE *out, const struct ci_image *img)
{
	size_t i;

	fputs(", \"ghosts\": [", out);
	for (i = 0; i < img->nr_ghosts; i++) {
		const struct ci_ghost *gh = &img->ghosts[i];

		fprintf(out, "%s{\"objref\": %u, \"path\": ", i ? ", " : "", gh->objref);
		str(out, gh->path);
		fprintf(out, ", \"size\": %" PRIu64 ", \"nr_pages\": %" PRIu64
			", \"mode\": \"%04o\", \"uid\": %u, \"gid\": %u, \"linkable\": %s",
			(uint64_t)gh->g.size, (uint64_t)gh->g.nr_pages, gh->g.mode,
			gh->g.uid, gh->g.gid,
			gh->g.flags & CKPT_GHOST_LINKABLE ? "true" : "false");
		holders(out, img, gh->proc, gh->objref);
	}
	fputc(']', out);
}

/*
 * "sysvshm": [{objref, id, key, size, nr_pages, mode, uid, gid, cuid, cgid,
 * atime, dtime, ctime, removed, noreserve, attaches, saved_with,
 * mapped_by}, ...], empty in an image without SysV shared memory.
 */
static void sysvshms(FILE *out, const struct ci_image *img)
{
	size_t i;

	fputs(", \"sysvshm\": [", out);
	for (i = 0; i < img->nr_sysvshms; i++) {
		const struct ci_sysvshm *seg = &img->sysvshms[i];
		const struct ckpt_hdr_sysvshm *s = &seg->s;

		fprintf(out, "%s{\"objref\": %u, \"id\": %d, \"key\": %d, \"size\": %" PRIu64
			", \"nr_pages\": %" PRIu64 ", \"mode\": \"%04o\", \"uid\": %u, \"gid\": %u"
			", \"cuid\": %u, \"cgid\": %u, \"atime\": %" PRId64 ", \"dtime\": %" PRId64
			", \"ctime\": %" PRId64 ", \"removed\": %s, \"noreserve\": %s"
			", \"attaches\": %zu", i ? ", " : "", seg->objref, s->id, s->key,
			(uint64_t)s->size, (uint64_t)s->nr_pages, s->mode, s->uid, s->gid, s->cuid,
			s->cgid, (int64_t)s->atime, (int64_t)s->dtime, (int64_t)s->ctime,
			s->flags & CKPT_SYSVSHM_REMOVED ? "true" : "false",
			s->flags & CKPT_SYSVSHM_NORESERVE ? "true" : "false", seg->attaches);
		holders(out, img, seg->proc, seg->objref);
	}
	fputc(']', out);
}

/*
 * "pipes": [{objref, size, bytes, saved_with, read_end, write_end, fifo,
 * no_writer}, ...], empty in an image without pipes. A FIFO's read_end,
 * write_end: a file reads it, writes to it.
 */
static void pipes(FILE *out, const struct ci_image *img)
{
	size_t i;

	fputs(", \"pipes\": [", out);
	for (i = 0; i < img->nr_pipes; i++) {
		const struct ci_pipe *cp = &img->pipes[i];

		fprintf(out, "%s{\"objref\": %u, \"size\": %u, \"bytes\": %u, \"saved_with\": %d"
			", \"read_end\": %s, \"write_end\": %s, \"fifo\": %s, \"no_writer\": %s}",
			i ? ", " : "", cp->objref, cp->p.size, cp->p.bytes,
			img->procs[cp->proc].task.pid, cp->ends[0] ? "true" : "false",
			cp->ends[1] ? "true" : "false",
			cp->p.flags & CKPT_PIPE_FIFO ? "true" : "false",
			cp->p.flags & CKPT_PIPE_NO_WRITER ? "true" : "false");
	}
	fputc(']', out);
}

/*
 * "unix_socks": [{objref, type, listening, backlog, name, abstract,
 * unlinked, mode, uid, gid, saved_with, then its state
 * (unix_end_keys())}, ...]: every UNIX_SOCK record, image order; empty in
 * an image without one. name: as the summary shows it (ci_unix_name()),
 * null when unbound.
 */
static void unix_socks(FILE *out, const struct ci_image *img)
{
	const char *sep = "";
	size_t i;

	fputs(", \"unix_socks\": [", out);
	for (i = 0; i < img->nr_files; i++) {
		const struct ci_file *f = &img->files[i];
		const struct ckpt_hdr_unix_sock *us = &f->us;
		char name[CI_UNIX_NAME_MAX];

		if (f->kind != CI_FILE_UNIX_SOCK)
			continue;
		fprintf(out, "%s{\"objref\": %u, \"type\": \"%s\", \"listening\": %s"
			", \"backlog\": %u, \"name\": ", sep, f->objref, ci_unix_type(us->type),
			us->flags & CKPT_UNIX_LISTEN ? "true" : "false", us->backlog);
		if (us->addr_len)
			str(out, ci_unix_name(name, sizeof(name), f->sun_path, us->addr_len));
		else
			fputs("null", out);
		fprintf(out, ", \"abstract\": %s, \"unlinked\": %s, \"mode\": \"%04o\""
			", \"uid\": %u, \"gid\": %u, \"saved_with\": %d",
			us->addr_len && !f->sun_path[0] ? "true" : "false",
			us->flags & CKPT_UNIX_UNLINKED ? "true" : "false", us->mode, us->uid,
			us->gid, img->procs[f->proc].task.pid);
		unix_end_keys(out, &us->end);
		fputc('}', out);
		sep = ", ";
	}
	fputc(']', out);
}

/*
 * "inet_socks": [{objref, family ("inet", "inet6"), protocol ("tcp",
 * "udp"), bound, listening, address (as inet_ntop() writes it; null: not
 * bound), port, backlog, f_flags, nonblocking, sndbuf, rcvbuf (null: not
 * set), linger (seconds, -1: off), rcvtimeo_us, sndtimeo_us (0: none; -1:
 * zero, no wait), uid, gid (its owner), mss (TCP_MAXSEG as set; null: not
 * set, or UDP), congestion (TCP: its congestion control, "cubic"; null:
 * UDP), options ([{level, name, value}], level and name as "SOL_SOCKET",
 * "SO_REUSEADDR": every option the record has, table order), saved_with},
 * ...]: every INET_SOCK record, image order; empty in an image without
 * one.
 */
static void inet_socks(FILE *out, const struct ci_image *img)
{
	const char *sep = "";
	size_t i;
	uint32_t j;

	fputs(", \"inet_socks\": [", out);
	for (i = 0; i < img->nr_files; i++) {
		const struct ci_file *f = &img->files[i];
		const struct ckpt_hdr_inet_sock *is = &f->is;
		char addr[CI_INET_ADDR_MAX];

		if (f->kind != CI_FILE_INET)
			continue;
		fprintf(out, "%s{\"objref\": %u, \"family\": \"%s\", \"protocol\": \"%s\""
			", \"bound\": %s, \"listening\": %s, \"address\": ", sep, f->objref,
			ci_inet_family(is->family), ci_inet_protocol(is->protocol),
			is->flags & CKPT_INET_BOUND ? "true" : "false",
			is->flags & CKPT_INET_LISTEN ? "true" : "false");
		if (is->flags & CKPT_INET_BOUND)
			str(out, ci_inet_addr(addr, is));
		else
			fputs("null", out);
		fprintf(out, ", \"port\": %u, \"backlog\": %u, \"f_flags\": %u, \"nonblocking\": %s",
			is->port, is->backlog, is->f_flags,
			is->f_flags & 04000 /* O_NONBLOCK */ ? "true" : "false");
		unix_buf(out, "sndbuf", is->sndbuf, is->sndbuf);
		unix_buf(out, "rcvbuf", is->rcvbuf, is->rcvbuf);
		fprintf(out, ", \"linger\": %d, \"rcvtimeo_us\": %" PRId64 ", \"sndtimeo_us\": %"
			PRId64 ", \"uid\": %u, \"gid\": %u", is->linger, (int64_t)is->rcvtimeo,
			(int64_t)is->sndtimeo, is->uid, is->gid);
		unix_buf(out, "mss", is->mss, is->mss);
		fputs(", \"congestion\": ", out);
		if (is->congestion[0])
			str(out, is->congestion);
		else
			fputs("null", out);
		fputs(", \"options\": [", out);
		for (j = 0; j < is->nr_opts; j++) {
			const struct ckpt_sockopt *o = &f->sockopts[j];
			const struct ci_inet_opt *t = ci_inet_opt(ci_inet_opt_index(o->level, o->name));

			fprintf(out, "%s{\"level\": \"%s\", \"name\": \"%s\", \"value\": %d}",
				j ? ", " : "", t->level_name, t->opt_name, o->value);
		}
		fprintf(out, "], \"saved_with\": %d}", img->procs[f->proc].task.pid);
		sep = ", ";
	}
	fputc(']', out);
}

/* "tree": [{pid, tgid, ppid, pgid, sid, zombie, exit_code}, ...] */
static void tree(FILE *out, const struct ci_image *img)
{
	size_t i;

	fputs(", \"tree\": [", out);
	for (i = 0; i < img->nr_tree; i++) {
		const struct ckpt_tree_task *e = &img->tree[i];

		fprintf(out, "%s{\"pid\": %d, \"tgid\": %d, \"ppid\": %d, \"pgid\": %d"
			", \"sid\": %d, \"zombie\": %s, \"exit_code\": %d}", i ? ", " : "",
			e->pid, e->tgid, e->ppid, e->pgid, e->sid,
			ci_entry_zombie(e) ? "true" : "false", e->exit_code);
	}
	fputc(']', out);
}

void ci_print_json(FILE *out, const struct ci_image *img, bool with_regs, bool records)
{
	const struct ckpt_hdr_header *h = &img->header;
	size_t i;

	fprintf(out, "{\"format\": %u, \"crid\": %d, \"time\": %" PRId64 ", \"kernel\": {\"release\": ",
		h->version, h->crid, (int64_t)h->time);
	str(out, h->release);
	fputs(", \"version\": ", out);
	str(out, h->version_str);
	fputs(", \"machine\": ", out);
	str(out, h->machine);
	fprintf(out, "}, \"arch\": {\"xfeatures\": ");
	hex(out, img->arch.xfeatures);
	fprintf(out, ", \"xstate_size\": %u, \"xfeatures_in_use\": ", img->arch.xstate_size);
	hex(out, img->procs[0].xstate_features);
	fputc('}', out);
	process(out, img, &img->procs[0], with_regs);
	tree(out, img);
	fputs(", \"processes\": [", out);
	for (i = 0; i < img->nr_procs; i++) {
		fputs(i ? ", {" : "{", out);
		/* the same keys, without the leading ", " */
		fprintf(out, "\"xfeatures_in_use\": ");
		hex(out, img->procs[i].xstate_features);
		process(out, img, &img->procs[i], with_regs);
		fputc('}', out);
	}
	fputc(']', out);
	shmems(out, img);
	ghosts(out, img);
	sysvshms(out, img);
	pipes(out, img);
	unix_socks(out, img);
	inet_socks(out, img);
	fprintf(out, ", \"totals\": {\"records\": %zu, \"files\": %zu, \"pages\": %" PRIu64
		", \"bytes\": %" PRIu64 "}, \"trailing_bytes\": %" PRIu64,
		img->nr_records, img->nr_files, img->pages, img->size, img->trailing);
	if (records) {
		fputs(", \"records\": [", out);
		for (i = 0; i < img->nr_kept; i++)
			fprintf(out, "%s{\"pos\": %" PRIu64 ", \"type\": \"%s\", \"type_id\": %u"
				", \"len\": %" PRIu64 ", \"objref\": %u}", i ? ", " : "",
				img->records[i].pos, ci_type_name(img->records[i].type),
				img->records[i].type, img->records[i].len,
				img->records[i].objref);
		fputc(']', out);
	}
	fputs("}\n", out);
}
