// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile images: restart from thousands of damaged copies of a good
 * image (the caller's comm is "cr-hostile" until a restart commits).
 * Blind damage: record headers (type, objref, length) get bits flipped,
 * payload words get extreme values, images are cut short, bytes anywhere
 * are flipped. Structure-aware damage, from the uapi header's layout:
 * every length, count, offset, address, id and flag field of every record
 * type gets an extreme, neighbouring or bit-flipped value, and whole
 * records are duplicated, dropped or swapped with the next one.
 *
 * Every attempt must end: refused with an errno before the point of no
 * return, or restarted (the damage was in data the kernel cannot judge,
 * such as page contents or registers) and then killed, or restarted and
 * died of its own registers. The kernel's own count of restarts that
 * failed after their point of no return (debugfs stats,
 * restart.failed_after_commit) must not move, and the kernel must stay
 * up and quiet: the suite's last test reads its log, and the debug
 * variant (KASAN, lockdep, panic_on_warn) turns any memory error into a
 * failed run.
 *
 * CR_HOSTILE_SEED and CR_HOSTILE_ITERS change the seed (1) and the
 * number of images (2000); the seed is printed, so a failure replays.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <linux/checkpoint_hdr.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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
	bad = malloc(2 * image_len);	/* room for a duplicated record */
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

/* A field of a record's payload: where it is and how wide. */
struct field {
	uint32_t type;
	uint16_t off, size;
};

#define F(t, st, m) { t, offsetof(struct st, m), sizeof(((struct st *)0)->m) }
#define FI(t, st, m, i) { t, offsetof(struct st, m[i]), sizeof(((struct st *)0)->m[i]) }
/* A field of the TREE record's first entry: the root's (the image's only one). */
#define FT(m) { CKPT_HDR_TREE, offsetof(struct ckpt_hdr_tree, tasks) + \
		offsetof(struct ckpt_tree_task, m), sizeof(((struct ckpt_tree_task *)0)->m) }

