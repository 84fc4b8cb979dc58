/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic checkpoint images for the host tests: a process tree written
 * as the kernel writes it (HEADER ARCH TREE, each live process's records,
 * TAIL), small enough to build by the dozen, and damaged on purpose by
 * giving the TREE record and the process records different tasks.
 */
#ifndef MKIMAGE_H
#define MKIMAGE_H

#include <stdbool.h>
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
	/* how many live processes, the first ones, map the shared memory
	 * (MK_SHMEM_*); 0: none */
	size_t shmem_maps;
	/* the live process with this pid has a root of its own (a FILE
	 * /srv/jail.PID); 0: none has, every root is the restarter's */
	int32_t chroot_pid;
	/* the SIGPENDING record of the live process with pid pending_pid:
	 * these nr_pending signals (mk_signal()); every other process's,
	 * and every one's when pending_pid is 0, is empty */
	const struct ckpt_sigpending *pending;
	size_t nr_pending;
	int32_t pending_pid;
	/* damage: every live process without its SIGPENDING record, without
	 * its RLIMITS, ITIMERS or PROCESS record, without its FS record, or
	 * with its FS record twice */
	bool no_sigpending, no_rlimits, no_itimers, no_process, no_fs, two_fs;
	/* no POSIX_TIMERS record; one with no timer */
	bool no_posix_record, no_posix;
	/* every live process after the first shares the first's files
	 * table and fs_struct (no FD or FS record of its own); with
	 * fd_in_sharer, the second one has an FD record too (damage) */
	bool share_files, fd_in_sharer;
	/* the root's own FILE's path, instead of /tmp/out.PID */
	const char *root_path;
	/* the root holds a pipe (MK_PIPE_*): its read end as fd 4, its write
	 * end as fd 5, pipe_bytes in flight; damage: a size of pipe_size
	 * (0: MK_PIPE_SIZE), a second FILE record of its read end (fd 6),
	 * pipe_flags in its PIPE record (CKPT_PIPE_*, or unknown ones) */
	bool pipe, pipe_read_twice;
	uint32_t pipe_bytes, pipe_size, pipe_flags;
	/* the root holds a FIFO (MK_FIFO_*): its PIPE record, flagged
	 * CKPT_PIPE_FIFO and fifo_flags (CKPT_PIPE_NO_WRITER), fifo_bytes in
	 * flight, then nr_fifo files open on it, each a FILE record of
	 * fifo_path (NULL: MK_FIFO_PATH) opened fifo_acc[i] (0 read, 1 write,
	 * 2 both) and an fd of its own, 13 on (nr_fifo up to 4: more aborts). Damage: unknown fifo_flags, the PIPE record's
	 * reserved field fifo_reserved; the files' i_mode fifo_mode (0: a
	 * FIFO's), offset fifo_pos, the PIPE record they name fifo_pipe (0:
	 * MK_FIFO_REF) */
	bool fifo;
	const char *fifo_path;
	uint32_t fifo_flags, fifo_bytes, fifo_reserved, fifo_mode, fifo_pipe;
	int64_t fifo_pos;
	uint32_t fifo_acc[4];
	size_t nr_fifo;
	/* the root holds an eventfd as fd 7 (MK_EVENTFD_COUNT, a
	 * non-blocking semaphore), with these EVENTFD flags added (damage) */
	bool eventfd;
	uint32_t eventfd_bad_flags;
	/* the root holds a blocking signalfd for these signals as fd 8 (0: none) */
	uint64_t signalfd_mask;
	/* the root holds a timerfd as fd 9 (MK_TIMERFD_*), on this clock
	 * (damage: one timerfd_create() refuses) */
	bool timerfd;
	int32_t timerfd_clock;
	/* the root holds an epoll instance as fd 10, watching its eventfd
	 * (fd 7: needs eventfd) for EPOLLIN with data MK_EPOLL_DATA; damage:
	 * the item names this objref instead (0: the eventfd's) */
	bool epoll;
	uint32_t epoll_item_ref;
	/* the root's own file holds a flock() write lock and an OFD read
	 * lock on bytes 10-19, and the root's table a POSIX write lock on
	 * bytes 0-4 of it; damage: the OFD lock ends at this byte instead
	 * (0: 19), the POSIX lock's owner is this objref (0: the table's) */
	bool locks;
	int64_t lock_end;
	uint32_t lock_owner;
	/* the root holds both ends of a socketpair of unix_type (0:
	 * SOCK_STREAM), a UNIX_PAIR record, as fds 11 and 12: each end
	 * unix_end[i] as given (peek_off -1 and rcvlowat 1 are the kernel's
	 * defaults), its objref a new one where it is 0; its queue
	 * unix_end[i].nr_msgs message lengths (its bytes split between them,
	 * the remainder to the last) and bytes of MK_UNIX_FILL. With
	 * unix_closed, end 1's objref is 0 and no fd 12 names it. Damage:
	 * the record's reserved field, unix_msg_delta added to end 0's first
	 * message length, unix_extra zero bytes after the queues (in len) */
	bool unix_pair, unix_closed;
	uint32_t unix_type, unix_reserved, unix_msg_delta, unix_extra;
	struct ckpt_unix_end unix_end[2];
	/* the root holds unix sockets of no pair, each a UNIX_SOCK record
	 * and an FD record naming it, after its deleted file's records:
	 * unix_listen, a stream one listening on MK_USOCK_PATH (backlog
	 * MK_USOCK_BACKLOG, mode MK_USOCK_MODE, owner MK_USOCK_UID:GID; with
	 * unix_unlinked, its socket file removed) as fd 22; unix_abstract, a
	 * seqpacket one listening on the abstract name MK_USOCK_ABSTRACT
	 * (backlog MK_USOCK_BACKLOG) as fd 23; unix_unbound, a dgram one,
	 * unbound, nonblocking, with SO_SNDBUF MK_USOCK_SNDBUF and
	 * SO_PASSCRED, as fd 24. Each objref a new one, each end's other
	 * options the kernel's defaults (peek_off -1, rcvlowat 1) */
	bool unix_listen, unix_abstract, unix_unbound, unix_unlinked;
	/* the root holds TCP and UDP sockets, each an INET_SOCK record and
	 * an FD record naming it, after its unix sockets' records, with
	 * every option of restart's table it has (MK_*_NR_OPTS), in its
	 * order, of the value a new socket has under Linux's default
	 * sysctls but for those said: tcp_listen, an IPv4 one listening on
	 * 127.0.0.1:MK_TCP_PORT (backlog MK_TCP_BACKLOG) with SO_REUSEADDR
	 * and TCP_NODELAY 1, congestion control MK_TCP_CC, as fd 25;
	 * tcp6_listen, an IPv6 one listening on [::]:MK_TCP6_PORT (backlog
	 * MK_TCP6_BACKLOG) with IPV6_V6ONLY 1, TCP_MAXSEG MK_TCP6_MSS,
	 * congestion control MK_TCP6_CC, as fd 26; udp_bound, an IPv4 UDP
	 * one bound to 0.0.0.0:MK_UDP_PORT, owned by MK_UDP_UID:GID, as fd
	 * 27. Each objref a new one, owned by 0:0 unless said, linger -1
	 * (off), nothing else set. With nr_tcp6_opts, the IPv6 one has
	 * these tcp6_opts instead */
	bool tcp_listen, tcp6_listen, udp_bound;
	const struct ckpt_sockopt *tcp6_opts;
	uint32_t nr_tcp6_opts;
	/* the root holds an inotify instance (MK_INOTIFY_*) as fd 28, after
	 * its TCP and UDP sockets' records: the O_PATH FILE records of what
	 * its watches watch, inotify_dir (a directory; NULL: MK_INOTIFY_DIR)
	 * then MK_INOTIFY_FILE (a regular file), each a new objref, then its
	 * INOTIFY record (a new objref, nonblocking, next wd
	 * MK_INOTIFY_NEXT_WD) and its FD record; its watches, in wd order,
	 * MK_INOTIFY_DIR_WD on the directory (MK_INOTIFY_DIR_MASK) and
	 * MK_INOTIFY_FILE_WD on the file (MK_INOTIFY_FILE_MASK). With
	 * inotify_empty, no watch (nor their FILE records). Damage:
	 * inotify_file_after, the file's FILE record after the INOTIFY record
	 * (and its FD record) */
	bool inotify, inotify_empty, inotify_file_after;
	const char *inotify_dir;
	/* FOWN records, each right after its file's record: fown_unix, the
	 * root's socketpair end 0 (fd 11; needs unix_pair) owned by the
	 * process (F_SETOWN), signal MK_FOWN_SIG, O_ASYNC with si_fd 11;
	 * fown_pipe, the read end of the root's pipe (fd 4; needs pipe)
	 * owned by its main thread, the default signal, no O_ASYNC. Damage:
	 * fown_twice, the socketpair end's written twice; fown_elsewhere,
	 * the root has one (fown_unix's) naming its /dev/null (not a pipe,
	 * FIFO or socket), after its own file's record */
	bool fown_unix, fown_pipe, fown_twice, fown_elsewhere;
	/* the root holds a memfd (MK_MEMFD_*): its SHMEM record (flags
	 * CKPT_SHMEM_MEMFD and NORESERVE, seals MK_MEMFD_SEALS, named
	 * MK_MEMFD_NAME; with memfd_exec, CKPT_SHMEM_EXEC and no F_SEAL_EXEC)
	 * and its 2 pages, the FILE record of a file open on it (O_RDWR, mode
	 * 0666; 0777 with memfd_exec) as fd 20, and a shared-file VMA mapping
	 * it whole, read-write (MK_MEMFD_FLAGS), at MK_MEMFD_START. With
	 * memfd_empty: of size 0, no page. With memfd_private, the root maps
	 * it privately too: a file VMA on that file (MK_MEMFD_PRIVATE_*) with
	 * one page of its own. Damage: memfd_flags, the SHMEM record's flags
	 * instead (without CKPT_SHMEM_MEMFD: no name, no seals) */
	bool memfd, memfd_exec, memfd_empty, memfd_private;
	uint32_t memfd_flags;
	/* the root holds a deleted file (MK_GHOST_*): its GHOST record (the
	 * path it had MK_GHOST_PATH, MK_GHOST_SIZE bytes, mode MK_GHOST_MODE,
	 * owner MK_GHOST_UID:MK_GHOST_GID) and its 2 pages, at offsets 0 and
	 * 0x2000 (a hole between them, another after), the FILE record of a
	 * file open on it (O_RDWR, mode S_IFREG | MK_GHOST_MODE) as fd 21, and
	 * a shared-file VMA mapping it whole, read-write (MK_GHOST_FLAGS), at
	 * MK_GHOST_START; after the memfd's records. With ghost_private, the
	 * root maps it privately too: a file VMA on that file
	 * (MK_GHOST_PRIVATE_*) with one page of its own. With ghost_empty: of
	 * size 0, no page. With ghost_linkable: CKPT_GHOST_LINKABLE (an
	 * O_TMPFILE file made without O_EXCL) */
	bool ghost, ghost_private, ghost_empty, ghost_linkable;
	/* the root maps MK_SHARED_PATH, a regular file opened O_RDWR (its FILE
	 * record before its MM record, no fd), MAP_SHARED and read-only
	 * (MK_SHARED_FLAGS: a shared-file VMA) at MK_SHARED_START */
	bool shared_file;
	/* the first sysvshm_maps live processes attach a SysV shared memory
	 * segment (MK_SYSVSHM_*). The first writes, before its MM record,
	 * its SYSVSHM record and its 2 pages, at offsets 0 and 0x2000 (a hole
	 * between them), then a SHM_ATTACH record of it, read-write, and
	 * maps that attach whole at MK_SYSVSHM_START in two VMAs, split by
	 * mprotect(): its first page read-write (MK_SYSVSHM_FLAGS), the rest
	 * read-only (MK_SYSVSHM_RO_FLAGS, offset 0x1000). Each later one maps
	 * that attach the same way (inherited across fork); with
	 * sysvshm_reattach, it attaches the segment itself instead,
	 * read-only: a SHM_ATTACH record of its own (CKPT_SHM_ATTACH_RDONLY)
	 * and one VMA of it, whole (MK_SYSVSHM_RDONLY_FLAGS). With
	 * sysvshm_removed, the segment was removed while attached
	 * (CKPT_SYSVSHM_REMOVED, key IPC_PRIVATE). Damage:
	 * sysvshm_attach_first, the first's SHM_ATTACH record before its
	 * SYSVSHM record */
	size_t sysvshm_maps;
	bool sysvshm_reattach, sysvshm_removed, sysvshm_attach_first;
	/*
	 * PAGES records without padding (their pages right after their
	 * addresses), as the kernel writes a record of fewer than
	 * CKPT_PAGES_PAD_MIN pages; else padded to a page boundary
	 */
	bool pages_unpadded;
};

