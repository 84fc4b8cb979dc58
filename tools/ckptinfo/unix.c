// SPDX-License-Identifier: GPL-2.0
/*
 * The records of AF_UNIX sockets, each checked as restart checks it:
 * UNIX_PAIR (a socketpair, both ends). Their order and objrefs are
 * image.c's.
 */
#include "reader.h"

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

	if (r->rec.len < sizeof(up))
		return rd_bad(r, "length %llu, shorter than a UNIX_PAIR record",
			      (unsigned long long)r->rec.len);
	if (rd_get(r, &up, sizeof(up)))
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
