// SPDX-License-Identifier: GPL-2.0
/*
 * The INET_SOCK record (a TCP or UDP socket, IPv4 or IPv6, not
 * connected: unbound, bound, or listening), checked as restart checks
 * it, and the table of the options it may carry, with their names. Its
 * order and objref are image.c's.
 */
#include "reader.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
/* after <netinet/in.h>: IPV6_FLOWINFO, IPV6_FLOWINFO_SEND, which glibc lacks */
#include <linux/in6.h>

/*
 * Options older C libraries do not name: the kernel's values (x86_64:
 * asm-generic/socket.h, linux/in.h, linux/in6.h, linux/tcp.h).
 */
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL	69
#endif
#ifndef SO_TXREHASH
#define SO_TXREHASH		74
#endif
#ifndef SO_RCVMARK
#define SO_RCVMARK		75
#endif
#ifndef SO_RESERVE_MEM
#define SO_RESERVE_MEM		73
#endif
#ifndef IP_RECVERR_RFC4884
#define IP_RECVERR_RFC4884	26
#endif
#ifndef IP_LOCAL_PORT_RANGE
#define IP_LOCAL_PORT_RANGE	51
#endif
#ifndef IPV6_RECVERR_RFC4884
#define IPV6_RECVERR_RFC4884	31
#endif
#ifndef TCP_INQ
#define TCP_INQ			36
#endif
#ifndef TCP_TX_DELAY
#define TCP_TX_DELAY		37
#endif

/*
 * An option of any protocol; one the summary shows when not 0 (SHOWN);
 * one of TCP sockets only (TCP_ONLY).
 */
#define OPT(level, name)	{ level, name, 0, false, #level, #name }
#define SHOWN(level, name)	{ level, name, 0, true, #level, #name }
#define TCP_ONLY(level, name)	{ level, name, IPPROTO_TCP, false, #level, #name }

/*
 * The kernel's inet_opts (kernel/checkpoint/inet.c), in its order: the
 * options an INET_SOCK record may carry, each an int, in the order
 * restart sets them (SO_PRIORITY last: IP_TOS sets it too). SHOWN: the
 * options whose value is 0 on a new socket with Linux's default sysctls,
 * the summary's (docs/ckptinfo.md).
 */