/* The root's memfd (mk_spec.memfd): its name, size, seals, mapping. */
#define MK_MEMFD_NAME		"buf"
#define MK_MEMFD_SIZE		(3 * 4096ULL)
#define MK_MEMFD_SEALS		0x26U	/* F_SEAL_SHRINK F_SEAL_GROW F_SEAL_EXEC */
#define MK_MEMFD_START		0x30000ULL
#define MK_MEMFD_FLAGS		0xfbULL	/* VM_READ VM_WRITE VM_SHARED VM_MAY* */
/* Its private mapping (mk_spec.memfd_private): 2 pages from its second, the first written. */
#define MK_MEMFD_PRIVATE_START	0x50000ULL
#define MK_MEMFD_PRIVATE_FLAGS	0x73ULL	/* VM_READ VM_WRITE VM_MAYREAD VM_MAYWRITE VM_MAYEXEC */

/* The root's deleted file (mk_spec.ghost): the path it had, size, mode, owner, mapping. */
#define MK_GHOST_PATH		"/var/log/app.log"
#define MK_GHOST_SIZE		(3 * 4096ULL + 100)	/* 4 pages, the last partly */
#define MK_GHOST_MODE		0640U
#define MK_GHOST_UID		1000U
#define MK_GHOST_GID		100U
#define MK_GHOST_START		0x60000ULL
#define MK_GHOST_FLAGS		0xfbULL	/* VM_READ VM_WRITE VM_SHARED VM_MAY* */
/* Its private mapping (mk_spec.ghost_private): 2 pages from its second, the first written. */
#define MK_GHOST_PRIVATE_START	0x70000ULL
#define MK_GHOST_PRIVATE_FLAGS	0x73ULL	/* VM_READ VM_WRITE VM_MAYREAD VM_MAYWRITE VM_MAYEXEC */

