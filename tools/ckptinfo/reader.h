/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image reader's insides, shared by image.c (the stream, the record
 * order, objrefs, the image's own records) and records.c (a process's
 * records). Not for the printers.
 */
#ifndef CKPTINFO_READER_H
#define CKPTINFO_READER_H

#include "image.h"

#define PAGE_SIZE	4096ULL
#define MAX_META	(64 * 1024)	/* largest non-page, non-TREE payload read */
#define MAX_PATH	4096
#define MAX_FDS		(1 << 20)
#define MAX_FILES	(1 << 20)
#define MAX_SHMEMS	(1 << 20)
#define MAX_GHOSTS	(1 << 20)
#define MAX_SYSVSHMS	(1 << 20)
#define MAX_SHM_ATTACHES	(1 << 20)
#define MAX_PIPES	(1 << 20)
#define MAX_UNIX_MSGS	65536		/* messages queued to one end of a UNIX_PAIR */
#define MAX_VMAS	(1 << 20)
#define MAX_TASKS	(1 << 22)	/* PID_MAX_LIMIT */
#define MAX_SIGNALS	(1 << 22)	/* pending in one process */
#define MAX_RECORDS	(1 << 24)
#define MAX_PAGES_LEN	(16 + 512 * 8 + PAGE_SIZE + 512 * PAGE_SIZE)

/*
 * What fcntl(F_SETFL) sets, restart sets again on a file it makes: the
 * kernel's x86_64 O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME.
 */
#define SETFL_FLAGS	(02000U | 04000U | 040000U | 01000000U)

/* A set of objrefs (never 0), open addressing. */
struct objset {
	uint32_t *slot;
	size_t mask, n;
};

struct reader {
	FILE *f;
	struct ci_image *img;
	uint64_t pos;			/* stream offset of the next byte */
	struct ci_record rec;		/* the record being read */
	bool keep;
	struct objset used;		/* every owner's, file's and object's objref so far */
	uint32_t task_ref;		/* the last TASK record's objref */
	size_t next_entry;		/* TREE entry after the last process's */
	uint64_t next_page;		/* lowest address (an object's: offset) the next
					 * page of the last VMA, SHMEM, GHOST or SYSVSHM may have */
	/*
	 * The object whose PAGES records may come next: the SHMEM, GHOST or
	 * SYSVSHM record before (type 0: none, the record before was none of
	 * them, nor its PAGES), its size and page count, and its count of
	 * pages read (its element's in the image)
	 */
	struct {
		uint32_t type, objref;
		uint64_t size, nr_pages;
		uint64_t *pages;
	} obj;
};

/*
 * @ref, an object of the record (@what: "objref", "end 1 objref"), is new
 * in the image: an owner's (TASK, MM, files table), a file's, a PIPE's, a
 * SHMEM's, a GHOST's, a SYSVSHM's or a SHM_ATTACH's.
 */
