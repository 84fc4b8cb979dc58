// SPDX-License-Identifier: GPL-2.0
/* Synthetic checkpoint images for the host tests: see mkimage.h. */
#include "mkimage.h"
#include "image.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define XSTATE_SIZE	576	/* legacy area and XSAVE header: x87 and SSE */
#define VMA_START	0x10000ULL

struct out {
	unsigned char *buf;
	size_t len, cap;
	uint64_t nr_records;
	uint32_t next_ref;
	bool unpadded;		/* mk_spec.pages_unpadded */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2;
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf)
			abort();
	}
	if (p)
		memcpy(o->buf + o->len, p, n);
	else
		memset(o->buf + o->len, 0, n);
	o->len += n;
}

static void record(struct out *o, uint32_t type, uint32_t objref,
		   const void *payload, size_t len)
{
	struct ckpt_hdr h = { .type = type, .objref = objref, .len = len };

	put(o, &h, sizeof(h));
	put(o, payload, len);
	put(o, NULL, ((len + 7) & ~7UL) - len);
	o->nr_records++;
}

/*
 * One page at @addr (a VMA's address, or an offset in a SHMEM) filled
 * with @fill, its data at a 4096-byte stream offset (or, o->unpadded,
 * right after its address).
 */
static void pages(struct out *o, uint32_t ref, uint64_t addr, int fill)
{
	uint64_t meta = sizeof(struct ckpt_hdr_pages) + 8, start = o->len + 16;
	uint64_t pad = o->unpadded ? 0 : (4096 - (start + meta) % 4096) % 4096;
	struct ckpt_hdr_pages hp = { .nr_pages = 1, .data_offset = meta + pad };
	unsigned char *payload = calloc(1, meta + pad + 4096);

	memcpy(payload, &hp, sizeof(hp));
	memcpy(payload + sizeof(hp), &addr, 8);
	memset(payload + meta + pad, fill & 0xff, 4096);
	record(o, CKPT_HDR_PAGES, ref, payload, meta + pad + 4096);
	free(payload);
}

/* The FILE record @objref of @path, as @f says (its path_len set here). */
static void path_file(struct out *o, uint32_t objref, const char *path,
		      struct ckpt_hdr_file f)
{
	unsigned char *buf = malloc(sizeof(f) + strlen(path) + 1);

	if (!buf)
		abort();
	f.path_len = strlen(path) + 1;
	memcpy(buf, &f, sizeof(f));
	memcpy(buf + sizeof(f), path, f.path_len);
	record(o, CKPT_HDR_FILE, objref, buf, sizeof(f) + f.path_len);
	free(buf);
}

static void file(struct out *o, uint32_t objref, const char *path, uint32_t mode)
{
	path_file(o, objref, path, (struct ckpt_hdr_file){ .f_flags = 02, .i_mode = mode,
							   .ino = 7 });
}

/* The PIPE record @ref, as @hp says: its bytes in flight 'p's. */
static void pipe_record(struct out *o, uint32_t ref, struct ckpt_hdr_pipe hp)
{
	unsigned char *buf = malloc(sizeof(hp) + hp.bytes);

	memcpy(buf, &hp, sizeof(hp));
	memset(buf + sizeof(hp), 'p', hp.bytes);
	record(o, CKPT_HDR_PIPE, ref, buf, sizeof(hp) + hp.bytes);
	free(buf);
}

/* A FILE record of an end of the pipe MK_PIPE_REF, opened @acc (0 or 1). */
static void pipe_end(struct out *o, uint32_t objref, uint32_t acc)
{
	struct ckpt_hdr_file f = { .f_flags = acc, .i_mode = S_IFIFO | 0600,
				   .path_len = 1, .obj_objref = MK_PIPE_REF };
	unsigned char buf[sizeof(f) + 1] = { 0 };

	memcpy(buf, &f, sizeof(f));
	record(o, CKPT_HDR_FILE, objref, buf, sizeof(buf));
}

/* The FOWN records of mk_spec.fown_unix (@async) and fown_pipe, the file @objref's. */
static void fown(struct out *o, uint32_t objref, bool async)
{
	struct ckpt_hdr_fown f = { .owner = CKPT_FOWN_THREAD, .fd = -1 };

	if (async)
		f = (struct ckpt_hdr_fown){ .owner = CKPT_FOWN_PROCESS, .signum = MK_FOWN_SIG,
					    .flags = CKPT_FOWN_ASYNC, .fd = 11 };
	record(o, CKPT_HDR_FOWN, objref, &f, sizeof(f));
}

/*
 * The UNIX_PAIR record of mk_spec.unix_*, its ends' objrefs in @up (new
 * ones where mk_spec leaves them 0; end 1's 0 when closed).
 */
static void unix_pair(struct out *o, const struct mk_spec *s, struct ckpt_hdr_unix_pair *up)
{
	size_t len = sizeof(*up) + s->unix_extra, off;
	unsigned char *buf;
	uint32_t n, k, msg;
	int i;

	*up = (struct ckpt_hdr_unix_pair){ .type = s->unix_type ? s->unix_type : SOCK_STREAM,
					   .__reserved = s->unix_reserved };
	for (i = 0; i < 2; i++) {
		up->end[i] = s->unix_end[i];
		if (!up->end[i].objref && !(i && s->unix_closed))
			up->end[i].objref = o->next_ref++;
		len += ((4 * up->end[i].nr_msgs + 7) & ~7UL) + ((up->end[i].bytes + 7) & ~7UL);
	}
	buf = calloc(1, len);
	if (!buf)
		abort();
	memcpy(buf, up, sizeof(*up));
	off = sizeof(*up);
	for (i = 0; i < 2; i++) {
		n = up->end[i].nr_msgs;
		for (k = 0; k < n; k++) {
			msg = up->end[i].bytes / n + (k == n - 1 ? up->end[i].bytes % n : 0);
			msg += !i && !k ? s->unix_msg_delta : 0;
			memcpy(buf + off + 4 * k, &msg, 4);
		}
		off += (4 * n + 7) & ~7UL;
		memset(buf + off, MK_UNIX_FILL, up->end[i].bytes);
		off += (up->end[i].bytes + 7) & ~7UL;
	}
	record(o, CKPT_HDR_UNIX_PAIR, up->end[0].objref, buf, len);
	free(buf);
}