/* The root's shared file mapping (mk_spec.shared_file): 2 pages of the file. */
#define MK_SHARED_PATH		"/tmp/shared.dat"
#define MK_SHARED_START		0x40000ULL
#define MK_SHARED_FLAGS		0xf9ULL	/* VM_READ VM_SHARED VM_MAY* */

/* The SysV shared memory segment (mk_spec.sysvshm_maps), as IPC_STAT tells it, and its mappings. */
#define MK_SYSVSHM_ID		32769
#define MK_SYSVSHM_KEY		0x5eed
#define MK_SYSVSHM_SIZE		(3 * 4096ULL)
#define MK_SYSVSHM_MODE		0640U
#define MK_SYSVSHM_UID		1000U	/* owner */
#define MK_SYSVSHM_GID		100U
#define MK_SYSVSHM_CUID		1001U	/* creator */
#define MK_SYSVSHM_CGID		101U
#define MK_SYSVSHM_ATIME	1700000100LL
#define MK_SYSVSHM_DTIME	1700000050LL
#define MK_SYSVSHM_CTIME	1700000000LL
#define MK_SYSVSHM_START	0x80000ULL
#define MK_SYSVSHM_FLAGS	0xfbULL	/* VM_READ VM_WRITE VM_SHARED VM_MAY* */
#define MK_SYSVSHM_RO_FLAGS	0xf9ULL	/* VM_READ VM_SHARED VM_MAY*: mprotect(PROT_READ) */
/* shmat(SHM_RDONLY): VM_READ VM_MAYREAD VM_MAYEXEC VM_MAYSHARE */
#define MK_SYSVSHM_RDONLY_FLAGS	0xd1ULL