/* Every field restart judges (or must survive), per record type. */
static const struct field fields[] = {
	F(CKPT_HDR_HEADER, ckpt_hdr_header, version),
	F(CKPT_HDR_HEADER, ckpt_hdr_header, page_size),
	F(CKPT_HDR_HEADER, ckpt_hdr_header, flags),
	F(CKPT_HDR_HEADER, ckpt_hdr_header, crid),
	F(CKPT_HDR_HEADER, ckpt_hdr_header, nr_tasks),	/* the TREE record's entries */
	FI(CKPT_HDR_HEADER, ckpt_hdr_header, __pad, 4),
	F(CKPT_HDR_ARCH, ckpt_hdr_arch, __reserved),
	F(CKPT_HDR_ARCH, ckpt_hdr_arch, xfeatures),
	F(CKPT_HDR_ARCH, ckpt_hdr_arch, xstate_size),
	F(CKPT_HDR_TREE, ckpt_hdr_tree, nr_tasks),
	F(CKPT_HDR_TREE, ckpt_hdr_tree, nr_procs),
	FT(pid),
	FT(tgid),
	FT(ppid),
	FT(pgid),
	FT(sid),
	FT(flags),
	FT(exit_code),
	FT(__reserved),
	F(CKPT_HDR_TASK, ckpt_hdr_task, pid),
	F(CKPT_HDR_TASK, ckpt_hdr_task, flags),
	F(CKPT_HDR_TASK, ckpt_hdr_task, robust_list),
	F(CKPT_HDR_TASK, ckpt_hdr_task, clear_child_tid),
	F(CKPT_HDR_TASK, ckpt_hdr_task, rseq),
	F(CKPT_HDR_TASK, ckpt_hdr_task, rseq_len),
	F(CKPT_HDR_TASK, ckpt_hdr_task, rseq_sig),
	F(CKPT_HDR_TASK, ckpt_hdr_task, blocked),
	F(CKPT_HDR_TASK, ckpt_hdr_task, sas_ss_sp),
	F(CKPT_HDR_TASK, ckpt_hdr_task, sas_ss_size),
	F(CKPT_HDR_TASK, ckpt_hdr_task, sas_ss_flags),
	F(CKPT_HDR_TASK, ckpt_hdr_task, tgid),
	F(CKPT_HDR_SIGNAL, ckpt_hdr_signal, nr_actions),
	F(CKPT_HDR_SIGNAL, ckpt_hdr_signal, __reserved),
	FI(CKPT_HDR_SIGNAL, ckpt_hdr_signal, action, 0),	/* handler of SIGHUP */
	FI(CKPT_HDR_SIGNAL, ckpt_hdr_signal, action, 8),	/* SIGKILL's */
	FI(CKPT_HDR_SIGNAL, ckpt_hdr_signal, action, 9),	/* SIGUSR1's */
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, uid),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, euid),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, fsgid),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, cap_permitted),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, cap_effective),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, cap_bset),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, cap_ambient),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, securebits),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, flags),
	F(CKPT_HDR_CREDS, ckpt_hdr_creds, nr_groups),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, ip),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, orig_ax),
	{ CKPT_HDR_CPU, offsetof(struct ckpt_hdr_cpu, tls[1].entry_number), 4 },
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, sp),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, cs),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, ss),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, flags),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, fs_base),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, gs_base),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, ds),
	F(CKPT_HDR_CPU, ckpt_hdr_cpu, fs),
	FI(CKPT_HDR_CPU, ckpt_hdr_cpu, debugreg, 7),
	FI(CKPT_HDR_CPU, ckpt_hdr_cpu, tls, 0),
	/* a TLS descriptor's flag bits (32-bit, contents, present...) */
	{ CKPT_HDR_CPU, offsetof(struct ckpt_hdr_cpu, tls[0].flags), 4 },
	{ CKPT_HDR_CPU, offsetof(struct ckpt_hdr_cpu, tls[2].flags), 4 },
	F(CKPT_HDR_MM, ckpt_hdr_mm, start_code),
	F(CKPT_HDR_MM, ckpt_hdr_mm, end_code),
	F(CKPT_HDR_MM, ckpt_hdr_mm, start_brk),
	F(CKPT_HDR_MM, ckpt_hdr_mm, brk),
	F(CKPT_HDR_MM, ckpt_hdr_mm, start_stack),
	F(CKPT_HDR_MM, ckpt_hdr_mm, arg_start),
	F(CKPT_HDR_MM, ckpt_hdr_mm, env_end),
	F(CKPT_HDR_MM, ckpt_hdr_mm, def_flags),
	F(CKPT_HDR_MM, ckpt_hdr_mm, nr_vmas),
	F(CKPT_HDR_MM, ckpt_hdr_mm, exe_objref),
	FI(CKPT_HDR_MM, ckpt_hdr_mm, saved_auxv, 1),
	FI(CKPT_HDR_MM, ckpt_hdr_mm, saved_auxv, 60),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, start),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, end),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, pgoff),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, vm_flags),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, kind),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, file_objref),
	F(CKPT_HDR_VMA, ckpt_hdr_vma, nr_pages),
	F(CKPT_HDR_SHMEM, ckpt_hdr_shmem, size),
	F(CKPT_HDR_SHMEM, ckpt_hdr_shmem, nr_pages),
	F(CKPT_HDR_SHMEM, ckpt_hdr_shmem, flags),
	F(CKPT_HDR_SHMEM, ckpt_hdr_shmem, seals),
	F(CKPT_HDR_SHMEM, ckpt_hdr_shmem, name_len),
	F(CKPT_HDR_SHMEM, ckpt_hdr_shmem, __reserved),
	{ CKPT_HDR_SHMEM, sizeof(struct ckpt_hdr_shmem), 4 },	/* a memfd's name */
	F(CKPT_HDR_PAGES, ckpt_hdr_pages, nr_pages),
	F(CKPT_HDR_PAGES, ckpt_hdr_pages, data_offset),
	{ CKPT_HDR_PAGES, sizeof(struct ckpt_hdr_pages), 8 },	/* first address */
	F(CKPT_HDR_FILE, ckpt_hdr_file, f_flags),
	F(CKPT_HDR_FILE, ckpt_hdr_file, i_mode),
	F(CKPT_HDR_FILE, ckpt_hdr_file, f_pos),
	F(CKPT_HDR_FILE, ckpt_hdr_file, path_len),
	F(CKPT_HDR_FILE, ckpt_hdr_file, ino),
	F(CKPT_HDR_FILE, ckpt_hdr_file, dev),
	F(CKPT_HDR_FILE, ckpt_hdr_file, size),
	F(CKPT_HDR_FILE, ckpt_hdr_file, rdev),
	F(CKPT_HDR_FILE, ckpt_hdr_file, obj_objref),
	{ CKPT_HDR_FILE, sizeof(struct ckpt_hdr_file), 8 },	/* the path */
	F(CKPT_HDR_FD, ckpt_hdr_fd, fd),
	F(CKPT_HDR_FD, ckpt_hdr_fd, file_objref),
	F(CKPT_HDR_FD, ckpt_hdr_fd, flags),
	F(CKPT_HDR_FD, ckpt_hdr_fd, __reserved),
	F(CKPT_HDR_TAIL, ckpt_hdr_tail, nr_records),
	F(CKPT_HDR_TAIL, ckpt_hdr_tail, pos),
};