/*
 * A unix socket of no pair: its UNIX_SOCK record, a new objref (its end's
 * too), as @us says, then @us.addr_len bytes of @name, padded; then its FD
 * record @fd in the files table @files_ref.
 */
static void unix_sock(struct out *o, struct ckpt_hdr_unix_sock us, const char *name,
		      uint32_t fd, uint32_t files_ref)
{
	struct ckpt_hdr_fd d = { .fd = fd, .file_objref = o->next_ref++ };
	unsigned char buf[sizeof(us) + 112] = { 0 };

	us.end.objref = d.file_objref;
	memcpy(buf, &us, sizeof(us));
	memcpy(buf + sizeof(us), name, us.addr_len);
	record(o, CKPT_HDR_UNIX_SOCK, d.file_objref, buf,
	       sizeof(us) + ((us.addr_len + 7) & ~7U));
	record(o, CKPT_HDR_FD, files_ref, &d, sizeof(d));
}

/* The unix sockets of no pair of mk_spec.unix_listen, unix_abstract, unix_unbound. */
static void unix_socks(struct out *o, const struct mk_spec *s, uint32_t files_ref)
{
	const struct ckpt_unix_end end = { .peek_off = -1, .rcvlowat = 1 };
	const struct ckpt_unix_end unbound = { .peek_off = -1, .rcvlowat = 1, .f_flags = 04000,
					       .opts = CKPT_UNIX_SNDBUF | CKPT_UNIX_PASSCRED,
					       .sndbuf = MK_USOCK_SNDBUF };

	if (s->unix_listen)
		unix_sock(o, (struct ckpt_hdr_unix_sock){
			.type = SOCK_STREAM, .backlog = MK_USOCK_BACKLOG,
			.flags = CKPT_UNIX_LISTEN | (s->unix_unlinked ? CKPT_UNIX_UNLINKED : 0),
			.addr_len = sizeof(MK_USOCK_PATH), .mode = MK_USOCK_MODE,
			.uid = MK_USOCK_UID, .gid = MK_USOCK_GID, .end = end },
			MK_USOCK_PATH, 22, files_ref);
	if (s->unix_abstract)
		unix_sock(o, (struct ckpt_hdr_unix_sock){
			.type = SOCK_SEQPACKET, .flags = CKPT_UNIX_LISTEN,
			.backlog = MK_USOCK_BACKLOG, .addr_len = sizeof(MK_USOCK_ABSTRACT) - 1,
			.end = end }, MK_USOCK_ABSTRACT, 23, files_ref);
	if (s->unix_unbound)
		unix_sock(o, (struct ckpt_hdr_unix_sock){ .type = SOCK_DGRAM, .end = unbound },
			  "", 24, files_ref);
}

/*
 * The options of restart's table (ckptinfo's ci_inet_opt()) whose value
 * on a new socket under Linux's default sysctls is not 0.
 */
static const struct { uint32_t level, name; int32_t value; } inet_defaults[] = {
	{ SOL_SOCKET, SO_RCVLOWAT, 1 },
	{ SOL_SOCKET, SO_PEEK_OFF, -1 },
	{ SOL_SOCKET, 74 /* SO_TXREHASH */, 1 },
	{ SOL_SOCKET, SO_MAX_PACING_RATE, -1 },
	{ SOL_IP, IP_TTL, 64 },
	{ SOL_IP, IP_MTU_DISCOVER, IP_PMTUDISC_WANT },
	{ SOL_IP, IP_MULTICAST_TTL, 1 },
	{ SOL_IP, IP_MULTICAST_LOOP, 1 },
	{ SOL_IP, IP_MULTICAST_ALL, 1 },
	{ SOL_IPV6, IPV6_UNICAST_HOPS, 64 },
	{ SOL_IPV6, IPV6_MULTICAST_HOPS, 1 },
	{ SOL_IPV6, IPV6_MULTICAST_LOOP, 1 },
	{ SOL_IPV6, IPV6_MULTICAST_ALL, 1 },
	{ SOL_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_WANT },
	{ SOL_IPV6, IPV6_AUTOFLOWLABEL, 1 },
	{ SOL_IPV6, IPV6_ADDR_PREFERENCES, 0x500 },
	{ SOL_TCP, TCP_KEEPIDLE, 7200 },
	{ SOL_TCP, TCP_KEEPINTVL, 75 },
	{ SOL_TCP, TCP_KEEPCNT, 9 },
	{ SOL_TCP, TCP_SYNCNT, 6 },
	{ SOL_TCP, TCP_LINGER2, 60 },
	{ SOL_SOCKET, SO_INCOMING_CPU, -1 },
};

/* The value of option @opt on a new socket under Linux's default sysctls. */
static int32_t inet_default(const struct ci_inet_opt *opt)
{
	size_t i;

	for (i = 0; i < sizeof(inet_defaults) / sizeof(inet_defaults[0]); i++)
		if (inet_defaults[i].level == opt->level && inet_defaults[i].name == opt->name)
			return inet_defaults[i].value;
	return 0;
}

/*
 * Into @o, the options of restart's table a socket of @family and
 * @protocol has, as checkpoint saves them (each one it has, in the
 * table's order), of their default values but those of the @nr level and
 * name pairs of @set, 1; their number.
 */
static uint32_t inet_opts(struct ckpt_sockopt *o, int family, int protocol,
			  const uint32_t (*set)[2], size_t nr)
{
	const struct ci_inet_opt *opt;
	uint32_t n = 0;
	size_t i, j;

	for (i = 0; (opt = ci_inet_opt(i)); i++) {
		if (!ci_inet_opt_applies(opt, family, protocol))
			continue;
		o[n] = (struct ckpt_sockopt){ .level = opt->level, .name = opt->name,
					      .value = inet_default(opt) };
		for (j = 0; j < nr; j++)
			if (set[j][0] == o[n].level && set[j][1] == o[n].name)
				o[n].value = 1;
		n++;
	}
	return n;
}