#define MK_UNIX_FILL		'u'

/* The root's unix sockets of no pair (mk_spec.unix_listen, unix_abstract, unix_unbound) */
#define MK_USOCK_PATH		"/run/app.sock"
#define MK_USOCK_MODE		0666U
#define MK_USOCK_UID		1000U
#define MK_USOCK_GID		100U
#define MK_USOCK_BACKLOG	5U
/* its name, sizeof() - 1 bytes: a NUL (abstract), a NUL and a control byte among them */
#define MK_USOCK_ABSTRACT	"\0app.ctl\0\x01"
#define MK_USOCK_SNDBUF		16384U

/* The root's TCP and UDP sockets (mk_spec.tcp_listen, tcp6_listen, udp_bound) */
#define MK_TCP_PORT		8080U
#define MK_TCP_BACKLOG		128U
#define MK_TCP6_PORT		8443U
#define MK_TCP6_BACKLOG		5U
#define MK_UDP_PORT		5353U
#define MK_TCP_CC		"cubic"
#define MK_TCP6_MSS		1400U
#define MK_TCP6_CC		"reno"
#define MK_UDP_UID		1000U
#define MK_UDP_GID		100U
/* how many options each has: those of restart's table it has (SOL_IPV6: IPv6; SOL_TCP: TCP) */
#define MK_TCP_NR_OPTS		69U
#define MK_TCP6_NR_OPTS		100U
#define MK_UDP_NR_OPTS		50U