#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

/*
 * Whether field @f may be missing from the image: a SHMEM record's (the
 * counter has no shared memory, no memfd), damaged when it has one.
 */
static bool optional(unsigned int f)
{
	return fields[f].type == CKPT_HDR_SHMEM;
}

/* How many times each field was damaged: every one must be, over a run. */
static unsigned int field_hits[NR_FIELDS];

/* A value for a field of @size bytes that was @old. */
static uint64_t damaged(uint64_t old, unsigned int size)
{
	switch (below(4)) {
	case 0:
		return extremes[below(sizeof(extremes) / sizeof(extremes[0]))];
	case 1:
		return old + 1;
	case 2:
		return old - 1;
	default:
		return old ^ (1ULL << below(size * 8));
	}
}

/* How many records of the image have field @f. */
static unsigned int records_with(unsigned int f)
{
	struct rec_hdr h;
	unsigned int r, n = 0;

	for (r = 0; r < nr_records; r++) {
		memcpy(&h, image + records[r], sizeof(h));
		n += h.type == fields[f].type && h.len >= fields[f].off + fields[f].size;
	}
	return n;
}

/*
 * The next field of the table that the image has (an optional one may be
 * missing), in a record of the image, gets a damaged value.
 */
static void damage_field(void)
{
	static unsigned int next_field;
	unsigned int f, r, n, pick;
	struct rec_hdr h;
	uint64_t v = 0;
	size_t off = 0;

	do {
		f = next_field++ % NR_FIELDS;
		n = records_with(f);
	} while (!n && optional(f));
	if (!n)
		tap_bail("the image has no record with field %u (type %u)", f, fields[f].type);
	/* a record of that type, chosen evenly among them */
	pick = below(n);
	for (r = 0; r < nr_records; r++) {
		memcpy(&h, image + records[r], sizeof(h));
		if (h.type == fields[f].type && h.len >= fields[f].off + fields[f].size &&
		    !pick--) {
			off = records[r] + sizeof(h) + fields[f].off;
			break;
		}
	}
	memcpy(&v, bad + off, fields[f].size < 8 ? fields[f].size : 8);
	v = damaged(v, fields[f].size < 8 ? fields[f].size : 8);
	memcpy(bad + off, &v, fields[f].size < 8 ? fields[f].size : 8);
	field_hits[f]++;
}