/*
 * A TCP or UDP socket: its INET_SOCK record, a new objref, as @is says
 * (linger -1: off), then its @is.nr_opts options @opts; then its FD
 * record @fd in the files table @files_ref.
 */
static void inet_sock(struct out *o, struct ckpt_hdr_inet_sock is,
		      const struct ckpt_sockopt *opts, uint32_t fd, uint32_t files_ref)
{
	struct ckpt_hdr_fd d = { .fd = fd, .file_objref = o->next_ref++ };
	size_t len = sizeof(is) + is.nr_opts * sizeof(*opts);
	unsigned char *buf = malloc(len);

	if (!buf)
		abort();
	is.linger = -1;
	memcpy(buf, &is, sizeof(is));
	if (is.nr_opts)
		memcpy(buf + sizeof(is), opts, is.nr_opts * sizeof(*opts));
	record(o, CKPT_HDR_INET_SOCK, d.file_objref, buf, len);
	record(o, CKPT_HDR_FD, files_ref, &d, sizeof(d));
	free(buf);
}

/* The TCP and UDP sockets of mk_spec.tcp_listen, tcp6_listen, udp_bound. */
static void inet_socks(struct out *o, const struct mk_spec *s, uint32_t files_ref)
{
	static const uint32_t tcp_set[][2] = {
		{ SOL_SOCKET, SO_REUSEADDR }, { SOL_TCP, TCP_NODELAY },
	};
	static const uint32_t tcp6_set[][2] = { { SOL_IPV6, IPV6_V6ONLY } };
	struct ckpt_sockopt opts[CI_INET_NR_OPTS];
	uint32_t n;

	if (s->tcp_listen) {
		n = inet_opts(opts, AF_INET, IPPROTO_TCP, tcp_set, 2);
		inet_sock(o, (struct ckpt_hdr_inet_sock){
			.family = AF_INET, .type = SOCK_STREAM, .protocol = IPPROTO_TCP,
			.port = MK_TCP_PORT, .flags = CKPT_INET_BOUND | CKPT_INET_LISTEN,
			.backlog = MK_TCP_BACKLOG, .addr = { 127, 0, 0, 1 }, .nr_opts = n,
			.congestion = MK_TCP_CC }, opts, 25, files_ref);
	}
	if (s->tcp6_listen) {
		n = s->nr_tcp6_opts ? s->nr_tcp6_opts :
		    inet_opts(opts, AF_INET6, IPPROTO_TCP, tcp6_set, 1);
		inet_sock(o, (struct ckpt_hdr_inet_sock){
			.family = AF_INET6, .type = SOCK_STREAM, .protocol = IPPROTO_TCP,
			.port = MK_TCP6_PORT, .flags = CKPT_INET_BOUND | CKPT_INET_LISTEN,
			.backlog = MK_TCP6_BACKLOG, .mss = MK_TCP6_MSS, .nr_opts = n,
			.congestion = MK_TCP6_CC }, s->nr_tcp6_opts ? s->tcp6_opts : opts, 26,
			files_ref);
	}
	if (s->udp_bound) {
		n = inet_opts(opts, AF_INET, IPPROTO_UDP, NULL, 0);
		inet_sock(o, (struct ckpt_hdr_inet_sock){
			.family = AF_INET, .type = SOCK_DGRAM, .protocol = IPPROTO_UDP,
			.port = MK_UDP_PORT, .flags = CKPT_INET_BOUND, .uid = MK_UDP_UID,
			.gid = MK_UDP_GID, .nr_opts = n }, opts, 27, files_ref);
	}
}

/* An O_PATH FILE record @ref of @path, of mode @mode (inode @ino on device 0x801). */
static void o_path_file(struct out *o, uint32_t ref, const char *path, uint32_t mode,
			uint64_t ino)
{
	path_file(o, ref, path, (struct ckpt_hdr_file){
		.f_flags = 010000000 /* O_PATH */, .i_mode = mode, .ino = ino, .dev = 0x801,
		.generation = 7 });
}

/*
 * The inotify instance of mk_spec.inotify*: the O_PATH FILE records of
 * what its watches watch, its INOTIFY record and its FD record (fd 28) in
 * the files table @files_ref.
 */
static void inotify(struct out *o, const struct mk_spec *s, uint32_t files_ref)
{
	struct ckpt_hdr_inotify h = { .f_flags = 04000 /* O_NONBLOCK */,
				      .nr_watches = s->inotify_empty ? 0 : 2,
				      .next_wd = MK_INOTIFY_NEXT_WD };
	struct ckpt_inotify_watch w[2] = {
		{ .wd = MK_INOTIFY_DIR_WD, .mask = MK_INOTIFY_DIR_MASK },
		{ .wd = MK_INOTIFY_FILE_WD, .mask = MK_INOTIFY_FILE_MASK },
	};
	struct ckpt_hdr_fd d = { .fd = 28 };
	unsigned char buf[sizeof(h) + sizeof(w)];

	if (h.nr_watches) {
		w[0].file_objref = o->next_ref++;
		w[1].file_objref = o->next_ref++;
		o_path_file(o, w[0].file_objref, s->inotify_dir ? s->inotify_dir : MK_INOTIFY_DIR,
			    S_IFDIR | 0755, 13);
		if (!s->inotify_file_after)
			o_path_file(o, w[1].file_objref, MK_INOTIFY_FILE, S_IFREG | 0644, 14);
	}
	d.file_objref = o->next_ref++;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), w, h.nr_watches * sizeof(w[0]));
	record(o, CKPT_HDR_INOTIFY, d.file_objref, buf, sizeof(h) + h.nr_watches * sizeof(w[0]));
	record(o, CKPT_HDR_FD, files_ref, &d, sizeof(d));
	if (h.nr_watches && s->inotify_file_after)
		o_path_file(o, w[1].file_objref, MK_INOTIFY_FILE, S_IFREG | 0644, 14);
}

/*
 * The FIFO of mk_spec.fifo*: its PIPE record, then each file open on it,
 * a FILE record and an FD record of the files table @files_ref (fd 13 on).
 */
