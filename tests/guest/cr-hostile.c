// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile images: restart from hundreds of damaged copies of a good
 * image (the caller's comm is "cr-hostile" until a restart commits). Record headers (type, objref, length) get bits flipped, payload
 * words (counts, addresses, offsets, flags, lengths) get extreme values,
 * images are cut short, bytes anywhere are flipped. Every attempt must
 * end: refused with an errno before the point of no return, or restarted
 * (the damage was in data the kernel cannot judge, such as page contents
 * or registers) and then killed. The kernel must stay up and quiet: the
 * suite's last test reads its log, and the debug variant (KASAN,
 * lockdep, panic_on_warn) turns any memory error into a failed run.
 *
 * CR_HOSTILE_SEED and CR_HOSTILE_ITERS change the seed (1) and the
 * number of images (400); the seed is printed, so a failure replays.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define IMG "/tmp/hostile-good.img"
#define BAD "/tmp/hostile.img"
#define OUT "/tmp/hostile.out"
#define MAX_RECORDS 4096

/* What ckpt_hdr looks like on the stream (uapi checkpoint_hdr.h). */
struct rec_hdr {
	uint32_t type;
	uint32_t objref;
	uint64_t len;
};

static unsigned char *image, *bad;
static size_t image_len, bad_len;
static size_t records[MAX_RECORDS];	/* offset of every record header */
static unsigned int nr_records;
static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t below(size_t n)
{
	return n ? next() % n : 0;
}

static void load_image(void)
{
	FILE *f = fopen(IMG, "r");
	struct rec_hdr h;
	size_t pos = 0;

	image_len = file_size(IMG);
	image = malloc(image_len);
	bad = malloc(image_len);
	if (!f || !image || !bad || fread(image, 1, image_len, f) != image_len)
		tap_bail("cannot read %s", IMG);
	fclose(f);
	while (pos + sizeof(h) <= image_len && nr_records < MAX_RECORDS) {
		records[nr_records++] = pos;
		memcpy(&h, image + pos, sizeof(h));
		pos += sizeof(h) + ((h.len + 7) & ~7ULL);
	}
	if (pos != image_len)
		tap_bail("%s: records do not add up to its size", IMG);
}

static const uint64_t extremes[] = {
	0, 1, 0x7f, 0xff, 0x1000, 0x7fffffff, 0x80000000, 0xffffffff,
	0x7fffffffffffULL, 0x800000000000ULL, 0x7fffffffffffffffULL, ~0ULL,
};

/* One damaged copy of the image into bad/bad_len; returns the kind. */
static int mutate(void)
{
	unsigned int r = below(nr_records);
	size_t start = records[r], end, off;
	struct rec_hdr h;
	uint64_t v;
	int kind = below(4), i;

	memcpy(bad, image, image_len);
	bad_len = image_len;
	memcpy(&h, image + start, sizeof(h));
	end = start + sizeof(h) + h.len;
	switch (kind) {
	case 0:		/* a record header: flip 1-3 bits of type, objref, len */
		for (i = 0, v = 1 + below(3); i < (int)v; i++) {
			off = start + below(sizeof(h));
			bad[off] ^= 1 << below(8);
		}
		break;
	case 1:		/* a payload word (not page data) gets an extreme value */
		if (end - start - sizeof(h) < 8 || h.len > 1 << 20)
			return mutate();
		off = start + sizeof(h) +
		      below((end - start - sizeof(h) < 512 ? end - start - sizeof(h) : 512) / 8) * 8;
		v = extremes[below(sizeof(extremes) / sizeof(extremes[0]))];
		if (next() & 1)
			v = (uint32_t)v;	/* also the low half only */
		memcpy(bad + off, &v, off + 8 <= image_len ? 8 : image_len - off);
		break;
	case 2:		/* cut short, often at or near a record boundary */
		bad_len = next() & 1 ? start + below(24) : below(image_len);
		break;
	default:	/* 1-8 bytes anywhere */
		for (i = 0, v = 1 + below(8); i < (int)v; i++)
			bad[below(image_len)] ^= 1 + below(255);
		break;
	}
	return kind;
}