/* Record @r duplicated, dropped, or swapped with the next one. */
static void damage_records(void)
{
	unsigned int r = below(nr_records - 1), how = below(3);
	size_t start = records[r], len = records[r + 1] - start;
	size_t len2 = (r + 2 < nr_records ? records[r + 2] : image_len) - records[r + 1];

	switch (how) {
	case 0:		/* duplicated: the record again, then the rest */
		memcpy(bad + start + len, image + start, image_len - start);
		bad_len = image_len + len;
		break;
	case 1:		/* dropped */
		memmove(bad + start, image + start + len, image_len - start - len);
		bad_len = image_len - len;
		break;
	default:	/* swapped with the next */
		memcpy(bad + start, image + start + len, len2);
		memcpy(bad + start + len2, image + start, len);
		break;
	}
}

/* One damaged copy of the image into bad/bad_len; returns the kind. */
static int mutate(void)
{
	unsigned int r = below(nr_records);
	size_t start = records[r], end, off;
	struct rec_hdr h;
	uint64_t v;
	int kind = below(6), i;

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
	case 3:		/* 1-8 bytes anywhere */
		for (i = 0, v = 1 + below(8); i < (int)v; i++)
			bad[below(image_len)] ^= 1 + below(255);
		break;
	case 4:		/* one field, by the uapi layout */
		damage_field();
		break;
	default:	/* whole records */
		damage_records();
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

#define REGULAR_FILE (~0U)

/*
 * Offset of the @nth (from 0) record of @type, or 0 if there is none;
 * @nth REGULAR_FILE: the first FILE record of a regular file.
 */
static size_t record_of(uint32_t type, unsigned int nth)
{
	struct ckpt_hdr_file f;
	struct rec_hdr h;
	unsigned int r;

	for (r = 0; r < nr_records; r++) {
		memcpy(&h, image + records[r], sizeof(h));
		if (h.type != type)
			continue;
		if (nth == REGULAR_FILE) {
			memcpy(&f, image + records[r] + sizeof(h), sizeof(f));
			if (S_ISREG(f.i_mode))
				return records[r];
		} else if (!nth--) {
			return records[r];
		}
	}
	return 0;
}

/*
 * Fields that hold no state but must hold what checkpoint writes: each
 * set to another value alone must be refused (EINVAL) at once.
 * @at: from the start of the record, header included.
 */
struct strict {
	const char *what;
	uint32_t type;
	unsigned int nth;
	size_t at, size;
	uint64_t value;
};

#define P(st, m) (sizeof(struct rec_hdr) + offsetof(struct st, m))
#define OBJREF offsetof(struct rec_hdr, objref)

static const struct strict stricts[] = {
	{ "HEADER objref", CKPT_HDR_HEADER, 0, OBJREF, 4, 1 },
	{ "HEADER flags", CKPT_HDR_HEADER, 0, P(ckpt_hdr_header, flags), 8, 1 },
	{ "HEADER padding", CKPT_HDR_HEADER, 0, P(ckpt_hdr_header, __pad), 1, 1 },
	{ "ARCH reserved", CKPT_HDR_ARCH, 0, P(ckpt_hdr_arch, __reserved), 4, 1 },
	{ "HEADER nr_tasks (not the TREE record's entries)", CKPT_HDR_HEADER, 0,
	  P(ckpt_hdr_header, nr_tasks), 4, 2 },
	{ "TREE objref", CKPT_HDR_TREE, 0, OBJREF, 4, 1 },
	{ "TREE nr_tasks (not the header's)", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, nr_tasks), 4, 2 },
	{ "TREE nr_procs (none)", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, nr_procs), 4, 0 },
	{ "TREE nr_procs (more than tasks)", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, nr_procs), 4, 2 },
	{ "TREE root pid (a thread of its tgid)", CKPT_HDR_TREE, 0,
	  P(ckpt_hdr_tree, tasks[0].pid), 4, 1 },
	{ "TREE root tgid (not its pid)", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, tasks[0].tgid), 4, 1 },
	{ "TREE root flags (a zombie root)", CKPT_HDR_TREE, 0,
	  P(ckpt_hdr_tree, tasks[0].flags), 4, CKPT_TREE_ZOMBIE },
	{ "TREE root flags (unknown)", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, tasks[0].flags), 4, 2 },
	{ "TREE root exit code (a live process's)", CKPT_HDR_TREE, 0,
	  P(ckpt_hdr_tree, tasks[0].exit_code), 4, 1 << 8 },
	{ "TREE reserved", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, tasks[0].__reserved), 4, 1 },
	{ "TASK tgid (not its own pid)", CKPT_HDR_TASK, 0, P(ckpt_hdr_task, tgid), 4, 1 },
	{ "SIGNAL reserved", CKPT_HDR_SIGNAL, 0, P(ckpt_hdr_signal, __reserved), 4, 1 },
	{ "SIGNAL objref (not the task's)", CKPT_HDR_SIGNAL, 0, OBJREF, 4, 9999 },
	{ "CPU objref (not the task's)", CKPT_HDR_CPU, 0, OBJREF, 4, 9999 },
	{ "CPU orig_ax", CKPT_HDR_CPU, 0, P(ckpt_hdr_cpu, orig_ax), 8, 0 },
	{ "CPU TLS entry number", CKPT_HDR_CPU, 0, P(ckpt_hdr_cpu, tls[1].entry_number), 4, 5 },
	{ "MM auxv beyond the kernel's", CKPT_HDR_MM, 0, P(ckpt_hdr_mm, saved_auxv[60]), 8, 1 },
	{ "VMA objref (not the mm's)", CKPT_HDR_VMA, 1, OBJREF, 4, 9999 },
	{ "PAGES objref (not the mm's)", CKPT_HDR_PAGES, 0, OBJREF, 4, 9999 },
	{ "FILE obj_objref (no PIPE record)", CKPT_HDR_FILE, 0, P(ckpt_hdr_file, obj_objref), 4, 1 },
	{ "FILE rdev of a regular file", CKPT_HDR_FILE, REGULAR_FILE, P(ckpt_hdr_file, rdev), 4, 0x801 },
	{ "FD reserved", CKPT_HDR_FD, 0, P(ckpt_hdr_fd, __reserved), 4, 1 },
	{ "FD objref (another files table)", CKPT_HDR_FD, 1, OBJREF, 4, 9999 },
};