static void fifo(struct out *o, const struct mk_spec *s, uint32_t files_ref)
{
	const char *path = s->fifo_path ? s->fifo_path : MK_FIFO_PATH;
	size_t i, max = sizeof(s->fifo_acc) / sizeof(s->fifo_acc[0]);
	struct ckpt_hdr_fd fd = { .fd = 13 };

	if (s->nr_fifo > max) {
		fprintf(stderr, "mk_image: nr_fifo %zu, more files than fifo_acc[] holds (%zu)\n",
			s->nr_fifo, max);
		abort();
	}
	pipe_record(o, MK_FIFO_REF, (struct ckpt_hdr_pipe){
		.size = MK_FIFO_SIZE, .bytes = s->fifo_bytes,
		.flags = CKPT_PIPE_FIFO | s->fifo_flags, .__reserved = s->fifo_reserved });
	for (i = 0; i < s->nr_fifo; i++, fd.fd++) {
		fd.file_objref = o->next_ref++;
		path_file(o, fd.file_objref, path, (struct ckpt_hdr_file){
			.f_flags = s->fifo_acc[i] | 0100000 /* O_LARGEFILE */,
			.i_mode = s->fifo_mode ? s->fifo_mode : S_IFIFO | 0644,
			.f_pos = s->fifo_pos, .obj_objref = s->fifo_pipe ? s->fifo_pipe : MK_FIFO_REF,
			.ino = 9, .dev = 0x801, .generation = 3 });
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	}
}

static uint32_t task(struct out *o, const struct ckpt_tree_task *e)
{
	struct ckpt_hdr_task t = { .pid = e->pid, .tgid = e->tgid,
				   .sas_ss_flags = 2 /* SS_DISABLE */ };
	uint32_t ref = o->next_ref++;

	snprintf(t.comm, sizeof(t.comm), e->pid == e->tgid ? "proc-%d" : "thread-%d",
		 e->pid);
	record(o, CKPT_HDR_TASK, ref, &t, sizeof(t));
	return ref;
}

static void cpu_xstate(struct out *o, uint32_t task_ref)
{
	struct ckpt_hdr_cpu cpu = { .cs = 0x33, .ss = 0x2b, .flags = 0x202,
				    .orig_ax = ~0ULL, .ip = 0x401000 };
	unsigned char xstate[XSTATE_SIZE] = { 0 };
	uint64_t features = 0x3;

	memcpy(xstate + 512, &features, 8);
	record(o, CKPT_HDR_CPU, task_ref, &cpu, sizeof(cpu));
	record(o, CKPT_HDR_XSTATE, task_ref, xstate, sizeof(xstate));
}

/* What the processes save once, with the first that has it. */
struct shared {
	uint32_t null;		/* the root's /dev/null FILE */
	uint32_t files, fs;	/* the first process's files table, fs_struct */
	uint32_t shmem;		/* the SHMEM */
	size_t shmem_maps;	/* the processes still to map it */
	uint32_t sysvshm;	/* the SYSVSHM, */
	uint32_t shm_attach;	/* its first process's SHM_ATTACH */
	size_t sysvshm_maps;	/* the processes still to attach it */
};

/*
 * The pages of the SHMEM or GHOST record @ref: none, or (@nr_pages 2) at
 * offsets 0 and 0x2000, filled with @fill and @fill + 0x11.
 */
static void obj_pages(struct out *o, uint32_t ref, uint64_t nr_pages, int fill)
{
	if (!nr_pages)
		return;
	pages(o, ref, 0, fill);
	pages(o, ref, 2 * 4096, fill + 0x11);
}

/*
 * A SHMEM record @ref as @hs says, then @name (a memfd's, name_len set
 * here), then its pages (obj_pages()).
 */
static void shmem_record(struct out *o, uint32_t ref, struct ckpt_hdr_shmem hs,
			 const char *name, int fill)
{
	unsigned char buf[sizeof(hs) + 256];

	hs.name_len = name ? strlen(name) + 1 : 0;
	memcpy(buf, &hs, sizeof(hs));
	memcpy(buf + sizeof(hs), name ? name : "", hs.name_len);
	record(o, CKPT_HDR_SHMEM, ref, buf, sizeof(hs) + hs.name_len);
	obj_pages(o, ref, hs.nr_pages, fill);
}

/* The SHMEM record and its pages, with the first process that maps it. */
static void shmem(struct out *o, struct shared *sh)
{
	sh->shmem = o->next_ref++;
	shmem_record(o, sh->shmem, (struct ckpt_hdr_shmem){
		.size = MK_SHMEM_SIZE, .nr_pages = 2, .flags = CKPT_SHMEM_NORESERVE },
		NULL, 0xaa);
}

/* The SYSVSHM record @ref of mk_spec.sysvshm_maps, then its pages (obj_pages()). */
static void sysvshm_record(struct out *o, const struct mk_spec *s, uint32_t ref)
{
	struct ckpt_hdr_sysvshm hs = {
		.id = MK_SYSVSHM_ID, .key = s->sysvshm_removed ? 0 : MK_SYSVSHM_KEY,
		.size = MK_SYSVSHM_SIZE, .nr_pages = 2, .uid = MK_SYSVSHM_UID,
		.gid = MK_SYSVSHM_GID, .cuid = MK_SYSVSHM_CUID, .cgid = MK_SYSVSHM_CGID,
		.mode = MK_SYSVSHM_MODE, .flags = s->sysvshm_removed ? CKPT_SYSVSHM_REMOVED : 0,
		.atime = MK_SYSVSHM_ATIME, .dtime = MK_SYSVSHM_DTIME, .ctime = MK_SYSVSHM_CTIME };

	record(o, CKPT_HDR_SYSVSHM, ref, &hs, sizeof(hs));
	obj_pages(o, ref, hs.nr_pages, 0x5a);
}

/* A SHM_ATTACH record of the segment @seg (@rdonly: shmat(SHM_RDONLY)); its objref. */
static uint32_t shm_attach(struct out *o, uint32_t seg, bool rdonly)
{
	struct ckpt_hdr_shm_attach ha = { .shm_objref = seg,
					  .flags = rdonly ? CKPT_SHM_ATTACH_RDONLY : 0 };
	uint32_t ref = o->next_ref++;

	record(o, CKPT_HDR_SHM_ATTACH, ref, &ha, sizeof(ha));
	return ref;
}