static const struct ci_inet_opt opts[] = {
	OPT(SOL_SOCKET, SO_DEBUG), SHOWN(SOL_SOCKET, SO_REUSEADDR),
	SHOWN(SOL_SOCKET, SO_REUSEPORT), SHOWN(SOL_SOCKET, SO_KEEPALIVE),
	SHOWN(SOL_SOCKET, SO_BROADCAST), SHOWN(SOL_SOCKET, SO_DONTROUTE),
	SHOWN(SOL_SOCKET, SO_OOBINLINE), OPT(SOL_SOCKET, SO_NO_CHECK),
	SHOWN(SOL_SOCKET, SO_MARK), OPT(SOL_SOCKET, SO_RCVMARK),
	OPT(SOL_SOCKET, SO_RCVLOWAT), OPT(SOL_SOCKET, SO_PEEK_OFF),
	OPT(SOL_SOCKET, SO_PASSCRED), OPT(SOL_SOCKET, SO_PASSSEC),
	OPT(SOL_SOCKET, SO_TIMESTAMP_OLD), OPT(SOL_SOCKET, SO_TIMESTAMPNS_OLD),
	OPT(SOL_SOCKET, SO_RXQ_OVFL), OPT(SOL_SOCKET, SO_WIFI_STATUS),
	OPT(SOL_SOCKET, SO_NOFCS), OPT(SOL_SOCKET, SO_SELECT_ERR_QUEUE),
	OPT(SOL_SOCKET, SO_BUSY_POLL), OPT(SOL_SOCKET, SO_PREFER_BUSY_POLL),
	OPT(SOL_SOCKET, SO_ZEROCOPY), OPT(SOL_SOCKET, SO_TXREHASH),
	OPT(SOL_SOCKET, SO_MAX_PACING_RATE), OPT(SOL_SOCKET, SO_RESERVE_MEM),
	TCP_ONLY(SOL_SOCKET, SO_INCOMING_CPU),
	SHOWN(SOL_IP, IP_TOS), OPT(SOL_IP, IP_TTL), OPT(SOL_IP, IP_MINTTL),
	OPT(SOL_IP, IP_RECVERR), OPT(SOL_IP, IP_RECVERR_RFC4884),
	OPT(SOL_IP, IP_RECVTTL), OPT(SOL_IP, IP_RECVTOS), OPT(SOL_IP, IP_RECVOPTS),
	OPT(SOL_IP, IP_RETOPTS), OPT(SOL_IP, IP_PKTINFO), OPT(SOL_IP, IP_PASSSEC),
	OPT(SOL_IP, IP_RECVORIGDSTADDR), OPT(SOL_IP, IP_RECVFRAGSIZE),
	OPT(SOL_IP, IP_CHECKSUM), OPT(SOL_IP, IP_MTU_DISCOVER),
	SHOWN(SOL_IP, IP_FREEBIND), SHOWN(SOL_IP, IP_TRANSPARENT),
	SHOWN(SOL_IP, IP_BIND_ADDRESS_NO_PORT), OPT(SOL_IP, IP_NODEFRAG),
	OPT(SOL_IP, IP_LOCAL_PORT_RANGE), OPT(SOL_IP, IP_MULTICAST_TTL),
	OPT(SOL_IP, IP_MULTICAST_LOOP), OPT(SOL_IP, IP_MULTICAST_ALL),
	SHOWN(SOL_IPV6, IPV6_V6ONLY), OPT(SOL_IPV6, IPV6_UNICAST_HOPS),
	OPT(SOL_IPV6, IPV6_MULTICAST_HOPS), OPT(SOL_IPV6, IPV6_MULTICAST_LOOP),
	OPT(SOL_IPV6, IPV6_MULTICAST_ALL), OPT(SOL_IPV6, IPV6_2292PKTINFO),
	OPT(SOL_IPV6, IPV6_2292HOPOPTS), OPT(SOL_IPV6, IPV6_2292DSTOPTS),
	OPT(SOL_IPV6, IPV6_2292RTHDR), OPT(SOL_IPV6, IPV6_2292HOPLIMIT),
	OPT(SOL_IPV6, IPV6_RECVPKTINFO), OPT(SOL_IPV6, IPV6_RECVHOPLIMIT),
	OPT(SOL_IPV6, IPV6_RECVRTHDR), OPT(SOL_IPV6, IPV6_RECVHOPOPTS),
	OPT(SOL_IPV6, IPV6_RECVDSTOPTS), OPT(SOL_IPV6, IPV6_RECVTCLASS),
	OPT(SOL_IPV6, IPV6_RECVPATHMTU), OPT(SOL_IPV6, IPV6_RECVORIGDSTADDR),
	OPT(SOL_IPV6, IPV6_RECVERR), OPT(SOL_IPV6, IPV6_RECVERR_RFC4884),
	OPT(SOL_IPV6, IPV6_RECVFRAGSIZE), OPT(SOL_IPV6, IPV6_MTU_DISCOVER),
	SHOWN(SOL_IPV6, IPV6_TCLASS), OPT(SOL_IPV6, IPV6_FLOWINFO),
	OPT(SOL_IPV6, IPV6_FLOWINFO_SEND), SHOWN(SOL_IPV6, IPV6_FREEBIND),
	SHOWN(SOL_IPV6, IPV6_TRANSPARENT), OPT(SOL_IPV6, IPV6_AUTOFLOWLABEL),
	OPT(SOL_IPV6, IPV6_DONTFRAG), OPT(SOL_IPV6, IPV6_MINHOPCOUNT),
	OPT(SOL_IPV6, IPV6_ADDR_PREFERENCES),
	SHOWN(SOL_TCP, TCP_NODELAY), SHOWN(SOL_TCP, TCP_CORK),
	OPT(SOL_TCP, TCP_KEEPIDLE), OPT(SOL_TCP, TCP_KEEPINTVL),
	OPT(SOL_TCP, TCP_KEEPCNT), OPT(SOL_TCP, TCP_SYNCNT), OPT(SOL_TCP, TCP_LINGER2),
	SHOWN(SOL_TCP, TCP_DEFER_ACCEPT), OPT(SOL_TCP, TCP_WINDOW_CLAMP),
	SHOWN(SOL_TCP, TCP_USER_TIMEOUT), OPT(SOL_TCP, TCP_NOTSENT_LOWAT),
	SHOWN(SOL_TCP, TCP_FASTOPEN), SHOWN(SOL_TCP, TCP_FASTOPEN_CONNECT),
	OPT(SOL_TCP, TCP_FASTOPEN_NO_COOKIE), OPT(SOL_TCP, TCP_THIN_LINEAR_TIMEOUTS),
	OPT(SOL_TCP, TCP_SAVE_SYN), OPT(SOL_TCP, TCP_TX_DELAY), OPT(SOL_TCP, TCP_INQ),
	SHOWN(SOL_SOCKET, SO_PRIORITY),
};