#define MK_EPOLL_DATA		0x2aULL

/* The root's inotify instance (mk_spec.inotify): what it watches, the watches, its next wd */
#define MK_INOTIFY_DIR		"/var/spool/app"
#define MK_INOTIFY_FILE		"/etc/app.conf"
#define MK_INOTIFY_DIR_WD	1
#define MK_INOTIFY_DIR_MASK	0x380U		/* IN_MOVED_TO IN_CREATE IN_DELETE */
#define MK_INOTIFY_FILE_WD	3
#define MK_INOTIFY_FILE_MASK	0x40aU		/* IN_MODIFY IN_CLOSE_WRITE IN_DELETE_SELF */
#define MK_INOTIFY_NEXT_WD	4

/* The F_SETSIG signal of the root's socketpair end's FOWN record (mk_spec.fown_unix): SIGUSR1 */
#define MK_FOWN_SIG		10

/* The root's timerfd (mk_spec.timerfd): 1.5 s left, every 0.25 s, 2 unread. */
#define MK_TIMERFD_VALUE	1500000000ULL
#define MK_TIMERFD_INTERVAL	250000000ULL
#define MK_TIMERFD_TICKS	2ULL

/* The root's eventfd (mk_spec.eventfd): its counter. */
#define MK_EVENTFD_COUNT	3ULL

/* The root's pipe (mk_spec.pipe): its size, the objref of its PIPE record. */
#define MK_PIPE_SIZE		65536U
#define MK_PIPE_REF		100

/* The root's FIFO (mk_spec.fifo): its size, PIPE record's objref, path. */
#define MK_FIFO_SIZE		16384U
#define MK_FIFO_REF		101
#define MK_FIFO_PATH		"/tmp/fifo"

