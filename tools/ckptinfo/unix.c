// SPDX-License-Identifier: GPL-2.0
/*
 * The records of AF_UNIX sockets, each checked as restart checks it:
 * UNIX_PAIR (a socketpair, both ends) and UNIX_SOCK (a socket of no pair:
 * unbound, bound to a name, listening). Their order and objrefs are
 * image.c's.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* The options a unix socket's end keeps, CKPT_UNIX_*. */
#define UNIX_OPTS	(CKPT_UNIX_SNDBUF | CKPT_UNIX_RCVBUF | CKPT_UNIX_PASSCRED | \
			 CKPT_UNIX_PASSPIDFD | CKPT_UNIX_PASSSEC | CKPT_UNIX_KEEPALIVE | \
			 CKPT_UNIX_OOBINLINE | CKPT_UNIX_BROADCAST | CKPT_UNIX_DONTROUTE)
#define UNIX_SHUT	(CKPT_UNIX_SHUT_RD | CKPT_UNIX_SHUT_WR)

/* A unix socket record's socket type, as restart checks it. */
static int unix_type_ok(struct reader *r, uint32_t type)
{
	if (!ci_unix_type(type))
		return rd_bad(r, "socket type %u: not SOCK_STREAM (1), SOCK_DGRAM (2) or SOCK_SEQPACKET (5)",
			      type);
	return 0;
}

/*
 * The state of the end @e (a pair's end, a socket of no pair's) but its
 * objref and queue, as restart checks it: its flags, shutdown, options
 * and their values, reserved field; @which names it in the refusal
 * ("end 0", "end").
 */
static int unix_end_state(struct reader *r, const struct ckpt_unix_end *e, const char *which)
{
	if (e->f_flags & ~SETFL_FLAGS)
		return rd_bad(r, "%s: f_flags %#o: more than O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME",
			      which, e->f_flags);
	if (e->shutdown & ~UNIX_SHUT)
		return rd_bad(r, "%s: unknown shutdown bits %#x", which, e->shutdown);
	if (e->opts & ~UNIX_OPTS)
		return rd_bad(r, "%s: unknown options %#x", which, e->opts);
	if (!e->sndbuf != !(e->opts & CKPT_UNIX_SNDBUF) ||
	    !e->rcvbuf != !(e->opts & CKPT_UNIX_RCVBUF))
		return rd_bad(r, "%s: sndbuf %u, rcvbuf %u with options %#x: a buffer size without its option, or the option without a size",
			      which, e->sndbuf, e->rcvbuf, e->opts);
	if (e->sndbuf > INT32_MAX || e->rcvbuf > INT32_MAX)
		return rd_bad(r, "%s: sndbuf %u or rcvbuf %u above INT_MAX", which, e->sndbuf,
			      e->rcvbuf);
	if (e->peek_off < -1)
		return rd_bad(r, "%s: peek_off %d, below -1 (off)", which, e->peek_off);
	if (e->rcvlowat < 0)
		return rd_bad(r, "%s: negative rcvlowat %d", which, e->rcvlowat);
	/* -1: a timeout of 0, reads and writes do not wait */
	if (e->rcvtimeo < -1 || e->sndtimeo < -1)
		return rd_bad(r, "%s: a timeout below -1 (rcvtimeo %lld, sndtimeo %lld us)", which,
			      (long long)e->rcvtimeo, (long long)e->sndtimeo);
	if (e->__reserved)
		return rd_bad(r, "%s: reserved field %#x, not 0", which, e->__reserved);
	return 0;
}

/* End @i of the UNIX_PAIR record @up on its own, as restart checks it. */
static int unix_end_ok(struct reader *r, const struct ckpt_hdr_unix_pair *up, int i)
{
	const struct ckpt_unix_end *e = &up->end[i];
	char which[16];

	snprintf(which, sizeof(which), "end %d", i);
	if (unix_end_state(r, e, which))
		return -1;
	if (e->nr_msgs > MAX_UNIX_MSGS || e->bytes > INT32_MAX)
		return rd_bad(r, "end %d: %u messages, %llu bytes queued: more than %u messages or INT_MAX bytes",
			      i, e->nr_msgs, (unsigned long long)e->bytes, MAX_UNIX_MSGS);
	if (up->type == SOCK_STREAM && e->nr_msgs)
		return rd_bad(r, "end %d: %u messages queued to a stream socket (its bytes are one stream: none)",
			      i, e->nr_msgs);
	if (up->type != SOCK_STREAM && e->bytes && !e->nr_msgs)
		return rd_bad(r, "end %d: %llu bytes and no message queued to a %s socket", i,
			      (unsigned long long)e->bytes, ci_unix_type(up->type));
	return 0;
}