#define NR_OPTS	(sizeof(opts) / sizeof(opts[0]))

_Static_assert(NR_OPTS == CI_INET_NR_OPTS, "CI_INET_NR_OPTS is the table's size");

const struct ci_inet_opt *ci_inet_opt(size_t i)
{
	return i < NR_OPTS ? &opts[i] : NULL;
}

int ci_inet_opt_index(uint32_t level, uint32_t name)
{
	size_t i;

	for (i = 0; i < NR_OPTS; i++)
		if (opts[i].level == level && opts[i].name == name)
			return i;
	return -1;
}

bool ci_inet_opt_applies(const struct ci_inet_opt *o, uint32_t family, uint32_t protocol)
{
	return (!o->proto || o->proto == protocol) &&
	       (o->level != SOL_IPV6 || family == AF_INET6) &&
	       (o->level != SOL_TCP || protocol == IPPROTO_TCP);
}

const char *ci_inet_family(uint32_t family)
{
	switch (family) {
	case AF_INET: return "inet";
	case AF_INET6: return "inet6";
	}
	return NULL;
}

const char *ci_inet_protocol(uint32_t protocol)
{
	switch (protocol) {
	case IPPROTO_TCP: return "tcp";
	case IPPROTO_UDP: return "udp";
	}
	return NULL;
}

const char *ci_inet_addr(char buf[CI_INET_ADDR_MAX], const struct ckpt_hdr_inet_sock *is)
{
	if (!inet_ntop(is->family == AF_INET6 ? AF_INET6 : AF_INET, is->addr, buf,
		       CI_INET_ADDR_MAX))
		snprintf(buf, CI_INET_ADDR_MAX, "?");
	return buf;
}

/* The CKPT_INET_* flags an INET_SOCK record may have */
#define INET_FLAGS	(CKPT_INET_BOUND | CKPT_INET_LISTEN)

/* The family, type and protocol of the INET_SOCK record @is, as restart checks them. */
static int inet_kind_ok(struct reader *r, const struct ckpt_hdr_inet_sock *is)
{
	if (!ci_inet_family(is->family))
		return rd_bad(r, "family %u: not AF_INET (%u) or AF_INET6 (%u)", is->family,
			      AF_INET, AF_INET6);
	if (!(is->type == SOCK_STREAM && is->protocol == IPPROTO_TCP) &&
	    !(is->type == SOCK_DGRAM && is->protocol == IPPROTO_UDP))
		return rd_bad(r, "type %u, protocol %u: not SOCK_STREAM (%u) with IPPROTO_TCP (%u), or SOCK_DGRAM (%u) with IPPROTO_UDP (%u)",
			      is->type, is->protocol, SOCK_STREAM, IPPROTO_TCP, SOCK_DGRAM,
			      IPPROTO_UDP);
	return 0;
}

/*
 * The fields of the INET_SOCK record @is restart sets on the new socket,
 * as it checks them: flags, owner, f_flags, buffer sizes, linger,
 * timeouts.
 */