int rd_fresh(struct reader *r, uint32_t ref, const char *what);
/* Record what is wrong, with the offset and the record; always -1. */
int rd_bad(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int rd_get(struct reader *r, void *buf, size_t n);
/* Read and drop @n bytes; @zero: they must be zero (padding). */
int rd_skip(struct reader *r, uint64_t n, bool zero);
/*
 * The first @len bytes of the record's payload, a struct that more
 * follows (the record no shorter).
 */
int rd_head(struct reader *r, void *buf, size_t len);
/* The whole payload of a metadata record, exactly @len bytes, plus padding. */
int rd_payload(struct reader *r, void *buf, size_t len);
/* The whole payload of the record in a new buffer, or NULL (error set). */
void *rd_payload_alloc(struct reader *r);
/*
 * Room for one more element of @size in @arr (which holds *nr), zeroed:
 * the array, possibly moved, with *nr counting the new element; NULL
 * (nothing changed) when out of memory or at @max.
 */
void *rd_grow(void *arr, size_t *nr, size_t size, size_t max);

/* records.c: a process's records, checked as restart checks them */
int rd_task(struct reader *r, struct ckpt_hdr_task *t);
int rd_signal(struct reader *r, struct ckpt_hdr_signal *s);
/*
 * A record that is a count, 4 reserved bytes and that many entries of
 * @size bytes (a @name record, of @what entries): its header read and
 * checked against its length, the count in @room.
 */
int rd_counted(struct reader *r, const char *name, const char *what, size_t size,
	       uint64_t *room);
/* The process's pending signals, each for it or one of its TREE entries. */
int rd_sigpending(struct reader *r, struct ci_proc *p);
int rd_creds(struct reader *r, struct ci_proc *p);
int rd_rlimits(struct reader *r, struct ci_proc *p);
int rd_process(struct reader *r, struct ci_proc *p);

/* timers.c: the ITIMERS record, a TASK record's restart block */
int rd_itimers(struct reader *r, struct ci_proc *p);
/* timers.c: the POSIX_TIMERS record */
int rd_posix_timers(struct reader *r, struct ci_proc *p);
int rd_restart_block(struct reader *r, const struct ckpt_restart_block *c);
/* The process's one FS record: its directories FILE records before it. */
int rd_fs(struct reader *r, struct ci_proc *p);
int rd_file(struct reader *r);
int rd_shmem(struct reader *r);
/* A GHOST record: a deleted file, its PAGES records after it. */
int rd_ghost(struct reader *r);
/* A SYSVSHM record: a SysV shared memory segment, its PAGES records after it. */
int rd_sysvshm(struct reader *r);
/* A SHM_ATTACH record: one shmat() of a SYSVSHM record before it. */
int rd_shm_attach(struct reader *r);
/*
 * Whether @path is one restart makes a file at (a deleted file's, a
 * unix socket's): absolute, its last component a name (not empty, "."
 * or "..").
 */
bool ci_path_names_file(const char *path);
/* A PIPE record: its flags and size, its bytes in flight read and dropped. */
int rd_pipe(struct reader *r);
/* An EVENTFD record: a file of its own, as a FILE record is. */
int rd_eventfd(struct reader *r);
/* A SIGNALFD record: a file of its own, as a FILE record is. */
int rd_signalfd(struct reader *r);
/* A TIMERFD record: a file of its own, as a FILE record is. */
int rd_timerfd(struct reader *r);
/* An EPOLL record: a file of its own, as a FILE record is. */
int rd_epoll(struct reader *r);
/* An EPOLL_ITEMS record: the items of an EPOLL record before it, on files before it. */
int rd_epoll_items(struct reader *r);
/*
 * An INOTIFY record: a file of its own, as a FILE record is, its watches
 * on O_PATH FILE records before it.
 */
int rd_inotify(struct reader *r);
/* A LOCK record: a lock of a FILE record before it. */
int rd_lock(struct reader *r);
/*
 * A FOWN record: the owner, signal and O_ASYNC of a file (any kind) of
 * this process's records before it, once per file.
 */
int rd_fown(struct reader *r);
/*
 * A file an EVENTFD, SIGNALFD, TIMERFD, EPOLL, INOTIFY, UNIX_SOCK or
 * INET_SOCK record is, or an end of a UNIX_PAIR record (@objref its
 * file's), of @kind: in the image's files, path "", its access mode
 * O_RDWR (an inotify instance's O_RDONLY, as inotify_init1() opens it)
 * and @f_flags; NULL (error set) if none.
 */
struct ci_file *rd_anon_file(struct reader *r, uint32_t objref, uint32_t f_flags,
			     enum ci_file_kind kind);

/*
 * unix.c: a UNIX_PAIR record: the files of a socketpair's ends (the
 * second's objref new, or 0: closed), each as a FILE record is; their
 * queues read and dropped.
 */
int rd_unix_pair(struct reader *r);
/*
 * unix.c: a UNIX_SOCK record: a unix socket of no pair (unbound, bound,
 * listening), a file as a FILE record is; its name kept.
 */
int rd_unix_sock(struct reader *r);
/*
 * inet.c: an INET_SOCK record: a TCP or UDP socket, not connected
 * (unbound, bound, listening), a file as a FILE record is; its options
 * kept.
 */
int rd_inet_sock(struct reader *r);
/* A PAGES record of r->obj, the SHMEM, GHOST or SYSVSHM record before it: offsets in the object. */
int rd_obj_pages(struct reader *r);
int rd_fd(struct reader *r, struct ci_proc *p);
int rd_mm(struct reader *r, struct ci_proc *p);
int rd_vma(struct reader *r, struct ci_proc *p);
/* A PAGES record of @p's last VMA. */
int rd_pages(struct reader *r, struct ci_proc *p);
int rd_xstate(struct reader *r, uint64_t *features);

#endif /* CKPTINFO_READER_H */