/* What shutdown() did to the ends of @up, as restart checks it. */
static int unix_shutdowns(struct reader *r, const struct ckpt_hdr_unix_pair *up)
{
	uint32_t s0 = up->end[0].shutdown, s1 = up->end[1].shutdown;

	if (up->type == SOCK_DGRAM)	/* each end's its own */
		return 0;
	if (!up->end[1].objref && s0 != UNIX_SHUT)
		return rd_bad(r, "end 0 shutdown %#x, its other end closed: a %s socket's is %#x (reading and writing)",
			      s0, ci_unix_type(up->type), UNIX_SHUT);
	if (up->end[1].objref && (!(s0 & CKPT_UNIX_SHUT_RD) != !(s1 & CKPT_UNIX_SHUT_WR) ||
				  !(s0 & CKPT_UNIX_SHUT_WR) != !(s1 & CKPT_UNIX_SHUT_RD)))
		return rd_bad(r, "shutdown %#x on end 0, %#x on end 1: a connected pair's do not match (one end's reading is the other's writing)",
			      s0, s1);
	return 0;
}

/* The bytes of an end's queue in a UNIX_PAIR record: lengths, then data, each padded. */
static uint64_t unix_queue_len(const struct ckpt_unix_end *e)
{
	return ((4ULL * e->nr_msgs + 7) & ~7ULL) + ((e->bytes + 7) & ~7ULL);
}

/* End @i's queue (@e): its message lengths summed, its bytes read and dropped. */
static int unix_queue(struct reader *r, const struct ckpt_unix_end *e, int i, uint32_t type)
{
	uint32_t lens[1024];
	uint64_t sum = 0;
	size_t have, n, k;

	for (have = 0; have < e->nr_msgs; have += n) {
		n = e->nr_msgs - have < 1024 ? e->nr_msgs - have : 1024;
		if (rd_get(r, lens, n * sizeof(lens[0])))
			return -1;
		for (k = 0; k < n; k++)
			sum += lens[k];
	}
	if (rd_skip(r, (e->nr_msgs & 1) * 4ULL, true))
		return -1;
	if (type != SOCK_STREAM && sum != e->bytes)
		return rd_bad(r, "end %d: its %u message lengths sum to %llu, not its %llu bytes",
			      i, e->nr_msgs, (unsigned long long)sum,
			      (unsigned long long)e->bytes);
	if (rd_skip(r, e->bytes, false))
		return -1;
	return rd_skip(r, ((e->bytes + 7) & ~7ULL) - e->bytes, true);
}

int rd_unix_pair(struct reader *r)
{
	static const struct ckpt_unix_end closed;
	struct ckpt_hdr_unix_pair up;
	struct ci_file *cf;
	uint64_t want;
	int i;

	if (rd_head(r, &up, sizeof(up)))
		return -1;
	if (unix_type_ok(r, up.type))
		return -1;
	if (up.__reserved)
		return rd_bad(r, "reserved field %#x, not 0", up.__reserved);
	if (up.end[0].objref != r->rec.objref)
		return rd_bad(r, "end 0 objref %u is not the record's (%u)", up.end[0].objref,
			      r->rec.objref);
	if (!up.end[1].objref && memcmp(&up.end[1], &closed, sizeof(closed)))
		return rd_bad(r, "end 1 closed (objref 0), yet its flags, shutdown, options, timeouts or queue not all 0");
	for (i = 0; i < 2; i++)
		if (unix_end_ok(r, &up, i))
			return -1;
	if (unix_shutdowns(r, &up))
		return -1;
	want = sizeof(up) + unix_queue_len(&up.end[0]) + unix_queue_len(&up.end[1]);
	if (r->rec.len != want)
		return rd_bad(r, "length %llu, expected %llu for the queues its ends say",
			      (unsigned long long)r->rec.len, (unsigned long long)want);
	if (up.end[1].objref && rd_fresh(r, up.end[1].objref, "end 1 objref"))
		return -1;
	for (i = 0; i < 2; i++)
		if (unix_queue(r, &up.end[i], i, up.type))
			return -1;
	for (i = 0; i < (up.end[1].objref ? 2 : 1); i++) {
		cf = rd_anon_file(r, up.end[i].objref, up.end[i].f_flags, CI_FILE_UNIX);
		if (!cf)
			return -1;
		cf->end = i;
		cf->up = up;
	}
	return 0;
}

/* The bytes of sun_path (struct sockaddr_un), the longest name a socket has */
#define SUN_PATH_LEN	108

/* The flags a UNIX_SOCK record may have */
#define UNIX_SOCK_FLAGS	(CKPT_UNIX_LISTEN | CKPT_UNIX_UNLINKED)

/*
 * The name of the UNIX_SOCK record @us, its addr_len bytes at @name, as
 * restart checks it: none (unbound), a path (absolute, ending in a name,
 * NUL-terminated at addr_len, no NUL before), or an abstract name (a NUL, then any bytes);
 * CKPT_UNIX_UNLINKED with a path only.
 */