static int inet_fields_ok(struct reader *r, const struct ckpt_hdr_inet_sock *is)
{
	if (is->flags & ~INET_FLAGS)
		return rd_bad(r, "flags %#x: more than CKPT_INET_BOUND (0x1) and CKPT_INET_LISTEN (0x2)",
			      is->flags);
	/* (uid_t)-1 is no user: fchown() takes it for "unchanged" */
	if (is->uid == UINT32_MAX)
		return rd_bad(r, "uid %u ((uid_t)-1): not an owner fchown() gives", is->uid);
	if (is->gid == UINT32_MAX)
		return rd_bad(r, "gid %u ((gid_t)-1): not a group fchown() gives", is->gid);
	if (is->f_flags & ~SETFL_FLAGS)
		return rd_bad(r, "f_flags %#o: more than O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME",
			      is->f_flags);
	if (is->sndbuf > INT32_MAX)
		return rd_bad(r, "sndbuf %u above INT_MAX", is->sndbuf);
	if (is->rcvbuf > INT32_MAX)
		return rd_bad(r, "rcvbuf %u above INT_MAX", is->rcvbuf);
	if (is->linger < -1)
		return rd_bad(r, "linger %d, below -1 (off)", is->linger);
	/* -1: a timeout of 0, reads or writes do not wait */
	if (is->rcvtimeo < -1)
		return rd_bad(r, "rcvtimeo %lld us, below -1", (long long)is->rcvtimeo);
	if (is->sndtimeo < -1)
		return rd_bad(r, "sndtimeo %lld us, below -1", (long long)is->sndtimeo);
	return 0;
}

/*
 * The TCP_MAXSEG and congestion control of the INET_SOCK record @is, as
 * restart checks them: the name NUL-terminated in its 16 bytes, there on
 * a TCP socket, all zeros on a UDP one, which has no TCP_MAXSEG either.
 */
static int inet_tcp_ok(struct reader *r, const struct ckpt_hdr_inet_sock *is)
{
	const size_t size = sizeof(is->congestion);
	char name[CI_UNIX_NAME_MAX];
	size_t i;

	if (is->congestion[size - 1])
		return rd_bad(r, "congestion control not NUL-terminated in its %zu bytes", size);
	if (is->protocol == IPPROTO_TCP) {
		if (!is->congestion[0])
			return rd_bad(r, "a tcp socket without its congestion control (congestion empty)");
		return 0;
	}
	if (is->congestion[0])
		return rd_bad(r, "congestion control \"%s\" on a udp socket (TCP only: all zeros)",
			      ci_unix_name(name, sizeof(name), is->congestion,
					   strlen(is->congestion) + 1));
	if (is->mss)
		return rd_bad(r, "mss %u on a udp socket (TCP_MAXSEG: TCP only, 0)", is->mss);
	for (i = 1; i < size; i++)
		if (is->congestion[i])
			return rd_bad(r, "congestion of a udp socket with byte %zu not zero (all zeros)",
				      i);
	return 0;
}

/*
 * Whether the INET_SOCK record @is is bound and listens, and its address,
 * port and backlog, as restart checks them.
 */
static int inet_bound_ok(struct reader *r, const struct ckpt_hdr_inet_sock *is)
{
	static const uint8_t zero[16];
	bool bound = is->flags & CKPT_INET_BOUND;
	char addr[CI_INET_ADDR_MAX];

	if (is->flags & CKPT_INET_LISTEN) {
		if (is->protocol != IPPROTO_TCP)
			return rd_bad(r, "flags %#x: CKPT_INET_LISTEN on a udp socket (listen() refuses it)",
				      is->flags);
		if (!bound)
			return rd_bad(r, "flags %#x: CKPT_INET_LISTEN without CKPT_INET_BOUND (listen() binds)",
				      is->flags);
		if (is->backlog > INT32_MAX)
			return rd_bad(r, "backlog %u above INT_MAX", is->backlog);
	} else if (is->backlog) {
		return rd_bad(r, "backlog %u without CKPT_INET_LISTEN (not listening: 0)",
			      is->backlog);
	}
	if (bound && !is->port)
		return rd_bad(r, "flags %#x: CKPT_INET_BOUND with port 0", is->flags);
	if (!bound && is->port)
		return rd_bad(r, "port %u without CKPT_INET_BOUND (not bound: 0)", is->port);
	if (!bound && memcmp(is->addr, zero, sizeof(zero)))
		return rd_bad(r, "addr %s without CKPT_INET_BOUND (not bound: all zeros)",
			      ci_inet_addr(addr, is));
	if (is->family == AF_INET && memcmp(is->addr + 4, zero, 12))
		return rd_bad(r, "addr of an AF_INET socket with bytes 4 to 15 not zero");
	return 0;
}

