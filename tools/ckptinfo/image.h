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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/checkpoint_hdr.h>

#define CI_NONE ((size_t)-1)	/* no such TREE entry */

struct ci_record {
	uint64_t pos;
	uint32_t type, objref;
	uint64_t len;
};

/* What a file is, as its record says: set once, when it is read. */
enum ci_file_kind {
	CI_FILE_PATH,		/* a FILE record reopened by its path (no obj_objref) */
	CI_FILE_FIFO,		/* a FILE record open on a FIFO: its path, obj_objref its PIPE */
	CI_FILE_PIPE,		/* a FILE record of a pipe end: path "", obj_objref its PIPE */
	CI_FILE_MEMFD,		/* a FILE record open on a memfd: path "", obj_objref its SHMEM */
	CI_FILE_GHOST,		/* a FILE record open on a deleted file: path "", obj_objref its GHOST */
	CI_FILE_EVENTFD,	/* an EVENTFD record: ev */
	CI_FILE_SIGNALFD,	/* a SIGNALFD record: sfd */
	CI_FILE_TIMERFD,	/* a TIMERFD record: tfd */
	CI_FILE_EPOLL,		/* an EPOLL record: its EPOLL_ITEMS' items */
	CI_FILE_INOTIFY,	/* an INOTIFY record: ino, its watches */
	CI_FILE_UNIX,		/* an end of a UNIX_PAIR record: up, end */
	CI_FILE_UNIX_SOCK,	/* a UNIX_SOCK record: us, sun_path */
	CI_FILE_INET,		/* an INET_SOCK record: is, sockopts */
};

struct ci_file {
	uint32_t objref;
	size_t proc;			/* the process whose records hold it */
	enum ci_file_kind kind;
	/* an eventfd's, signalfd's, timerfd's, epoll instance's, inotify
	 * instance's, socket's: its access mode and flags only, path "" */
	struct ckpt_hdr_file f;
	char *path;
	struct ckpt_hdr_eventfd ev;
	struct ckpt_hdr_signalfd sfd;
	struct ckpt_hdr_timerfd tfd;
	bool epoll_items;		/* an epoll instance's EPOLL_ITEMS seen: */
	struct ckpt_epoll_item *items;
	size_t nr_items;
	struct ckpt_hdr_inotify *ino;	/* an INOTIFY record's, its ino->nr_watches watches */
	struct ckpt_hdr_lock *locks;	/* its LOCK records */
	size_t nr_locks;
	bool has_fown;			/* its FOWN record read: */
	struct ckpt_hdr_fown fown;	/* its owner, signal and O_ASYNC */
	int end;			/* a UNIX_PAIR end's: 0 or 1 (up.end[end]: its own) */
	struct ckpt_hdr_unix_pair up;
	struct ckpt_hdr_unix_sock us;	/* a UNIX_SOCK record's, */
	char *sun_path;			/* its name: us.addr_len bytes, NULL if 0 */
	struct ckpt_hdr_inet_sock is;	/* an INET_SOCK record's, */
	struct ckpt_sockopt *sockopts;	/* its is.nr_opts options, NULL if none */
};

/*
 * Shared anonymous memory (a SHMEM record, with the first process that
 * maps it) or a memfd (s.flags & CKPT_SHMEM_MEMFD, with the first process
 * that has a file open on it).
 */
struct ci_shmem {
	uint32_t objref;
	size_t proc;			/* the process whose records hold it */
	struct ckpt_hdr_shmem s;
	char *name;			/* a memfd's, without "memfd:"; else NULL */
	uint64_t pages;			/* counted in its PAGES records */
};

/*
 * A deleted file (a GHOST record, with the first process that has a file
 * open on it): its size, mode and owner, the path it had, its pages.
 */
struct ci_ghost {
	uint32_t objref;
	size_t proc;			/* the process whose records hold it */
	struct ckpt_hdr_ghost g;
	char *path;			/* the path it had */
	uint64_t pages;			/* counted in its PAGES records */
};

/*
 * A SysV shared memory segment (a SYSVSHM record, with the first process
 * that attaches it): as IPC_STAT told it, its pages, its attaches.
 */
