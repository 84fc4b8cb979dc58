// SPDX-License-Identifier: GPL-2.0
/*
 * Time in an image: a process's ITIMERS record and the interrupted sleep
 * in each TASK record, checked as restart checks them, and their names.
 */
#include "reader.h"

#include <stdint.h>
#include <string.h>

#define USER_TOP	(1ULL << 56)	/* above any x86_64 user address */

static const char *const clock_names[] = {
	[0] = "CLOCK_REALTIME", [1] = "CLOCK_MONOTONIC",
	[7] = "CLOCK_BOOTTIME", [11] = "CLOCK_TAI",
};

/* The clocks a nanosleep restart block can have, or NULL. */
const char *ci_clock_name(int32_t clockid)
{
	if (clockid < 0 || (size_t)clockid >= sizeof(clock_names) / sizeof(clock_names[0]))
		return NULL;
	return clock_names[clockid];
}

const char *ci_itimer_name(unsigned int i)
{
	static const char *const names[CKPT_NR_ITIMERS] = { "real", "virtual", "prof" };

	return i < CKPT_NR_ITIMERS ? names[i] : NULL;
}

const char *ci_restart_name(uint32_t kind)
{
	switch (kind) {
	case CKPT_RESTART_NANOSLEEP:
		return "nanosleep";
	case CKPT_RESTART_FUTEX_WAIT:
		return "futex_wait";
	case CKPT_RESTART_POLL:
		return "poll";
	}
	return NULL;
}

/* What restart checks of a TASK record's restart block. */
int rd_restart_block(struct reader *r, const struct ckpt_restart_block *c)
{
	bool ok = false;

	if (!c->__reserved && c->uaddr < USER_TOP) {
		switch (c->kind) {
		case CKPT_RESTART_NONE:
			ok = !c->clockid && !c->timeout && !c->uaddr && !c->val &&
			     !c->bitset && !c->flags;
			break;
		case CKPT_RESTART_NANOSLEEP:
			ok = ci_clock_name(c->clockid) && c->timeout >= 0 &&
			     !c->val && !c->bitset && !c->flags;
			break;
		case CKPT_RESTART_FUTEX_WAIT:
			ok = !c->clockid && c->timeout >= 0 && c->bitset &&
			     !(c->uaddr % 4) &&
			     !(c->flags & ~(CKPT_FUTEX_SHARED | CKPT_FUTEX_CLOCKRT));
			break;
		case CKPT_RESTART_POLL:
			ok = !c->clockid && c->timeout >= -1 && c->val <= INT32_MAX &&
			     !c->bitset && !c->flags;
			break;
		}
	}
	if (ok)
		return 0;
	return rd_bad(r, "bad restart block: kind %u clock %d timeout %lld uaddr %#llx val %u bitset %#x flags %#x",
		      c->kind, c->clockid, (long long)c->timeout,
		      (unsigned long long)c->uaddr, c->val, c->bitset, c->flags);
}

/* What restart checks of an ITIMERS record: times setitimer() takes. */
int rd_itimers(struct reader *r, struct ci_proc *p)
{
	struct ckpt_hdr_itimers *h = &p->itimers;
	unsigned int i;

	if (rd_payload(r, h, sizeof(*h)))
		return -1;
	if (h->nr_timers != CKPT_NR_ITIMERS)
		return rd_bad(r, "%u timers, expected %u", h->nr_timers, CKPT_NR_ITIMERS);
	if (h->__reserved)
		return rd_bad(r, "reserved field %#x, not 0", h->__reserved);
	for (i = 0; i < CKPT_NR_ITIMERS; i++)
		if (h->it[i].value > INT64_MAX || h->it[i].interval > INT64_MAX)
			return rd_bad(r, "timer %u: %llu ns left, %llu ns interval", i,
				      (unsigned long long)h->it[i].value,
				      (unsigned long long)h->it[i].interval);
	return 0;
}