static int unix_sock_name_ok(struct reader *r, const struct ckpt_hdr_unix_sock *us,
			     const char *name)
{
	uint32_t n = us->addr_len;
	char shown[CI_UNIX_NAME_MAX];
	bool path = n && name[0];

	if (path && name[n - 1])
		return rd_bad(r, "a path name not NUL-terminated at its addr_len %u", n);
	if (path && strlen(name) != n - 1)
		return rd_bad(r, "a path name with a NUL at byte %zu, before its end (addr_len %u)",
			      strlen(name), n);
	if (path && !ci_path_names_file(name))
		return rd_bad(r, "a path name \"%s\": not absolute, or not ending in a name",
			      ci_unix_name(shown, sizeof(shown), name, n));
	if (!path && us->flags & CKPT_UNIX_UNLINKED)
		return rd_bad(r, "flags %#x: CKPT_UNIX_UNLINKED on %s (only a path's socket file is removed)",
			      us->flags, n ? "an abstract name" : "an unbound socket");
	return 0;
}

/* Whether the UNIX_SOCK record @us listens, and its backlog, as restart checks them. */
static int unix_sock_listen_ok(struct reader *r, const struct ckpt_hdr_unix_sock *us)
{
	if (!(us->flags & CKPT_UNIX_LISTEN)) {
		if (us->backlog)
			return rd_bad(r, "backlog %u without CKPT_UNIX_LISTEN (not listening: 0)",
				      us->backlog);
		return 0;
	}
	if (us->type == SOCK_DGRAM)
		return rd_bad(r, "flags %#x: CKPT_UNIX_LISTEN on a dgram socket (listen() refuses it)",
			      us->flags);
	if (!us->addr_len)
		return rd_bad(r, "flags %#x: CKPT_UNIX_LISTEN on an unbound socket (addr_len 0)",
			      us->flags);
	if (us->backlog > INT32_MAX)
		return rd_bad(r, "backlog %u above INT_MAX", us->backlog);
	return 0;
}

/*
 * The mode and owner of the UNIX_SOCK record @us's socket file, as restart
 * checks them: permissions only; all 0 without a path name (no file).
 */
static int unix_sock_owner_ok(struct reader *r, const struct ckpt_hdr_unix_sock *us,
			      const char *name)
{
	if (us->mode & ~07777U)
		return rd_bad(r, "mode %#o, more than permissions (07777)", us->mode);
	if ((!us->addr_len || !name[0]) && (us->mode || us->uid || us->gid))
		return rd_bad(r, "mode %#o, owner %u:%u on %s: no socket file, all 0",
			      us->mode, us->uid, us->gid,
			      us->addr_len ? "an abstract name" : "an unbound socket");
	return 0;
}

int rd_unix_sock(struct reader *r)
{
	char name[(SUN_PATH_LEN + 7) & ~7] = "";
	struct ckpt_hdr_unix_sock us;
	struct ci_file *cf;
	uint64_t want;

	if (rd_head(r, &us, sizeof(us)))
		return -1;
	if (us.end.objref != r->rec.objref)
		return rd_bad(r, "end objref %u is not the record's (%u)", us.end.objref,
			      r->rec.objref);
	if (unix_type_ok(r, us.type))
		return -1;
	if (us.flags & ~UNIX_SOCK_FLAGS)
		return rd_bad(r, "flags %#x: more than CKPT_UNIX_LISTEN (0x1) and CKPT_UNIX_UNLINKED (0x2)",
			      us.flags);
	if (us.__reserved)
		return rd_bad(r, "reserved field %#x, not 0", us.__reserved);
	if (us.addr_len > SUN_PATH_LEN)
		return rd_bad(r, "addr_len %u, more than sun_path's %u bytes", us.addr_len,
			      SUN_PATH_LEN);
	/* its name, padded: within the record's length */
	want = sizeof(us) + ((us.addr_len + 7ULL) & ~7ULL);
	if (r->rec.len != want)
		return rd_bad(r, "length %llu, expected %llu for its addr_len %u",
			      (unsigned long long)r->rec.len, (unsigned long long)want,
			      us.addr_len);
	if (rd_get(r, name, want - sizeof(us)))
		return -1;
	if (unix_sock_name_ok(r, &us, name) || unix_sock_listen_ok(r, &us) ||
	    unix_sock_owner_ok(r, &us, name) || unix_end_state(r, &us.end, "end"))
		return -1;
	if (us.end.nr_msgs || us.end.bytes)
		return rd_bad(r, "end: nr_msgs %u, bytes %llu: nothing is queued to a socket of no pair",
			      us.end.nr_msgs, (unsigned long long)us.end.bytes);
	cf = rd_anon_file(r, r->rec.objref, us.end.f_flags, CI_FILE_UNIX_SOCK);
	if (!cf)
		return -1;
	cf->us = us;
	if (us.addr_len) {
		cf->sun_path = malloc(us.addr_len);
		if (!cf->sun_path)
			return rd_bad(r, "out of memory");
		memcpy(cf->sun_path, name, us.addr_len);
	}
	return 0;
}