/*
 * The records of the SysV segment of mk_spec.sysvshm_maps a process that
 * attaches it writes (the first: the segment and its attach; a later one
 * with sysvshm_reattach: an attach of its own, read-only; else none), and
 * in @v the VMAs of the attach it maps (file_objref 0: none).
 */
static void sysvshm(struct out *o, const struct mk_spec *s, struct shared *sh,
		    struct ckpt_hdr_vma v[2])
{
	bool rdonly = sh->sysvshm && s->sysvshm_reattach;
	uint32_t attach = sh->shm_attach;

	if (!sh->sysvshm) {
		sh->sysvshm = o->next_ref++;
		if (s->sysvshm_attach_first)
			attach = shm_attach(o, sh->sysvshm, false);
		sysvshm_record(o, s, sh->sysvshm);
		if (!s->sysvshm_attach_first)
			attach = shm_attach(o, sh->sysvshm, false);
		sh->shm_attach = attach;
	} else if (rdonly) {
		attach = shm_attach(o, sh->sysvshm, true);
	}
	v[0] = (struct ckpt_hdr_vma){ .start = MK_SYSVSHM_START,
				      .end = MK_SYSVSHM_START + (rdonly ? MK_SYSVSHM_SIZE : 4096),
				      .vm_flags = rdonly ? MK_SYSVSHM_RDONLY_FLAGS : MK_SYSVSHM_FLAGS,
				      .kind = CKPT_VMA_SYSVSHM, .file_objref = attach };
	v[1] = (struct ckpt_hdr_vma){ .start = v[0].end, .end = MK_SYSVSHM_START + MK_SYSVSHM_SIZE,
				      .pgoff = 1, .vm_flags = MK_SYSVSHM_RO_FLAGS,
				      .kind = CKPT_VMA_SYSVSHM, .file_objref = rdonly ? 0 : attach };
}

/*
 * The FILE record (no path, O_RDWR, @mode) of a file open on the object
 * @obj_ref (a memfd's SHMEM, a GHOST) restart makes again, objref @ref, and
 * its FD record @fd in the files table @files_ref; @ref.
 */
static uint32_t remade_file(struct out *o, uint32_t ref, uint32_t obj_ref, uint32_t mode,
			    uint32_t fd, uint32_t files_ref)
{
	struct ckpt_hdr_fd d = { .fd = fd, .file_objref = ref };

	path_file(o, ref, "", (struct ckpt_hdr_file){ .f_flags = 02, .i_mode = mode,
						      .obj_objref = obj_ref });
	record(o, CKPT_HDR_FD, files_ref, &d, sizeof(d));
	return ref;
}

/*
 * The memfd of mk_spec.memfd: its SHMEM record and pages, then the FILE
 * record of a file open on it and its FD record (fd 20) in the files
 * table @files_ref; the file's objref.
 */
static uint32_t memfd(struct out *o, const struct mk_spec *s, uint32_t files_ref)
{
	uint32_t ref = o->next_ref++, file_ref = o->next_ref++;
	struct ckpt_hdr_shmem hs = {
		.size = s->memfd_empty ? 0 : MK_MEMFD_SIZE, .nr_pages = s->memfd_empty ? 0 : 2,
		.flags = s->memfd_flags ? s->memfd_flags :
			 CKPT_SHMEM_NORESERVE | CKPT_SHMEM_MEMFD |
			 (s->memfd_exec ? CKPT_SHMEM_EXEC : 0) };
	bool named = hs.flags & CKPT_SHMEM_MEMFD;

	hs.seals = named ? MK_MEMFD_SEALS & (s->memfd_exec ? ~0x20U : ~0U) : 0;
	shmem_record(o, ref, hs, named ? MK_MEMFD_NAME : NULL, 0xcc);
	return remade_file(o, file_ref, ref, S_IFREG | (s->memfd_exec ? 0777 : 0666), 20,
			   files_ref);
}

/*
 * The deleted file of mk_spec.ghost (ghost_empty: empty; ghost_linkable:
 * CKPT_GHOST_LINKABLE): its GHOST record and pages, then the FILE record
 * of a file open on it and its FD record (fd 21) in the files table
 * @files_ref; the file's objref.
 */
static uint32_t ghost(struct out *o, const struct mk_spec *s, uint32_t files_ref)
{
	uint32_t ref = o->next_ref++, file_ref = o->next_ref++;
	struct ckpt_hdr_ghost hg = { .size = s->ghost_empty ? 0 : MK_GHOST_SIZE,
				     .nr_pages = s->ghost_empty ? 0 : 2,
				     .mode = MK_GHOST_MODE, .uid = MK_GHOST_UID,
				     .gid = MK_GHOST_GID, .path_len = sizeof(MK_GHOST_PATH),
				     .flags = s->ghost_linkable ? CKPT_GHOST_LINKABLE : 0 };
	unsigned char buf[sizeof(hg) + sizeof(MK_GHOST_PATH)];

	memcpy(buf, &hg, sizeof(hg));
	memcpy(buf + sizeof(hg), MK_GHOST_PATH, sizeof(MK_GHOST_PATH));
	record(o, CKPT_HDR_GHOST, ref, buf, sizeof(buf));
	obj_pages(o, ref, hg.nr_pages, 0xee);
	return remade_file(o, file_ref, ref, S_IFREG | MK_GHOST_MODE, 21, files_ref);
}

/* The RLIMITS record: MK_RLIMIT_*, the others unlimited. */
static void rlimits(struct out *o, uint32_t task_ref)
{
	struct ckpt_hdr_rlimits l = { .nr_limits = CKPT_RLIM_NLIMITS };
	unsigned int i;

	for (i = 0; i < CKPT_RLIM_NLIMITS; i++)
		l.rlim[i].cur = l.rlim[i].max = ~0ULL;
	l.rlim[RLIMIT_STACK].cur = MK_RLIMIT_STACK;
	l.rlim[RLIMIT_CORE].cur = MK_RLIMIT_CORE;
	l.rlim[RLIMIT_NOFILE].cur = MK_RLIMIT_NOFILE;
	l.rlim[RLIMIT_NOFILE].max = MK_RLIMIT_NOFILE_MAX;
	l.rlim[RLIMIT_MEMLOCK].cur = l.rlim[RLIMIT_MEMLOCK].max = MK_RLIMIT_MEMLOCK;
	record(o, CKPT_HDR_RLIMITS, task_ref, &l, sizeof(l));
}