/*
 * A pending signal for mk_spec.pending: for thread @tid (0: the process's
 * shared queue), its siginfo's si_code @code, si_pid @pid, si_uid @uid and
 * sival_int @value (fields at 0, 4 and 8; sival_ptr's upper half 0).
 */
struct ckpt_sigpending mk_signal(int32_t tid, int32_t signo, int32_t code,
				 int32_t pid, uint32_t uid, int32_t value);

/*
 * Every live process's limits (RLIMITS record): these, the others
 * unlimited; its umask (FS record).
 */
#define MK_RLIMIT_STACK		(8ULL << 20)	/* soft; hard unlimited */
#define MK_RLIMIT_CORE		0ULL		/* soft; hard unlimited */
#define MK_RLIMIT_NOFILE	1024ULL		/* soft */
#define MK_RLIMIT_NOFILE_MAX	4096ULL
#define MK_RLIMIT_MEMLOCK	(64ULL << 10)	/* soft and hard */
#define MK_UMASK		022U
/* Every live process's ITIMER_REAL (ns; the other timers disarmed). */
#define MK_ITIMER_REAL		2500000000ULL
#define MK_ITIMER_REAL_INTERVAL	1000000000ULL
/* each process's POSIX timer: id 3, SIGUSR2 with this value, 1.5 s left, every 2 s */
#define MK_POSIX_ID		3
#define MK_POSIX_VALUE		0x2a
#define MK_POSIX_LEFT		1500000000ULL
#define MK_POSIX_INTERVAL	2000000000ULL
/* Every live process's oom_score_adj (PROCESS record). */
#define MK_OOM_SCORE_ADJ	300

/*
 * The shared anonymous memory of mk_spec.shmem_maps: MK_SHMEM_SIZE bytes,
 * noreserve, its pages at offsets 0 and 0x2000 saved in one PAGES record
 * each (filled with 0xaa and 0xbb), mapped whole at MK_SHMEM_START.
 */
#define MK_SHMEM_START	0x20000ULL
#define MK_SHMEM_SIZE	(3 * 4096ULL)
#define MK_SHMEM_FLAGS	0xfbULL		/* VM_READ VM_WRITE VM_SHARED VM_MAY* */

/*
 * The image of @s in a new buffer (free() it), its length in *@len
 * (format CKPT_FORMAT_VERSION). Each live process: TASK SIGNAL
 * SIGPENDING (@s->pending for @s->pending_pid, else empty) CREDS RLIMITS
 * (MK_RLIMIT_*) ITIMERS (MK_ITIMER_*) PROCESS (MK_OOM_SCORE_ADJ), a FILE of its own (/tmp/out.PID) and FDs 0 and 1 on the
 * root's /dev/null (saved once, in the root's records) and 3 on its own
 * file, the FILE of its working directory (/tmp/cwd.PID, a
 * directory; then the root's, for @s->chroot_pid) and its FS record
 * (umask MK_UMASK), MM with one anonymous VMA of one page, CPU XSTATE;
 * each thread TASK CPU XSTATE; objrefs new in image order. The first
 * @s->shmem_maps processes also have a second VMA mapping the shared
 * memory, whose SHMEM record and its PAGES come with the first of them,
 * after its FS record. The PROCESS record names the files table (the
 * FD records' objref) and the fs_struct (a new objref, before the task's
 * FILE records). The root's VMAs of a memfd, a shared file, the memfd's
 * private mapping, a deleted file and its private mapping (mk_spec.memfd,
 * shared_file, memfd_private, ghost, ghost_private) come after those, then
 * the VMAs of the SysV shared memory segment (mk_spec.sysvshm_maps), whose
 * SYSVSHM and SHM_ATTACH records come after the SHMEM's.
 */
unsigned char *mk_image(const struct mk_spec *s, size_t *len);

/* Write @len bytes of @buf into a new temporary file; its path (static). */
const char *mk_file(const unsigned char *buf, size_t len);

#endif /* MKIMAGE_H */