struct ci_sysvshm {
	uint32_t objref;
	size_t proc;			/* the process whose records hold it */
	struct ckpt_hdr_sysvshm s;
	uint64_t pages;			/* counted in its PAGES records */
	size_t attaches;		/* SHM_ATTACH records naming it */
};

/* One shmat() of a segment (a SHM_ATTACH record), its VMAs naming it. */
struct ci_shm_attach {
	uint32_t objref;
	size_t proc;			/* the process whose records hold it */
	struct ckpt_hdr_shm_attach a;
};

/*
 * A pipe: a PIPE record, with the ends its FILE records name; a FIFO's
 * (p.flags & CKPT_PIPE_FIFO), with the files open on it.
 */
struct ci_pipe {
	uint32_t objref;
	size_t proc;			/* the process whose records hold it */
	struct ckpt_hdr_pipe p;
	bool ends[2];			/* a FILE record names its read, write end
					 * (a FIFO's: reads it, writes to it) */
	size_t files;			/* a FIFO's: the FILE records naming it, */
	size_t readers, writers;	/* those reading it, writing to it (O_RDWR: both) */
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

/* A live process: its records, from its TASK to its last thread's XSTATE. */
struct ci_proc {
	size_t entry;			/* its leader's TREE entry */
	size_t nr_entries;		/* its TREE entries: leader and threads */
	struct ckpt_hdr_task task;
	uint32_t task_objref, mm_objref;
	uint32_t files_objref;		/* its FD records' (0: a shared table) */
	struct ckpt_hdr_signal signal;
	struct ckpt_sigpending *pending;	/* its SIGPENDING record's signals */
	size_t nr_pending;
	struct ckpt_hdr_creds creds;
	uint32_t *groups;		/* creds.nr_groups supplementary groups */
	struct ckpt_hdr_rlimits rlimits;
	struct ckpt_hdr_itimers itimers;
	struct ckpt_posix_timer *posix;	/* its POSIX_TIMERS record's timers */
	size_t nr_posix;
	struct ckpt_hdr_process process;
	/* the earlier process whose files table or fs_struct it shares, or CI_NONE */
	size_t files_from, fs_from;
	struct ckpt_hdr_fs fs;		/* its FILE records: ci_file_by_ref() */
	bool has_fs;			/* its FS record read */
	struct ckpt_hdr_mm mm;
	struct ckpt_hdr_cpu cpu;
	uint64_t xstate_features;	/* XSAVE header xfeatures */
	struct ci_thread *threads;	/* nr_entries - 1, image order */
	size_t nr_threads;

	size_t nr_files;		/* FILE records among its records */
	size_t nr_shmems;		/* SHMEM records among its records */
	size_t nr_ghosts;		/* GHOST records among its records */
	struct ckpt_hdr_fd *fds;
	size_t nr_fds;
	struct ci_vma *vmas;
	size_t nr_vmas;
	uint64_t pages;			/* in its VMAs' PAGES records */
};

struct ci_image {
	struct ckpt_hdr_header header;
	struct ckpt_hdr_arch arch;
	struct ckpt_tree_task *tree;	/* the TREE record's entries */
	size_t nr_tree;
	uint32_t tree_procs;		/* its nr_procs: the live processes */
	uint32_t *tree_index;		/* tree.c: entries by pid (index + 1) */
	size_t tree_mask;
	struct ci_proc *procs;		/* the live processes, TREE order */
	size_t nr_procs;
	uint64_t xstate_len;
	struct ckpt_hdr_tail tail;

	struct ci_file *files;		/* every FILE record, image order */
	size_t nr_files;
	struct ci_shmem *shmems;	/* every SHMEM record, image order */
	size_t nr_shmems;
	struct ci_ghost *ghosts;	/* every GHOST record, image order */
	size_t nr_ghosts;
	struct ci_sysvshm *sysvshms;	/* every SYSVSHM record, image order */
	size_t nr_sysvshms;
	struct ci_shm_attach *shm_attaches;	/* every SHM_ATTACH record, image order */
	size_t nr_shm_attaches;
	struct ci_pipe *pipes;		/* every PIPE record, image order */
	size_t nr_pipes;
	size_t nr_records;
	struct ci_record *records;	/* kept when asked for */
	size_t nr_kept;