/* The ITIMERS record: ITIMER_REAL MK_ITIMER_REAL*, the others disarmed. */
static void itimers(struct out *o, uint32_t task_ref)
{
	struct ckpt_hdr_itimers h = { .nr_timers = CKPT_NR_ITIMERS };

	h.it[0].value = MK_ITIMER_REAL;
	h.it[0].interval = MK_ITIMER_REAL_INTERVAL;
	record(o, CKPT_HDR_ITIMERS, task_ref, &h, sizeof(h));
}

/* The POSIX_TIMERS record: one timer, MK_POSIX_* (mk_spec.no_posix: none). */
static void posix_timers(struct out *o, const struct mk_spec *s, uint32_t task_ref)
{
	struct {
		struct ckpt_hdr_posix_timers h;
		struct ckpt_posix_timer t;
	} r = {
		.h.nr_timers = 1,
		.t = { .id = MK_POSIX_ID, .clock = 1 /* CLOCK_MONOTONIC */,
		       .notify = 0 /* SIGEV_SIGNAL */, .signo = 12, .sigval = MK_POSIX_VALUE,
		       .value = MK_POSIX_LEFT, .interval = MK_POSIX_INTERVAL, .overrun = -1 },
	};

	r.h.nr_timers = !s->no_posix;
	record(o, CKPT_HDR_POSIX_TIMERS, task_ref, &r,
	       s->no_posix ? sizeof(r.h) : sizeof(r));
}

struct ckpt_sigpending mk_signal(int32_t tid, int32_t signo, int32_t code,
				 int32_t pid, uint32_t uid, int32_t value)
{
	struct ckpt_sigpending e = { .tid = tid, .signo = signo, .code = code };

	memcpy(e.fields, &pid, 4);
	memcpy(e.fields + 4, &uid, 4);
	memcpy(e.fields + 8, &value, 4);
	return e;
}

/* The SIGPENDING record of the process @pid: mk_spec.pending, or none. */
static void sigpending(struct out *o, const struct mk_spec *s, int32_t pid,
		       uint32_t task_ref)
{
	size_t n = pid == s->pending_pid ? s->nr_pending : 0;
	struct ckpt_hdr_sigpending h = { .nr_signals = n };
	size_t len = sizeof(h) + n * sizeof(*s->pending);
	unsigned char *payload = malloc(len);

	if (!payload)
		abort();
	memcpy(payload, &h, sizeof(h));
	if (n)
		memcpy(payload + sizeof(h), s->pending, n * sizeof(*s->pending));
	record(o, CKPT_HDR_SIGPENDING, task_ref, payload, len);
	free(payload);
}

/*
 * A private file VMA (a memfd's or a deleted file's file, set later) at
 * @start with @vm_flags: 2 pages from the file's second, the first of them
 * written (a page of its own).
 */
static struct ckpt_hdr_vma private_vma(uint64_t start, uint64_t vm_flags)
{
	return (struct ckpt_hdr_vma){ .start = start, .end = start + 2 * 4096,
				      .vm_flags = vm_flags, .kind = CKPT_VMA_FILE,
				      .pgoff = 1, .nr_pages = 1 };
}

/*
 * The VMA record @v of the mm @mm_ref if it maps something (a
 * file_objref), then its page if it has one (at its start, filled with
 * @fill).
 */
static void vma_of(struct out *o, uint32_t mm_ref, const struct ckpt_hdr_vma *v, int fill)
{
	if (!v->file_objref)
		return;
	record(o, CKPT_HDR_VMA, mm_ref, v, sizeof(*v));
	if (v->nr_pages)
		pages(o, mm_ref, v->start, fill);
}