/*
 * The @n options @o of the INET_SOCK record @is, as restart checks them:
 * each in the table, after the one before it in the table's order (so
 * none twice), its reserved field 0, one the socket has: of its protocol
 * if the table says one (SO_INCOMING_CPU: TCP only), of a level it has
 * (SOL_IPV6: AF_INET6 only; SOL_TCP: TCP only).
 */
static int inet_opts_ok(struct reader *r, const struct ckpt_hdr_inet_sock *is,
			const struct ckpt_sockopt *o, uint32_t n)
{
	int last = -1, idx;
	uint32_t i;

	for (i = 0; i < n; i++) {
		idx = ci_inet_opt_index(o[i].level, o[i].name);
		if (idx < 0)
			return rd_bad(r, "option %u: level %u, name %u: not an option restart sets",
				      i, o[i].level, o[i].name);
		if (idx <= last)
			return rd_bad(r, "option %u: %s after %s: not in the table's order, or twice",
				      i, opts[idx].opt_name, opts[last].opt_name);
		if (o[i].__reserved)
			return rd_bad(r, "option %u (%s): reserved field %#x, not 0", i,
				      opts[idx].opt_name, o[i].__reserved);
		if (opts[idx].proto && opts[idx].proto != is->protocol)
			return rd_bad(r, "option %u: %s on a %s socket (%s only)", i,
				      opts[idx].opt_name, ci_inet_protocol(is->protocol),
				      ci_inet_protocol(opts[idx].proto));
		if (opts[idx].level == SOL_IPV6 && is->family != AF_INET6)
			return rd_bad(r, "option %u: %s on an AF_INET socket (SOL_IPV6: AF_INET6 only)",
				      i, opts[idx].opt_name);
		if (opts[idx].level == SOL_TCP && is->protocol != IPPROTO_TCP)
			return rd_bad(r, "option %u: %s on a udp socket (SOL_TCP: TCP only)", i,
				      opts[idx].opt_name);
		last = idx;
	}
	return 0;
}

int rd_inet_sock(struct reader *r)
{
	struct ckpt_sockopt o[NR_OPTS];
	struct ckpt_hdr_inet_sock is;
	struct ci_file *cf;
	uint64_t want;

	if (rd_head(r, &is, sizeof(is)))
		return -1;
	if (is.nr_opts > NR_OPTS)
		return rd_bad(r, "nr_opts %u, more than the %zu options restart sets",
			      is.nr_opts, NR_OPTS);
	want = sizeof(is) + (uint64_t)is.nr_opts * sizeof(o[0]);
	if (r->rec.len != want)
		return rd_bad(r, "length %llu, expected %llu for its nr_opts %u",
			      (unsigned long long)r->rec.len, (unsigned long long)want,
			      is.nr_opts);
	if (rd_get(r, o, is.nr_opts * sizeof(o[0])))
		return -1;
	if (inet_kind_ok(r, &is) || inet_fields_ok(r, &is) || inet_tcp_ok(r, &is) ||
	    inet_bound_ok(r, &is) || inet_opts_ok(r, &is, o, is.nr_opts))
		return -1;
	cf = rd_anon_file(r, r->rec.objref, is.f_flags, CI_FILE_INET);
	if (!cf)
		return -1;
	cf->is = is;
	if (is.nr_opts) {
		cf->sockopts = malloc(is.nr_opts * sizeof(o[0]));
		if (!cf->sockopts)
			return rd_bad(r, "out of memory");
		memcpy(cf->sockopts, o, is.nr_opts * sizeof(o[0]));
	}
	return 0;
}