/* Every strict field refused alone; returns the number that were not. */
static int strict_fields(void)
{
	unsigned int i;
	int bad_ones = 0, err = 0;

	for (i = 0; i < sizeof(stricts) / sizeof(stricts[0]); i++) {
		const struct strict *t = &stricts[i];
		size_t rec = record_of(t->type, t->nth);
		enum outcome o;

		if (!rec && t->type != CKPT_HDR_HEADER)
			tap_bail("the image has no record %u of type %u (%s)",
				 t->nth, t->type, t->what);
		memcpy(bad, image, image_len);
		bad_len = image_len;
		memcpy(bad + rec + t->at, &t->value, t->size);
		o = attempt(&err);
		if (o != REFUSED || err != EINVAL) {
			tap_diag("%s = %#llx: %s (%d), not refused with EINVAL", t->what,
				 (unsigned long long)t->value,
				 o == REFUSED ? "refused" : o == RAN ? "restarted" : "died", err);
			bad_ones++;
		} else {
			tap_diag("%s: refused: %s", t->what, engine_stat("restart.refused"));
		}
	}
	return bad_ones;
}

/*
 * Fields no rule judges: the root's parent, process group and session in
 * the TREE record are outside the tree (the restarting task's, unless its
 * own): each set to another id alone still restarts. Returns the number
 * that did not.
 */