/* Whether @pid's comm is still @comm (a restart's commit changes it). */
static bool comm_is(pid_t pid, const char *comm)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return true;	/* gone: waitpid() will say how */
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return !strncmp(buf, comm, strlen(comm)) && buf[strlen(comm)] == '\n';
}

enum outcome { REFUSED, RAN, DIED, HUNG };

/*
 * Restart from BAD in a child: how it ended. *err: the errno if refused,
 * the signal if it died of one.
 */
static enum outcome attempt(int *err)
{
	pid_t pid;
	int st, i;
	FILE *f = fopen(BAD, "w");

	if (!f || fwrite(bad, 1, bad_len, f) != bad_len || fclose(f))
		tap_bail("cannot write %s", BAD);
	pid = fork();
	if (!pid) {
		int fd = open(BAD, O_RDONLY | O_CLOEXEC);

		_exit(RESTART_FAILED(-cr_restart(0, fd, 0)));
	}
	for (i = 0; i < 2000; i++) {	/* 20 s */
		if (waitpid(pid, &st, WNOHANG) == pid) {
			if (WIFEXITED(st) && WEXITSTATUS(st) > RESTART_FAILED(0)) {
				*err = WEXITSTATUS(st) - RESTART_FAILED(0);
				return REFUSED;
			}
			*err = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
			return DIED;
		}
		if (!comm_is(pid, "cr-hostile")) {
			kill_wait(pid);
			return RAN;
		}
		usleep(10000);
	}
	tap_diag("a restart did not end in 20 s: killed");
	kill_wait(pid);
	return HUNG;
}

int main(void)
{
	const char *s = getenv("CR_HOSTILE_SEED"), *n = getenv("CR_HOSTILE_ITERS");
	unsigned int iters = n ? atoi(n) : 400, i, count[4] = { 0 };
	unsigned int by_errno[134] = { 0 }, kinds[4] = { 0 };
	uint64_t seed = s ? strtoull(s, NULL, 0) : 1;
	int err = 0, other = 0, killed = 0;

	tap_plan(4);
	engine_on();
	counter_image(OUT, IMG);
	load_image();
	tap_diag("seed %llu, %u images from one of %zu bytes, %u records",
		 (unsigned long long)seed, iters, image_len, nr_records);

	rng = seed ? seed : 1;
	for (i = 0; i < iters; i++) {
		enum outcome o;

		kinds[mutate()]++;
		o = attempt(&err);
		count[o]++;
		if (o == REFUSED && err > 0 && err < 134)
			by_errno[err]++;
		else if (o == REFUSED)
			other++;
		if (o == DIED && err == SIGKILL)
			killed++;
	}
	tap_ok(!count[HUNG],
	       "%u damaged images (%u headers, %u payload words, %u cut, %u bytes): every restart ended (refused %u, restarted %u, died %u, hung %u)",
	       iters, kinds[0], kinds[1], kinds[2], kinds[3], count[REFUSED],
	       count[RAN], count[DIED], count[HUNG]);
	tap_ok(by_errno[EINVAL] && by_errno[EIO],
	       "validation refused them with EINVAL (%u), EIO (%u), ENOENT (%u), EOPNOTSUPP (%u), ENOMEM (%u), other (%d)",
	       by_errno[EINVAL], by_errno[EIO], by_errno[ENOENT],
	       by_errno[EOPNOTSUPP], by_errno[ENOMEM], other);
	tap_ok(!killed,
	       "none failed after the point of no return (killed by the kernel: %d): validation came first",
	       killed);

	memcpy(bad, image, image_len);
	bad_len = image_len;
	tap_ok(attempt(&err) == RAN, "the undamaged image still restarts");
	return tap_done();
}