	uint64_t pages;			/* in all PAGES records (SHMEMs', GHOSTs', SYSVSHMs' too) */
	uint64_t size;			/* bytes up to the end of the tail */
	uint64_t trailing;		/* bytes after the tail (ignored) */
	char error[512];		/* why the image is invalid */
};

/* Read and check the image on @f. 0: valid; -1: invalid, see img->error. */
int ci_read(FILE *f, struct ci_image *img, bool keep_records);
void ci_free(struct ci_image *img);

const char *ci_type_name(uint32_t type);
const char *ci_vma_kind(uint32_t kind);
/* F_SEAL_* bit @bit's name, "seal" to "exec" (a memfd's seals), or NULL. */
const char *ci_seal_name(unsigned int bit);
/* A UNIX_PAIR or UNIX_SOCK record's socket type: "stream", "dgram", "seqpacket", or NULL. */
const char *ci_unix_type(uint32_t type);
/* Room for what ci_unix_name() writes: "@" and 107 bytes as \xNN, or "" */
#define CI_UNIX_NAME_MAX	(1 + 107 * 4 + 1)
/*
 * The name of a unix socket (a UNIX_SOCK record's), @len bytes of
 * sun_path at @name, as ss shows it: a path without its final NUL, an
 * abstract name "@" then its bytes after the first (a NUL), each byte
 * outside printable ASCII, and a backslash, as \xNN; "" for none (@len
 * 0). In @buf, @size bytes (CI_UNIX_NAME_MAX), cut to fit.
 */
const char *ci_unix_name(char *buf, size_t size, const char *name, uint32_t len);
/*
 * inet.c: an option an INET_SOCK record may carry, its level and name,
 * the protocol it is of (IPPROTO_TCP; 0: any), whether the summary shows
 * it (when not 0), and the names of its level and of itself
 */
struct ci_inet_opt {
	uint32_t level, name, proto;
	bool shown;			/* in the summary when not 0; else in --json only */
	const char *level_name;		/* "SOL_SOCKET", "SOL_IP", "SOL_IPV6", "SOL_TCP" */
	const char *opt_name;		/* "SO_REUSEADDR"... */
};
/* The options checkpoint saves: the kernel's table (inet_opts in kernel/checkpoint/inet.c) */
#define CI_INET_NR_OPTS		100
/* inet.c: option @i of that table, in its order (restart's); NULL past its end (and for -1). */
const struct ci_inet_opt *ci_inet_opt(size_t i);
/* inet.c: the index in that table of the option @level, @name, or -1: none. */
int ci_inet_opt_index(uint32_t level, uint32_t name);
/* Whether option @o is one a socket of @family and @protocol has (restart's rule). */
bool ci_inet_opt_applies(const struct ci_inet_opt *o, uint32_t family, uint32_t protocol);
/* inet.c: an INET_SOCK record's family, "inet" or "inet6", or NULL. */
const char *ci_inet_family(uint32_t family);
/* inet.c: an INET_SOCK record's protocol, "tcp" or "udp", or NULL. */
const char *ci_inet_protocol(uint32_t protocol);
/* Room for what ci_inet_addr() writes: INET6_ADDRSTRLEN */
#define CI_INET_ADDR_MAX	46
/* inet.c: the address of the INET_SOCK record @is as inet_ntop() writes it: "127.0.0.1", "::1" */
const char *ci_inet_addr(char buf[CI_INET_ADDR_MAX], const struct ckpt_hdr_inet_sock *is);
/* CKPT_UNIX_* option bit @bit's socket option, "SO_PASSCRED", or NULL. */
const char *ci_unix_opt(unsigned int bit);
/*
 * IN_* bit @bit's name, "IN_CREATE" (an inotify watch's mask), or NULL: no
 * bit a watch's mask may have (IN_ALL_EVENTS, IN_EXCL_UNLINK, IN_ONESHOT).
 */
const char *ci_inotify_event(unsigned int bit);
/*
 * The names @name gives the bits set in @mask (@name: NULL for a bit it
 * does not name, left out), lowest first, @sep between them
 * ("shrink,grow"): in @buf (@size bytes, cut to fit as snprintf() does);
 * their length, 0: none.
 */
size_t ci_bit_names(char *buf, size_t size, uint32_t mask,
		    const char *(*name)(unsigned int bit), const char *sep);
/* The scheduling policy of a TASK record, "SCHED_OTHER", or NULL. */
const char *ci_sched_policy_name(uint32_t policy);
/* An ioprio's class, 0 (none) to 3 (idle), or -1 for one ioprio_set() refuses */
int ci_ioprio_class(uint32_t ioprio);
/* "none", "realtime", "best-effort", "idle" or "invalid" */
const char *ci_ioprio_class_name(uint32_t ioprio);
/* Whether a TASK record's affinity has CPU @cpu (every CPU: nr_cpus 0) */
bool ci_cpu_set(const struct ckpt_hdr_task *t, unsigned int cpu);
/* Whether a TASK record's affinity is one restart takes */
bool ci_cpus_valid(const struct ckpt_hdr_task *t);
/* RLIMIT_* @i's name without the prefix: "NOFILE" (@lower: "nofile"), or NULL. */
const char *ci_rlimit_name(unsigned int i, bool lower);
/* Whether RLIMIT_* @i counts bytes (printed with K, M, G, T suffixes). */
bool ci_rlimit_bytes(unsigned int i);
#define CI_RLIM_INFINITY (~0ULL)
/* timers.c: "CLOCK_TAI", or NULL for a clock restart makes no POSIX timer on */
const char *ci_posix_clock_name(int32_t clock);
/* timers.c: "CLOCK_MONOTONIC", or NULL for a clock no sleep restarts on */
const char *ci_clock_name(int32_t clockid);
/* timers.c: the clocks a timerfd can have, or NULL */
const char *ci_timerfd_clock_name(int32_t clockid);
/* timers.c: ITIMER_* @i's name, "real", "virtual" or "prof" */
const char *ci_itimer_name(unsigned int i);
/* timers.c: CKPT_RESTART_* @kind's call, "nanosleep", or NULL for none */
const char *ci_restart_name(uint32_t kind);
/* What signal @sig (1-64) does in the image: SIG_DFL, SIG_IGN or a handler. */
enum ci_disposition { CI_SIG_DEFAULT, CI_SIG_IGNORED, CI_SIG_CAUGHT };
enum ci_disposition ci_signal_disposition(const struct ckpt_hdr_signal *s, int sig);
/*
 * Signal @sig's name, kernel numbering: "SIGUSR1" for 1-31, "SIGRTMIN+N"
 * (N = @sig - 32) for 32-64; otherwise "signal N". In @buf (16 bytes).
 */
const char *ci_signal_name(int32_t sig, char buf[16]);
/* What a pending signal's siginfo says, as ckptinfo shows it. */
struct ci_siginfo {
	const char *code;	/* "SI_USER"..., or NULL (a signal's own code) */
	bool sender;		/* pid and uid are the sender's */
	bool value;		/* sival: sival_int and sival_ptr */
	int32_t pid;
	uint32_t uid;
	int32_t value_int;
	uint64_t value_ptr;
};
void ci_siginfo(const struct ckpt_sigpending *e, struct ci_siginfo *si);
const struct ci_file *ci_file_by_ref(const struct ci_image *img, uint32_t objref);
const struct ci_shmem *ci_shmem_by_ref(const struct ci_image *img, uint32_t objref);
const struct ci_ghost *ci_ghost_by_ref(const struct ci_image *img, uint32_t objref);
const struct ci_pipe *ci_pipe_by_ref(const struct ci_image *img, uint32_t objref);
const struct ci_sysvshm *ci_sysvshm_by_ref(const struct ci_image *img, uint32_t objref);
const struct ci_shm_attach *ci_shm_attach_by_ref(const struct ci_image *img, uint32_t objref);
/* The SHMEM record of the memfd file @f is open on, or NULL: not a memfd's. */
const struct ci_shmem *ci_file_memfd(const struct ci_image *img, const struct ci_file *f);
/* The GHOST record of the deleted file @f is open on, or NULL: not a deleted file's. */
const struct ci_ghost *ci_file_ghost(const struct ci_image *img, const struct ci_file *f);
/* Room for what ci_file_name() writes: a deleted file's path (PATH_MAX - 1 bytes) and more */
#define CI_NAME_MAX	(4096 + 16)
/*
 * What ckptinfo calls the file @f: its path, a memfd's "memfd:NAME" or a
 * deleted file's "PATH (deleted)" (as /proc/PID/maps does), in @buf
 * (@size bytes, CI_NAME_MAX) then.
 */
const char *ci_file_name(const struct ci_image *img, const struct ci_file *f,
			 char *buf, size_t size);
/*
 * The object of the image the VMA @v maps: a shared-anon VMA's SHMEM, a
 * SysV shared memory VMA's SYSVSHM (its attach's segment), or the memfd's
 * SHMEM or the deleted file's GHOST of the file a file VMA (private or
 * shared) maps; 0 for none.
 */
uint32_t ci_vma_object(const struct ci_image *img, const struct ckpt_hdr_vma *v);
/* ci_vma_object() if a SHMEM (shared memory, a memfd), else 0 */
uint32_t ci_vma_shmem(const struct ci_image *img, const struct ckpt_hdr_vma *v);
/* ci_vma_object() if a GHOST (a deleted file), else 0 */
uint32_t ci_vma_ghost(const struct ci_image *img, const struct ckpt_hdr_vma *v);
/* The SHM_ATTACH a SysV shared memory VMA @v names, or NULL: of another kind. */
const struct ci_shm_attach *ci_vma_shm_attach(const struct ci_image *img,
					      const struct ckpt_hdr_vma *v);
/* Whether a VMA of @p maps the SHMEM, GHOST or SYSVSHM @objref (ci_vma_object()). */
bool ci_proc_maps(const struct ci_image *img, const struct ci_proc *p, uint32_t objref);
/* "rwxp"-style protection of a VMA's vm_flags, into @buf (5 bytes). */
const char *ci_prot(uint64_t vm_flags, char buf[5]);
/* The kernel's VM_LOCKED and VM_LOCKONFAULT: mlock()'s, and on fault */
#define CI_VM_LOCKED		0x2000ULL
#define CI_VM_LOCKONFAULT	0x80000ULL
/*
 * Whether @flags are locking flags restart gives back: none, VM_LOCKED,
 * or VM_LOCKED with VM_LOCKONFAULT.
 */
bool ci_lock_flags_valid(uint64_t flags);
/* ", locked", ", locked on fault" or "" for a VMA's or mm's flags. */
const char *ci_lock_name(uint64_t flags);

/* tree.c: the TREE record's entries */
/*
 * The entries checked as restart checks them (ids unique, the root a live
 * process, threads right after their leader, a parent before its
 * children, zombies' statuses, sessions and groups); indexes them by pid.
 * 0, or -1 with the reason in @why.
 */
int ci_tree_check(struct ci_image *img, char *why, size_t len);
/* The entry of @pid, or CI_NONE. */
size_t ci_tree_find(const struct ci_image *img, int32_t pid);
/* Whether @code is a wait() status of exit() or of a fatal signal, no core. */
bool ci_exit_code_valid(int32_t code);
/* Whether TREE entry @e is a zombie's (exited, not reaped: no records). */
static inline bool ci_entry_zombie(const struct ckpt_tree_task *e)
{
	return e->flags & CKPT_TREE_ZOMBIE;
}

/* print.c, json.c */
void ci_print_summary(FILE *out, const struct ci_image *img, bool regs);
void ci_print_records(FILE *out, const struct ci_image *img);
void ci_print_json(FILE *out, const struct ci_image *img, bool regs, bool records);
/* The pids of the processes mapping the SHMEM, GHOST or SYSVSHM @objref, ", " between: how many. */
size_t ci_print_mappers(FILE *out, const struct ci_image *img, uint32_t objref);

#endif /* CKPTINFO_IMAGE_H */