static int lenient_fields(void)
{
	static const struct strict lenients[] = {
		{ "TREE root ppid", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, tasks[0].ppid), 4, 1 },
		{ "TREE root pgid", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, tasks[0].pgid), 4, 1 },
		{ "TREE root sid", CKPT_HDR_TREE, 0, P(ckpt_hdr_tree, tasks[0].sid), 4, 1 },
	};
	unsigned int i;
	int bad_ones = 0, err = 0;
	enum outcome o;

	for (i = 0; i < sizeof(lenients) / sizeof(lenients[0]); i++) {
		const struct strict *t = &lenients[i];
		size_t rec = record_of(t->type, t->nth);

		if (!rec)
			tap_bail("the image has no record of type %u (%s)", t->type, t->what);
		memcpy(bad, image, image_len);
		bad_len = image_len;
		memcpy(bad + rec + t->at, &t->value, t->size);
		o = attempt(&err);
		if (o != RAN) {
			tap_diag("%s = %#llx: %s (%d), not restarted: %s", t->what,
				 (unsigned long long)t->value,
				 o == REFUSED ? "refused" : o == DIED ? "died" : "hung", err,
				 engine_stat("restart.refused"));
			bad_ones++;
		}
	}
	return bad_ones;
}

/* Bytes of the first FILE record, header and padding included. */
static size_t file_record_len(void)
{
	struct rec_hdr h;

	memcpy(&h, image + record_of(CKPT_HDR_FILE, 0), sizeof(h));
	return sizeof(h) + ((h.len + 7) & ~7ULL);
}

/*
 * The first FILE record repeated @copies times with new objrefs (a
 * multiple of 4096 bytes in all, so that page data stays aligned).
 */
static enum outcome more_files(int *err, unsigned int copies)
{
	size_t file = record_of(CKPT_HDR_FILE, 0), len = file_record_len(), pos;
	struct rec_hdr h;
	unsigned int i;

	memcpy(&h, image + file, sizeof(h));
	bad = realloc(bad, image_len + copies * len);
	if (!bad)
		tap_bail("out of memory");
	memcpy(bad, image, file);
	pos = file;
	for (i = 0; i < copies; i++, pos += len) {
		memcpy(bad + pos, image + file, len);
		h.objref = 50000 + i;
		memcpy(bad + pos, &h, sizeof(h));
	}
	memcpy(bad + pos, image + file, image_len - file);
	bad_len = pos + image_len - file;
	/* the tail counts the records */
	{
		size_t tail = bad_len - (image_len - record_of(CKPT_HDR_TAIL, 0));
		struct ckpt_hdr_tail t;

		memcpy(&t, bad + tail + sizeof(h), sizeof(t));
		t.nr_records += copies;
		t.pos += copies * len;
		memcpy(bad + tail + sizeof(h), &t, sizeof(t));
	}
	return attempt(err);
}

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ret = f && fscanf(f, "%d", v) == 1 ? 0 : -1;

	if (f)
		fclose(f);
	return ret;
}

static int write_int(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int ret = f && fprintf(f, "%d\n", v) > 0 ? 0 : -1;

	if (f && fclose(f))
		ret = -1;
	return ret;
}

/* restart.failed_after_commit of the engine's debugfs stats, or -1. */
static long failed_after_commit(void)
{
	const char *v = engine_stat("restart.failed_after_commit");

	return *v ? strtol(v, NULL, 10) : -1;
}

