// SPDX-License-Identifier: GPL-2.0
/*
 * Time in an image: a process's ITIMERS record and the interrupted sleep
 * in each TASK record, checked as restart checks them, and their names.
 */
#include "reader.h"

#include <assert.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* The clocks timerfd_create() takes, or NULL. */
const char *ci_timerfd_clock_name(int32_t clockid)
{
	switch (clockid) {
	case 8:
		return "CLOCK_REALTIME_ALARM";
	case 9:
		return "CLOCK_BOOTTIME_ALARM";
	case 11:	/* CLOCK_TAI */
		return NULL;
	}
	return ci_clock_name(clockid);
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

/* POSIX timer @i of @p, as restart checks it. */
static int posix_timer_ok(struct reader *r, const struct ci_proc *p, size_t i)
{
	const struct ckpt_posix_timer *e = &p->posix[i];
	bool signal = e->notify != SIGEV_NONE;
	size_t t;

	if (i && e->id <= p->posix[i - 1].id)
		return rd_bad(r, "POSIX timer %d after timer %d: ids not increasing", e->id,
			      p->posix[i - 1].id);
	if (e->id < 0 || e->__reserved ||
	    e->flags & ~(CKPT_POSIX_TIMER_ABSTIME | CKPT_POSIX_TIMER_PENDING | CKPT_POSIX_TIMER_REARM))
		return rd_bad(r, "POSIX timer %d: bad id, flags %#x or reserved field", e->id, e->flags);
	if (e->flags & CKPT_POSIX_TIMER_REARM &&
	    (!(e->flags & CKPT_POSIX_TIMER_PENDING) || !e->interval))
		return rd_bad(r, "POSIX timer %d: armed by its signal's delivery, yet no periodic timer with its signal pending",
			      e->id);
	if (!ci_posix_clock_name(e->clock))
		return rd_bad(r, "POSIX timer %d: clock %d (restart makes them on CLOCK_REALTIME, _MONOTONIC, _BOOTTIME, _TAI)",
			      e->id, e->clock);
	if (e->notify != SIGEV_SIGNAL && e->notify != SIGEV_NONE && e->notify != SIGEV_THREAD &&
	    e->notify != (SIGEV_SIGNAL | SIGEV_THREAD_ID))
		return rd_bad(r, "POSIX timer %d: sigev_notify %d", e->id, e->notify);
	if (signal && (e->signo < 1 || e->signo > CKPT_NSIG))
		return rd_bad(r, "POSIX timer %d: signal %d", e->id, e->signo);
	if (e->notify & SIGEV_THREAD_ID) {
		t = e->tid ? ci_tree_find(r->img, e->tid) : CI_NONE;
		if (t == CI_NONE || t < p->entry || t >= p->entry + p->nr_entries)
			return rd_bad(r, "POSIX timer %d: thread %d is not a task of process %d",
				      e->id, e->tid, p->task.pid);
	} else if (e->tid) {
		return rd_bad(r, "POSIX timer %d: thread %d without SIGEV_THREAD_ID", e->id, e->tid);
	}
	if (e->flags & CKPT_POSIX_TIMER_ABSTIME && (e->clock != CLOCK_REALTIME || !e->value))
		return rd_bad(r, "POSIX timer %d: an absolute deadline off CLOCK_REALTIME", e->id);
	if (e->flags & CKPT_POSIX_TIMER_PENDING && !signal)
		return rd_bad(r, "POSIX timer %d: SIGEV_NONE, yet its signal pending", e->id);
	if (e->value > INT64_MAX || e->interval > INT64_MAX || e->overrun < -1 ||
	    e->overrun_last < -1 || e->queued_overrun < 0)
		return rd_bad(r, "POSIX timer %d: %llu ns left, %llu ns interval, overruns %lld %lld",
			      e->id, (unsigned long long)e->value,
			      (unsigned long long)e->interval, (long long)e->overrun,
			      (long long)e->overrun_last);
	return 0;
}

/* What restart checks of a POSIX_TIMERS record (not the caller's limit). */
int rd_posix_timers(struct reader *r, struct ci_proc *p)
{
	const size_t size = sizeof(struct ckpt_posix_timer);
	uint64_t room;
	size_t i;

	static_assert(sizeof(struct ckpt_hdr_posix_timers) == 8, "count, reserved");
	if (rd_counted(r, "POSIX_TIMERS", "timer", size, &room))
		return -1;
	if (room > MAX_SIGNALS)
		return rd_bad(r, "%llu POSIX timers: more than any RLIMIT_SIGPENDING here",
			      (unsigned long long)room);
	if (!room)
		return 0;
	p->posix = calloc(room, size);
	if (!p->posix)
		return rd_bad(r, "out of memory");
	p->nr_posix = room;
	if (rd_get(r, p->posix, room * size))
		return -1;
	for (i = 0; i < p->nr_posix; i++)
		if (posix_timer_ok(r, p, i))
			return -1;
	return 0;
}

const char *ci_posix_clock_name(int32_t clock)
{
	switch (clock) {
	case CLOCK_REALTIME: return "CLOCK_REALTIME";
	case CLOCK_MONOTONIC: return "CLOCK_MONOTONIC";
	case CLOCK_BOOTTIME: return "CLOCK_BOOTTIME";
	case CLOCK_TAI: return "CLOCK_TAI";
	}
	return NULL;
}