/* A live process's records. */
static void process(struct out *o, const struct mk_spec *s,
		    const struct ckpt_tree_task *e, struct shared *sh)
{
	struct ckpt_hdr_signal sig = { .nr_actions = CKPT_NSIG };
	struct ckpt_hdr_creds creds = { 0 };
	struct ckpt_hdr_mm mm = { .nr_vmas = 1, .coredump_filter = 0x33 };
	struct ckpt_hdr_vma vma = { .start = VMA_START, .end = VMA_START + 0x1000,
				    .vm_flags = 0x3, .kind = CKPT_VMA_ANON,
				    .nr_pages = 1 };
	struct ckpt_hdr_vma shvma = { .start = MK_SHMEM_START,
				      .end = MK_SHMEM_START + MK_SHMEM_SIZE,
				      .vm_flags = MK_SHMEM_FLAGS,
				      .kind = CKPT_VMA_SHARED_ANON };
	struct ckpt_hdr_vma mfvma = { .start = MK_MEMFD_START,
				      .end = MK_MEMFD_START + MK_MEMFD_SIZE,
				      .vm_flags = MK_MEMFD_FLAGS,
				      .kind = CKPT_VMA_SHARED_FILE };
	struct ckpt_hdr_vma sfvma = { .start = MK_SHARED_START,
				      .end = MK_SHARED_START + 2 * 4096,
				      .vm_flags = MK_SHARED_FLAGS,
				      .kind = CKPT_VMA_SHARED_FILE };
	struct ckpt_hdr_vma mpvma = private_vma(MK_MEMFD_PRIVATE_START, MK_MEMFD_PRIVATE_FLAGS);
	struct ckpt_hdr_vma gvma = { .start = MK_GHOST_START,
				     .end = MK_GHOST_START + ((MK_GHOST_SIZE + 4095) & ~4095ULL),
				     .vm_flags = MK_GHOST_FLAGS,
				     .kind = CKPT_VMA_SHARED_FILE };
	struct ckpt_hdr_vma gpvma = private_vma(MK_GHOST_PRIVATE_START, MK_GHOST_PRIVATE_FLAGS);
	struct ckpt_hdr_vma svma[2] = { { 0 } };
	struct ckpt_hdr_fd fd = { 0 };
	uint32_t evfd_ref = 0;
	struct ckpt_hdr_fs fs = { .umask = MK_UMASK };
	uint32_t task_ref = task(o, e), files_ref, fs_ref, own, mm_ref;
	bool sharer = s->share_files && sh->files;
	char path[64];

	record(o, CKPT_HDR_SIGNAL, task_ref, &sig, sizeof(sig));
	if (!s->no_sigpending)
		sigpending(o, s, e->pid, task_ref);
	record(o, CKPT_HDR_CREDS, task_ref, &creds, sizeof(creds));
	if (!s->no_rlimits)
		rlimits(o, task_ref);
	if (!s->no_itimers)
		itimers(o, task_ref);
	if (!s->no_posix_record)
		posix_timers(o, s, task_ref);
	files_ref = sharer ? sh->files : o->next_ref++;
	fs_ref = sharer ? sh->fs : o->next_ref++;
	if (!sh->files) {
		sh->files = files_ref;
		sh->fs = fs_ref;
	}
	if (!s->no_process) {
		struct ckpt_hdr_process proc = { .oom_score_adj = MK_OOM_SCORE_ADJ,
						 .files_objref = files_ref,
						 .fs_objref = fs_ref };

		record(o, CKPT_HDR_PROCESS, task_ref, &proc, sizeof(proc));
	}
	if (sharer) {
		if (s->fd_in_sharer)
			record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		goto mm;
	}
	if (!sh->null) {
		sh->null = o->next_ref++;
		file(o, sh->null, "/dev/null", S_IFCHR | 0666);
	}
	own = o->next_ref++;
	if (s->root_path && e == s->tree)
		snprintf(path, sizeof(path), "%s", s->root_path);
	else
		snprintf(path, sizeof(path), "/tmp/out.%d", e->pid);
	file(o, own, path, S_IFREG | 0644);
	if (s->fown_elsewhere && e == s->tree)
		fown(o, sh->null, true);
	if (s->locks && e == s->tree) {
		struct ckpt_hdr_lock fl = { .kind = CKPT_LOCK_FLOCK, .type = CKPT_LOCK_WRITE,
					    .end = INT64_MAX };
		struct ckpt_hdr_lock ofd = { .kind = CKPT_LOCK_OFD, .type = CKPT_LOCK_READ,
					     .start = 10, .end = s->lock_end ? s->lock_end : 19 };

		record(o, CKPT_HDR_LOCK, own, &fl, sizeof(fl));
		record(o, CKPT_HDR_LOCK, own, &ofd, sizeof(ofd));
	}
	fd.file_objref = sh->null;
	record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	fd.fd = 1;
	record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	fd.fd = 3;
	fd.file_objref = own;
	record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	if (s->locks && e == s->tree) {
		struct ckpt_hdr_lock posix = { .kind = CKPT_LOCK_POSIX, .type = CKPT_LOCK_WRITE,
					       .end = 4,
					       .owner = s->lock_owner ? s->lock_owner : files_ref };

		record(o, CKPT_HDR_LOCK, own, &posix, sizeof(posix));
	}
	if (s->pipe && e == s->tree) {
		uint32_t rd = o->next_ref++, wr = o->next_ref++;

		pipe_record(o, MK_PIPE_REF, (struct ckpt_hdr_pipe){
			.size = s->pipe_size ? s->pipe_size : MK_PIPE_SIZE,
			.bytes = s->pipe_bytes, .flags = s->pipe_flags });
		pipe_end(o, rd, 0);
		if (s->fown_pipe)
			fown(o, rd, false);
		pipe_end(o, wr, 1);
		fd.fd = 4;
		fd.file_objref = rd;
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		fd.fd = 5;
		fd.file_objref = wr;
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		if (s->pipe_read_twice) {
			fd.fd = 6;
			fd.file_objref = o->next_ref++;
			pipe_end(o, fd.file_objref, 0);
			record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		}
	}
	if (s->eventfd && e == s->tree) {
		struct ckpt_hdr_eventfd ev = { .count = MK_EVENTFD_COUNT,
					       .flags = CKPT_EVENTFD_SEMAPHORE |
							s->eventfd_bad_flags,
					       .f_flags = 04000 };

		fd.fd = 7;
		fd.file_objref = o->next_ref++;
		evfd_ref = fd.file_objref;
		record(o, CKPT_HDR_EVENTFD, fd.file_objref, &ev, sizeof(ev));
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	}
	if (s->signalfd_mask && e == s->tree) {
		struct ckpt_hdr_signalfd sfd = { .mask = s->signalfd_mask };

		fd.fd = 8;
		fd.file_objref = o->next_ref++;
		record(o, CKPT_HDR_SIGNALFD, fd.file_objref, &sfd, sizeof(sfd));
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	}
	if (s->timerfd && e == s->tree) {
		struct ckpt_hdr_timerfd tfd = { .clockid = s->timerfd_clock,
						.value = MK_TIMERFD_VALUE,
						.interval = MK_TIMERFD_INTERVAL,
						.ticks = MK_TIMERFD_TICKS };

		fd.fd = 9;
		fd.file_objref = o->next_ref++;
		record(o, CKPT_HDR_TIMERFD, fd.file_objref, &tfd, sizeof(tfd));
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
	}
	if (s->epoll && e == s->tree) {
		struct ckpt_hdr_epoll ep = { 0 };
		struct ckpt_epoll_item item = { .fd = 7, .events = 0x19,
						.data = MK_EPOLL_DATA,
						.file_objref = s->epoll_item_ref ?
						s->epoll_item_ref : evfd_ref };

		fd.fd = 10;
		fd.file_objref = o->next_ref++;
		record(o, CKPT_HDR_EPOLL, fd.file_objref, &ep, sizeof(ep));
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		record(o, CKPT_HDR_EPOLL_ITEMS, fd.file_objref, &item, sizeof(item));
	}
	if (s->unix_pair && e == s->tree) {
		struct ckpt_hdr_unix_pair up;

		unix_pair(o, s, &up);
		if (s->fown_unix || s->fown_twice)
			fown(o, up.end[0].objref, true);
		if (s->fown_twice)
			fown(o, up.end[0].objref, true);
		fd.fd = 11;
		fd.file_objref = up.end[0].objref;
		record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		if (up.end[1].objref) {
			fd.fd = 12;
			fd.file_objref = up.end[1].objref;
			record(o, CKPT_HDR_FD, files_ref, &fd, sizeof(fd));
		}
	}
	if (s->fifo && e == s->tree)
		fifo(o, s, files_ref);
	if (s->memfd && e == s->tree)
		mfvma.file_objref = memfd(o, s, files_ref);
	if (s->ghost && e == s->tree)
		gvma.file_objref = ghost(o, s, files_ref);
	if (e == s->tree) {
		unix_socks(o, s, files_ref);
		inet_socks(o, s, files_ref);
		if (s->inotify)
			inotify(o, s, files_ref);
	}
	fs.cwd_objref = o->next_ref++;
	snprintf(path, sizeof(path), "/tmp/cwd.%d", e->pid);
	file(o, fs.cwd_objref, path, S_IFDIR | 0755);
	if (e->pid == s->chroot_pid) {
		fs.root_objref = o->next_ref++;
		snprintf(path, sizeof(path), "/srv/jail.%d", e->pid);
		file(o, fs.root_objref, path, S_IFDIR | 0755);
	}
	if (!s->no_fs)
		record(o, CKPT_HDR_FS, task_ref, &fs, sizeof(fs));
	if (s->two_fs)
		record(o, CKPT_HDR_FS, task_ref, &fs, sizeof(fs));
mm:
	if (sh->shmem_maps) {
		sh->shmem_maps--;
		mm.nr_vmas = 2;
		if (!sh->shmem)
			shmem(o, sh);
		shvma.file_objref = sh->shmem;
	}
	if (sh->sysvshm_maps) {
		sh->sysvshm_maps--;
		sysvshm(o, s, sh, svma);
	}
	if (s->shared_file && e == s->tree) {
		sfvma.file_objref = o->next_ref++;
		path_file(o, sfvma.file_objref, MK_SHARED_PATH, (struct ckpt_hdr_file){
			.f_flags = 02, .i_mode = S_IFREG | 0644, .ino = 11, .dev = 0x801,
			.generation = 5, .size = 2 * 4096 });
	}
	if (s->memfd_private)
		mpvma.file_objref = mfvma.file_objref;
	if (s->ghost_private)
		gpvma.file_objref = gvma.file_objref;
	mm.nr_vmas += !!mfvma.file_objref + !!sfvma.file_objref + !!mpvma.file_objref +
		      !!gvma.file_objref + !!gpvma.file_objref + !!svma[0].file_objref +
		      !!svma[1].file_objref;
	mm_ref = o->next_ref++;
	record(o, CKPT_HDR_MM, mm_ref, &mm, sizeof(mm));
	record(o, CKPT_HDR_VMA, mm_ref, &vma, sizeof(vma));
	pages(o, mm_ref, VMA_START, e->pid);
	vma_of(o, mm_ref, &shvma, 0);
	vma_of(o, mm_ref, &mfvma, 0);
	vma_of(o, mm_ref, &sfvma, 0);
	vma_of(o, mm_ref, &mpvma, 0xdd);
	vma_of(o, mm_ref, &gvma, 0);
	vma_of(o, mm_ref, &gpvma, 0xef);
	vma_of(o, mm_ref, &svma[0], 0);
	vma_of(o, mm_ref, &svma[1], 0);
	cpu_xstate(o, task_ref);
}