int main(void)
{
	const char *s = getenv("CR_HOSTILE_SEED"), *n = getenv("CR_HOSTILE_ITERS");
	unsigned int iters = n ? atoi(n) : 2000, i, count[4] = { 0 };
	unsigned int by_errno[134] = { 0 }, kinds[6] = { 0 }, unhit = 0, absent = 0;
	uint64_t seed = s ? strtoull(s, NULL, 0) : 1;
	int err = 0, other = 0, killed = 0;
	long before, after;

	tap_plan(9);
	engine_on();
	counter_image(OUT, IMG);
	load_image();
	tap_diag("seed %llu, %u images from one of %zu bytes, %u records, %zu fields",
		 (unsigned long long)seed, iters, image_len, nr_records, NR_FIELDS);
	before = failed_after_commit();
	if (before < 0)
		tap_bail("no restart.failed_after_commit in the engine's stats");

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
	after = failed_after_commit();
	for (i = 0; i < NR_FIELDS; i++) {
		absent += optional(i) && !records_with(i);
		unhit += !field_hits[i] && !(optional(i) && !records_with(i));
	}

	tap_ok(!count[HUNG] && count[REFUSED] + count[RAN] + count[DIED] == iters,
	       "%u damaged images (%u headers, %u payload words, %u cut, %u bytes, %u fields, %u records moved): every restart ended: refused %u, restarted %u, restarted and died of its registers %u, hung %u",
	       iters, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], kinds[5],
	       count[REFUSED], count[RAN], count[DIED], count[HUNG]);
	tap_ok(!other && count[REFUSED] > iters / 2,
	       "every refusal has its errno: EINVAL %u, EIO %u, ESTALE %u, EPERM %u, ENOENT %u, EOPNOTSUPP %u, ENOMEM %u, EFAULT %u, other %d",
	       by_errno[EINVAL], by_errno[EIO], by_errno[ESTALE], by_errno[EPERM],
	       by_errno[ENOENT], by_errno[EOPNOTSUPP], by_errno[ENOMEM], by_errno[EFAULT],
	       other);
	tap_ok(after == before && !killed,
	       "none failed after the point of no return (engine's count %ld -> %ld, SIGKILLed %d): validation came first",
	       before, after, killed);
	/* The fields are taken in turn: a run of this size reaches them all. */
	if (iters >= 6 * NR_FIELDS && unhit)
		tap_bail("the test damaged only %zu of its %zu fields", NR_FIELDS - absent - unhit,
			 NR_FIELDS - absent);
	tap_diag("%zu of the %zu fields of the uapi layout were damaged (%u of records the image has none of)",
		 NR_FIELDS - absent - unhit, NR_FIELDS, absent);

	memcpy(bad, image, image_len);
	bad_len = image_len;
	tap_ok(attempt(&err) == RAN, "the undamaged image still restarts");

	i = strict_fields();
	tap_ok(!i, "%u of %zu reserved, objref and fixed fields set alone: each refused with EINVAL",
	       (unsigned int)(sizeof(stricts) / sizeof(stricts[0])) - i,
	       sizeof(stricts) / sizeof(stricts[0]));
	tap_ok(strstr(engine_stat("restart.refused"), "objref 9999") != NULL,
	       "the last refusal is in the stats: restart.refused %s", engine_stat("restart.refused"));
	i = lenient_fields();
	tap_ok(!i, "the root's ppid, pgid and sid in the TREE record, outside the tree: %u of 3 set alone still restart",
	       3 - i);

	/*
	 * The file limit: more FILE records than RLIMIT_NOFILE (16) plus
	 * vm.max_map_count allow are refused; as many are not.
	 */
	{
		size_t len = file_record_len(), unit = 4096, g = len, r;
		struct rlimit rl = { 16, 16 }, old;
		unsigned int copies;
		int max_map = 65530;
		enum outcome o;

		for (r = unit % g; r; r = unit % g)	/* gcd(len, 4096) */
			unit = g, g = r;
		unit = 4096 / g;
		copies = (16 + 64 + unit) / unit * unit;	/* > 80 */
		if (read_int("/proc/sys/vm/max_map_count", &max_map) ||
		    write_int("/proc/sys/vm/max_map_count", 64))
			tap_bail("cannot set vm.max_map_count");
		getrlimit(RLIMIT_NOFILE, &old);
		setrlimit(RLIMIT_NOFILE, &rl);
		o = more_files(&err, copies);
		tap_ok(o == REFUSED && err == EMFILE,
		       "an image of %u files more, with room for 16 fds and 64 mappings: refused with EMFILE (%s %d: %s)",
		       copies, o == REFUSED ? "refused" : o == RAN ? "restarted" : "died", err,
		       engine_stat("restart.refused"));
		write_int("/proc/sys/vm/max_map_count", 64 + copies);
		o = more_files(&err, copies);
		tap_ok(o == RAN, "with room for %u mappings it restarts (%s %d)", 64 + copies,
		       o == REFUSED ? "refused" : o == RAN ? "restarted" : "died", err);
		setrlimit(RLIMIT_NOFILE, &old);
		write_int("/proc/sys/vm/max_map_count", max_map);
	}
	return tap_done();
}