unsigned char *mk_image(const struct mk_spec *s, size_t *len)
{
	const struct ckpt_tree_task *recs = s->recs ? s->recs : s->tree;
	size_t nr_recs = s->recs ? s->nr_recs : s->nr_tree, i;
	struct ckpt_hdr_header h = { .magic = CKPT_MAGIC,
				     .version = CKPT_FORMAT_VERSION,
				     .page_size = 4096, .time = 1700000000,
				     .crid = 1, .release = "6.12.0",
				     .version_str = "#1", .machine = "x86_64" };
	struct ckpt_hdr_arch arch = { .xfeatures = 0x3, .xstate_size = XSTATE_SIZE };
	struct ckpt_hdr_tail tail = { .magic = CKPT_TAIL_MAGIC };
	struct ckpt_hdr_tree tree = { .nr_tasks = s->nr_tasks, .nr_procs = s->nr_procs };
	struct out o = { .next_ref = 1, .unpadded = s->pages_unpadded };
	struct shared sh = { .shmem_maps = s->shmem_maps, .sysvshm_maps = s->sysvshm_maps };
	unsigned char *payload;
	bool live = false;

	h.nr_tasks = s->nr_tasks ? s->nr_tasks : s->nr_tree;
	if (!tree.nr_tasks)
		tree.nr_tasks = s->nr_tree;
	for (i = 0; !s->nr_procs && i < s->nr_tree; i++)
		tree.nr_procs += s->tree[i].pid == s->tree[i].tgid &&
				 !(s->tree[i].flags & CKPT_TREE_ZOMBIE);
	record(&o, CKPT_HDR_HEADER, 0, &h, sizeof(h));
	record(&o, CKPT_HDR_ARCH, 0, &arch, sizeof(arch));
	payload = malloc(sizeof(tree) + s->nr_tree * sizeof(*s->tree));
	memcpy(payload, &tree, sizeof(tree));
	memcpy(payload + sizeof(tree), s->tree, s->nr_tree * sizeof(*s->tree));
	record(&o, CKPT_HDR_TREE, 0, payload, sizeof(tree) + s->nr_tree * sizeof(*s->tree));
	free(payload);
	for (i = 0; i < nr_recs; i++) {
		const struct ckpt_tree_task *e = &recs[i];

		if (e->pid == e->tgid) {
			live = !(e->flags & CKPT_TREE_ZOMBIE);
			if (live)
				process(&o, s, e, &sh);
		} else if (live) {
			cpu_xstate(&o, task(&o, e));
		}
	}
	tail.nr_records = o.nr_records;
	tail.pos = o.len;
	record(&o, CKPT_HDR_TAIL, 0, &tail, sizeof(tail));
	*len = o.len;
	return o.buf;
}

const char *mk_file(const unsigned char *buf, size_t len)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/ckptinfo-test-XXXXXX");
	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		return NULL;
	return path;
}
