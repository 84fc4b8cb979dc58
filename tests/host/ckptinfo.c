// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of ckptinfo's reader: synthetic process trees (tests/lib/
 * mkimage.c), valid and with every TREE rule broken, with shared memory,
 * memfds, shared file mappings, SysV shared memory and inotify instances,
 * with their SIGPENDING, RLIMITS and FS records and each broken; the
 * fixtures (real images made by the guest, tests/fixtures/) and images
 * broken on purpose from them: each breakage gets its precise message, nothing crashes,
 * and the command line exits 0/1/2.
 *
 * The fixture groups need images of this format version: an old fixture
 * makes each of its results fail (make fixtures regenerates them).
 * CKPTINFO_FIXTURES names another folder of fixtures.
 */
#include "image.h"
#include "mkimage.h"
#include "tap.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CKPTINFO "build/host/ckptinfo"

/* The refusal of a record out of the order restart reads them in. */
#define ORDER "not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS RLIMITS ITIMERS POSIX_TIMERS PROCESS (FILE|FD|FS|PIPE|EVENTFD|SIGNALFD|TIMERFD|EPOLL|EPOLL_ITEMS|INOTIFY|LOCK|UNIX_PAIR|UNIX_SOCK|INET_SOCK|FOWN|SHMEM PAGES*|GHOST PAGES*|SYSVSHM PAGES*|SHM_ATTACH)* MM (VMA PAGES*)* CPU XSTATE (TASK CPU XSTATE)*, TAIL)"

static const char *fixtures = "tests/fixtures/";
static unsigned char *img;	/* the image the broken() cases start from */
static size_t img_len;

/* The fixture @name into img/img_len; NULL if absent, else why it is invalid ("" if valid). */
static const char *load(const char *name)
{
	static struct ci_image ci;
	char path[512];
	FILE *f;
	long n;

	free(img);
	img = NULL;
	snprintf(path, sizeof(path), "%s%s", fixtures, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0)
		tap_bail("cannot read %s", path);
	rewind(f);
	img = malloc(n + 1);
	if (!img || fread(img, 1, n, f) != (size_t)n)
		tap_bail("cannot read %s", path);
	fclose(f);
	img_len = n;
	f = fmemopen(img, img_len, "r");
	if (!f)
		tap_bail("fmemopen");
	n = ci_read(f, &ci, false);
	fclose(f);
	snprintf(path, sizeof(path), "%s", n ? ci.error : "");
	ci_free(&ci);
	return n ? strdup(path) : "";
}

/*
 * Fixture @name for @group, @n results: true if it reads as valid; else
 * each result fails (or, absent and @optional, is skipped).
 */
static bool fixture(const char *name, const char *group, int n, bool optional)
{
	const char *why = load(name);
	int i;

	if (why && !*why)
		return true;
	for (i = 1; i <= n; i++) {
		if (!why && optional)
			tap_skip("%s (%s): no such fixture yet (make fixtures)", group, name);
		else
			tap_ok(false, "%s, %d of %d: %s: %s (make fixtures regenerates it)",
			       group, i, n, name, why ? why : "missing");
	}
	return false;
}

/* Read @len bytes of @buf as an image: 0 valid, -1 with its error. */
static int read_buf(const unsigned char *buf, size_t len, struct ci_image *ci)
{
	FILE *f = fmemopen((void *)buf, len, "r");
	int ret;

	if (!f)
		tap_bail("fmemopen");
	ret = ci_read(f, ci, true);
	fclose(f);
	return ret;
}

/* @buf with a patch applied must fail with @want in the message. */
static void broken_in(const unsigned char *buf, size_t buf_len, const char *what,
		      size_t len, size_t off, const void *patch, size_t plen,
		      const char *want)
{
	unsigned char *copy = malloc(buf_len);
	struct ci_image ci;
	int ret;

	memcpy(copy, buf, buf_len);
	if (patch)
		memcpy(copy + off, patch, plen);
	ret = read_buf(copy, len, &ci);
	tap_ok(ret == -1 && strstr(ci.error, want) && strstr(ci.error, "offset "),
	       "%s: \"%s\"", what, ret ? ci.error : "accepted");
	ci_free(&ci);
	free(copy);
}

static void broken(const char *what, size_t len, size_t off, const void *patch,
		   size_t plen, const char *want)
{
	broken_in(img, img_len, what, len, off, patch, plen, want);
}

/* @buf in a temporary file (mk_file()): its path; a failure ends the test. */
static const char *image_file(const unsigned char *buf, size_t len)
{
	const char *path = mk_file(buf, len);

	if (!path)
		tap_bail("cannot write a temporary image");
	return path;
}

/* Exit status of ckptinfo @args; its standard output into @out if not NULL. */
static int run(const char *args, char *out, size_t size)
{
	char cmd[512];
	FILE *p;
	size_t n = 0;
	int st;

	snprintf(cmd, sizeof(cmd), CKPTINFO " %s 2>/dev/null", args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (out) {
		n = fread(out, 1, size - 1, p);
		out[n] = '\0';
	}
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Offset of the @nth (from 0) record of @type in @ci, or 0. */
static size_t record_of(const struct ci_image *ci, uint32_t type, unsigned int nth)
{
	size_t i;

	for (i = 0; i < ci->nr_kept; i++)
		if (ci->records[i].type == type && !nth--)
			return ci->records[i].pos;
	return 0;
}

/* A test's record: the @nth (from 0) of @type, for records_at(). */
struct rec_at {
	uint32_t type;
	unsigned int nth;
};

/* The offset of each of the @n records @at names in @ci into @pos (0: none, record_of()). */
static void records_at(const struct ci_image *ci, const struct rec_at *at, size_t n,
		       size_t *pos)
{
	size_t i;

	for (i = 0; i < n; i++)
		pos[i] = record_of(ci, at[i].type, at[i].nth);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* Whether each of the @n strings @lines is in @out, once. */
static bool each_once(const char *out, const char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (count(out, lines[i]) != 1)
			return false;
	return true;
}

/*
 * The valid tree of the synthetic tests, in the kernel's order (each
 * process's children after all of the processes before them):
 *
 *   100 (session and group leader), threads 101 102
 *   |-110 (its own group), whose child 120 is in that group
 *   `-130 a zombie that exited 7
 */
static const struct ckpt_tree_task good[] = {
	{ .pid = 100, .tgid = 100, .ppid = 1, .pgid = 100, .sid = 100 },
	{ .pid = 101, .tgid = 100, .ppid = 1, .pgid = 100, .sid = 100 },
	{ .pid = 102, .tgid = 100, .ppid = 1, .pgid = 100, .sid = 100 },
	{ .pid = 110, .tgid = 110, .ppid = 100, .pgid = 110, .sid = 100 },
	{ .pid = 130, .tgid = 130, .ppid = 100, .pgid = 100, .sid = 100,
	  .flags = CKPT_TREE_ZOMBIE, .exit_code = 7 << 8 },
	{ .pid = 120, .tgid = 120, .ppid = 110, .pgid = 110, .sid = 100 },
};

#define NR_GOOD (sizeof(good) / sizeof(good[0]))
#define ROOT 0
#define THREAD 1
#define CHILD 3
#define ZOMBIE 4
#define GRANDCHILD 5

/* A change to the good tree: entry @entry's field at @off becomes @value. */
struct tree_case {
	const char *what;
	unsigned int entry;
	size_t off;
	int32_t value;
	const char *want;	/* in the refusal; NULL: valid */
};

#define E(m) offsetof(struct ckpt_tree_task, m)

static const struct tree_case tree_cases[] = {
	{ "a pid twice", GRANDCHILD, E(pid), 110, "pid 110 twice" },
	{ "a thread of the child after the root's threads, before the child",
	  2, E(tgid), 110, "thread 102 is not right after its process 110" },
	{ "a thread after a zombie", GRANDCHILD, E(tgid), 130,
	  "thread 120 is not right after its process 130" },
	{ "a child before its parent", CHILD, E(ppid), 120,
	  "the parent 120 of process 110 is not listed before it" },
	{ "a process its own parent", CHILD, E(ppid), 110,
	  "the parent 110 of process 110 is not listed before it" },
	{ "a zombie's status with a core dump (SIGSEGV)", ZOMBIE, E(exit_code), 0x8b,
	  "zombie 130 has status 0x8b" },
	{ "a zombie's status of a stopped task", ZOMBIE, E(exit_code), 0x137f,
	  "no exit() or fatal signal" },
	{ "a zombie killed by SIGCHLD, which is ignored", ZOMBIE, E(exit_code), 17,
	  "no exit() or fatal signal" },
	{ "a zombie killed by SIGKILL", ZOMBIE, E(exit_code), 9, NULL },
	{ "a zombie killed by a real-time signal", ZOMBIE, E(exit_code), 40, NULL },
	{ "a live process with an exit code", CHILD, E(exit_code), 1 << 8,
	  "live process 110 has an exit code" },
	{ "the root a zombie", ROOT, E(flags), CKPT_TREE_ZOMBIE, "the root 100 is a zombie" },
	{ "the root a thread", ROOT, E(tgid), 99, "the root 100 is a thread" },
	{ "a thread in another group than its leader", THREAD, E(pgid), 110,
	  "another parent, group or session than its leader" },
	{ "a zombie's child", GRANDCHILD, E(ppid), 130, "is a zombie" },
	{ "a thread's child", GRANDCHILD, E(ppid), 101, "is a thread" },
	{ "a session neither its own nor its parent's", CHILD, E(sid), 555,
	  "the session 555 of process 110 is neither its own nor its parent's" },
	{ "a session of its own", GRANDCHILD, E(sid), 120,
	  "process group 110 of process 120 is not led by a process of the tree in its session" },
	{ "a group led by no process of the tree", GRANDCHILD, E(pgid), 555,
	  "the process group 555 of process 120" },
	{ "a group led by a thread", GRANDCHILD, E(pgid), 101, "the process group 101" },
	{ "unknown flags", CHILD, E(flags), 2, "entry 3 (pid 110): unknown flags 0x2" },
	{ "reserved bits", CHILD, E(__reserved), 1, "entry 3 (pid 110): reserved field 0x1" },
	{ "a negative pid", CHILD, E(pid), -5, "pid -5" },
};

#define NR_TREE_CASES (sizeof(tree_cases) / sizeof(tree_cases[0]))

/* Read image @s: 0 valid, else -1 with its error in @ci. */
static int read_spec(const struct mk_spec *s, struct ci_image *ci)
{
	size_t len;
	unsigned char *buf = mk_image(s, &len);
	int ret = read_buf(buf, len, ci);

	free(buf);
	return ret;
}

/*
 * The image of @s, which must be valid (@what names it: "the memfd
 * image"), in a new buffer, its length in *@len: read into @ci (ci_free()
 * it), the offsets of the @n records @at names in @pos. A failure ends
 * the test.
 */
static unsigned char *valid_image(const struct mk_spec *s, const char *what,
				  struct ci_image *ci, const struct rec_at *at, size_t n,
				  size_t *pos, size_t *len)
{
	unsigned char *buf = mk_image(s, len);

	if (read_buf(buf, *len, ci))
		tap_bail("%s is invalid: %s", what, ci->error);
	records_at(ci, at, n, pos);
	return buf;
}

/* The image of @s is refused at the TREE record or later, with @want. */
static void refused(const char *what, const struct mk_spec *s, const char *want)
{
	struct ci_image ci;
	int ret = read_spec(s, &ci);

	tap_ok(ret == -1 && strstr(ci.error, want) != NULL, "%s: \"%s\"", what,
	       ret ? ci.error : "accepted");
	ci_free(&ci);
}

/*
 * PAGES records without padding (the kernel's for fewer than
 * CKPT_PAGES_PAD_MIN pages): an image of shared memory and a deleted file
 * valid, the same pages as padded, each record 24 + 4096 bytes; a data
 * offset neither right after the addresses nor at a page boundary
 * refused (3 results).
 */
static void unpadded_tests(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .shmem_maps = 2,
			     .ghost = true, .ghost_private = true };
	struct ci_image padded, ci;
	uint64_t off = 32;	/* 8 bytes past the address: off any page boundary */
	size_t len, plen, i, n = 0, pos = 0;
	unsigned char *buf = mk_image(&s, &plen);
	int ret;

	if (read_buf(buf, plen, &padded))
		tap_bail("the padded image is invalid: %s", padded.error);
	free(buf);
	s.pages_unpadded = true;
	buf = mk_image(&s, &len);
	ret = read_buf(buf, len, &ci);
	for (i = 0; !ret && i < ci.nr_records; i++) {
		if (ci.records[i].type != CKPT_HDR_PAGES)
			continue;
		n++;
		if (ci.records[i].len != 24 + 4096)
			n = 0, i = ci.nr_records;
		else if (!pos)
			pos = ci.records[i].pos;
	}
	tap_ok(!ret && n && ci.pages == padded.pages && len < plen,
	       "PAGES records without padding: valid, %zu records of 24 + 4096 bytes, %llu pages as padded%s%s",
	       n, (unsigned long long)ci.pages, ret ? ": " : "", ret ? ci.error : "");
	tap_ok(!ret && pos, "the unpadded image has a PAGES record to damage");
	broken_in(buf, len, "PAGES data 8 bytes past its addresses, off a page boundary", len,
		  pos + 16 + offsetof(struct ckpt_hdr_pages, data_offset), &off, sizeof(off),
		  "data offset 32 or length inconsistent with 1 pages");
	ci_free(&ci);
	ci_free(&padded);
	free(buf);
}

/* The good tree, read back in full (1 result). */
static void tree_valid(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD };
	const struct ci_proc *p;
	struct ci_image ci;
	size_t inherited = 0, i;
	int ret = read_spec(&s, &ci);

	size_t fs_ok = 0;

	p = ci.procs;
	for (i = 0; !ret && i < ci.nr_procs; i++) {
		const struct ci_file *cwd = ci_file_by_ref(&ci, p[i].fs.cwd_objref);
		char want[32];

		inherited += ci_file_by_ref(&ci, p[i].fds[0].file_objref)->proc == 0;
		snprintf(want, sizeof(want), "/tmp/cwd.%d", p[i].task.pid);
		fs_ok += p[i].has_fs && cwd && cwd->proc == i && !strcmp(cwd->path, want) &&
			 !p[i].fs.root_objref && p[i].fs.umask == MK_UMASK &&
			 p[i].rlimits.nr_limits == CKPT_RLIM_NLIMITS &&
			 p[i].rlimits.rlim[RLIMIT_NOFILE].cur == MK_RLIMIT_NOFILE &&
			 p[i].rlimits.rlim[RLIMIT_NOFILE].max == MK_RLIMIT_NOFILE_MAX &&
			 p[i].rlimits.rlim[RLIMIT_CPU].max == CI_RLIM_INFINITY;
	}
	tap_ok(!ret && ci.nr_tree == 6 && ci.tree_procs == 3 && ci.nr_procs == 3 &&
	       p[0].task.pid == 100 && p[0].nr_threads == 2 && p[0].threads[1].task.pid == 102 &&
	       p[1].task.pid == 110 && p[1].entry == CHILD && p[1].nr_threads == 0 &&
	       p[2].task.pid == 120 && p[2].entry == GRANDCHILD && inherited == 3 &&
	       ci.nr_files == 4 + 3 && ci.pages == 3 && ci_tree_find(&ci, 130) == ZOMBIE &&
	       ci_tree_find(&ci, 999) == CI_NONE && fs_ok == 3,
	       "3 live processes (one with 2 threads), a zombie: valid, children's fds on the root's /dev/null, each its limits and working directory%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/* Every case of tree_cases (NR_TREE_CASES results). */
static void tree_rules(void)
{
	struct ckpt_tree_task t[NR_GOOD];
	struct mk_spec s = { .tree = t, .nr_tree = NR_GOOD };
	struct ci_image ci;
	size_t i;
	int ret;

	for (i = 0; i < NR_TREE_CASES; i++) {
		const struct tree_case *c = &tree_cases[i];

		memcpy(t, good, sizeof(t));
		memcpy((char *)&t[c->entry] + c->off, &c->value, 4);
		if (c->want) {
			refused(c->what, &s, c->want);
			continue;
		}
		ret = read_spec(&s, &ci);
		tap_ok(!ret, "%s: valid%s%s", c->what, ret ? ": " : "", ret ? ci.error : "");
		ci_free(&ci);
	}
}

/* The counts, and the records against the TREE record (9 results). */
static void tree_records(void)
{
	struct ckpt_tree_task t[NR_GOOD + 1];
	struct mk_spec s = { .tree = t, .nr_tree = NR_GOOD };
	struct ci_image ci;
	size_t i;
	int ret;

	/* the root's parent, group and session from outside; its children in those */
	memcpy(t, good, sizeof(good));
	for (i = 0; i < NR_GOOD; i++) {
		t[i].ppid = i < CHILD ? 4242 : t[i].ppid;
		t[i].pgid = 50;
		t[i].sid = 40;
	}
	ret = read_spec(&s, &ci);
	tap_ok(!ret, "the root's parent, group and session outside the tree, every process in the latter two: valid%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);

	s.tree = good;
	s.recs = t;

	s.nr_procs = 2;
	refused("2 live processes counted, 3 listed", &s, "2 live processes, but its entries have 3");
	s.nr_procs = 7;
	refused("7 live processes counted in 6 tasks", &s, "6 tasks and 7 live processes");
	s.nr_procs = 0;
	s.nr_tasks = 7;
	refused("the header and the TREE record count a task more than it has", &s,
		"no TREE record of the header's 7 tasks");
	s.nr_tasks = 0;

	memcpy(t, good, sizeof(good));
	s.nr_recs = NR_GOOD - 1;	/* the grandchild's records missing */
	refused("a live process without records", &s,
		"the TREE record has 3 live processes, the image 2");
	memcpy(t, good, 2 * sizeof(*t));	/* thread 102's records missing */
	memcpy(t + 2, good + 3, 3 * sizeof(*t));
	refused("a thread without records", &s,
		"task 110 (tgid 110) where the TREE record has 102 (tgid 100)");
	memcpy(t, good, sizeof(good));
	t[CHILD].pid = t[CHILD].tgid = 111;
	s.nr_recs = NR_GOOD;
	refused("a process's records under another pid", &s,
		"task 111 (tgid 111) where the TREE record has 110");
	t[CHILD] = good[GRANDCHILD];	/* the grandchild's records first */
	t[GRANDCHILD] = good[CHILD];
	refused("processes' records in another order than the TREE record's", &s,
		"task 120 (tgid 120) where the TREE record has 110");
	memcpy(t, good, sizeof(good));
	t[NR_GOOD] = (struct ckpt_tree_task){ .pid = 140, .tgid = 140, .ppid = 100 };
	s.nr_recs = NR_GOOD + 1;
	refused("a process the TREE record does not have", &s,
		"a task beyond the TREE record's 6");
}

/* Objrefs: each process's own, FILEs shared with later ones (5 results). */
static void tree_objrefs(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD };
	size_t len, task, fd, sig, tree;
	unsigned char *buf = mk_image(&s, &len);
	struct ci_image ci;
	uint32_t ref;

	if (read_buf(buf, len, &ci))
		tap_bail("the good tree is invalid: %s", ci.error);
	task = record_of(&ci, CKPT_HDR_TASK, 3);	/* the child's: after 100 101 102 */
	fd = record_of(&ci, CKPT_HDR_FD, 3);		/* its first */
	sig = record_of(&ci, CKPT_HDR_SIGNAL, 1);
	tree = record_of(&ci, CKPT_HDR_TREE, 0);
	ci_free(&ci);
	if (!task || !fd || !sig || !tree)
		tap_bail("the good tree's image lacks a record");

	ref = 1;		/* the root's TASK objref */
	broken_in(buf, len, "the child's TASK with the root's objref", len,
		  task + offsetof(struct ckpt_hdr, objref), &ref, 4,
		  "objref 1 is zero or already another object's");
	ref = 2;		/* the root's files table */
	broken_in(buf, len, "the child's FDs in the root's files table", len,
		  fd + offsetof(struct ckpt_hdr, objref), &ref, 4,
		  "objref 2 is not its owner's");
	broken_in(buf, len, "the child's SIGNAL as the root's", len,
		  sig + offsetof(struct ckpt_hdr, objref), "\1\0\0\0", 4,
		  "objref 1 is not its owner's");
	broken_in(buf, len, "the TREE record with an objref", len,
		  tree + offsetof(struct ckpt_hdr, objref), "\1\0\0\0", 4,
		  "TREE record (type 4, len 200): objref 1 is not its owner's (0)");
	broken_in(buf, len, "the image cut in the TREE record", tree + 100, 0, NULL, 0,
		  "truncated");
	free(buf);
}

/* ckptinfo on the good tree: the drawing, limits and fs, JSON, a calendar-less date (6 results). */
static void tree_cli(void)
{
	static const char drawing[] =
		"tree: 4 processes (1 zombie), 6 tasks\n"
		"  100 \"proc-100\" pgid 100 sid 100 threads 3\n"
		"  |-110 \"proc-110\" pgid 110 sid 100 threads 1\n"
		"  | `-120 \"proc-120\" pgid 110 sid 100 threads 1\n"
		"  `-130 zombie (status 1792) exit 7 pgid 100 sid 100\n"
		"task: pid 100, comm \"proc-100\"\n";
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .chroot_pid = 120 };
	static char out[1 << 16];
	char args[600];
	unsigned char *buf;
	const char *path;
	size_t len;
	int ret;

	buf = mk_image(&s, &len);
	path = image_file(buf, len);
	snprintf(args, sizeof(args), "%s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && strstr(out, drawing) && strstr(out, "task: pid 110, comm \"proc-110\", parent 100\n") &&
	       strstr(out, "files: 2 open files, 3 descriptors (2 on files saved with an earlier process)\n") &&
	       strstr(out, "  fd 0   /dev/null  flags 02  pos 0  shared with 1  (saved with 100)\n") &&
	       count(out, "\ntask: pid ") == 3 && strstr(out, "threads: 2 besides the leader\n"),
	       "the summary draws the tree as pstree does, then each live process (exit %d)", ret);
	tap_ok(!ret && count(out, "\nlimits: STACK 8M/inf, CORE 0/inf, NOFILE 1024/4096, MEMLOCK 64K/64K (others unlimited)\n"
			      "timers: real 2.500 s left, every 1.000 s\n"
			      "posix timer 3: CLOCK_MONOTONIC, signal 12 (value 0x2a), 1.500 s left, every 2.000 s\n"
			      "oom_score_adj: 300\nfs: ") == 3 &&
	       strstr(out, "  caps effective 0 permitted 0 inheritable 0 ambient 0 bounding 0, securebits 0\n"
			   "limits: ") &&
	       strstr(out, "\nfs: cwd /tmp/cwd.100, root the restarter's, umask 0022\nthreads: 2 besides") &&
	       strstr(out, "\nfs: cwd /tmp/cwd.110, root the restarter's, umask 0022\nmemory: ") &&
	       strstr(out, "\nfs: cwd /tmp/cwd.120, root /srv/jail.120, umask 0022\nmemory: ") &&
	       count(out, "\n  coredump_filter 0x33\n") == 3 &&
	       count(out, "\nsched: SCHED_OTHER nice 0, timer slack 0 ns\n") == 3,
	       "the summary: each process's scheduling, limits (those not unlimited), armed timers, oom_score_adj, fs (working directory, root, umask) and mm flags (exit %d)",
	       ret);
	snprintf(args, sizeof(args), "--json --records %s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && !strncmp(out, "{\"format\": ", 11) &&
	       strstr(out, "}, \"task\": {\"pid\": 100, \"tgid\": 100, \"comm\": \"proc-100\"") &&
	       strstr(out, ", \"tree\": [{\"pid\": 100, \"tgid\": 100, \"ppid\": 1, \"pgid\": 100, \"sid\": 100, \"zombie\": false, \"exit_code\": 0}, ") &&
	       strstr(out, "{\"pid\": 130, \"tgid\": 130, \"ppid\": 100, \"pgid\": 100, \"sid\": 100, \"zombie\": true, \"exit_code\": 1792}") &&
	       count(out, "\"zombie\": ") == 6 && count(out, "\"task\": {") == 4 &&
	       strstr(out, "\"processes\": [{\"xfeatures_in_use\": \"0x3\", \"task\": {\"pid\": 100") &&
	       strstr(out, "\"type\": \"TREE\", \"type_id\": 4, \"len\": 200") &&
	       strstr(out, "], \"shmem\": [], \"ghosts\": [], \"sysvshm\": [], \"pipes\": [], \"unix_socks\": [], \"inet_socks\": [], \"totals\": "),
	       "--json: the root's keys at the top level, \"tree\" with 6 entries, \"processes\" with 3, \"shmem\" empty (exit %d)",
	       ret);
	tap_ok(!ret && strstr(out, "\"no_new_privs\": false}, \"cwd\": \"/tmp/cwd.100\", \"root\": null, \"umask\": \"0022\", "
			   "\"fs_shared_with\": null, \"rlimits\": {\"cpu\": {\"cur\": null, \"max\": null}, ") &&
	       strstr(out, "\"cwd\": \"/tmp/cwd.120\", \"root\": \"/srv/jail.120\", \"umask\": \"0022\"") &&
	       count(out, "\"stack\": {\"cur\": 8388608, \"max\": null}, \"core\": {\"cur\": 0, \"max\": null}, ") == 4 &&
	       count(out, "\"nofile\": {\"cur\": 1024, \"max\": 4096}, \"memlock\": {\"cur\": 65536, \"max\": 65536}, ") == 4 &&
	       count(out, "\"rttime\": {\"cur\": null, \"max\": null}}, \"itimers\": {"
			  "\"real\": {\"value_ns\": 2500000000, \"interval_ns\": 1000000000}, "
			  "\"virtual\": {\"value_ns\": 0, \"interval_ns\": 0}, "
			  "\"prof\": {\"value_ns\": 0, \"interval_ns\": 0}}, \"posix_timers\": [{\"id\": 3, "
			  "\"clock\": \"CLOCK_MONOTONIC\", \"notify\": 0, \"signo\": 12, \"sigval\": \"0x2a\", "
			  "\"tid\": 0, \"value_ns\": 1500000000, \"interval_ns\": 2000000000, \"absolute\": false, "
			  "\"pending\": false, \"rearm\": false, \"overrun\": -1, \"overrun_last\": 0, "
			  "\"queued_overrun\": 0}], \"oom_score_adj\": 300, \"threads\": [") == 4 &&
	       count(out, "\"sleep\": null") == 4 + 4 &&
	       count(out, "\"sched\": {\"policy\": \"SCHED_OTHER\", \"nice\": 0, \"reset_on_fork\": false}, "
			  "\"personality\": \"0\", \"pdeath_signal\": 0, \"timer_slack_ns\": 0, ") == 4 + 4 &&
	       count(out, "\"coredump_filter\": \"0x33\", \"thp_disable\": false, \"mdwe\": false, "
			  "\"mdwe_no_inherit\": false, \"merge_any\": false, \"exe\": ") == 4 &&
	       count(out, "\"cwd\": ") == 4 && count(out, "\"rlimits\": {") == 4 &&
	       strstr(out, "\"type\": \"RLIMITS\", \"type_id\": 21, \"len\": 264, \"objref\": 1}") &&
	       strstr(out, "\"type\": \"FS\", \"type_id\": 22, \"len\": 16, \"objref\": 1}"),
	       "--json: each process's \"cwd\", \"root\" (null: the restarter's), \"umask\", \"rlimits\" (16, null: unlimited), \"itimers\", each task's \"sleep\" (exit %d)",
	       ret);
	unlink(path);

	/* A valid image whose time no calendar holds (libFuzzer found gmtime() NULL). */
	memcpy(buf + 16 + offsetof(struct ckpt_hdr_header, time), "\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
	path = mk_file(buf, len);
	snprintf(args, sizeof(args), "%s", path ? path : "/nonexistent");
	tap_ok(run(args, NULL, 0) == 0, "an image dated beyond any calendar: summary printed, exit 0");
	if (path)
		unlink(path);
	/* Trailing bytes (the seed's ckpt.c prints after its image) are noted, not an error. */
	buf = realloc(buf, len + 20);
	memcpy(buf + len, "checkpoint id 3\n\0\0\0\0", 20);
	{
		struct ci_image ci;

		tap_ok(read_buf(buf, len + 20, &ci) == 0 && ci.trailing == 20,
		       "20 bytes after the tail: valid, noted");
		ci_free(&ci);
	}
	free(buf);
}

#define TREE_RESULTS (1 + (int)NR_TREE_CASES + 9 + 5 + 6)

static void tree_tests(void)
{
	tree_valid();
	tree_rules();
	tree_records();
	tree_objrefs();
	tree_cli();
}

/*
 * A change to a synthetic image: @size bytes at @off of record @rec (an
 * index into the test's table of record offsets), refused with @want.
 */
struct patch_case {
	const char *what;
	int rec;
	size_t off;
	uint64_t value;
	size_t size;
	const char *want;	/* in the refusal; NULL: still valid */
};

/* Each of @n @cases on @buf, the offsets of its records in @pos (@n results). */
static void patch_cases(const unsigned char *buf, size_t len, const size_t *pos,
			const struct patch_case *cases, size_t n)
{
	unsigned char *copy = malloc(len);
	struct ci_image ci;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct patch_case *c = &cases[i];

		if (c->want) {
			broken_in(buf, len, c->what, len, pos[c->rec] + c->off, &c->value,
				  c->size, c->want);
			continue;
		}
		memcpy(copy, buf, len);
		memcpy(copy + pos[c->rec] + c->off, &c->value, c->size);
		ret = read_buf(copy, len, &ci);
		tap_ok(!ret, "%s: valid%s%s", c->what, ret ? ": " : "", ret ? ci.error : "");
		ci_free(&ci);
	}
	free(copy);
}

/* The records of the shared memory image that shmem_cases change. */
enum { R_SHMEM, R_PAGES0, R_PAGES1, R_VMA_ROOT, R_VMA_CHILD, NR_R };

#define SH(m) (16 + offsetof(struct ckpt_hdr_shmem, m))
#define VMA(m) (16 + offsetof(struct ckpt_hdr_vma, m))
#define PAGE1 (16 + sizeof(struct ckpt_hdr_pages))	/* its first address */

static const struct patch_case shmem_cases[] = {
	{ "SHMEM counting a page more than its PAGES have", R_SHMEM, SH(nr_pages), 3, 8,
	  "MM record (type 32, len 624): the SHMEM before has 2 of its 3 pages" },
	{ "SHMEM counting a page fewer than its PAGES have", R_SHMEM, SH(nr_pages), 1, 8,
	  "more pages than its SHMEM record says (1)" },
	{ "a page offset at the SHMEM's size", R_SHMEM, SH(size), 8192, 8,
	  "page offset 0x2000 outside its SHMEM or out of order" },
	{ "a page offset beyond the SHMEM's size", R_PAGES1, PAGE1, 0x3000, 8,
	  "page offset 0x3000 outside its SHMEM" },
	{ "page offsets out of order across PAGES records", R_PAGES1, PAGE1, 0, 8,
	  "page offset 0 outside its SHMEM or out of order" },
	{ "an unaligned page offset", R_PAGES1, PAGE1, 0x2001, 8, "page offset 0x2001" },
	{ "a SHMEM with unknown flags", R_SHMEM, SH(flags), 8, 4, "unknown flags 0x8" },
	{ "shared anonymous memory with seals", R_SHMEM, SH(seals), 1, 4,
	  "seals 0x1, name length 0, flags 0x1, length 32: a memfd's seals, name or exec flag on shared anonymous memory" },
	{ "shared anonymous memory flagged executable", R_SHMEM, SH(flags),
	  CKPT_SHMEM_NORESERVE | CKPT_SHMEM_EXEC, 4,
	  "flags 0x5, length 32: a memfd's seals, name or exec flag on shared anonymous memory" },
	{ "shared anonymous memory with a name length", R_SHMEM, SH(name_len), 4, 4,
	  "name length 4, flags 0x1, length 32: a memfd's seals, name" },
	{ "a SHMEM with its reserved field set", R_SHMEM, SH(__reserved), 1, 4,
	  "reserved field 0x1, not 0" },
	{ "an empty SHMEM", R_SHMEM, SH(size), 0, 8,
	  "SHMEM record (type 35, len 32): size 0 with 2 pages: empty, too large or more pages than fit" },
	{ "a SHMEM with more pages than its size holds", R_SHMEM, SH(size), 4096, 8,
	  "SHMEM record (type 35, len 32): size 4096 with 2 pages: empty, too large or more pages than fit" },
	{ "a SHMEM larger than a file can be", R_SHMEM, SH(size), 1ULL << 63, 8,
	  "SHMEM record (type 35, len 32): size 9223372036854775808 with 2 pages: empty, too large or more pages than fit" },
	{ "a SHMEM with the root's TASK objref", R_SHMEM, offsetof(struct ckpt_hdr, objref),
	  1, 4, "objref 1 is zero or already another object's" },
	{ "a SHMEM's PAGES with the task's objref", R_PAGES0,
	  offsetof(struct ckpt_hdr, objref), 1, 4, "): objref 1 is not its owner's (7)" },
	{ "a VMA naming an unknown SHMEM", R_VMA_CHILD, VMA(file_objref), 999, 4,
	  "shared memory objref 999 has no SHMEM record before it" },
	{ "a shared-anon VMA naming a FILE", R_VMA_CHILD, VMA(file_objref), 3, 4,
	  "shared memory objref 3 has no SHMEM record" },
	{ "a shared-anon VMA without VM_SHARED", R_VMA_CHILD, VMA(vm_flags),
	  MK_SHMEM_FLAGS & ~0x8ULL, 8, "vm_flags 0xf3: shared memory without VM_SHARED" },
	{ "a shared-anon VMA that grows down", R_VMA_CHILD, VMA(vm_flags),
	  MK_SHMEM_FLAGS | 0x100, 8, "growing down" },
	{ "a shared-anon VMA with pages of its own", R_VMA_CHILD, VMA(nr_pages), 1, 8,
	  "1 pages do not fit this VMA" },
	{ "a SHMEM record after the MM record", R_VMA_ROOT, offsetof(struct ckpt_hdr, type),
	  CKPT_HDR_SHMEM, 4,
	  ORDER },
};

#define NR_SHMEM_CASES (sizeof(shmem_cases) / sizeof(shmem_cases[0]))

/* The good tree, its root and child sharing memory, read back (1 result). */
static void shmem_valid(const unsigned char *buf, size_t len)
{
	const struct ci_shmem *sh;
	const struct ci_proc *p;
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && ci.nr_shmems == 1 && ci.nr_procs == 3;

	sh = ok ? &ci.shmems[0] : NULL;
	p = ci.procs;
	ok = ok && sh->proc == 0 && sh->s.size == MK_SHMEM_SIZE && sh->s.nr_pages == 2 &&
	     sh->pages == 2 && sh->s.flags == CKPT_SHMEM_NORESERVE &&
	     ci_shmem_by_ref(&ci, sh->objref) == sh &&
	     p[0].nr_shmems == 1 && p[1].nr_shmems == 0 && p[2].nr_shmems == 0 &&
	     p[0].nr_vmas == 2 && p[1].nr_vmas == 2 && p[2].nr_vmas == 1 &&
	     p[0].vmas[1].v.kind == CKPT_VMA_SHARED_ANON &&
	     p[0].vmas[1].v.file_objref == sh->objref &&
	     p[1].vmas[1].v.kind == CKPT_VMA_SHARED_ANON &&
	     p[1].vmas[1].v.file_objref == sh->objref &&
	     ci_proc_maps(&ci, &p[0], sh->objref) &&
	     ci_proc_maps(&ci, &p[1], sh->objref) &&
	     !ci_proc_maps(&ci, &p[2], sh->objref) &&
	     p[0].pages == 1 && p[1].pages == 1 && ci.pages == 3 + 2;
	tap_ok(ok, "one SHMEM saved with the root, mapped by the root's and the child's VMAs: valid, read once%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/* ckptinfo shows the SHMEM once and each VMA naming it (2 results). */
static void shmem_cli(const unsigned char *buf, size_t len, uint32_t ref)
{
	static char out[1 << 16];
	char args[600], want[3][400];
	const char *path = mk_file(buf, len);
	int ret;

	if (!path)
		tap_bail("cannot write a temporary image");
	snprintf(want[0], sizeof(want[0]),
		 "`-130 zombie (status 1792) exit 7 pgid 100 sid 100\n"
		 "shared memory: 1 object\n"
		 "  shmem %u: 12288 bytes, 2 pages, noreserve, saved with 100, mapped by 100, 110\n"
		 "task: pid 100, ", ref);
	snprintf(want[1], sizeof(want[1]),
		 "  000000020000-000000023000 rw-s shared-anon      0 pages  shmem %u @0\n", ref);
	snprintf(args, sizeof(args), "%s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && strstr(out, want[0]) && count(out, want[1]) == 2 &&
	       count(out, "shmem ") == 3 && count(out, "memory: 2 VMAs, 1 pages;") == 2 &&
	       strstr(out, " records, 5 pages, "),
	       "the summary shows the shared memory once, after the tree, and both VMAs name it (exit %d)",
	       ret);
	snprintf(want[0], sizeof(want[0]),
		 "], \"shmem\": [{\"objref\": %u, \"size\": 12288, \"nr_pages\": 2, \"flags\": 1, "
		 "\"noreserve\": true, \"memfd\": false, \"name\": null, \"seals\": [], \"exec\": false, "
		 "\"saved_with\": 100, \"mapped_by\": [100, 110]}], \"ghosts\": [], \"sysvshm\": [], \"pipes\": [], \"unix_socks\": [], \"inet_socks\": [], \"totals\": ",
		 ref);
	snprintf(want[1], sizeof(want[1]),
		 "\"kind\": \"shared-anon\", \"pages\": 0, \"vm_flags\": \"0xfb\", \"file\": null, "
		 "\"shmem\": %u, \"offset\": 0}", ref);
	snprintf(want[2], sizeof(want[2]), "\"type\": \"SHMEM\", \"type_id\": 35, \"len\": 32, \"objref\": %u}",
		 ref);
	snprintf(args, sizeof(args), "--json --records %s", path);
	ret = run(args, out, sizeof(out));
	/* the root's VMAs twice: its keys at the top level and in "processes" */
	tap_ok(!ret && strstr(out, want[0]) && count(out, want[1]) == 3 &&
	       count(out, "\"shmem\": ") == 4 && strstr(out, want[2]),
	       "--json: \"shmem\" lists it once, each shared-anon VMA names it (exit %d)", ret);
	unlink(path);
}

#define SHMEM_RESULTS (1 + 2 + (int)NR_SHMEM_CASES)

/* Shared anonymous memory: one SHMEM, two processes' VMAs, and its breakages. */
static void shmem_tests(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .shmem_maps = 2 };
	size_t len, pos[NR_R];
	unsigned char *buf = mk_image(&s, &len);
	struct ci_image ci;
	uint32_t ref;

	if (read_buf(buf, len, &ci))
		tap_bail("the shared memory image is invalid: %s", ci.error);
	pos[R_SHMEM] = record_of(&ci, CKPT_HDR_SHMEM, 0);
	pos[R_PAGES0] = record_of(&ci, CKPT_HDR_PAGES, 0);
	pos[R_PAGES1] = record_of(&ci, CKPT_HDR_PAGES, 1);
	pos[R_VMA_ROOT] = record_of(&ci, CKPT_HDR_VMA, 1);
	pos[R_VMA_CHILD] = record_of(&ci, CKPT_HDR_VMA, 3);
	ref = ci.nr_shmems ? ci.shmems[0].objref : 0;
	if (!pos[R_SHMEM] || pos[R_PAGES0] < pos[R_SHMEM] || !pos[R_VMA_CHILD] ||
	    ci.procs[0].fds[0].file_objref != 4)
		tap_bail("the shared memory image lacks a record, or its PAGES or FILE moved");
	ci_free(&ci);

	shmem_valid(buf, len);
	shmem_cli(buf, len, ref);
	patch_cases(buf, len, pos, shmem_cases, NR_SHMEM_CASES);
	free(buf);
}

#define JSON_RESULTS 3

/*
 * --json read back by a JSON parser (python3's): the keys documented in
 * docs/ckptinfo.md, at the top level and in each process, for a synthetic
 * tree and a real image; a path with UTF-8, a byte that is not UTF-8,
 * quotes and a newline comes back as the same text (U+FFFD for the bad
 * byte).
 */
static const char json_check[] =
	"import json, sys\n"
	"proc = ['xfeatures_in_use', 'task', 'signals', 'pending_signals', 'creds', 'cwd',"
	" 'root', 'umask', 'fs_shared_with', 'rlimits', 'itimers', 'posix_timers',"
	" 'oom_score_adj', 'threads', 'mm', 'files_shared_with', 'fds']\n"
	"top = ['format', 'crid', 'time', 'kernel', 'arch'] + proc[1:] +"
	" ['tree', 'processes', 'shmem', 'ghosts', 'sysvshm', 'pipes', 'unix_socks', 'inet_socks',"
	" 'totals', 'trailing_bytes']\n"
	"d = json.load(sys.stdin)\n"
	"ok = list(d) == top and all(list(p) == proc for p in d['processes'])\n"
	"ok = ok and all(list(e) == ['pid', 'tgid', 'ppid', 'pgid', 'sid', 'zombie',"
	" 'exit_code'] for e in d['tree'])\n"
	"ok = ok and list(d['totals']) == ['records', 'files', 'pages', 'bytes']\n"
	"print('keys ok' if ok else 'keys differ: %r' % list(d))\n"
	"print('path=' + json.dumps(d['fds'][2]['path']))\n";

/* ckptinfo --json @image (options may come first) read by python3 running @script. */
static int json_run(const char *script, const char *image, char *out, size_t size)
{
	char cmd[1024];
	FILE *p, *f = fopen("/tmp/ckptinfo-json-check.py", "w");
	size_t n = 0;

	if (!f || fputs(script, f) < 0 || fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 CKPTINFO " --json %s 2>/dev/null | python3 /tmp/ckptinfo-json-check.py 2>&1",
		 image);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	return pclose(p);
}

/*
 * ckptinfo --json @opts (before the path: "" for none) on the @len bytes
 * of @buf, in a temporary file, read by python3 running @script:
 * json_run()'s status, its output in @out.
 */
static int json_buf(const unsigned char *buf, size_t len, const char *opts,
		    const char *script, char *out, size_t size)
{
	const char *path = image_file(buf, len);
	char args[256];
	int ret;

	snprintf(args, sizeof(args), "%s%s%s", opts, *opts ? " " : "", path);
	ret = json_run(script, args, out, size);
	unlink(path);
	return ret;
}

/*
 * Whether ckptinfo's summary of the @len bytes of @buf, in a temporary
 * file, has each of the @n @lines once, and its --json read by python3
 * running @script prints @ok; the script's output in @out.
 */
static bool shown_and_json(const unsigned char *buf, size_t len, const char *const *lines,
			   size_t n, const char *script, const char *ok, char *out, size_t size)
{
	const char *path = image_file(buf, len);
	int ret = run(path, out, size);
	bool shown = !ret && each_once(out, lines, n);

	ret = json_run(script, path, out, size);
	unlink(path);
	return shown && !ret && strstr(out, ok);
}

/*
 * The executable of the image @buf (@len bytes, its MM record at @mm)
 * made the file of objref @ref (@what: a deleted file's, a memfd's,
 * which restart runs made again): valid, shown as @name in the summary
 * ("executable NAME") and --json ("exe").
 */
static void exe_named(const unsigned char *buf, size_t len, size_t mm, uint32_t ref,
		      const char *name, const char *what)
{
	static char out[1 << 16];
	char line[256], script[512];
	const char *lines[] = { line };
	unsigned char *copy = malloc(len);
	bool ok;

	if (!copy)
		tap_bail("malloc: %m");
	memcpy(copy, buf, len);
	memcpy(copy + mm + 16 + offsetof(struct ckpt_hdr_mm, exe_objref), &ref, sizeof(ref));
	snprintf(line, sizeof(line), "  executable %s\n", name);
	snprintf(script, sizeof(script),
		 "import json, sys\n"
		 "d = json.load(sys.stdin)\n"
		 "ok = all(p['mm']['exe'] == '%s' for p in (d, d['processes'][0]))\n"
		 "print('exe ok' if ok else 'exe wrong: %%r' %% d['mm']['exe'])\n", name);
	ok = shown_and_json(copy, len, lines, 1, script, "exe ok", out, sizeof(out));
	tap_ok(ok, "the executable %s: valid, shown as %s in the summary and --json (\"%.200s\")",
	       what, name, out);
	free(copy);
}

/* json_buf() on the image of @s, no option before its path. */
static int json_spec(const struct mk_spec *s, const char *script, char *out, size_t size)
{
	size_t len;
	unsigned char *buf = mk_image(s, &len);
	int ret = json_buf(buf, len, "", script, out, size);

	free(buf);
	return ret;
}

static void json_tests(void)
{
	static char out[4096];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD,
			     .root_path = "/tmp/caf\xc3\xa9 \xff\"q\"\n" };
	char img[512];
	int ret;

	ret = json_spec(&s, json_check, out, sizeof(out));
	tap_ok(!ret && strstr(out, "keys ok\n"),
	       "--json parsed by python3: the documented keys, in order, top level, processes, tree, totals (\"%.80s\")",
	       out);
	tap_ok(!ret && strstr(out, "path=\"/tmp/caf\\u00e9 \\ufffd\\\"q\\\"\\n\"\n"),
	       "a path with UTF-8, a byte that is not, quotes and a newline: the same text parsed back, U+FFFD for the bad byte (%s)",
	       out);
	snprintf(img, sizeof(img), "%scounter.img", fixtures);
	ret = json_run(json_check, img, out, sizeof(out));
	tap_ok(!ret && strstr(out, "keys ok\n"),
	       "--json of counter.img parsed by python3: the documented keys (\"%.80s\")", out);
}

#define SHARE_RESULTS 5

/*
 * Processes sharing the root's files table and fs_struct (CLONE_FILES,
 * CLONE_FS): no FD or FS record of their own; shown as the root's.
 */
static void share_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .share_files = true };
	size_t len;
	unsigned char *buf = mk_image(&s, &len);
	const char *path;
	struct ci_image ci;
	char args[600];
	int ret;

	ret = read_buf(buf, len, &ci);
	tap_ok(!ret && ci.nr_procs == 3 && ci.procs[1].files_from == 0 &&
	       ci.procs[2].fs_from == 0 && ci.procs[1].nr_fds == 0 &&
	       !ci.procs[2].has_fs && ci.procs[0].nr_fds == 3,
	       "a files table and fs_struct shared by 3 processes: valid, saved with the first (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	path = image_file(buf, len);
	snprintf(args, sizeof(args), "%s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "files: the files table of 100 (CLONE_FILES), 3 descriptors\n") == 2 &&
	       count(out, "fs: cwd /tmp/cwd.100, root the restarter's, umask 0022 (shared with 100: CLONE_FS)\n") == 2,
	       "the summary names the process whose files table and fs_struct the others share (exit %d)",
	       ret);
	snprintf(args, sizeof(args), "--json %s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "\"fs_shared_with\": 100, ") == 2 &&
	       /* the root's keys twice: at the top level and in "processes" */
	       count(out, "\"fs_shared_with\": null, ") == 2 &&
	       count(out, "\"files_shared_with\": 100, \"fds\": [{\"fd\": 0, ") == 2,
	       "--json: fs_shared_with and files_shared_with name it, with its descriptors (exit %d)",
	       ret);
	snprintf(args, sizeof(args), "--json --regs %s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "\"registers\": {\"r15\": \"") >= 3 &&
	       count(out, ", \"orig_rax\": \"") >= 3 && count(out, ", \"gs\": \"") >= 3 &&
	       count(out, ", \"rip\": \"") >= 3 && !strstr(out, "(null)"),
	       "--json --regs: each task's registers under their own names (exit %d)", ret);
	unlink(path);
	free(buf);

	s.fd_in_sharer = true;
	buf = mk_image(&s, &len);
	broken_in(buf, len, "an FD record in a process that shares a files table", len, 0,
		  NULL, 0, "process 110 shares the files table of 100: no FD record of its own");
	free(buf);
}

/* The records of the good tree (the grandchild chrooted) that fs_cases change. */
enum { F_TASK, F_CREDS, F_RLIMITS, F_ITIMERS, F_PROCESS, F_FS, F_FS_CHILD, F_MM, NR_F };

#define RL(m) (16 + offsetof(struct ckpt_hdr_rlimits, m))
#define IT(m) (16 + offsetof(struct ckpt_hdr_itimers, m))
#define PR(m) (16 + offsetof(struct ckpt_hdr_process, m))
#define MMH(m) (16 + offsetof(struct ckpt_hdr_mm, m))
#define TK(m) (16 + offsetof(struct ckpt_hdr_task, m))
#define RB(m) (16 + offsetof(struct ckpt_hdr_task, restart) + \
	       offsetof(struct ckpt_restart_block, m))
#define FS(m) (16 + offsetof(struct ckpt_hdr_fs, m))
#define HDR(m) offsetof(struct ckpt_hdr, m)

/*
 * The objrefs: the root's TASK 1, files table 2, fs_struct 3, FILEs
 * /dev/null 4, /tmp/out.100 5, /tmp/cwd.100 6 (its FS record's cwd); the
 * child's /tmp/cwd.110 14.
 */
static const struct patch_case fs_cases[] = {
	{ "RLIMITS with 15 limits", F_RLIMITS, RL(nr_limits), 15, 4,
	  "RLIMITS record (type 21, len 264): 15 limits, expected 16" },
	{ "RLIMITS with its reserved field set", F_RLIMITS, RL(__reserved), 1, 4,
	  "RLIMITS record (type 21, len 264): reserved field 0x1, not 0" },
	{ "RLIMIT_NOFILE's soft limit above its hard one", F_RLIMITS,
	  RL(rlim[RLIMIT_NOFILE].cur), 4097, 8,
	  "RLIMIT_NOFILE: soft limit 4097 above the hard limit 4096" },
	{ "RLIMIT_STACK's hard limit below its soft one", F_RLIMITS,
	  RL(rlim[RLIMIT_STACK].max), 4096, 8,
	  "RLIMIT_STACK: soft limit 8388608 above the hard limit 4096" },
	{ "RLIMIT_CPU unlimited under a hard limit", F_RLIMITS, RL(rlim[RLIMIT_CPU].max), 10, 8,
	  "RLIMIT_CPU: soft limit unlimited above the hard limit 10" },
	{ "RLIMIT_NOFILE's soft and hard limits equal", F_RLIMITS, RL(rlim[RLIMIT_NOFILE].cur),
	  4096, 8, NULL },
	{ "RLIMIT_RTTIME 0 under an unlimited hard limit", F_RLIMITS,
	  RL(rlim[RLIMIT_RTTIME].cur), 0, 8, NULL },
	{ "RLIMITS with the files table's objref", F_RLIMITS, HDR(objref), 2, 4,
	  "RLIMITS record (type 21, len 264): objref 2 is not its owner's (1)" },
	{ "RLIMITS in CREDS's place", F_CREDS, HDR(type), CKPT_HDR_RLIMITS, 4,
	  "RLIMITS record (type 21, len 88): not expected here" },
	{ "FS in RLIMITS's place", F_RLIMITS, HDR(type), CKPT_HDR_FS, 4,
	  "FS record (type 22, len 264): " ORDER },
	{ "ITIMERS with 2 timers", F_ITIMERS, IT(nr_timers), 2, 4,
	  "ITIMERS record (type 24, len 56): 2 timers, expected 3" },
	{ "ITIMERS with its reserved field set", F_ITIMERS, IT(__reserved), 1, 4,
	  "ITIMERS record (type 24, len 56): reserved field 0x1, not 0" },
	{ "ITIMER_PROF with 2^63 ns left", F_ITIMERS, IT(it[2].value), 1ULL << 63, 8,
	  "ITIMERS record (type 24, len 56): timer 2: 9223372036854775808 ns left, 0 ns interval" },
	{ "ITIMER_VIRTUAL with 2^63-1 ns left", F_ITIMERS, IT(it[1].value), INT64_MAX, 8, NULL },
	{ "ITIMERS with the files table's objref", F_ITIMERS, HDR(objref), 2, 4,
	  "ITIMERS record (type 24, len 56): objref 2 is not its owner's (1)" },
	{ "ITIMERS in RLIMITS's place", F_RLIMITS, HDR(type), CKPT_HDR_ITIMERS, 4,
	  "ITIMERS record (type 24, len 264): not expected here" },
	{ "FS in ITIMERS's place", F_ITIMERS, HDR(type), CKPT_HDR_FS, 4,
	  "FS record (type 22, len 56): not expected here" },
	{ "PROCESS with oom_score_adj 1001", F_PROCESS, PR(oom_score_adj), 1001, 4,
	  "PROCESS record (type 25, len 16): oom_score_adj 1001 outside -1000..1000" },
	{ "PROCESS with oom_score_adj -1001", F_PROCESS, PR(oom_score_adj), (uint32_t)-1001, 4,
	  "oom_score_adj -1001 outside -1000..1000" },
	{ "PROCESS with oom_score_adj -1000", F_PROCESS, PR(oom_score_adj), (uint32_t)-1000, 4,
	  NULL },
	{ "PROCESS with its reserved field set", F_PROCESS, PR(__reserved), 2, 4,
	  "PROCESS record (type 25, len 16): reserved field 0x2, not 0" },
	{ "PROCESS naming no files table (objref 0)", F_PROCESS, PR(files_objref), 0, 4,
	  "PROCESS record (type 25, len 16): files table objref 0 is zero or another object's" },
	{ "PROCESS naming its TASK as its fs_struct", F_PROCESS, PR(fs_objref), 1, 4,
	  "fs_struct objref 1 is zero or another object's" },
	{ "PROCESS naming its files table as its fs_struct", F_PROCESS, PR(fs_objref), 2, 4,
	  "fs_struct objref 2 is zero or another object's" },
	{ "PROCESS with the files table's objref", F_PROCESS, HDR(objref), 2, 4,
	  "PROCESS record (type 25, len 16): objref 2 is not its owner's (1)" },
	{ "PROCESS in ITIMERS's place", F_ITIMERS, HDR(type), CKPT_HDR_PROCESS, 4,
	  "PROCESS record (type 25, len 56): not expected here" },
	{ "MM with coredump_filter 0x200", F_MM, MMH(coredump_filter), 0x200, 4,
	  "MM record (type 32, len 624): coredump_filter 0x200, flags 0" },
	{ "MM with an unknown flag", F_MM, MMH(flags), 0x10, 4,
	  "coredump_filter 0x33, flags 0x10" },
	{ "MM with MDWE not inherited, without MDWE", F_MM, MMH(flags), CKPT_MM_MDWE_NO_INHERIT, 4,
	  "coredump_filter 0x33, flags 0x4" },
	{ "MM with THP disabled, MDWE not inherited and KSM merging all", F_MM, MMH(flags),
	  CKPT_MM_THP_DISABLE | CKPT_MM_MDWE | CKPT_MM_MDWE_NO_INHERIT | CKPT_MM_MERGE_ANY, 4, NULL },
	{ "a TASK at nice -20", F_TASK, TK(nice), (uint32_t)-20, 4,
	  NULL },
	{ "a TASK at nice 20", F_TASK, TK(nice), 20, 4,
	  "scheduling policy 0, nice 20, flags 0, reserved 0" },
	{ "a TASK in SCHED_FIFO", F_TASK, TK(sched_policy), 1, 4,
	  "scheduling policy 1, nice 0" },
	{ "a TASK in SCHED_BATCH", F_TASK, TK(sched_policy), 3, 4, NULL },
	{ "a TASK with an unknown scheduling flag", F_TASK, TK(sched_flags), 2, 4,
	  "scheduling policy 0, nice 0, flags 0x2" },
	{ "a TASK with personality PER_SVR4", F_TASK, TK(personality), 0x68, 4,
	  "personality 0x68: not PER_LINUX with its flags" },
	{ "a TASK with personality ADDR_NO_RANDOMIZE", F_TASK, TK(personality), 0x40000, 4, NULL },
	{ "a TASK with personality bit 28", F_TASK, TK(personality), 0x10000000, 4,
	  "personality 0x10000000" },
	{ "a TASK with parent-death signal 65", F_TASK, TK(pdeath_signal), 65, 4,
	  "parent-death signal 65" },
	{ "a TASK with its second reserved field set", F_TASK, TK(__reserved2), 1, 4,
	  "reserved 0x1" },
	{ "a TASK in a nanosleep on CLOCK_REALTIME, 0 ns left", F_TASK, RB(kind),
	  CKPT_RESTART_NANOSLEEP, 4, NULL },
	{ "a TASK in a sleep of kind 9", F_TASK, RB(kind), 9, 4,
	  "TASK record (type 16, len 304): bad restart block: kind 9 clock 0 timeout 0" },
	{ "a TASK in no sleep with a timeout", F_TASK, RB(timeout), 5, 8,
	  "bad restart block: kind 0 clock 0 timeout 5 uaddr 0" },
	{ "a TASK in no sleep, its clock 1", F_TASK, RB(clockid), 1, 4,
	  "bad restart block: kind 0 clock 1 timeout 0" },
	{ "a TASK's restart block with its reserved field set", F_TASK, RB(__reserved), 1, 4,
	  "bad restart block: kind 0" },
	{ "FS with a umask beyond 0777 (01022)", F_FS, FS(umask), 01022, 4,
	  "FS record (type 22, len 16): umask 01022 has bits outside 0777" },
	{ "FS with a umask of 0777", F_FS, FS(umask), 0777, 4, NULL },
	{ "FS with its reserved field set", F_FS, FS(__reserved), 4, 4,
	  "FS record (type 22, len 16): reserved field 0x4, not 0" },
	{ "FS naming a character device as the working directory", F_FS, FS(cwd_objref), 4, 4,
	  "working directory objref 4 is /dev/null, mode 020666: not a directory" },
	{ "FS naming a regular file as the working directory", F_FS, FS(cwd_objref), 5, 4,
	  "working directory objref 5 is /tmp/out.100, mode 0100644: not a directory" },
	{ "FS naming an unknown FILE as the working directory", F_FS, FS(cwd_objref), 999, 4,
	  "working directory objref 999 has no FILE record before it" },
	{ "FS naming a FILE saved after it as the working directory", F_FS, FS(cwd_objref),
	  14, 4, "working directory objref 14 has no FILE record before it" },
	{ "FS naming its fs_struct as the working directory", F_FS, FS(cwd_objref), 3, 4,
	  "working directory objref 3 has no FILE record before it" },
	{ "FS naming no working directory (objref 0)", F_FS, FS(cwd_objref), 0, 4,
	  "working directory objref 0 has no FILE record before it" },
	{ "FS naming its task as the working directory", F_FS, FS(cwd_objref), 1, 4,
	  "working directory objref 1 has no FILE record before it" },
	{ "FS naming a regular file as the root", F_FS, FS(root_objref), 5, 4,
	  "root objref 5 is /tmp/out.100, mode 0100644: not a directory" },
	{ "FS naming an unknown FILE as the root", F_FS, FS(root_objref), 999, 4,
	  "root objref 999 has no FILE record before it" },
	{ "FS naming its working directory as the root too", F_FS, FS(root_objref), 6, 4, NULL },
	{ "FS with the files table's objref", F_FS, HDR(objref), 2, 4,
	  "FS record (type 22, len 16): objref 2 is not its owner's (1)" },
	{ "the child's FS with the root's TASK objref", F_FS_CHILD, HDR(objref), 1, 4,
	  "FS record (type 22, len 16): objref 1 is not its owner's" },
	{ "the child's FS naming the root's working directory (saved with the root)",
	  F_FS_CHILD, FS(cwd_objref), 6, 4, NULL },
};

#define NR_FS_CASES (sizeof(fs_cases) / sizeof(fs_cases[0]))
#define FS_RESULTS (1 + 8 + 1 + (int)NR_FS_CASES)

/* RLIMITS and FS: read back, missing, twice, and their fields damaged. */
static void fs_tests(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .chroot_pid = 120 };
	size_t len, pos[NR_F];
	unsigned char *buf = mk_image(&s, &len);
	const struct ci_file *cwd, *root;
	struct ci_image ci;
	int ret;

	if (read_buf(buf, len, &ci))
		tap_bail("the good tree (its grandchild chrooted) is invalid: %s", ci.error);
	pos[F_CREDS] = record_of(&ci, CKPT_HDR_CREDS, 0);
	pos[F_TASK] = record_of(&ci, CKPT_HDR_TASK, 0);
	pos[F_RLIMITS] = record_of(&ci, CKPT_HDR_RLIMITS, 0);
	pos[F_ITIMERS] = record_of(&ci, CKPT_HDR_ITIMERS, 0);
	pos[F_PROCESS] = record_of(&ci, CKPT_HDR_PROCESS, 0);
	pos[F_MM] = record_of(&ci, CKPT_HDR_MM, 0);
	pos[F_FS] = record_of(&ci, CKPT_HDR_FS, 0);
	pos[F_FS_CHILD] = record_of(&ci, CKPT_HDR_FS, 1);
	if (!pos[F_RLIMITS] || pos[F_RLIMITS] < pos[F_CREDS] || !pos[F_FS_CHILD] ||
	    pos[F_ITIMERS] < pos[F_RLIMITS] || pos[F_PROCESS] < pos[F_ITIMERS] || !pos[F_TASK] || !pos[F_MM] ||
	    ci.procs[0].fs.cwd_objref != 6 || ci.procs[0].fds[2].file_objref != 5 ||
	    ci.procs[1].fs.cwd_objref != 14)
		tap_bail("the good tree lacks an RLIMITS or FS record, or its objrefs moved");
	cwd = ci_file_by_ref(&ci, ci.procs[2].fs.cwd_objref);
	root = ci_file_by_ref(&ci, ci.procs[2].fs.root_objref);
	tap_ok(cwd && root && !strcmp(cwd->path, "/tmp/cwd.120") &&
	       !strcmp(root->path, "/srv/jail.120") && root->proc == 2 &&
	       !ci.procs[1].fs.root_objref && ci.nr_files == 4 + 3 + 1,
	       "a chrooted process: its FS record names two directories of its FILE records");
	ci_free(&ci);

	s.no_rlimits = true;
	refused("no RLIMITS record after CREDS", &s,
		"ITIMERS record (type 24, len 56): not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS RLIMITS ");
	s.no_rlimits = false;
	s.no_itimers = true;
	refused("no ITIMERS record after RLIMITS", &s,
		"POSIX_TIMERS record (type 26, len 80): not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS RLIMITS ITIMERS ");
	s.no_itimers = false;
	s.no_posix_record = true;
	refused("no POSIX_TIMERS record after ITIMERS", &s,
		"PROCESS record (type 25, len 16): not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS RLIMITS ITIMERS POSIX_TIMERS ");
	s.no_posix_record = false;
	ret = read_spec(&s, &ci);
	tap_ok(!ret && ci.nr_procs && ci.procs[0].nr_posix == 1 &&
	       ci.procs[0].posix[0].id == MK_POSIX_ID &&
	       ci.procs[0].posix[0].sigval == MK_POSIX_VALUE &&
	       ci.procs[0].posix[0].value == MK_POSIX_LEFT &&
	       ci.procs[0].posix[0].interval == MK_POSIX_INTERVAL,
	       "each process's POSIX timer is read back: id, value, time left, interval (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	s.no_posix = true;
	ret = read_spec(&s, &ci);
	tap_ok(!ret && ci.nr_procs && !ci.procs[0].nr_posix,
	       "a POSIX_TIMERS record without timers: valid, none (%s)", ret ? ci.error : "ok");
	ci_free(&ci);
	s.no_posix = false;
	s.no_process = true;
	refused("no PROCESS record after POSIX_TIMERS", &s,
		"FILE record (type 48, len 74): not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS RLIMITS ITIMERS POSIX_TIMERS PROCESS ");
	s.no_process = false;
	s.no_fs = true;
	refused("no FS record before MM", &s,
		"MM record (type 32, len 624): process 100 has no FS record (one before its MM record)");
	s.no_fs = false;
	s.two_fs = true;
	refused("two FS records", &s, "FS record (type 22, len 16): a second FS record for process 100");
	broken_in(buf, len, "the image cut in the FS record", pos[F_FS] + 20, 0, NULL, 0,
		  "FS record (type 22, len 16): truncated");
	patch_cases(buf, len, pos, fs_cases, NR_FS_CASES);
	free(buf);
}

/*
 * The root's pending signals (pid 100, threads 101 and 102), in the
 * kernel's order: the shared queue, the leader's own, each thread's.
 */
enum { P_USR1, P_RT2, P_RT2_AGAIN, P_TERM, P_CHLD, P_IO, P_RT32, P_ALRM, P_USR2,
       P_RT1, P_RT0, NR_P };

#define SIGPENDING_LEN (8 + sizeof(struct ckpt_sigpending) * NR_P)

static void pending_signals(struct ckpt_sigpending *p)
{
	uint64_t ptr = 0x7ffd12345678ULL;

	p[P_USR1] = mk_signal(0, 10, 0, 52, 1000, 0);		/* kill() */
	p[P_RT2] = mk_signal(0, 34, -1, 52, 1000, 7);		/* sigqueue(), twice */
	p[P_RT2_AGAIN] = p[P_RT2];
	p[P_TERM] = mk_signal(0, 15, 0, 0, 0, 0);		/* no siginfo: queue full */
	p[P_CHLD] = mk_signal(0, 17, 1, 120, 0, 0);		/* CLD_EXITED */
	p[P_IO] = mk_signal(0, 29, -5, 0, 0, 0);
	p[P_RT32] = mk_signal(0, 64, -60, 0, 0, 0);		/* a code of no name */
	p[P_ALRM] = mk_signal(100, 14, 0x80, 0, 0, 0);	/* the leader's own */
	p[P_USR2] = mk_signal(101, 12, -6, 100, 0, 0);		/* tgkill() */
	p[P_RT1] = mk_signal(101, 33, -1, 52, 1000, 0);	/* a pointer as the value */
	memcpy(p[P_RT1].fields + 8, &ptr, 8);
	p[P_RT0] = mk_signal(102, 32, -1, 52, 1000, -3);
}

/* The records of the pending signals image that sigpending_cases change. */
enum { S_SP, S_SP_CHILD, S_CREDS, NR_S };

#define SP(m) (16 + offsetof(struct ckpt_hdr_sigpending, m))
#define SPE(i, m) (16 + 8 + (i) * sizeof(struct ckpt_sigpending) + offsetof(struct ckpt_sigpending, m))

static const struct patch_case sigpending_cases[] = {
	{ "SIGPENDING counting a signal more than it holds", S_SP, SP(nr_signals), NR_P + 1, 4,
	  "SIGPENDING record (type 23, len 624): 12 signals, but room for 11" },
	{ "SIGPENDING counting a signal fewer than it holds", S_SP, SP(nr_signals), NR_P - 1, 4,
	  "10 signals, but room for 11" },
	{ "an empty SIGPENDING counting a signal", S_SP_CHILD, SP(nr_signals), 1, 4,
	  "SIGPENDING record (type 23, len 8): 1 signals, but room for 0" },
	{ "a SIGPENDING length of no whole signal (12)", S_SP_CHILD, HDR(len), 12, 8,
	  "SIGPENDING record (type 23, len 12): length 12 is no SIGPENDING record (8 bytes, then 56 a signal)" },
	{ "a SIGPENDING length below its header (4)", S_SP_CHILD, HDR(len), 4, 8,
	  "length 4 is no SIGPENDING record" },
	{ "a SIGPENDING length beyond any record's", S_SP, HDR(len), 1ULL << 40, 8,
	  "length beyond any record's" },
	{ "SIGPENDING with its reserved field set", S_SP, SP(__reserved), 1, 4,
	  "SIGPENDING record (type 23, len 624): reserved field 0x1, not 0" },
	{ "a pending signal with its reserved field set", S_SP, SPE(P_USR2, __reserved), 1, 4,
	  "entry 8: reserved field 0x1, padding 0: not 0" },
	{ "a pending signal with its padding set", S_SP, SPE(P_USR1, __pad), 0x100, 4,
	  "entry 0: reserved field 0, padding 0x100: not 0" },
	{ "SIGKILL pending", S_SP, SPE(P_USR1, signo), 9, 4,
	  "entry 0: SIGKILL pending (checkpoint refuses such a process)" },
	{ "SIGSTOP pending", S_SP, SPE(P_TERM, signo), 19, 4,
	  "entry 3: SIGSTOP (19), a stop signal, pending (checkpoint never saves one)" },
	{ "SIGTSTP pending", S_SP, SPE(P_RT2, signo), 20, 4, "entry 1: SIGTSTP (20), a stop signal" },
	{ "SIGTTIN pending for a thread", S_SP, SPE(P_USR2, signo), 21, 4,
	  "entry 8: SIGTTIN (21), a stop signal" },
	{ "SIGTTOU pending", S_SP, SPE(P_IO, signo), 22, 4, "entry 5: SIGTTOU (22), a stop signal" },
	{ "SIGCONT pending", S_SP, SPE(P_IO, signo), 18, 4, NULL },
	{ "signal 0 pending", S_SP, SPE(P_CHLD, signo), 0, 4, "entry 4: signal 0, not 1 to 64" },
	{ "signal 65 pending", S_SP, SPE(P_RT32, signo), 65, 4, "entry 6: signal 65, not 1 to 64" },
	{ "signal -1 pending", S_SP, SPE(P_RT32, signo), (uint32_t)-1, 4,
	  "entry 6: signal -1, not 1 to 64" },
	{ "a signal for a task the TREE record lacks", S_SP, SPE(P_USR2, tid), 999, 4,
	  "entry 8: SIGUSR2 for task 999, which is not a task of process 100" },
	{ "a signal for another process", S_SP, SPE(P_USR2, tid), 110, 4,
	  "entry 8: SIGUSR2 for task 110, which is not a task of process 100" },
	{ "a signal for a zombie", S_SP, SPE(P_ALRM, tid), 130, 4,
	  "entry 7: SIGALRM for task 130, which is not a task of process 100" },
	{ "a signal for a negative task", S_SP, SPE(P_RT0, tid), (uint32_t)-102, 4,
	  "entry 10: SIGRTMIN+0 for task -102, which is not a task of process 100" },
	{ "a signal for the other thread", S_SP, SPE(P_USR2, tid), 102, 4, NULL },
	{ "a thread's signal for the process", S_SP, SPE(P_USR2, tid), 0, 4, NULL },
	{ "SIGPENDING with the files table's objref", S_SP, HDR(objref), 2, 4,
	  "SIGPENDING record (type 23, len 624): objref 2 is not its owner's (1)" },
	{ "the child's SIGPENDING with the root's TASK objref", S_SP_CHILD, HDR(objref), 1, 4,
	  "SIGPENDING record (type 23, len 8): objref 1 is not its owner's" },
	{ "a second SIGPENDING in CREDS's place", S_CREDS, HDR(type), CKPT_HDR_SIGPENDING, 4,
	  "SIGPENDING record (type 23, len 88): not expected here (the order: HEADER ARCH TREE, each live process's TASK SIGNAL SIGPENDING CREDS " },
};

#define NR_SIGPENDING_CASES (sizeof(sigpending_cases) / sizeof(sigpending_cases[0]))

/* The root's pending signals read back, and the child's none (1 result). */
static void sigpending_valid(const unsigned char *buf, size_t len, const struct ckpt_sigpending *p)
{
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);

	tap_ok(!ret && ci.nr_procs == 3 && ci.procs[0].nr_pending == NR_P &&
	       !memcmp(ci.procs[0].pending, p, NR_P * sizeof(*p)) &&
	       !ci.procs[1].nr_pending && !ci.procs[2].nr_pending,
	       "11 signals pending for the root, its threads and itself, none for the others: valid, read back%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/* ckptinfo shows them: the summary's line, --json, --records (2 results). */
static void sigpending_cli(const unsigned char *buf, size_t len)
{
	static const char line[] =
		"\nsignals pending: SIGUSR1 (process, SI_USER from 52), "
		"SIGRTMIN+2 (process, SI_QUEUE from 52, value 7) x2, "
		"SIGTERM (process, SI_USER, no sender), SIGCHLD (process, code 1 from 120), "
		"SIGIO (process, SI_SIGIO), SIGRTMIN+32 (process, code -60), "
		"SIGALRM (thread 100, SI_KERNEL), SIGUSR2 (thread 101, SI_TKILL from 100), "
		"SIGRTMIN+1 (thread 101, SI_QUEUE from 52, value 0x7ffd12345678), "
		"SIGRTMIN+0 (thread 102, SI_QUEUE from 52, value -3)\ncreds: ";
	static const char json[] =
		"}, \"pending_signals\": [{\"tid\": 0, \"signo\": 10, \"name\": \"SIGUSR1\", \"code\": 0, \"pid\": 52, \"uid\": 1000}, "
		"{\"tid\": 0, \"signo\": 34, \"name\": \"SIGRTMIN+2\", \"code\": -1, \"pid\": 52, \"uid\": 1000, \"value\": 7, \"value_ptr\": \"0x7\"}, "
		"{\"tid\": 0, \"signo\": 34, \"name\": \"SIGRTMIN+2\", \"code\": -1, \"pid\": 52, \"uid\": 1000, \"value\": 7, \"value_ptr\": \"0x7\"}, "
		"{\"tid\": 0, \"signo\": 15, \"name\": \"SIGTERM\", \"code\": 0, \"pid\": 0, \"uid\": 0}, "
		"{\"tid\": 0, \"signo\": 17, \"name\": \"SIGCHLD\", \"code\": 1, \"pid\": 120, \"uid\": 0}, "
		"{\"tid\": 0, \"signo\": 29, \"name\": \"SIGIO\", \"code\": -5, \"pid\": null, \"uid\": null}, "
		"{\"tid\": 0, \"signo\": 64, \"name\": \"SIGRTMIN+32\", \"code\": -60, \"pid\": null, \"uid\": null}, "
		"{\"tid\": 100, \"signo\": 14, \"name\": \"SIGALRM\", \"code\": 128, \"pid\": null, \"uid\": null}, "
		"{\"tid\": 101, \"signo\": 12, \"name\": \"SIGUSR2\", \"code\": -6, \"pid\": 100, \"uid\": 0}, "
		"{\"tid\": 101, \"signo\": 33, \"name\": \"SIGRTMIN+1\", \"code\": -1, \"pid\": 52, \"uid\": 1000, \"value\": 305419896, \"value_ptr\": \"0x7ffd12345678\"}, "
		"{\"tid\": 102, \"signo\": 32, \"name\": \"SIGRTMIN+0\", \"code\": -1, \"pid\": 52, \"uid\": 1000, \"value\": -3, \"value_ptr\": \"0xfffffffd\"}"
		"], \"creds\": {";
	static char out[1 << 17];
	const char *path = mk_file(buf, len);
	char args[600];
	int ret;

	if (!path)
		tap_bail("cannot write a temporary image");
	snprintf(args, sizeof(args), "%s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, line) == 1 &&
	       count(out, "\nsignals pending: none\ncreds: ") == 2 &&
	       count(out, "\nsignals pending: ") == 3,
	       "the summary: each process's \"signals pending:\" line, names, queues, codes, senders, values, a run counted; \"none\" (exit %d)",
	       ret);
	snprintf(args, sizeof(args), "--json --records %s", path);
	ret = run(args, out, sizeof(out));
	/* the root's keys twice: at the top level and in "processes" */
	tap_ok(!ret && count(out, json) == 2 &&
	       count(out, "\"pending_signals\": [], \"creds\": {") == 2 &&
	       count(out, "\"pending_signals\": ") == 4 &&
	       strstr(out, "\"type\": \"SIGPENDING\", \"type_id\": 23, \"len\": 624, \"objref\": 1}") &&
	       count(out, "\"type\": \"SIGPENDING\", \"type_id\": 23, \"len\": 8, ") == 2,
	       "--json: \"pending_signals\" of each process (pid and uid null without a sender, value only for SI_QUEUE), --records: SIGPENDING (exit %d)",
	       ret);
	unlink(path);
}

/* 5000 equal signals: read past the record's first batch, shown as one run (1 result). */
static void sigpending_many(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .nr_pending = 5000,
			     .pending_pid = 110 };
	struct ckpt_sigpending *p = malloc(5000 * sizeof(*p));
	static char out[1 << 16];
	unsigned char *buf;
	const char *path;
	struct ci_image ci;
	char args[600];
	size_t len, i;
	int ret;

	for (i = 0; i < 5000; i++)
		p[i] = mk_signal(0, 40, -1, 100, 0, 1);
	s.pending = p;
	buf = mk_image(&s, &len);
	ret = read_buf(buf, len, &ci);
	ret = ret || ci.procs[1].nr_pending != 5000 ||
	      memcmp(&ci.procs[1].pending[4999], &p[4999], sizeof(*p));
	ci_free(&ci);
	path = mk_file(buf, len);
	snprintf(args, sizeof(args), "%s", path ? path : "/nonexistent");
	ret = ret || run(args, out, sizeof(out)) ||
	      !strstr(out, "\nsignals pending: SIGRTMIN+8 (process, SI_QUEUE from 100, value 1) x5000\n");
	tap_ok(!ret, "5000 signals pending (a 280008-byte record): valid, read back, shown as one run");
	if (path)
		unlink(path);
	free(buf);
	free(p);
}

#define SIGPENDING_RESULTS (1 + 2 + 1 + 2 + (int)NR_SIGPENDING_CASES)

/* Pending signals: the SIGPENDING records, shown, missing and damaged. */
static void sigpending_tests(void)
{
	struct ckpt_sigpending p[NR_P];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .pending = p,
			     .nr_pending = NR_P, .pending_pid = 100 };
	size_t len, pos[NR_S];
	unsigned char *buf;
	struct ci_image ci;

	pending_signals(p);
	buf = mk_image(&s, &len);
	if (read_buf(buf, len, &ci))
		tap_bail("the pending signals image is invalid: %s", ci.error);
	pos[S_SP] = record_of(&ci, CKPT_HDR_SIGPENDING, 0);
	pos[S_SP_CHILD] = record_of(&ci, CKPT_HDR_SIGPENDING, 1);
	pos[S_CREDS] = record_of(&ci, CKPT_HDR_CREDS, 0);
	if (!pos[S_SP] || pos[S_SP_CHILD] < pos[S_CREDS] ||
	    record_of(&ci, CKPT_HDR_SIGNAL, 0) + 16 + 2056 != pos[S_SP] ||
	    pos[S_SP] + 16 + SIGPENDING_LEN != pos[S_CREDS])
		tap_bail("the pending signals image lacks a SIGPENDING record right after SIGNAL");
	ci_free(&ci);

	sigpending_valid(buf, len, p);
	sigpending_cli(buf, len);
	sigpending_many();
	s.no_sigpending = true;
	refused("no SIGPENDING record after SIGNAL", &s,
		"CREDS record (type 20, len 88): process 100 has no SIGPENDING record (one right after its SIGNAL record)");
	broken_in(buf, len, "the image cut in the SIGPENDING record", pos[S_SP] + 16 + 100, 0,
		  NULL, 0, "SIGPENDING record (type 23, len 624): truncated");
	patch_cases(buf, len, pos, sigpending_cases, NR_SIGPENDING_CASES);
	free(buf);
}

#define COUNTER_RESULTS 20

/*
 * counter.img: truncations and damaged records, its RLIMITS and FS
 * records and how ckptinfo shows them (COUNTER_RESULTS results).
 */
static void counter(void)
{
	size_t i, bounds = 0, ok_bounds = 0, fd_pos, vma_pos = 0, file_pos, pad_pos = 0;
	size_t signal_pos, creds_pos, tree_pos, rlimits_pos, fs_pos, file_len = 0;
	static char out[1 << 17];
	uint32_t fd0_ref = 0;
	struct ci_image ci;
	char args[600];
	uint64_t v64, lim[2];
	uint32_t v32;
	char want[64];
	int ret;

	if (!fixture("counter.img", "counter.img truncated and damaged", COUNTER_RESULTS, false))
		return;
	if (read_buf(img, img_len, &ci))
		tap_bail("counter.img invalid: %s", ci.error);
	/* Truncated at every record boundary, and in the middle of each. */
	for (i = 0; i < ci.nr_kept; i++) {
		struct ci_image t;
		const char *want = i ? "the image ends without a TAIL record" : "truncated";

		bounds += 2;
		if (read_buf(img, ci.records[i].pos, &t) == -1 && (!i || strstr(t.error, want)))
			ok_bounds++;
		ci_free(&t);
		if (read_buf(img, ci.records[i].pos + 16 + ci.records[i].len / 2, &t) == -1 &&
		    strstr(t.error, "truncated"))
			ok_bounds++;
		ci_free(&t);
		if (ci.records[i].type == CKPT_HDR_VMA &&
		    ci.records[i + 1].type == CKPT_HDR_PAGES && !vma_pos)
			vma_pos = ci.records[i].pos;
		if (ci.records[i].type == CKPT_HDR_FILE && ci.records[i].len % 8 && !pad_pos) {
			pad_pos = ci.records[i].pos;	/* the first FILE with padding */
			file_len = ci.records[i].len;
		}
	}
	tap_ok(ok_bounds == bounds, "truncated at and between all %zu record boundaries: %zu precise refusals",
	       bounds / 2, ok_bounds);
	fd_pos = record_of(&ci, CKPT_HDR_FD, 0);
	file_pos = record_of(&ci, CKPT_HDR_FILE, 0);
	signal_pos = record_of(&ci, CKPT_HDR_SIGNAL, 0);
	creds_pos = record_of(&ci, CKPT_HDR_CREDS, 0);
	tree_pos = record_of(&ci, CKPT_HDR_TREE, 0);
	rlimits_pos = record_of(&ci, CKPT_HDR_RLIMITS, 0);
	fs_pos = record_of(&ci, CKPT_HDR_FS, 0);
	if (ci.nr_procs && ci.procs[0].nr_fds)
		fd0_ref = ci.procs[0].fds[0].file_objref;
	ci_free(&ci);
	if (!fd_pos || !vma_pos || !file_pos || !signal_pos || !creds_pos || tree_pos != 288 ||
	    !rlimits_pos || !fs_pos || !fd0_ref)
		tap_bail("counter.img lacks an FD, VMA+PAGES, FILE, SIGNAL, CREDS, RLIMITS or FS record, or its TREE after ARCH");

	broken("wrong magic", img_len, 16, "XXXXXXX", 8, "bad magic");
	broken("not an image at all", img_len, 0, "\x07\0\0\0", 4, "not a checkpoint image");
	v32 = CKPT_FORMAT_VERSION + 1;
	snprintf(want, sizeof(want), "format version %u", v32);
	broken("another format version", img_len, 16 + 8, &v32, 4, want);
	v64 = 1ULL << 40;
	broken("oversized FILE length", img_len, file_pos + 8, &v64, 8, "length beyond any record's");
	v32 = 99;
	broken("unknown record type", img_len, fd_pos, &v32, 4, "unknown record type");
	v32 = 77;
	broken("FD naming no FILE", img_len, fd_pos + 16 + 4, &v32, 4, "which no FILE record");
	memcpy(&v64, img + vma_pos + 16 + 40, 8);
	v64++;
	broken("VMA page count inconsistent", img_len, vma_pos + 16 + 40, &v64, 8, "pages");
	if (pad_pos)
		broken("non-zero padding", img_len, pad_pos + 16 + file_len, "\1", 1,
		       "non-zero padding");
	else
		tap_ok(false, "non-zero padding: no FILE record of counter.img has padding to spoil");
	v64 = 3;
	broken("tail record count wrong", img_len, img_len - 16, &v64, 8, "the tail says");
	broken("tail magic wrong", img_len, img_len - 24, "XXXXXXX", 8, "bad tail magic");
	broken("ARCH after the header replaced by TASK", img_len, 256, "\x10\0\0\0", 4, "not expected here");
	broken("TREE after ARCH replaced by TASK", img_len, tree_pos, "\x10\0\0\0", 4, "not expected here");
	v64 = 0x401000;		/* action[8]: SIGKILL's handler */
	broken("SIGKILL with a handler", img_len,
	       signal_pos + 16 + offsetof(struct ckpt_hdr_signal, action[8].handler), &v64, 8,
	       "SIGKILL or SIGSTOP");
	v64 = 1ULL << 60;	/* action[1]: SIGINT's handler */
	broken("a handler above user space", img_len,
	       signal_pos + 16 + offsetof(struct ckpt_hdr_signal, action[1].handler), &v64, 8,
	       "no user address");
	v64 = 0;		/* root's effective capabilities, none permitted */
	broken("an effective capability that is not permitted", img_len,
	       creds_pos + 16 + offsetof(struct ckpt_hdr_creds, cap_permitted), &v64, 8,
	       "not permitted");
	v32 = 5;		/* five groups in a record with room for none */
	broken("a group count beyond the record", img_len,
	       creds_pos + 16 + offsetof(struct ckpt_hdr_creds, nr_groups), &v32, 4,
	       "room for");

	lim[0] = ~0ULL;		/* RLIMIT_CPU unlimited under a hard limit of 1 s */
	lim[1] = 1;
	broken("a soft limit above its hard limit", img_len,
	       rlimits_pos + 16 + offsetof(struct ckpt_hdr_rlimits, rlim[RLIMIT_CPU]), lim,
	       sizeof(lim), "RLIMIT_CPU: soft limit unlimited above the hard limit 1");
	snprintf(want, sizeof(want), "working directory objref %u is ", fd0_ref);
	broken("the working directory the file of fd 0 (not a directory)", img_len,
	       fs_pos + 16 + offsetof(struct ckpt_hdr_fs, cwd_objref), &fd0_ref, 4, want);

	/* make-fixtures.sh runs the counter in /tmp, under the restarter's root */
	snprintf(args, sizeof(args), "%scounter.img", fixtures);
	ret = run(args, out, sizeof(out));
	i = strlen(out);
	snprintf(args, sizeof(args), "--json %scounter.img", fixtures);
	ret |= run(args, out + i, sizeof(out) - i);
	tap_ok(!ret && strstr(out, "\nlimits: ") &&
	       strstr(out, "\nfs: cwd /tmp, root the restarter's, umask 0") &&
	       strstr(out, "\"cwd\": \"/tmp\", \"root\": null, \"umask\": \"0") &&
	       strstr(out, "\"rlimits\": {\"cpu\": {\"cur\": ") &&
	       strstr(out, "\"shmem\": [], ") &&
	       strstr(out, "\nsignals pending: ") && strstr(out, "\"pending_signals\": ["),
	       "counter.img: its limits, working directory /tmp, umask and pending signals shown, and in --json (exit %d)",
	       ret);
}

/* threads.img: a leader and 8 threads, and what makes such an image invalid (5 results). */
static void threads(void)
{
	size_t i, task2, tree_pos, ok = 0, ids = 0;
	const struct ci_proc *p;
	struct ci_image ci;
	uint32_t v32;
	int32_t s32;

	if (!fixture("threads.img", "threads.img and its damaged threads", 5, false))
		return;
	if (read_buf(img, img_len, &ci))
		tap_bail("threads.img invalid: %s", ci.error);
	p = &ci.procs[0];
	for (i = 0; i < p->nr_threads; i++) {
		ok += p->threads[i].task.tgid == p->task.pid &&
		      !strncmp(p->threads[i].task.comm, "worker-", 7);
		ids += p->threads[i].task.pid != p->task.pid;
	}
	task2 = record_of(&ci, CKPT_HDR_TASK, 1);	/* the first thread's */
	tree_pos = record_of(&ci, CKPT_HDR_TREE, 0);
	tap_ok(ci.header.nr_tasks == 9 && ci.nr_tree == 9 && ci.nr_procs == 1 &&
	       p->nr_entries == 9 && p->nr_threads == 8 && ok == 8 && ids == 8 && task2,
	       "threads.img: %u tasks in the TREE record, %zu threads of process %d named worker-N",
	       ci.header.nr_tasks, p->nr_threads, p->task.pid);
	ci_free(&ci);
	if (!task2 || !tree_pos)
		tap_bail("threads.img has no thread TASK or no TREE record");
	s32 = 1;
	broken("a thread of another process", img_len,
	       task2 + 16 + offsetof(struct ckpt_hdr_task, tgid), &s32, 4,
	       "where the TREE record has");
	v32 = 10;
	broken("a header counting a task the image lacks", img_len,
	       16 + offsetof(struct ckpt_hdr_header, nr_tasks), &v32, 4,
	       "no TREE record of the header's 10 tasks");
	v32 = 8;
	broken("a header counting one task fewer", img_len,
	       16 + offsetof(struct ckpt_hdr_header, nr_tasks), &v32, 4,
	       "no TREE record of the header's 8 tasks");
	broken("a TREE record counting one task fewer than the header", img_len,
	       tree_pos + 16 + offsetof(struct ckpt_hdr_tree, nr_tasks), &v32, 4,
	       "8 tasks and 1 live processes; the header says 9");
}

/* Each fixture reads as valid, and the command line takes it (4 results). */
static void fixtures_valid(void)
{
	static const char *const names[] = { "counter.img", "files.img", "threads.img" };
	struct ci_image ci;
	char args[512];
	size_t i;

	for (i = 0; i < 3; i++) {
		if (!fixture(names[i], "the fixture reads as valid", 1, false))
			continue;
		read_buf(img, img_len, &ci);
		tap_ok(ci.nr_records == ci.tail.nr_records + 1 && ci.nr_tree >= 1 &&
		       ci.nr_procs == 1 && ci.pages > 0 && ci.procs[0].nr_fds > 0,
		       "fixture %s reads as valid (%zu records, %llu pages, %zu fds)",
		       names[i], ci.nr_records, (unsigned long long)ci.pages,
		       ci.procs[0].nr_fds);
		ci_free(&ci);
	}
	if (!fixture("files.img", "ckptinfo exits 0 on counter.img and --json files.img", 1, false))
		return;
	snprintf(args, sizeof(args), "%scounter.img", fixtures);
	i = run(args, NULL, 0);
	snprintf(args, sizeof(args), "--json %sfiles.img", fixtures);
	tap_ok(!i && !run(args, NULL, 0), "ckptinfo exits 0 on counter.img and --json files.img");
}

/* tree.img: "tree count", the root, 2 children, 2 grandchildren each (1 result). */
static void tree_fixture(void)
{
	size_t i, children = 0, grandchildren = 0;
	char args[512], out[1 << 16];
	struct ci_image ci;
	int ret;

	if (!fixture("tree.img", "tree.img: 7 processes", 1, true))
		return;
	read_buf(img, img_len, &ci);
	for (i = 1; i < ci.nr_tree; i++) {
		size_t p = ci_tree_find(&ci, ci.tree[i].ppid);

		children += p == 0;
		grandchildren += p != CI_NONE && p && ci.tree[p].ppid == ci.tree[0].pid;
	}
	snprintf(args, sizeof(args), "%stree.img", fixtures);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && ci.nr_tree == 7 && ci.nr_procs == 7 && children == 2 &&
	       grandchildren == 4 && strstr(out, "tree: 7 processes, 7 tasks\n") &&
	       count(out, "\ntask: pid ") == 7,
	       "tree.img: 7 processes (root, %zu children, %zu grandchildren), ckptinfo shows 7 (exit %d)",
	       children, grandchildren, ret);
	ci_free(&ci);
}

/*
 * ckptinfo @opts (before the image's path) on the image @s makes: its exit
 * status, its standard output in @out.
 */
static int run_spec(const struct mk_spec *s, const char *opts, char *out, size_t size)
{
	unsigned char *buf;
	const char *path;
	char args[256];
	size_t len;
	int ret;

	buf = mk_image(s, &len);
	path = image_file(buf, len);
	snprintf(args, sizeof(args), "%s%s%s", opts, *opts ? " " : "", path);
	ret = run(args, out, size);
	unlink(path);
	free(buf);
	return ret;
}

#define PIPE_RESULTS 6

/*
 * A pipe held by the root, both ends, 100 bytes in flight: valid, shown
 * in the summary and --json; a read end named twice, a size that is not a
 * power of two and more bytes than the pipe holds are refused.
 */
static void pipe_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .pipe = true,
			     .pipe_bytes = 100 };
	struct ci_image ci;
	unsigned char *buf;
	const char *path;
	char args[600];
	size_t len;
	int ret;

	ret = read_spec(&s, &ci);
	tap_ok(!ret && ci.nr_pipes == 1 && ci.pipes[0].p.bytes == 100 &&
	       ci.pipes[0].p.size == MK_PIPE_SIZE && ci.pipes[0].ends[0] &&
	       ci.pipes[0].ends[1] && ci.procs[0].nr_fds == 5 &&
	       ci_file_by_ref(&ci, ci.procs[0].fds[3].file_objref)->kind == CI_FILE_PIPE &&
	       ci_file_by_ref(&ci, ci.procs[0].fds[4].file_objref)->kind == CI_FILE_PIPE,
	       "a pipe with both ends in the root and 100 bytes in flight: valid (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	buf = mk_image(&s, &len);
	path = image_file(buf, len);
	snprintf(args, sizeof(args), "%s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "pipes: 1\n  pipe 100: 65536 bytes, 100 in flight, saved with 100, ends open: read and write\n") == 1 &&
	       count(out, "  fd 4   pipe 100, read end  flags 0  pos 0\n") == 1 &&
	       count(out, "  fd 5   pipe 100, write end  flags 01  pos 0\n") == 1,
	       "the summary lists the pipe and names it for its two descriptors (exit %d)", ret);
	snprintf(args, sizeof(args), "--json %s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "\"pipes\": [{\"objref\": 100, \"size\": 65536, \"bytes\": 100, \"saved_with\": 100, \"read_end\": true, \"write_end\": true, \"fifo\": false, \"no_writer\": false}]") == 1 &&
	       /* fds 4 and 5, at the top level and in "processes" */
	       count(out, "\"pipe\": 100, ") == 4 && count(out, "\"pipe\": null, ") > 4,
	       "--json: \"pipes\" lists it, each descriptor on an end names it (exit %d)", ret);
	unlink(path);
	free(buf);

	s.pipe_read_twice = true;
	refused("a pipe's read end in two FILE records", &s,
		"the read end of pipe 100 named twice");
	s.pipe_read_twice = false;
	s.pipe_size = 5000;
	refused("a pipe of 5000 bytes", &s, "not a power of two of pages");
	s.pipe_size = 0;
	s.pipe_bytes = MK_PIPE_SIZE + 1;
	refused("more bytes in flight than the pipe holds", &s, "more bytes than fit");
}

#define FIFO_RESULTS 22

/* The FIFO of @s at a path of PATH_MAX - 1 bytes, the longest: shown whole (1 result). */
static void fifo_long_path(struct mk_spec *s)
{
	static char out[1 << 16], path[4096], want[4096 + 64];
	int ret;

	memset(path, 'f', sizeof(path) - 1);
	memcpy(path, "/tmp/", 5);
	s->fifo_path = path;
	ret = run_spec(s, "", out, sizeof(out));
	snprintf(want, sizeof(want), "  fd 13  %s (FIFO, pipe 101)  flags 0100000  pos 0\n", path);
	tap_ok(!ret && count(out, want) == 1,
	       "a FIFO at a path of 4095 bytes: valid, the summary shows it whole (exit %d)", ret);
	s->fifo_path = NULL;
}

/*
 * A FIFO held by the root (its PIPE record flagged CKPT_PIPE_FIFO, the
 * files open on it FILE records with its path, objrefs 6 on, fds 13 on):
 * a reader and a writer with 10 bytes in flight, and two readers that saw
 * no writer, valid, shown in the summary and --json; each rule restart
 * applies to the PIPE record's flags and to the FIFO's FILE records
 * broken in turn.
 */
static void fifo_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .fifo = true, .fifo_bytes = 10,
			     .fifo_acc = { 0, 1 }, .nr_fifo = 2 };
	const struct ci_file *f;
	struct ci_image ci;
	unsigned char *buf;
	size_t len, pos;
	uint32_t rdev = 0x501;
	int ret;

	ret = read_spec(&s, &ci);
	f = ci_file_by_ref(&ci, 7);
	tap_ok(!ret && ci.nr_pipes == 1 && ci.pipes[0].objref == MK_FIFO_REF &&
	       ci.pipes[0].p.flags == CKPT_PIPE_FIFO && ci.pipes[0].files == 2 &&
	       ci.pipes[0].readers == 1 && ci.pipes[0].writers == 1 && f &&
	       !strcmp(f->path, MK_FIFO_PATH) && f->f.obj_objref == MK_FIFO_REF &&
	       f->kind == CI_FILE_FIFO && ci_file_by_ref(&ci, 4)->kind == CI_FILE_PATH &&
	       ci.procs[0].nr_files == 5 && ci.procs[0].nr_fds == 5,
	       "a FIFO with a reader and a writer, 10 bytes in flight: valid, two files of the root (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "pipes: 1\n  pipe 101: FIFO, 16384 bytes, 10 in flight, saved with 100, files open: 2 (1 reading, 1 writing)\n") == 1 &&
	       count(out, "files: 5 open files, 5 descriptors\n") == 1 &&
	       count(out, "  fd 13  /tmp/fifo (FIFO, pipe 101)  flags 0100000  pos 0\n") == 1 &&
	       count(out, "  fd 14  /tmp/fifo (FIFO, pipe 101)  flags 0100001  pos 0\n") == 1,
	       "the summary lists the FIFO's pipe, each descriptor its path and pipe (exit %d)", ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"pipes\": [{\"objref\": 101, \"size\": 16384, \"bytes\": 10, \"saved_with\": 100, \"read_end\": true, \"write_end\": true, \"fifo\": true, \"no_writer\": false}]") == 1 &&
	       /* fds 13 and 14, at the top level and in "processes" */
	       count(out, "{\"fd\": 13, \"path\": \"/tmp/fifo\", \"flags\": 32768, \"mode\": 4516, \"pos\": 0, \"cloexec\": false, \"file\": 6, \"pipe\": 101, ") == 2 &&
	       count(out, "\"pipe\": 101, ") == 4,
	       "--json: \"pipes\" has it, a FIFO's, each descriptor its path and \"pipe\" (exit %d)",
	       ret);

	s.fifo_flags = CKPT_PIPE_NO_WRITER;
	s.fifo_bytes = 0;
	s.fifo_acc[1] = 0;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  pipe 101: FIFO, 16384 bytes, 0 in flight, saved with 100, files open: 2 (2 reading, 0 writing), no writer seen\n") == 1 &&
	       count(out, "  fd 13  /tmp/fifo (FIFO, pipe 101, no writer seen)  flags 0100000  pos 0\n") == 1 &&
	       count(out, "  fd 14  /tmp/fifo (FIFO, pipe 101, no writer seen)  flags 0100000  pos 0\n") == 1,
	       "a FIFO whose two readers saw no writer: valid, the summary says so (exit %d)", ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"read_end\": true, \"write_end\": false, \"fifo\": true, \"no_writer\": true}]") == 1,
	       "--json: its \"no_writer\" (exit %d)", ret);
	s.fifo_acc[1] = 2;
	refused("a FIFO's reader and writer, its readers saw no writer", &s,
		"/tmp/fifo: a FIFO's file opened for writing (flags 0100002), its pipe 101 saw no writer");
	s.fifo_acc[1] = 0;
	s.fifo_flags = CKPT_PIPE_NO_WRITER | 0x4;
	refused("a PIPE record with an unknown flag", &s,
		"PIPE record (type 50, len 16): unknown flags 0x7");
	s.fifo_flags = 0;
	s.fifo_reserved = 1;
	refused("a FIFO's PIPE record with its reserved field set", &s,
		"PIPE record (type 50, len 16): reserved field 0x1, not 0");
	s.fifo_reserved = 0;

	s.fifo = false;
	s.pipe = true;
	s.pipe_flags = CKPT_PIPE_NO_WRITER;
	refused("a pipe() pipe's PIPE record flagged no writer", &s,
		"flags 0x2: no writer seen, on no FIFO's pipe");
	s.pipe_flags = CKPT_PIPE_FIFO;
	refused("a pipe end naming a FIFO's PIPE record", &s,
		"a pipe end (no path) naming pipe 100, a FIFO's (its files have its path)");
	s.pipe_flags = 0;
	s.fifo = true;
	s.fifo_pipe = MK_PIPE_REF;
	refused("a FIFO's file naming a pipe() pipe's PIPE record", &s,
		"a FIFO's file (a path) naming pipe 100, which is no FIFO's");
	s.pipe = false;
	s.fifo_pipe = 999;
	refused("a FIFO's file naming no PIPE record", &s,
		"a FIFO's file of objref 999, which no PIPE record before it has");
	s.fifo_pipe = 0;
	s.fifo_mode = S_IFREG | 0644;
	refused("a FIFO's file of a regular file's mode", &s,
		"/tmp/fifo: a FIFO's file: mode 0100644, offset 0");
	s.fifo_mode = 0;
	s.fifo_pos = 5;
	refused("a FIFO's file with an offset", &s, "/tmp/fifo: a FIFO's file: mode 010644, offset 5");
	s.fifo_pos = 0;
	s.fifo_acc[0] = 3;
	refused("a FIFO's file opened neither for reading nor for writing", &s,
		"/tmp/fifo: a FIFO's file opened neither for reading nor for writing (flags 0100003)");
	s.fifo_acc[0] = 020000000;	/* __O_TMPFILE */
	refused("a FIFO's file with an open() flag restart does not give back", &s,
		"/tmp/fifo: a FIFO's file with flags 020100000 a FIFO is not reopened with (020000000)");
	s.fifo_acc[0] = 040000;	/* O_DIRECT: packet mode, which open() refuses on a FIFO */
	refused("a FIFO's file in packet mode (O_DIRECT)", &s,
		"/tmp/fifo: a FIFO's file with flags 0140000 a FIFO is not reopened with (040000)");
	s.fifo_acc[0] = 04000000 | 010000;	/* O_SYNC */
	ret = read_spec(&s, &ci);
	tap_ok(!ret, "a FIFO's file with O_SYNC, as any file reopened by path: valid (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	s.fifo_acc[0] = 020000;	/* FASYNC: a FOWN record's */
	refused("a FIFO's file with O_ASYNC among its open flags (a FOWN record's)", &s,
		"/tmp/fifo: a FIFO's file with flags 0120000 a FIFO is not reopened with (020000)");
	s.fifo_acc[0] = 0;
	s.nr_fifo = 0;
	ret = read_spec(&s, &ci);
	tap_ok(!ret && ci.nr_pipes == 1 && !ci.pipes[0].files,
	       "a FIFO's PIPE record no file names: valid, as a pipe's no end names (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);

	s.nr_fifo = 2;
	fifo_long_path(&s);
	buf = mk_image(&s, &len);
	if (read_buf(buf, len, &ci))
		tap_bail("the FIFO image is invalid: %s", ci.error);
	pos = record_of(&ci, CKPT_HDR_FILE, 3);	/* after /dev/null, its own, the FIFO's first */
	ci_free(&ci);
	broken_in(buf, len, "a FIFO's file with an rdev", len,
		  pos + 16 + offsetof(struct ckpt_hdr_file, rdev), &rdev, sizeof(rdev),
		  "/tmp/fifo: rdev 0x501 on a file of mode 010644, no character device");
	free(buf);
}

#define EVENTFD_RESULTS 3

/*
 * An eventfd held by the root: valid, shown in the summary and --json;
 * unknown flags refused.
 */
static void eventfd_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .eventfd = true };
	unsigned char *buf;
	const char *path;
	char args[600];
	size_t len;
	int ret;

	buf = mk_image(&s, &len);
	path = image_file(buf, len);
	snprintf(args, sizeof(args), "%s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 7   eventfd count 3, semaphore, nonblocking  flags 04002  pos 0\n") == 1,
	       "an eventfd: valid, the summary shows its counter and flags (exit %d)", ret);
	snprintf(args, sizeof(args), "--json %s", path);
	ret = run(args, out, sizeof(out));
	tap_ok(!ret && count(out, "\"eventfd\": {\"count\": 3, \"semaphore\": true}") == 2,
	       "--json: its descriptor's \"eventfd\" (exit %d)", ret);
	unlink(path);
	free(buf);
	s.eventfd_bad_flags = 2;
	refused("an EVENTFD record with unknown flags", &s, "unknown flags 0x3");
}

#define SIGNALFD_RESULTS 2

/* A signalfd for SIGUSR1 held by the root: shown; one for SIGKILL refused. */
static void signalfd_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .signalfd_mask = 1 << 9 };
	unsigned char *buf;
	const char *path;
	size_t len;
	int ret;

	buf = mk_image(&s, &len);
	path = image_file(buf, len);
	ret = run(path, out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 8   signalfd SIGUSR1  flags 02  pos 0\n") == 1,
	       "a signalfd: valid, the summary names the signals it reads (exit %d)", ret);
	unlink(path);
	free(buf);
	s.signalfd_mask |= 1 << 8;
	refused("a SIGNALFD record reading SIGKILL", &s, "mask 0x300 (SIGKILL or SIGSTOP)");
}

#define TIMERFD_RESULTS 3

/*
 * A periodic CLOCK_MONOTONIC timerfd held by the root: shown, and in
 * --json; one on CLOCK_TAI (which timerfd_create() refuses) refused.
 */
static void timerfd_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .timerfd = true,
			     .timerfd_clock = 1 };
	int ret;

	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 9   timerfd CLOCK_MONOTONIC, 1.500 s left, every 0.250 s, "
			     "2 unread  flags 02  pos 0\n") == 1,
	       "a timerfd: valid, the summary shows its clock, time left, interval and unread "
	       "expirations (exit %d)", ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	/* the root's, at the top level and in "processes" */
	tap_ok(!ret && count(out, "\"timerfd\": {\"clockid\": 1, \"absolute\": false, "
			     "\"cancel_on_set\": false, \"value_ns\": 1500000000, "
			     "\"interval_ns\": 250000000, \"ticks\": 2}") == 2,
	       "a timerfd in --json, the root's at the top level and in processes (exit %d)", ret);
	s.timerfd_clock = 11;
	refused("a TIMERFD record on CLOCK_TAI", &s, "clock 11");
}

#define EPOLL_RESULTS 3

/*
 * An epoll instance watching the root's eventfd: shown with its item, and
 * in --json; an item on a file no record before it made refused.
 */
static void epoll_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .eventfd = true, .epoll = true };
	int ret;

	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 10  epoll, 1 items  flags 02  pos 0\n") == 1 &&
	       count(out, "    watches fd 7 (file ") == 1 &&
	       count(out, "): events 0x19, data 0x2a\n") == 1,
	       "an epoll instance: valid, the summary lists its item (exit %d)", ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"epoll\": [{\"fd\": 7, \"file\": ") == 2 &&
	       count(out, ", \"events\": 25, \"data\": \"0x2a\"}]") == 2,
	       "an epoll instance in --json, the root's at the top level and in processes (exit %d)",
	       ret);
	s.epoll_item_ref = 999;
	refused("an EPOLL_ITEMS record naming no file", &s, "file objref 999");
}

#define LOCK_RESULTS 4

/*
 * A flock(), an OFD and a POSIX lock on the root's own file: shown under
 * its descriptor, and in --json; an OFD lock ending before it starts, and
 * a POSIX lock of another files table, refused.
 */
static void lock_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .locks = true };
	int ret;

	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "    lock: flock, write\n") == 1 &&
	       count(out, "    lock: OFD, read, bytes 10-19\n") == 1 &&
	       count(out, "    lock: POSIX, write, bytes 0-4\n") == 1,
	       "locks: valid, listed under their file's descriptor (exit %d)", ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"locks\": [{\"kind\": \"flock\", \"type\": \"write\", "
			     "\"start\": 0, \"end\": null}, {\"kind\": \"ofd\", "
			     "\"type\": \"read\", \"start\": 10, \"end\": 19}, {\"kind\": "
			     "\"posix\", \"type\": \"write\", \"start\": 0, \"end\": 4}]") == 2,
	       "locks in --json, the root's at the top level and in processes (exit %d)", ret);
	s.lock_end = 5;
	refused("an OFD lock ending before it starts", &s, "range 10-5");
	s.lock_end = 0;
	s.lock_owner = 999;
	refused("a POSIX lock of another files table", &s, "a POSIX lock of owner 999");
}

/*
 * The socketpairs of the unix tests, the root's fds 11 and 12 (objrefs 6
 * and 7: after its task, files table, fs_struct, /dev/null and own file).
 * A stream: 4096 bytes queued to end 0, shut down for reading (end 1 for
 * writing), end 1 nonblocking with SO_SNDBUF and SO_PASSCRED. A datagram
 * pair: 3 messages (120 bytes) queued to end 0, an empty one to end 1.
 */
static const struct ckpt_unix_end unix_stream[2] = {
	{ .peek_off = -1, .rcvlowat = 1, .shutdown = CKPT_UNIX_SHUT_RD, .bytes = 4096 },
	{ .peek_off = -1, .rcvlowat = 1, .shutdown = CKPT_UNIX_SHUT_WR, .f_flags = 04000,
	  .opts = CKPT_UNIX_SNDBUF | CKPT_UNIX_PASSCRED, .sndbuf = 65536 },
};
static const struct ckpt_unix_end unix_dgram[2] = {
	{ .peek_off = -1, .rcvlowat = 1, .rcvtimeo = 2500000, .nr_msgs = 3, .bytes = 120 },
	{ .peek_off = 0, .rcvlowat = 1, .sndtimeo = 250, .opts = CKPT_UNIX_RCVBUF,
	  .rcvbuf = 8192, .nr_msgs = 1 },
};

/* A change to a field of an end of the stream pair, refused with @want. */
struct unix_case {
	const char *what;
	int end;
	size_t off;		/* in struct ckpt_unix_end */
	uint64_t value;
	size_t size;
	const char *want;
};

#define UE(m) offsetof(struct ckpt_unix_end, m)
/* Field @m of end @i in a UNIX_PAIR record, from the record's start */
#define UNIX_END(i, m) (16 + offsetof(struct ckpt_hdr_unix_pair, end) + \
			(i) * sizeof(struct ckpt_unix_end) + UE(m))

static const struct unix_case unix_cases[] = {
	{ "an end with f_flags beyond fcntl(F_SETFL)'s (O_SYNC)", 0, UE(f_flags), 04010000, 4,
	  "end 0: f_flags 04010000: more than O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME" },
	{ "an end with unknown shutdown bits", 1, UE(shutdown), 6, 4,
	  "end 1: unknown shutdown bits 0x6" },
	{ "an end with unknown options", 0, UE(opts), 0x200, 4, "end 0: unknown options 0x200" },
	{ "an SO_SNDBUF size without its option", 0, UE(sndbuf), 4608, 4,
	  "end 0: sndbuf 4608, rcvbuf 0 with options 0: a buffer size without its option" },
	{ "the SO_RCVBUF option without a size", 1, UE(opts),
	  CKPT_UNIX_SNDBUF | CKPT_UNIX_RCVBUF | CKPT_UNIX_PASSCRED, 4,
	  "end 1: sndbuf 65536, rcvbuf 0 with options 0x7: a buffer size without its option, or the option without a size" },
	{ "an SO_SNDBUF above INT_MAX", 1, UE(sndbuf), 0x80000000U, 4,
	  "end 1: sndbuf 2147483648 or rcvbuf 0 above INT_MAX" },
	{ "a peek offset below -1", 0, UE(peek_off), (uint32_t)-2, 4, "end 0: peek_off -2, below -1 (off)" },
	{ "a negative SO_RCVLOWAT", 1, UE(rcvlowat), (uint32_t)-1, 4, "end 1: negative rcvlowat -1" },
	{ "an SO_SNDTIMEO below -1 (-1: do not wait)", 0, UE(sndtimeo), (uint64_t)-2, 8,
	  "end 0: a timeout below -1 (rcvtimeo 0, sndtimeo -2 us)" },
	{ "an end's reserved field", 1, UE(__reserved), 1, 4, "end 1: reserved field 0x1, not 0" },
	{ "messages queued to a stream socket", 0, UE(nr_msgs), 2, 4,
	  "end 0: 2 messages queued to a stream socket" },
	{ "a stream end shut down for reading, its peer not for writing", 1, UE(shutdown), 0, 4,
	  "shutdown 0x1 on end 0, 0 on end 1: a connected pair's do not match" },
	{ "a stream end shut down for writing, its peer not for reading", 0, UE(shutdown),
	  CKPT_UNIX_SHUT_RD | CKPT_UNIX_SHUT_WR, 4,
	  "shutdown 0x3 on end 0, 0x2 on end 1: a connected pair's do not match" },
	{ "the second end with the root's own FILE's objref", 1, UE(objref), 5, 4,
	  "end 1 objref 5 is zero or already another object's" },
	{ "the pair with the root's own FILE's objref", 0, UE(objref), 5, 4,
	  "UNIX_PAIR record (type 57, len 4232): objref 5 is zero or already another object's" },
	{ "both ends one objref", 1, UE(objref), 6, 4,
	  "end 1 objref 6 is zero or already another object's" },
	/* end 1 takes the objref mkimage gives next (the cwd FILE's), the MM the one after */
	{ "the MM record with the second end's objref", 1, UE(objref), 8, 4,
	  "MM record (type 32, len 624): objref 8 is zero or already another object's" },
};

#define NR_UNIX_CASES (sizeof(unix_cases) / sizeof(unix_cases[0]))

/* A pair (@ends, of @type) read back, valid: two files, each its end, fds 11 and 12 (1 result). */
static void unix_valid(const char *what, uint32_t type, const struct ckpt_unix_end *ends)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .unix_pair = true,
			     .unix_type = type, .unix_end = { ends[0], ends[1] } };
	const struct ci_file *f[2];
	struct ci_image ci;
	int ret = read_spec(&s, &ci);

	f[0] = ci_file_by_ref(&ci, 6);
	f[1] = ci_file_by_ref(&ci, 7);
	tap_ok(!ret && f[0] && f[1] && f[0]->kind == CI_FILE_UNIX &&
	       f[1]->kind == CI_FILE_UNIX && f[0]->end == 0 &&
	       f[1]->end == 1 && f[0]->up.type == type && f[1]->up.end[0].objref == 6 &&
	       f[1]->up.end[1].objref == 7 && !f[0]->path[0] && f[0]->proc == 0 &&
	       ci.procs[0].nr_files == 3 + 2 && ci.procs[0].nr_fds == 5 &&
	       ci.procs[0].fds[3].file_objref == 6 && ci.procs[0].fds[4].file_objref == 7,
	       "%s: valid, both ends files of the root, its fds 11 and 12 (%s)", what,
	       ret ? ci.error : "read");
	ci_free(&ci);
}

/* The stream pair with @c applied, refused. */
static void unix_case(const struct unix_case *c)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .unix_pair = true,
			     .unix_end = { unix_stream[0], unix_stream[1] } };

	memcpy((char *)&s.unix_end[c->end] + c->off, &c->value, c->size);
	refused(c->what, &s, c->want);
}

/*
 * ckptinfo on the image of @s (@what): its summary has the @files line and
 * @fd11 and @fd12 once each (@fd12 NULL: no fd 12); its --json @json11 and
 * @json12 (if not NULL) twice each, the root's at the top level and in
 * "processes", and "unix" null for the 12 other fds (2 results).
 */
static void unix_shown(const struct mk_spec *s, const char *what, const char *files,
		       const char *fd11, const char *fd12, const char *json11, const char *json12)
{
	static char out[1 << 16];
	int ret = run_spec(s, "", out, sizeof(out));

	tap_ok(!ret && strstr(out, files) && count(out, fd11) == 1 &&
	       (fd12 ? count(out, fd12) == 1 : !strstr(out, "  fd 12 ")),
	       "%s: valid, the summary names each end, its queue, shutdown, options, flags (exit %d)",
	       what, ret);
	ret = run_spec(s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, json11) == 2 && (!json12 || count(out, json12) == 2) &&
	       count(out, "\"unix\": null") == 12,
	       "%s in --json: each end's \"unix\", null for the other fds (exit %d)", what, ret);
}

/*
 * The image of @s with a valid pair of @type, @ends: in a new buffer, its
 * length in *@len, the offset of its UNIX_PAIR record in *@pos.
 */
static unsigned char *unix_image(struct mk_spec *s, uint32_t type,
				 const struct ckpt_unix_end *ends, size_t *len, size_t *pos)
{
	unsigned char *buf;
	struct ci_image ci;

	s->unix_type = type;
	memcpy(s->unix_end, ends, sizeof(s->unix_end));
	buf = mk_image(s, len);
	if (read_buf(buf, *len, &ci))
		tap_bail("the %s socketpair image is invalid: %s", ci_unix_type(type), ci.error);
	*pos = record_of(&ci, CKPT_HDR_UNIX_PAIR, 0);
	ci_free(&ci);
	return buf;
}

#define UNIX_RESULTS (3 + 3 * 2 + (int)NR_UNIX_CASES + 10 + 5)

/*
 * Socketpairs held by the root (UNIX_PAIR records): a stream one with
 * bytes queued, a datagram one with messages, a seqpacket one and a
 * stream one whose other end was closed, valid and shown in the summary
 * and --json; each rule restart applies to the record broken in turn.
 */
static void unix_tests(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .unix_pair = true,
			     .unix_end = { unix_stream[0], unix_stream[1] } };
	const struct ckpt_unix_end closed = { .peek_off = -1, .rcvlowat = 1,
		.shutdown = CKPT_UNIX_SHUT_RD | CKPT_UNIX_SHUT_WR, .bytes = 10 };
	struct ckpt_unix_end ends[2];
	unsigned char *buf;
	struct ci_image ci;
	size_t len, pos, i;
	char want[128];
	uint32_t v;
	int ret;

	unix_valid("a stream socketpair, 4096 bytes queued", SOCK_STREAM, unix_stream);
	unix_valid("a datagram socketpair, 3 messages and an empty one queued", SOCK_DGRAM,
		   unix_dgram);
	unix_valid("a seqpacket socketpair with messages queued", SOCK_SEQPACKET, unix_dgram);

	unix_shown(&s, "a stream socketpair", "files: 5 open files, 5 descriptors\n",
		   "  fd 11  unix stream socket, end 0 of pair 6, 4096 bytes queued, "
		   "shut down for reading  flags 02  pos 0\n",
		   "  fd 12  unix stream socket, end 1 of pair 6, shut down for writing, "
		   "SO_SNDBUF 65536, SO_PASSCRED, nonblocking  flags 04002  pos 0\n",
		   "\"unix\": {\"type\": \"stream\", \"end\": 0, \"peer\": 7, \"shut_rd\": true, "
		   "\"shut_wr\": false, \"opts\": [], \"sndbuf\": null, \"rcvbuf\": null, "
		   "\"rcvtimeo_us\": 0, \"sndtimeo_us\": 0, \"peek_off\": -1, \"rcvlowat\": 1, "
		   "\"nr_msgs\": 0, \"bytes\": 4096}",
		   "\"unix\": {\"type\": \"stream\", \"end\": 1, \"peer\": 6, \"shut_rd\": false, "
		   "\"shut_wr\": true, \"opts\": [\"SO_SNDBUF\", \"SO_PASSCRED\"], \"sndbuf\": 65536, "
		   "\"rcvbuf\": null, \"rcvtimeo_us\": 0, \"sndtimeo_us\": 0, \"peek_off\": -1, "
		   "\"rcvlowat\": 1, \"nr_msgs\": 0, \"bytes\": 0}");
	s.unix_type = SOCK_DGRAM;
	memcpy(s.unix_end, unix_dgram, sizeof(s.unix_end));
	unix_shown(&s, "a datagram socketpair", "files: 5 open files, 5 descriptors\n",
		   "  fd 11  unix dgram socket, end 0 of pair 6, 3 messages, 120 bytes queued, "
		   "SO_RCVTIMEO 2.500 s  flags 02  pos 0\n",
		   "  fd 12  unix dgram socket, end 1 of pair 6, 1 message, 0 bytes queued, "
		   "SO_RCVBUF 8192, SO_PEEK_OFF 0, SO_SNDTIMEO 0.000250 s  flags 02  pos 0\n",
		   "\"unix\": {\"type\": \"dgram\", \"end\": 0, \"peer\": 7, \"shut_rd\": false, "
		   "\"shut_wr\": false, \"opts\": [], \"sndbuf\": null, \"rcvbuf\": null, "
		   "\"rcvtimeo_us\": 2500000, \"sndtimeo_us\": 0, \"peek_off\": -1, \"rcvlowat\": 1, "
		   "\"nr_msgs\": 3, \"bytes\": 120}",
		   "\"unix\": {\"type\": \"dgram\", \"end\": 1, \"peer\": 6, \"shut_rd\": false, "
		   "\"shut_wr\": false, \"opts\": [\"SO_RCVBUF\"], \"sndbuf\": null, \"rcvbuf\": 8192, "
		   "\"rcvtimeo_us\": 0, \"sndtimeo_us\": 250, \"peek_off\": 0, \"rcvlowat\": 1, "
		   "\"nr_msgs\": 1, \"bytes\": 0}");
	/* its other end closed: no second file */
	s.unix_type = 0;
	s.unix_closed = true;
	s.unix_end[0] = closed;
	memset(&s.unix_end[1], 0, sizeof(s.unix_end[1]));
	unix_shown(&s, "a stream socketpair whose other end was closed",
		   "files: 4 open files, 4 descriptors\n",
		   "  fd 11  unix stream socket, end 0 of pair 6, its other end closed, 10 bytes "
		   "queued, shut down for reading and writing  flags 02  pos 0\n", NULL,
		   "\"unix\": {\"type\": \"stream\", \"end\": 0, \"peer\": null, \"shut_rd\": true, "
		   "\"shut_wr\": true, \"opts\": [], \"sndbuf\": null, \"rcvbuf\": null, "
		   "\"rcvtimeo_us\": 0, \"sndtimeo_us\": 0, \"peek_off\": -1, \"rcvlowat\": 1, "
		   "\"nr_msgs\": 0, \"bytes\": 10}", NULL);

	for (i = 0; i < NR_UNIX_CASES; i++)
		unix_case(&unix_cases[i]);

	/* the pair, each end as the stream's unless a case says */
	s.unix_closed = false;
	memcpy(s.unix_end, unix_stream, sizeof(s.unix_end));
	s.unix_type = 3;	/* SOCK_RAW */
	refused("a UNIX_PAIR record of SOCK_RAW", &s,
		"UNIX_PAIR record (type 57, len 4232): socket type 3: not SOCK_STREAM (1), SOCK_DGRAM (2) or SOCK_SEQPACKET (5)");
	s.unix_type = 0;
	s.unix_reserved = 1;
	refused("a UNIX_PAIR record's reserved field", &s,
		"UNIX_PAIR record (type 57, len 4232): reserved field 0x1, not 0");
	s.unix_reserved = 0;
	s.unix_extra = 8;
	refused("a UNIX_PAIR record 8 bytes longer than its queues", &s,
		"length 4240, expected 4232 for the queues its ends say");
	s.unix_extra = 0;
	s.unix_closed = true;
	refused("a closed end with a shutdown, options and flags", &s,
		"end 1 closed (objref 0), yet its flags, shutdown, options, timeouts or queue not all 0");
	memset(&s.unix_end[1], 0, sizeof(s.unix_end[1]));
	s.unix_end[1].peek_off = -1;
	refused("a closed end with SO_PEEK_OFF off (-1, not 0)", &s, "end 1 closed (objref 0), yet");
	memset(&s.unix_end[1], 0, sizeof(s.unix_end[1]));
	refused("a stream end whose other end closed, shut down for reading only", &s,
		"end 0 shutdown 0x1, its other end closed: a stream socket's is 0x3 (reading and writing)");
	s.unix_closed = false;
	s.unix_type = SOCK_DGRAM;
	memcpy(s.unix_end, unix_dgram, sizeof(s.unix_end));
	s.unix_end[0].shutdown = CKPT_UNIX_SHUT_WR;	/* a datagram pair's shutdowns: each its own */
	ret = read_spec(&s, &ci);
	tap_ok(!ret, "a datagram end shut down for writing, its peer not for reading: valid (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	s.unix_msg_delta = 1;
	refused("message lengths summing to a byte more than the queue", &s,
		"end 0: its 3 message lengths sum to 121, not its 120 bytes");
	s.unix_msg_delta = 0;
	s.unix_end[0].nr_msgs = 0;
	refused("datagram bytes queued in no message", &s,
		"end 0: 120 bytes and no message queued to a dgram socket");
	s.unix_end[0].nr_msgs = 3;
	s.unix_type = SOCK_SEQPACKET;
	memcpy(ends, unix_dgram, sizeof(ends));
	ends[1].shutdown = CKPT_UNIX_SHUT_RD;
	memcpy(s.unix_end, ends, sizeof(ends));
	refused("a seqpacket end shut down for reading, its peer not for writing", &s,
		"shutdown 0 on end 0, 0x1 on end 1: a connected pair's do not match");

	/* patched: the pair's record (its queues' bounds and padding, end 0's objref) */
	buf = unix_image(&s, SOCK_STREAM, unix_stream, &len, &pos);
	v = 0x80000000U;
	broken_in(buf, len, "2^31 bytes queued to an end", len, pos + UNIX_END(0, bytes), &v, 4,
		  "end 0: 0 messages, 2147483648 bytes queued: more than 65536 messages or INT_MAX bytes");
	v = 65537;
	broken_in(buf, len, "65537 messages queued to an end", len, pos + UNIX_END(1, nr_msgs),
		  &v, 4, "end 1: 65537 messages, 0 bytes queued: more than 65536 messages");
	v = 60;
	broken_in(buf, len, "a UNIX_PAIR record whose objref is not its end 0's", len,
		  pos + offsetof(struct ckpt_hdr, objref), &v, 4,
		  "end 0 objref 6 is not the record's (60)");
	snprintf(want, sizeof(want),
		 "UNIX_PAIR record (type 57, len 4232): truncated: the image ends at offset %zu",
		 pos + 1000);
	broken_in(buf, len, "a UNIX_PAIR record cut in its queue", pos + 1000, 0, NULL, 0, want);
	free(buf);
	buf = unix_image(&s, SOCK_DGRAM, unix_dgram, &len, &pos);
	/* after end 0's 3 message lengths */
	broken_in(buf, len, "non-zero padding after an end's message lengths", len,
		  pos + 16 + sizeof(struct ckpt_hdr_unix_pair) + 12, "\1", 1, "non-zero padding");
	free(buf);
}

/*
 * The image of @s, which must be valid (valid_image(), @what naming it),
 * holding 3 sockets of the root: the records @at names (their offsets in
 * @pos), objrefs 6 to 8, then its working directory's FILE, 9. A failure
 * ends the test.
 */
static unsigned char *sockets_image(const struct mk_spec *s, const char *what,
				    const struct rec_at *at, size_t *pos, size_t *len)
{
	struct ci_image ci;
	unsigned char *buf = valid_image(s, what, &ci, at, 3, pos, len);

	if (!pos[0] || !pos[1] || !pos[2] || !ci_file_by_ref(&ci, 8) ||
	    strcmp(ci_file_by_ref(&ci, 9)->path, "/tmp/cwd.100"))
		tap_bail("%s lacks a record, or its objrefs moved", what);
	ci_free(&ci);
	return buf;
}

/*
 * Whether the files of objrefs 6 to 8 of @ci (into @f) are sockets of
 * @kind, files of the root without a path, named by its fourth to sixth
 * fds, @fd to @fd + 2; and the root has them and 3 files and fds besides.
 */
static bool root_sockets(const struct ci_image *ci, enum ci_file_kind kind, uint32_t fd,
			 const struct ci_file *f[3])
{
	const struct ci_proc *p = &ci->procs[0];
	int i;

	for (i = 0; i < 3; i++) {
		f[i] = ci_file_by_ref(ci, 6 + i);
		if (!f[i] || f[i]->kind != kind || f[i]->proc || f[i]->path[0] ||
		    p->fds[3 + i].fd != fd + i || p->fds[3 + i].file_objref != 6U + i)
			return false;
	}
	return p->nr_files == 3 + 3 && p->nr_fds == 6;
}

/*
 * The cases of the objrefs of the 3 sockets of sockets_image() (@what:
 * "a unix socket"), each refused with its record's prefix (@first,
 * @second, @third): the third's 0, the first's the root's own FILE's (5),
 * the second's the first's (6).
 */
#define SOCKETS_OBJREF_CASES(what, first, second, third) \
	{ what " of objref 0", 2, offsetof(struct ckpt_hdr, objref), 0, 4, \
	  third "objref 0 is zero or already another object's" }, \
	{ what " with the root's own FILE's objref", 0, offsetof(struct ckpt_hdr, objref), 5, 4, \
	  first "objref 5 is zero or already another object's" }, \
	{ what " with the objref of the socket before it", 1, \
	  offsetof(struct ckpt_hdr, objref), 6, 4, \
	  second "objref 6 is zero or already another object's" }

/* The records of the unix socket image that usock_cases change. */
enum { U_LISTEN, U_ABSTRACT, U_UNBOUND, NR_U };
static const struct rec_at usock_at[NR_U] = {
	[U_LISTEN] = { CKPT_HDR_UNIX_SOCK, 0 }, [U_ABSTRACT] = { CKPT_HDR_UNIX_SOCK, 1 },
	[U_UNBOUND] = { CKPT_HDR_UNIX_SOCK, 2 },
};

/* A UNIX_SOCK record's field @m, its end's field @m, its name's byte @i: from the record's start */
#define US(m) (16 + offsetof(struct ckpt_hdr_unix_sock, m))
#define USE(m) (US(end) + offsetof(struct ckpt_unix_end, m))
#define US_NAME(i) (16 + sizeof(struct ckpt_hdr_unix_sock) + (i))
/* The refusal's record: the listener's and the abstract one's (a name of 14, 11 bytes), the unbound one's */
#define USOCK "UNIX_SOCK record (type 58, len 112): "
#define USOCK_UNBOUND "UNIX_SOCK record (type 58, len 96): "

/*
 * The root's objrefs in the unix socket image: TASK 1, files table 2,
 * fs_struct 3, FILEs /dev/null 4, /tmp/out.100 5, the sockets 6
 * (listening on MK_USOCK_PATH), 7 (on MK_USOCK_ABSTRACT) and 8 (unbound),
 * /tmp/cwd.100 9. Each rule restart applies to a UNIX_SOCK record.
 */
static const struct patch_case usock_cases[] = {
	SOCKETS_OBJREF_CASES("a unix socket", USOCK, USOCK, USOCK_UNBOUND),
	{ "a unix socket whose end's objref is not the record's", U_LISTEN, USE(objref), 60, 4,
	  USOCK "end objref 60 is not the record's (6)" },
	{ "a unix socket of SOCK_RAW", U_LISTEN, US(type), 3, 4,
	  USOCK "socket type 3: not SOCK_STREAM (1), SOCK_DGRAM (2) or SOCK_SEQPACKET (5)" },
	{ "a unix socket with unknown flags", U_UNBOUND, US(flags), 4, 4,
	  USOCK_UNBOUND "flags 0x4: more than CKPT_UNIX_LISTEN (0x1) and CKPT_UNIX_UNLINKED (0x2)" },
	{ "a unix socket's reserved field", U_LISTEN, US(__reserved), 1, 4,
	  USOCK "reserved field 0x1, not 0" },
	{ "a datagram socket listening", U_LISTEN, US(type), SOCK_DGRAM, 4,
	  USOCK "flags 0x1: CKPT_UNIX_LISTEN on a dgram socket (listen() refuses it)" },
	{ "an unbound stream socket listening", U_UNBOUND, US(type),
	  SOCK_STREAM | (uint64_t)CKPT_UNIX_LISTEN << 32, 8,
	  USOCK_UNBOUND "flags 0x1: CKPT_UNIX_LISTEN on an unbound socket (addr_len 0)" },
	{ "a backlog above INT_MAX", U_LISTEN, US(backlog), 0x80000000U, 4,
	  USOCK "backlog 2147483648 above INT_MAX" },
	{ "a backlog of INT_MAX", U_ABSTRACT, US(backlog), 0x7fffffff, 4, NULL },
	{ "a backlog without CKPT_UNIX_LISTEN", U_UNBOUND, US(backlog), 1, 4,
	  USOCK_UNBOUND "backlog 1 without CKPT_UNIX_LISTEN (not listening: 0)" },
	{ "an addr_len beyond sun_path (109)", U_LISTEN, US(addr_len), 109, 4,
	  USOCK "addr_len 109, more than sun_path's 108 bytes" },
	{ "an addr_len the record's length does not hold", U_LISTEN, US(addr_len), 17, 4,
	  USOCK "length 112, expected 120 for its addr_len 17" },
	{ "a path name not NUL-terminated at addr_len", U_LISTEN,
	  US_NAME(sizeof(MK_USOCK_PATH) - 1), 'x', 1,
	  USOCK "a path name not NUL-terminated at its addr_len 14" },
	{ "a path name with a NUL before its end", U_LISTEN, US_NAME(4), 0, 1,
	  USOCK "a path name with a NUL at byte 4, before its end (addr_len 14)" },
	{ "a path name not absolute", U_LISTEN, US_NAME(0), 'r', 1,
	  USOCK "a path name \"rrun/app.sock\": not absolute, or not ending in a name" },
	{ "a path name not ending in a name", U_LISTEN, US_NAME(sizeof(MK_USOCK_PATH) - 2), '/', 1,
	  USOCK "a path name \"/run/app.soc/\": not absolute, or not ending in a name" },
	{ "CKPT_UNIX_UNLINKED on an abstract name", U_ABSTRACT, US(flags),
	  CKPT_UNIX_LISTEN | CKPT_UNIX_UNLINKED, 4,
	  USOCK "flags 0x3: CKPT_UNIX_UNLINKED on an abstract name (only a path's socket file is removed)" },
	{ "CKPT_UNIX_UNLINKED on an unbound socket", U_UNBOUND, US(flags), CKPT_UNIX_UNLINKED, 4,
	  USOCK_UNBOUND "flags 0x2: CKPT_UNIX_UNLINKED on an unbound socket" },
	{ "CKPT_UNIX_UNLINKED on a path name", U_LISTEN, US(flags),
	  CKPT_UNIX_LISTEN | CKPT_UNIX_UNLINKED, 4, NULL },
	{ "a socket file's mode beyond permissions", U_LISTEN, US(mode), 0140666, 4,
	  USOCK "mode 0140666, more than permissions (07777)" },
	{ "a socket file's mode 07777", U_LISTEN, US(mode), 07777, 4, NULL },
	{ "a mode on an abstract name", U_ABSTRACT, US(mode), 0666, 4,
	  USOCK "mode 0666, owner 0:0 on an abstract name: no socket file, all 0" },
	{ "an owner on an unbound socket", U_UNBOUND, US(uid), 1000, 4,
	  USOCK_UNBOUND "mode 0, owner 1000:0 on an unbound socket: no socket file, all 0" },
	{ "a group on an abstract name", U_ABSTRACT, US(gid), 100, 4,
	  USOCK "mode 0, owner 0:100 on an abstract name: no socket file, all 0" },
	{ "an end with f_flags beyond fcntl(F_SETFL)'s (O_SYNC)", U_LISTEN, USE(f_flags),
	  04010000, 4,
	  USOCK "end: f_flags 04010000: more than O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME" },
	{ "an end with unknown shutdown bits", U_LISTEN, USE(shutdown), 4, 4,
	  USOCK "end: unknown shutdown bits 0x4" },
	{ "a listener shut down for reading and writing", U_LISTEN, USE(shutdown),
	  CKPT_UNIX_SHUT_RD | CKPT_UNIX_SHUT_WR, 4, NULL },
	{ "an end with unknown options", U_ABSTRACT, USE(opts), 0x200, 4,
	  USOCK "end: unknown options 0x200" },
	{ "an SO_SNDBUF size without its option", U_LISTEN, USE(sndbuf), 4608, 4,
	  USOCK "end: sndbuf 4608, rcvbuf 0 with options 0: a buffer size without its option, or the option without a size" },
	{ "the SO_RCVBUF option without a size", U_UNBOUND, USE(opts),
	  CKPT_UNIX_SNDBUF | CKPT_UNIX_RCVBUF | CKPT_UNIX_PASSCRED, 4,
	  USOCK_UNBOUND "end: sndbuf 16384, rcvbuf 0 with options 0x7: a buffer size without its option, or the option without a size" },
	{ "an SO_SNDBUF above INT_MAX", U_UNBOUND, USE(sndbuf), 0x80000000U, 4,
	  USOCK_UNBOUND "end: sndbuf 2147483648 or rcvbuf 0 above INT_MAX" },
	{ "a peek offset below -1", U_LISTEN, USE(peek_off), (uint32_t)-2, 4,
	  USOCK "end: peek_off -2, below -1 (off)" },
	{ "a negative SO_RCVLOWAT", U_UNBOUND, USE(rcvlowat), (uint32_t)-1, 4,
	  USOCK_UNBOUND "end: negative rcvlowat -1" },
	{ "an SO_RCVTIMEO below -1", U_LISTEN, USE(rcvtimeo), (uint64_t)-2, 8,
	  USOCK "end: a timeout below -1 (rcvtimeo -2, sndtimeo 0 us)" },
	{ "an SO_SNDTIMEO below -1", U_ABSTRACT, USE(sndtimeo), (uint64_t)-2, 8,
	  USOCK "end: a timeout below -1 (rcvtimeo 0, sndtimeo -2 us)" },
	{ "an SO_RCVTIMEO of -1 (reads do not wait)", U_UNBOUND, USE(rcvtimeo), (uint64_t)-1, 8,
	  NULL },
	{ "an end's reserved field", U_LISTEN, USE(__reserved), 1, 4,
	  USOCK "end: reserved field 0x1, not 0" },
	{ "a message queued to a socket of no pair", U_UNBOUND, USE(nr_msgs), 1, 4,
	  USOCK_UNBOUND "end: nr_msgs 1, bytes 0: nothing is queued to a socket of no pair" },
	{ "bytes queued to a socket of no pair", U_LISTEN, USE(bytes), 10, 8,
	  USOCK "end: nr_msgs 0, bytes 10: nothing is queued to a socket of no pair" },
};

#define NR_USOCK_CASES (sizeof(usock_cases) / sizeof(usock_cases[0]))
#define USOCK_RESULTS (1 + 3 + 2 + 1 + 1 + (int)NR_USOCK_CASES)

/* The unix socket image, read back: 3 sockets, each a file of the root and its fd (1 result). */
static void usock_valid(const unsigned char *buf, size_t len)
{
	const struct ci_file *f[3];
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && root_sockets(&ci, CI_FILE_UNIX_SOCK, 22, f);

	ok = ok && f[0]->us.end.objref == 6 && f[1]->us.end.objref == 7 &&
	     f[2]->us.end.objref == 8 && f[0]->us.type == SOCK_STREAM && f[0]->us.flags == CKPT_UNIX_LISTEN &&
	     f[0]->us.backlog == MK_USOCK_BACKLOG && f[0]->us.mode == MK_USOCK_MODE &&
	     f[0]->us.uid == MK_USOCK_UID && f[0]->us.gid == MK_USOCK_GID &&
	     f[0]->us.addr_len == sizeof(MK_USOCK_PATH) &&
	     !memcmp(f[0]->sun_path, MK_USOCK_PATH, sizeof(MK_USOCK_PATH)) &&
	     f[1]->us.type == SOCK_SEQPACKET && f[1]->us.addr_len == sizeof(MK_USOCK_ABSTRACT) - 1 &&
	     !memcmp(f[1]->sun_path, MK_USOCK_ABSTRACT, sizeof(MK_USOCK_ABSTRACT) - 1) &&
	     f[2]->us.type == SOCK_DGRAM && !f[2]->us.addr_len && !f[2]->sun_path &&
	     f[2]->f.f_flags == 04002 && f[2]->us.end.sndbuf == MK_USOCK_SNDBUF;
	tap_ok(ok, "unix sockets of no pair held by the root (listening on a path, on an abstract name, unbound): valid, read back, each a file of the root, fds 22 to 24%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/*
 * The JSON of the unix socket image, read by python3: "unix_socks" has
 * the three sockets, keys in order (the abstract name as the summary
 * shows it), fds 22 to 24 their "unix_sock" (at the top level and in
 * "processes"), no other fd has one.
 */
static const char usock_json_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"end = {'shut_rd': False, 'shut_wr': False, 'opts': [], 'sndbuf': None, 'rcvbuf': None,"
	" 'rcvtimeo_us': 0, 'sndtimeo_us': 0, 'peek_off': -1, 'rcvlowat': 1, 'nr_msgs': 0,"
	" 'bytes': 0}\n"
	"keys = ['objref', 'type', 'listening', 'backlog', 'name', 'abstract', 'unlinked',"
	" 'mode', 'uid', 'gid', 'saved_with'] + list(end)\n"
	"want = [dict({'objref': 6, 'type': 'stream', 'listening': True, 'backlog': 5,"
	" 'name': '/run/app.sock', 'abstract': False, 'unlinked': False, 'mode': '0666',"
	" 'uid': 1000, 'gid': 100, 'saved_with': 100}, **end),"
	" dict({'objref': 7, 'type': 'seqpacket', 'listening': True, 'backlog': 5,"
	" 'name': '@app.ctl\\\\x00\\\\x01', 'abstract': True, 'unlinked': False, 'mode': '0000',"
	" 'uid': 0, 'gid': 0, 'saved_with': 100}, **end),"
	" dict({'objref': 8, 'type': 'dgram', 'listening': False, 'backlog': 0, 'name': None,"
	" 'abstract': False, 'unlinked': False, 'mode': '0000', 'uid': 0, 'gid': 0,"
	" 'saved_with': 100}, **dict(end, opts=['SO_SNDBUF', 'SO_PASSCRED'], sndbuf=16384))]\n"
	"ok = d['unix_socks'] == want and all(list(u) == keys for u in d['unix_socks'])\n"
	"for p in (d, d['processes'][0]):\n"
	"    ok = ok and [(f['fd'], f['unix_sock'], f['file'], f['path'], f['unix'], f['flags'])"
	" for f in p['fds'] if f['unix_sock'] is not None] == [(22, 6, 6, '', None, 2),"
	" (23, 7, 7, '', None, 2), (24, 8, 8, '', None, 0o4002)]\n"
	"ok = ok and all(f['unix_sock'] is None for p in d['processes'][1:] for f in p['fds'])\n"
	"print('usock ok' if ok else 'usock differs: %r' % d['unix_socks'])\n";

/* The abstract name in the JSON of the unix socket image, read by python3. */
static const char usock_name_check[] =
	"import json, sys\n"
	"print('name=' + json.dumps(json.load(sys.stdin)['unix_socks'][1]['name']))\n";

/*
 * ckptinfo shows the sockets of the image of @s: each fd's line in the
 * summary (@unlinked: the listener's file removed), the same in --json
 * as python3 reads it back (usock_json_check, 3 results; 2 without
 * @check).
 */
static void usock_shown(const struct mk_spec *s, bool unlinked, bool check)
{
	static const char *const lines[] = {
		"files: 6 open files, 6 descriptors\n",
		"  fd 23  unix seqpacket listening @app.ctl\\x00\\x01 (backlog 5)  flags 02  pos 0\n",
		"  fd 24  unix dgram unbound, SO_SNDBUF 16384, SO_PASSCRED, nonblocking  flags 04002  pos 0\n",
	};
	const char *listen = unlinked ?
		"  fd 22  unix stream listening /run/app.sock (backlog 5, mode 0666, 1000:100, its file removed)  flags 02  pos 0\n" :
		"  fd 22  unix stream listening /run/app.sock (backlog 5, mode 0666, 1000:100)  flags 02  pos 0\n";
	static char out[1 << 16];
	int ret = run_spec(s, "", out, sizeof(out));

	tap_ok(!ret && each_once(out, lines, sizeof(lines) / sizeof(lines[0])) &&
	       count(out, listen) == 1 &&
	       count(out, "unix ") == 3,
	       "the summary names each socket, its name, backlog, mode and owner%s, options, flags (exit %d)",
	       unlinked ? ", its file removed" : "", ret);
	ret = run_spec(s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"unix_socks\": [{\"objref\": 6, \"type\": \"stream\", \"listening\": true, \"backlog\": 5, \"name\": \"/run/app.sock\", \"abstract\": false, ") == 1 &&
	       count(out, "\"unlinked\": true") == (unlinked ? 1U : 0U) &&
	       count(out, "\"name\": \"@app.ctl\\\\x00\\\\x01\", \"abstract\": true, ") == 1 &&
	       count(out, "\"unix_sock\": null") == 12 && count(out, "\"unix_sock\": ") == 18,
	       "--json: \"unix_socks\" has each socket%s, the fds their \"unix_sock\" (exit %d)",
	       unlinked ? " (\"unlinked\")" : "", ret);
	if (!check)
		return;
	ret = json_spec(s, usock_json_check, out, sizeof(out));
	tap_ok(!ret && strstr(out, "usock ok\n"),
	       "--json parsed by python3: \"unix_socks\" (keys in order, the abstract name as the summary shows it), the fds' \"unix_sock\" (\"%.300s\")",
	       out);
}

/*
 * Unix sockets of no pair held by the root (UNIX_SOCK records): a stream
 * one listening on a path, a seqpacket one listening on an abstract name
 * and an unbound datagram one, valid, shown in the summary and --json
 * (read back by python3), the first's file removed too; a quote and a
 * backslash in the abstract name come back from the JSON as the summary
 * shows them; each rule restart applies to the record broken in turn,
 * and the record cut.
 */
static void usock_tests(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .unix_listen = true,
			     .unix_abstract = true, .unix_unbound = true };
	static const char *const name_line =
		"  fd 23  unix seqpacket listening @\"\\x5cp.ctl\\x00\\x01 (backlog 5)  ";
	static char out[1 << 16];
	unsigned char *buf;
	size_t len, pos[NR_U];
	char want[128];

	buf = sockets_image(&s, "the unix socket image", usock_at, pos, &len);

	usock_valid(buf, len);
	usock_shown(&s, false, true);
	s.unix_unlinked = true;
	usock_shown(&s, true, false);

	/* "@\"\x5cp.ctl\x00\x01": a quote and a backslash in the abstract name */
	memcpy(buf + pos[U_ABSTRACT] + US_NAME(1), "\"\\", 2);
	tap_ok(shown_and_json(buf, len, &name_line, 1, usock_name_check,
			      "name=\"@\\\"\\\\x5cp.ctl\\\\x00\\\\x01\"\n", out, sizeof(out)),
	       "an abstract name with a quote and a backslash: the summary shows @\"\\x5cp.ctl\\x00\\x01, --json's parsed back the same (\"%.300s\")",
	       out);
	memcpy(buf + pos[U_ABSTRACT] + US_NAME(1), "ap", 2);

	patch_cases(buf, len, pos, usock_cases, NR_USOCK_CASES);
	snprintf(want, sizeof(want), USOCK "truncated: the image ends at offset %zu",
		 pos[U_LISTEN] + US_NAME(4));
	broken_in(buf, len, "a UNIX_SOCK record cut in its name", pos[U_LISTEN] + US_NAME(4), 0,
		  NULL, 0, want);
	free(buf);
}

/* The records of the TCP and UDP socket image that inet_cases change. */
enum { I_TCP, I_TCP6, I_UDP, NR_I };
static const struct rec_at inet_at[NR_I] = {
	[I_TCP] = { CKPT_HDR_INET_SOCK, 0 }, [I_TCP6] = { CKPT_HDR_INET_SOCK, 1 },
	[I_UDP] = { CKPT_HDR_INET_SOCK, 2 },
};

/* An INET_SOCK record's field @m, its option @i's field @m: from the record's start */
#define IS(m) (16 + offsetof(struct ckpt_hdr_inet_sock, m))
#define IS_OPT(i, m) (16 + sizeof(struct ckpt_hdr_inet_sock) + \
		      (i) * sizeof(struct ckpt_sockopt) + offsetof(struct ckpt_sockopt, m))
/* An option's level and name, one 8-byte patch at its level */
#define LEVEL_NAME(l, n) ((uint32_t)(l) | (uint64_t)(n) << 32)
/*
 * The refusal's record: the IPv4 listener's (69 options), the IPv6 one's
 * (100), the UDP one's (50). Their options, every one of the table each
 * has, in its order: the IPv4 listener's SOL_SOCKET 0 to 26 (SO_DEBUG,
 * SO_REUSEADDR... SO_INCOMING_CPU), SOL_IP 27 to 49 (IP_TOS...
 * IP_MULTICAST_ALL), SOL_TCP 50 to 67 (TCP_NODELAY, TCP_CORK,
 * TCP_KEEPIDLE...), SO_PRIORITY 68; the IPv6 one's the same with SOL_IPV6
 * 50 to 80 (IPV6_V6ONLY...) before SOL_TCP; the UDP one's SOL_SOCKET 0 to
 * 25 (no SO_INCOMING_CPU), SOL_IP 26 to 48, SO_PRIORITY 49.
 */
#define INET_TCP "INET_SOCK record (type 59, len 1200): "
#define INET_TCP6 "INET_SOCK record (type 59, len 1696): "
#define INET_UDP "INET_SOCK record (type 59, len 896): "
#define INET_KIND "not SOCK_STREAM (1) with IPPROTO_TCP (6), or SOCK_DGRAM (2) with IPPROTO_UDP (17)"
#define INET_ORDER "not in the table's order, or twice"

/*
 * The root's objrefs in the TCP and UDP socket image: TASK 1, files table
 * 2, fs_struct 3, FILEs /dev/null 4, /tmp/out.100 5, the sockets 6
 * (listening on 127.0.0.1:8080), 7 (on [::]:8443) and 8 (UDP, bound to
 * 0.0.0.0:5353), /tmp/cwd.100 9. Each rule restart applies to an
 * INET_SOCK record.
 */
static const struct patch_case inet_cases[] = {
	SOCKETS_OBJREF_CASES("an inet socket", INET_TCP, INET_TCP6, INET_UDP),
	{ "an INET_SOCK record shorter than its struct", I_UDP, offsetof(struct ckpt_hdr, len),
	  88, 8, "INET_SOCK record (type 59, len 88): length 88, shorter than an INET_SOCK record" },
	{ "more options than the kernel's table has (101)", I_TCP, IS(nr_opts), 101, 4,
	  INET_TCP "nr_opts 101, more than the 100 options restart sets" },
	{ "an nr_opts the record's length does not hold", I_TCP, IS(nr_opts), 70, 4,
	  INET_TCP "length 1200, expected 1216 for its nr_opts 70" },
	{ "fewer options than the record's length holds", I_TCP6, IS(nr_opts), 0, 4,
	  INET_TCP6 "length 1696, expected 96 for its nr_opts 0" },
	{ "family AF_UNIX", I_TCP, IS(family), AF_UNIX, 2,
	  INET_TCP "family 1: not AF_INET (2) or AF_INET6 (10)" },
	{ "a SOCK_DGRAM socket of IPPROTO_TCP", I_TCP, IS(type), SOCK_DGRAM, 2,
	  INET_TCP "type 2, protocol 6: " INET_KIND },
	{ "a SOCK_RAW socket", I_UDP, IS(type), SOCK_RAW, 2,
	  INET_UDP "type 3, protocol 17: " INET_KIND },
	{ "a UDP-Lite socket (IPPROTO_UDPLITE)", I_UDP, IS(protocol), IPPROTO_UDPLITE, 2,
	  INET_UDP "type 2, protocol 136: " INET_KIND },
	{ "an SCTP stream socket", I_TCP6, IS(protocol), IPPROTO_SCTP, 2,
	  INET_TCP6 "type 1, protocol 132: " INET_KIND },
	{ "an inet socket with unknown flags", I_UDP, IS(flags), CKPT_INET_BOUND | 4, 4,
	  INET_UDP "flags 0x5: more than CKPT_INET_BOUND (0x1) and CKPT_INET_LISTEN (0x2)" },
	{ "an owner of uid (uid_t)-1", I_TCP, IS(uid), UINT32_MAX, 4,
	  INET_TCP "uid 4294967295 ((uid_t)-1): not an owner fchown() gives" },
	{ "an owner of gid (gid_t)-1", I_UDP, IS(gid), UINT32_MAX, 4,
	  INET_UDP "gid 4294967295 ((gid_t)-1): not a group fchown() gives" },
	{ "an owner of uid and gid 4294967294", I_TCP6, IS(uid), 0xfffffffefffffffeULL, 8,
	  NULL },
	{ "a congestion control not NUL-terminated", I_TCP, IS(congestion) + 15, 'x', 1,
	  INET_TCP "congestion control not NUL-terminated in its 16 bytes" },
	{ "a TCP congestion control with bytes after its NUL (\"cubic\\0x\")", I_TCP,
	  IS(congestion) + 14, 'x', 1, NULL },
	{ "a TCP socket without a congestion control", I_TCP6, IS(congestion), 0, 1,
	  INET_TCP6 "a tcp socket without its congestion control (congestion empty)" },
	{ "a UDP socket with a congestion control", I_UDP, IS(congestion), 'x', 1,
	  INET_UDP "congestion control \"x\" on a udp socket (TCP only: all zeros)" },
	{ "a UDP socket with TCP_MAXSEG", I_UDP, IS(mss), 1400, 4,
	  INET_UDP "mss 1400 on a udp socket (TCP_MAXSEG: TCP only, 0)" },
	{ "a UDP socket's congestion with a byte after its first NUL", I_UDP,
	  IS(congestion) + 3, 'x', 1,
	  INET_UDP "congestion of a udp socket with byte 3 not zero (all zeros)" },
	{ "a TCP_MAXSEG of any value (restart reads it back)", I_TCP, IS(mss), 88, 4, NULL },
	{ "f_flags beyond fcntl(F_SETFL)'s (O_SYNC)", I_TCP6, IS(f_flags), 04010000, 4,
	  INET_TCP6 "f_flags 04010000: more than O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME" },
	{ "an SO_SNDBUF above INT_MAX", I_TCP, IS(sndbuf), 0x80000000U, 4,
	  INET_TCP "sndbuf 2147483648 above INT_MAX" },
	{ "an SO_SNDBUF of INT_MAX", I_TCP, IS(sndbuf), 0x7fffffff, 4, NULL },
	{ "an SO_RCVBUF above INT_MAX", I_UDP, IS(rcvbuf), 0x80000000U, 4,
	  INET_UDP "rcvbuf 2147483648 above INT_MAX" },
	{ "a linger below -1", I_TCP, IS(linger), (uint32_t)-2, 4,
	  INET_TCP "linger -2, below -1 (off)" },
	{ "a linger of 0 (close() resets the connection)", I_TCP, IS(linger), 0, 4, NULL },
	{ "an SO_RCVTIMEO below -1", I_UDP, IS(rcvtimeo), (uint64_t)-2, 8,
	  INET_UDP "rcvtimeo -2 us, below -1" },
	{ "an SO_SNDTIMEO below -1", I_TCP6, IS(sndtimeo), (uint64_t)-2, 8,
	  INET_TCP6 "sndtimeo -2 us, below -1" },
	{ "an SO_RCVTIMEO of -1 (reads do not wait)", I_UDP, IS(rcvtimeo), (uint64_t)-1, 8, NULL },
	{ "a UDP socket listening", I_UDP, IS(flags), CKPT_INET_BOUND | CKPT_INET_LISTEN, 4,
	  INET_UDP "flags 0x3: CKPT_INET_LISTEN on a udp socket (listen() refuses it)" },
	{ "a TCP socket listening, not bound", I_TCP6, IS(flags), CKPT_INET_LISTEN, 4,
	  INET_TCP6 "flags 0x2: CKPT_INET_LISTEN without CKPT_INET_BOUND (listen() binds)" },
	{ "a backlog above INT_MAX", I_TCP, IS(backlog), 0x80000000U, 4,
	  INET_TCP "backlog 2147483648 above INT_MAX" },
	{ "a backlog of INT_MAX", I_TCP6, IS(backlog), 0x7fffffff, 4, NULL },
	{ "a backlog without CKPT_INET_LISTEN", I_UDP, IS(backlog), 1, 4,
	  INET_UDP "backlog 1 without CKPT_INET_LISTEN (not listening: 0)" },
	{ "a socket bound to port 0", I_UDP, IS(port), 0, 2,
	  INET_UDP "flags 0x1: CKPT_INET_BOUND with port 0" },
	{ "a port without CKPT_INET_BOUND", I_UDP, IS(flags), 0, 4,
	  INET_UDP "port 5353 without CKPT_INET_BOUND (not bound: 0)" },
	/* port, flags and the backlog's low bytes 0: neither bound nor listening */
	{ "an address without CKPT_INET_BOUND", I_TCP, IS(port), 0, 8,
	  INET_TCP "addr 127.0.0.1 without CKPT_INET_BOUND (not bound: all zeros)" },
	{ "an unbound TCP socket, its address all zeros", I_TCP6, IS(port), 0, 8, NULL },
	{ "an AF_INET address of more than 4 bytes", I_UDP, IS(addr) + 4, 1, 1,
	  INET_UDP "addr of an AF_INET socket with bytes 4 to 15 not zero" },
	{ "an AF_INET6 address of 16 bytes ([::1])", I_TCP6, IS(addr) + 15, 1, 1, NULL },
	{ "an option of an unknown name", I_TCP, IS_OPT(0, name), 99, 4,
	  INET_TCP "option 0: level 1, name 99: not an option restart sets" },
	{ "an option of an unknown level", I_TCP6, IS_OPT(0, level), 255, 4,
	  INET_TCP6 "option 0: level 255, name 1: not an option restart sets" },
	{ "SO_SNDBUF as an option (a field of the record)", I_TCP, IS_OPT(0, name), SO_SNDBUF, 4,
	  INET_TCP "option 0: level 1, name 7: not an option restart sets" },
	{ "TCP_MAXSEG as an option (the record's mss)", I_TCP, IS_OPT(50, name), TCP_MAXSEG, 4,
	  INET_TCP "option 50: level 6, name 2: not an option restart sets" },
	{ "options out of the table's order", I_TCP, IS_OPT(0, level),
	  LEVEL_NAME(SOL_TCP, TCP_INQ), 8,
	  INET_TCP "option 1: SO_REUSEADDR after TCP_INQ: " INET_ORDER },
	{ "SO_PRIORITY before IP_TOS (the table has it last)", I_TCP, IS_OPT(27, level),
	  LEVEL_NAME(SOL_SOCKET, SO_PRIORITY), 8,
	  INET_TCP "option 28: IP_TTL after SO_PRIORITY: " INET_ORDER },
	{ "an option twice", I_TCP, IS_OPT(1, level), LEVEL_NAME(SOL_SOCKET, SO_DEBUG), 8,
	  INET_TCP "option 1: SO_DEBUG after SO_DEBUG: " INET_ORDER },
	{ "an option's reserved field", I_TCP6, IS_OPT(50, __reserved), 1, 4,
	  INET_TCP6 "option 50 (IPV6_V6ONLY): reserved field 0x1, not 0" },
	{ "SO_INCOMING_CPU on a UDP socket (TCP only)", I_UDP, IS_OPT(25, level),
	  LEVEL_NAME(SOL_SOCKET, SO_INCOMING_CPU), 8,
	  INET_UDP "option 25: SO_INCOMING_CPU on a udp socket (tcp only)" },
	{ "an SOL_IPV6 option on an AF_INET socket", I_TCP, IS_OPT(50, level),
	  LEVEL_NAME(SOL_IPV6, IPV6_V6ONLY), 8,
	  INET_TCP "option 50: IPV6_V6ONLY on an AF_INET socket (SOL_IPV6: AF_INET6 only)" },
	{ "the IPv6 listener made AF_INET, its SOL_IPV6 options kept", I_TCP6, IS(family),
	  AF_INET, 2,
	  INET_TCP6 "option 50: IPV6_V6ONLY on an AF_INET socket (SOL_IPV6: AF_INET6 only)" },
	{ "an SOL_TCP option on a UDP socket", I_UDP, IS_OPT(48, level),
	  LEVEL_NAME(SOL_TCP, TCP_NODELAY), 8,
	  INET_UDP "option 48: TCP_NODELAY on a udp socket (SOL_TCP: TCP only)" },
	{ "an option of any value (SO_REUSEADDR -5: restart reads it back)", I_TCP,
	  IS_OPT(1, value), (uint32_t)-5, 4, NULL },
};

#define NR_INET_CASES (sizeof(inet_cases) / sizeof(inet_cases[0]))
#define INET_RESULTS (1 + 1 + 3 + 1 + 2 + 1 + 1 + (int)NR_INET_CASES)

/* The TCP and UDP socket image, read back: 3 sockets, each a file of the root and its fd (1 result). */
static void inet_valid(const unsigned char *buf, size_t len)
{
	static const char zero[16];
	const struct ci_file *f[3];
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && root_sockets(&ci, CI_FILE_INET, 25, f);

	ok = ok && f[0]->is.linger == -1 && f[1]->is.linger == -1 && f[2]->is.linger == -1 &&
	     f[0]->is.family == AF_INET && f[0]->is.type == SOCK_STREAM &&
	     f[0]->is.protocol == IPPROTO_TCP && f[0]->is.port == MK_TCP_PORT &&
	     f[0]->is.flags == (CKPT_INET_BOUND | CKPT_INET_LISTEN) &&
	     f[0]->is.backlog == MK_TCP_BACKLOG && !memcmp(f[0]->is.addr, "\x7f\0\0\x01", 4) &&
	     !f[0]->is.uid && !f[0]->is.gid && !f[0]->is.mss &&
	     !strcmp(f[0]->is.congestion, MK_TCP_CC) &&
	     f[0]->is.nr_opts == MK_TCP_NR_OPTS && f[0]->sockopts[1].name == SO_REUSEADDR &&
	     f[0]->sockopts[1].value == 1 && f[0]->sockopts[50].level == SOL_TCP &&
	     f[0]->sockopts[50].name == TCP_NODELAY && f[0]->sockopts[50].value == 1 &&
	     f[1]->is.family == AF_INET6 && f[1]->is.port == MK_TCP6_PORT &&
	     f[1]->is.backlog == MK_TCP6_BACKLOG && f[1]->is.mss == MK_TCP6_MSS &&
	     !strcmp(f[1]->is.congestion, MK_TCP6_CC) && f[1]->is.nr_opts == MK_TCP6_NR_OPTS &&
	     f[1]->sockopts[50].level == SOL_IPV6 && f[1]->sockopts[50].name == IPV6_V6ONLY &&
	     f[1]->sockopts[50].value == 1 &&
	     f[2]->is.type == SOCK_DGRAM && f[2]->is.protocol == IPPROTO_UDP &&
	     f[2]->is.flags == CKPT_INET_BOUND && f[2]->is.port == MK_UDP_PORT &&
	     f[2]->is.uid == MK_UDP_UID && f[2]->is.gid == MK_UDP_GID && !f[2]->is.mss &&
	     !memcmp(f[2]->is.congestion, zero, sizeof(zero)) &&
	     f[2]->is.nr_opts == MK_UDP_NR_OPTS && f[2]->sockopts[49].name == SO_PRIORITY;
	tap_ok(ok, "TCP and UDP sockets held by the root (IPv4 and IPv6 listening, UDP bound), each with every option it has: valid, read back, each a file of the root, fds 25 to 27%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/*
 * ckptinfo's option table is the kernel's inet_opts: 100 options from
 * SO_DEBUG to SO_PRIORITY, none twice, each level named, SO_INCOMING_CPU
 * the only one of a protocol (TCP), 22 of them shown in the summary; the
 * options the C library may lack have the kernel's values (its uapi
 * headers: asm-generic/socket.h, linux/in.h, linux/in6.h, linux/tcp.h);
 * the options the kernel's table dropped are not there (1 result).
 */
static void inet_table(void)
{
	static const struct { uint32_t level, name; const char *opt; } kernel[] = {
		{ 1, 1, "SO_DEBUG" }, { 1, 2, "SO_REUSEADDR" }, { 1, 29, "SO_TIMESTAMP_OLD" },
		{ 1, 35, "SO_TIMESTAMPNS_OLD" }, { 1, 69, "SO_PREFER_BUSY_POLL" },
		{ 1, 73, "SO_RESERVE_MEM" }, { 1, 49, "SO_INCOMING_CPU" },
		{ 1, 74, "SO_TXREHASH" }, { 1, 75, "SO_RCVMARK" }, { 0, 20, "IP_RECVORIGDSTADDR" },
		{ 0, 26, "IP_RECVERR_RFC4884" }, { 0, 51, "IP_LOCAL_PORT_RANGE" },
		{ 41, 2, "IPV6_2292PKTINFO" }, { 41, 3, "IPV6_2292HOPOPTS" },
		{ 41, 4, "IPV6_2292DSTOPTS" }, { 41, 5, "IPV6_2292RTHDR" },
		{ 41, 8, "IPV6_2292HOPLIMIT" }, { 41, 11, "IPV6_FLOWINFO" },
		{ 41, 31, "IPV6_RECVERR_RFC4884" }, { 41, 33, "IPV6_FLOWINFO_SEND" },
		{ 41, 74, "IPV6_RECVORIGDSTADDR" }, { 6, 36, "TCP_INQ" }, { 6, 37, "TCP_TX_DELAY" },
	};
	/* SO_BUSY_POLL_BUDGET, IPV6_MULTICAST_IF, IPV6_MTU, TCP_MAXSEG, TCP_THIN_DUPACK */
	static const uint32_t dropped[][2] = { { 1, 70 }, { 41, 17 }, { 41, 24 }, { 6, 2 }, { 6, 17 } };
	const size_t nr_kernel = sizeof(kernel) / sizeof(kernel[0]);
	const size_t nr_dropped = sizeof(dropped) / sizeof(dropped[0]);
	const struct ci_inet_opt *o, *p;
	size_t i, j, named = 0, twice = 0, found = 0, gone = 0, tcp_only = 0, shown = 0;

	for (i = 0; (o = ci_inet_opt(i)); i++) {
		named += !strcmp(o->level_name, o->level == 1 ? "SOL_SOCKET" : o->level == 0 ?
				 "SOL_IP" : o->level == 41 ? "SOL_IPV6" : o->level == 6 ?
				 "SOL_TCP" : "?");
		tcp_only += o->proto == IPPROTO_TCP && !strcmp(o->opt_name, "SO_INCOMING_CPU");
		tcp_only += o->proto && o->proto != IPPROTO_TCP;
		shown += o->shown;
		for (j = 0; j < i; j++) {
			p = ci_inet_opt(j);
			twice += p->level == o->level && p->name == o->name;
		}
	}
	for (j = 0; j < nr_kernel; j++) {
		o = ci_inet_opt(ci_inet_opt_index(kernel[j].level, kernel[j].name));
		found += o && !strcmp(o->opt_name, kernel[j].opt);
	}
	for (j = 0; j < nr_dropped; j++)
		gone += ci_inet_opt_index(dropped[j][0], dropped[j][1]) == -1;
	o = ci_inet_opt(ci_inet_opt_index(1, 49));
	tap_ok(i == 100 && CI_INET_NR_OPTS == 100 && named == i && !twice &&
	       found == nr_kernel && gone == nr_dropped && tcp_only == 1 && o->proto == 6 &&
	       shown == 22 && !strcmp(ci_inet_opt(0)->opt_name, "SO_DEBUG") &&
	       !strcmp(ci_inet_opt(99)->opt_name, "SO_PRIORITY") && ci_inet_opt_index(1, 7) == -1,
	       "the option table: the kernel's 100, none twice, levels named, SO_INCOMING_CPU TCP's only, 22 shown, the options glibc may lack of the kernel's values, the dropped ones gone (%zu options, %zu named, %zu twice, %zu of %zu found, %zu of %zu gone, %zu shown)",
	       i, named, twice, found, nr_kernel, gone, nr_dropped, shown);
}

/*
 * The JSON of the TCP and UDP socket image, read by python3: "inet_socks"
 * has the three sockets, keys in order, every option each has, named, in
 * the table's order; fds 25 to 27 their "inet_sock" (at the top level and
 * in "processes"), no other fd has one.
 */
static const char inet_json_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"keys = ['objref', 'family', 'protocol', 'bound', 'listening', 'address', 'port',"
	" 'backlog', 'f_flags', 'nonblocking', 'sndbuf', 'rcvbuf', 'linger', 'rcvtimeo_us',"
	" 'sndtimeo_us', 'uid', 'gid', 'mss', 'congestion', 'options', 'saved_with']\n"
	"unset = {'f_flags': 0, 'nonblocking': False, 'sndbuf': None, 'rcvbuf': None,"
	" 'linger': -1, 'rcvtimeo_us': 0, 'sndtimeo_us': 0, 'saved_with': 100}\n"
	"want = [dict({'objref': 6, 'family': 'inet', 'protocol': 'tcp', 'bound': True,"
	" 'listening': True, 'address': '127.0.0.1', 'port': 8080, 'backlog': 128,"
	" 'uid': 0, 'gid': 0, 'mss': None, 'congestion': 'cubic'}, **unset),"
	" dict({'objref': 7, 'family': 'inet6', 'protocol': 'tcp', 'bound': True,"
	" 'listening': True, 'address': '::', 'port': 8443, 'backlog': 5,"
	" 'uid': 0, 'gid': 0, 'mss': 1400, 'congestion': 'reno'}, **unset),"
	" dict({'objref': 8, 'family': 'inet', 'protocol': 'udp', 'bound': True,"
	" 'listening': False, 'address': '0.0.0.0', 'port': 5353, 'backlog': 0,"
	" 'uid': 1000, 'gid': 100, 'mss': None, 'congestion': None}, **unset)]\n"
	"s = d['inet_socks']\n"
	"ok = [{k: v for k, v in i.items() if k != 'options'} for i in s] == want"
	" and all(list(i) == keys for i in s)\n"
	"ok = ok and all(list(o) == ['level', 'name', 'value'] for i in s for o in i['options'])\n"
	"opts = [{o['name']: (o['level'], o['value']) for o in i['options']} for i in s]\n"
	"levels = [[o['level'] for o in i['options']] for i in s]\n"
	"ok = ok and [len(i['options']) for i in s] == [69, 100, 50] and [len(o) for o in opts] == [69, 100, 50]\n"
	"ok = ok and all(i['options'][0]['name'] == 'SO_DEBUG' and i['options'][-1]['name'] == 'SO_PRIORITY' for i in s)\n"
	"ok = ok and [l.count('SOL_IPV6') for l in levels] == [0, 31, 0] and [l.count('SOL_TCP') for l in levels] == [18, 18, 0]\n"
	"ok = ok and [o.get('SO_INCOMING_CPU') for o in opts] == [('SOL_SOCKET', -1)] * 2 + [None]\n"
	"ok = ok and opts[0]['SO_REUSEADDR'] == ('SOL_SOCKET', 1) and opts[0]['TCP_NODELAY'] == ('SOL_TCP', 1)\n"
	"ok = ok and opts[1]['IPV6_V6ONLY'] == ('SOL_IPV6', 1) and opts[1]['SO_REUSEADDR'] == ('SOL_SOCKET', 0)\n"
	"ok = ok and all(o['IP_TTL'] == ('SOL_IP', 64) and o['SO_PEEK_OFF'] == ('SOL_SOCKET', -1) for o in opts)\n"
	"for p in (d, d['processes'][0]):\n"
	"    ok = ok and [(f['fd'], f['inet_sock'], f['file'], f['path'], f['unix_sock'], f['flags'])"
	" for f in p['fds'] if f['inet_sock'] is not None] == [(25, 6, 6, '', None, 2),"
	" (26, 7, 7, '', None, 2), (27, 8, 8, '', None, 2)]\n"
	"ok = ok and all(f['inet_sock'] is None for p in d['processes'][1:] for f in p['fds'])\n"
	"print('inet ok' if ok else 'inet differs: %r' % s)\n";

/*
 * ckptinfo shows the sockets of the image of @s: each fd's line in the
 * summary (of their options only those set that it shows, and how many
 * were saved), the same in --json, and as python3 reads it back
 * (inet_json_check) (3 results).
 */
static void inet_shown(const struct mk_spec *s)
{
	static const char *const lines[] = {
		"files: 6 open files, 6 descriptors\n",
		"  fd 25  tcp listening 127.0.0.1:8080 (backlog 128, owner 0:0, cc cubic, SO_REUSEADDR 1, TCP_NODELAY 1, 69 options saved)  flags 02  pos 0\n",
		"  fd 26  tcp6 listening [::]:8443 (backlog 5, owner 0:0, mss 1400, cc reno, IPV6_V6ONLY 1, 100 options saved)  flags 02  pos 0\n",
		"  fd 27  udp bound 0.0.0.0:5353 (owner 1000:100, 50 options saved)  flags 02  pos 0\n",
	};
	static char out[1 << 17];
	int ret = run_spec(s, "", out, sizeof(out));

	tap_ok(!ret && each_once(out, lines, sizeof(lines) / sizeof(lines[0])),
	       "the summary names each socket, its protocol, address and port, backlog, owner, mss, congestion control, the options of its list set and how many were saved (exit %d)",
	       ret);
	ret = run_spec(s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"inet_socks\": [{\"objref\": 6, \"family\": \"inet\", \"protocol\": \"tcp\", \"bound\": true, \"listening\": true, \"address\": \"127.0.0.1\", \"port\": 8080, ") == 1 &&
	       count(out, "\"uid\": 0, \"gid\": 0, \"mss\": 1400, \"congestion\": \"reno\", \"options\": [{\"level\": \"SOL_SOCKET\", \"name\": \"SO_DEBUG\", \"value\": 0}, ") == 1 &&
	       count(out, "{\"level\": \"SOL_IPV6\", \"name\": \"IPV6_V6ONLY\", \"value\": 1}") == 1 &&
	       count(out, "\"inet_sock\": null") == 12 && count(out, "\"inet_sock\": ") == 18,
	       "--json: \"inet_socks\" has each socket, its owner, mss, congestion control, every option named, the fds their \"inet_sock\" (exit %d)",
	       ret);
	ret = json_spec(s, inet_json_check, out, sizeof(out));
	tap_ok(!ret && strstr(out, "inet ok\n"),
	       "--json parsed by python3: \"inet_socks\" (keys in order, every option, named, in the table's order), the fds' \"inet_sock\" (\"%.300s\")",
	       out);
}

/* The IPv6 listener unbound and the UDP socket with everything set, read by python3. */
static const char inet_set_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"s = d['inet_socks']\n"
	"ok = [s[1][k] for k in ('bound', 'listening', 'address', 'port', 'backlog')] =="
	" [False, False, None, 0, 0]\n"
	"ok = ok and {k: s[2][k] for k in ('f_flags', 'nonblocking', 'sndbuf', 'rcvbuf', 'linger',"
	" 'rcvtimeo_us', 'sndtimeo_us')} == {'f_flags': 0o4000, 'nonblocking': True,"
	" 'sndbuf': 65536, 'rcvbuf': 131072, 'linger': 5, 'rcvtimeo_us': 2500000,"
	" 'sndtimeo_us': -1}\n"
	"ok = ok and [f['flags'] for f in d['fds'] if f['inet_sock'] == 8] == [0o4002]\n"
	"print('set ok' if ok else 'set differs: %r' % s)\n";

/*
 * The image @buf with its IPv6 listener unbound (no port, flags or
 * backlog) and its UDP socket (at @udp) nonblocking, with buffer sizes,
 * linger and both timeouts set: the summary shows them, --json has them
 * (1 result).
 */
static void inet_set_shown(const unsigned char *buf, size_t len, size_t tcp6, size_t udp)
{
	static const char *const lines[] = {
		"  fd 26  tcp6 unbound (owner 0:0, mss 1400, cc reno, IPV6_V6ONLY 1, 100 options saved)  flags 02  pos 0\n",
		"  fd 27  udp bound 0.0.0.0:5353 (owner 1000:100, SO_SNDBUF 65536, SO_RCVBUF 131072, SO_LINGER 5 s, SO_RCVTIMEO 2.500 s, SO_SNDTIMEO 0 (does not wait), 50 options saved, nonblocking)  flags 04002  pos 0\n",
	};
	static char out[1 << 17];
	unsigned char *copy = malloc(len);
	struct ckpt_hdr_inet_sock is;

	memcpy(copy, buf, len);
	memset(copy + tcp6 + IS(port), 0, IS(addr) - IS(port));
	memcpy(&is, copy + udp + IS(family), sizeof(is));
	is.f_flags = 04000;
	is.sndbuf = 65536;
	is.rcvbuf = 131072;
	is.linger = 5;
	is.rcvtimeo = 2500000;
	is.sndtimeo = -1;
	memcpy(copy + udp + IS(family), &is, sizeof(is));
	tap_ok(shown_and_json(copy, len, lines, 2, inet_set_check, "set ok\n", out, sizeof(out)),
	       "an unbound TCP socket, and a UDP one with buffer sizes, linger, timeouts and O_NONBLOCK: in the summary and --json (\"%.300s\")",
	       out);
	free(copy);
}

/* The IPv4 listener's owner, mss, congestion control and options as inet_rule_shown() sets them */
static const char inet_rule_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"s = d['inet_socks'][0]\n"
	"o = {i['name']: i['value'] for i in s['options']}\n"
	"ok = [s[k] for k in ('uid', 'gid', 'mss', 'congestion')] == [4242, 4243, 1000, 'bbr']\n"
	"ok = ok and len(s['options']) == 69 and [o[k] for k in ('SO_REUSEADDR', 'SO_KEEPALIVE',"
	" 'IP_TOS', 'TCP_KEEPIDLE', 'SO_PRIORITY', 'SO_INCOMING_CPU', 'IP_TTL')] =="
	" [0, 1, 16, 77, 6, 0, 64]\n"
	"print('rule ok' if ok else 'rule differs: %r' % s)\n";

/*
 * The summary's rule for options: the IPv4 listener of @buf (at @at) owned
 * by 4242:4243, with TCP_MAXSEG 1000, congestion control "bbr",
 * SO_REUSEADDR 0, SO_KEEPALIVE 1, IP_TOS 16, TCP_KEEPIDLE 77, SO_PRIORITY
 * 6, SO_INCOMING_CPU 0: the summary shows the shown options that are not 0
 * (not SO_REUSEADDR 0, nor TCP_KEEPIDLE, IP_TTL 64... of no list), --json
 * all; and of the IPv6 listener of @spec with one option, "1 option
 * saved" (2 results).
 */
static void inet_rule_shown(const unsigned char *buf, size_t len, size_t at,
			    const struct mk_spec *spec)
{
	static const struct { unsigned int i; int32_t value; } set[] = {
		{ 1, 0 }, { 3, 1 }, { 26, 0 }, { 27, 16 }, { 52, 77 }, { 68, 6 },
	};
	const struct ckpt_sockopt v6only = { .level = SOL_IPV6, .name = IPV6_V6ONLY, .value = 1 };
	const uint32_t owner_mss[3] = { 4242, 4243, 1000 };
	static const char *const line =
		"  fd 25  tcp listening 127.0.0.1:8080 (backlog 128, owner 4242:4243, mss 1000, cc bbr, SO_KEEPALIVE 1, IP_TOS 16, TCP_NODELAY 1, SO_PRIORITY 6, 69 options saved)  flags 02  pos 0\n";
	static char out[1 << 17];
	struct mk_spec s = *spec;
	unsigned char *copy = malloc(len);
	size_t i;
	int ret;

	memcpy(copy, buf, len);
	memcpy(copy + at + IS(uid), owner_mss, sizeof(owner_mss));
	memcpy(copy + at + IS(congestion), "bbr\0\0", 5);
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		memcpy(copy + at + IS_OPT(set[i].i, value), &set[i].value, 4);
	tap_ok(shown_and_json(copy, len, &line, 1, inet_rule_check, "rule ok\n", out, sizeof(out)),
	       "the summary shows the options of its list that are not 0, mss and congestion control, --json every option (\"%.300s\")",
	       out);
	free(copy);
	s.tcp6_opts = &v6only;
	s.nr_tcp6_opts = 1;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 26  tcp6 listening [::]:8443 (backlog 5, owner 0:0, mss 1400, cc reno, IPV6_V6ONLY 1, 1 option saved)  flags 02  pos 0\n") == 1,
	       "a socket with one option saved: \"1 option saved\" (exit %d)", ret);
}

/*
 * The IPv6 listener with every option of the table, in its order, each
 * of its index for a value: valid, the options the summary shows each
 * with its value (the list), no other (1 result).
 */
static void inet_all_opts(const struct mk_spec *spec)
{
	struct mk_spec s = *spec;
	struct ckpt_sockopt opts[CI_INET_NR_OPTS];
	static char out[1 << 17];
	const struct ci_inet_opt *o;
	struct ci_image ci;
	size_t i;
	int ret, shown;

	for (i = 0; (o = ci_inet_opt(i)); i++)
		opts[i] = (struct ckpt_sockopt){ .level = o->level, .name = o->name, .value = i };
	s.tcp6_opts = opts;
	s.nr_tcp6_opts = CI_INET_NR_OPTS;
	ret = read_spec(&s, &ci);
	shown = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && ci_file_by_ref(&ci, 7)->is.nr_opts == CI_INET_NR_OPTS && !shown &&
	       count(out, "  fd 26  tcp6 listening [::]:8443 (backlog 5, owner 0:0, mss 1400, cc reno, SO_REUSEADDR 1, SO_REUSEPORT 2, SO_KEEPALIVE 3, SO_BROADCAST 4, SO_DONTROUTE 5, SO_OOBINLINE 6, SO_MARK 8, IP_TOS 27, IP_FREEBIND 42, IP_TRANSPARENT 43, IP_BIND_ADDRESS_NO_PORT 44, IPV6_V6ONLY 50, IPV6_TCLASS 72, IPV6_FREEBIND 75, IPV6_TRANSPARENT 76, TCP_NODELAY 81, TCP_CORK 82, TCP_DEFER_ACCEPT 88, TCP_USER_TIMEOUT 90, TCP_FASTOPEN 92, TCP_FASTOPEN_CONNECT 93, SO_PRIORITY 99, 100 options saved)  flags 02  pos 0\n") == 1,
	       "an IPv6 listener with each of the 100 options, in the table's order: valid, the summary's list of options shown%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/*
 * TCP and UDP sockets held by the root (INET_SOCK records): an IPv4 and
 * an IPv6 TCP one listening and a bound UDP one, each with every option
 * it has, valid, shown in the summary and --json (read back by python3);
 * the option table checked; an unbound one and one with all the record's
 * own fields set shown; the summary's rule for options; one with every
 * option of the table; each rule restart applies to the record broken in
 * turn, and the record cut.
 */
static void inet_tests(void)
{
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .tcp_listen = true,
			     .tcp6_listen = true, .udp_bound = true };
	unsigned char *buf;
	size_t len, pos[NR_I];
	char want[128];

	buf = sockets_image(&s, "the TCP and UDP socket image", inet_at, pos, &len);

	inet_valid(buf, len);
	inet_table();
	inet_shown(&s);
	inet_set_shown(buf, len, pos[I_TCP6], pos[I_UDP]);
	inet_rule_shown(buf, len, pos[I_TCP], &s);
	inet_all_opts(&s);
	patch_cases(buf, len, pos, inet_cases, NR_INET_CASES);
	snprintf(want, sizeof(want), INET_TCP "truncated: the image ends at offset %zu",
		 pos[I_TCP] + IS_OPT(1, level));
	broken_in(buf, len, "an INET_SOCK record cut in its options", pos[I_TCP] + IS_OPT(1, level),
		  0, NULL, 0, want);
	free(buf);
}

/* The records of the memfd image that memfd_cases change. */
enum { M_SHMEM, M_FILE, M_SFILE, M_VMA_MEMFD, M_VMA_SHARED, M_MM, NR_M };
static const struct rec_at memfd_at[NR_M] = {
	[M_SHMEM] = { CKPT_HDR_SHMEM, 0 }, [M_FILE] = { CKPT_HDR_FILE, 2 },
	[M_SFILE] = { CKPT_HDR_FILE, 4 }, [M_VMA_MEMFD] = { CKPT_HDR_VMA, 1 },
	[M_VMA_SHARED] = { CKPT_HDR_VMA, 2 }, [M_MM] = { CKPT_HDR_MM, 0 },
};

#define FI(m) (16 + offsetof(struct ckpt_hdr_file, m))
#define NAME(i) (16 + sizeof(struct ckpt_hdr_shmem) + (i))

/*
 * The root's objrefs in the memfd image: TASK 1, files table 2, fs_struct
 * 3, FILEs /dev/null 4, /tmp/out.100 5, the memfd's SHMEM 6 and its file
 * 7, /tmp/cwd.100 8, MK_SHARED_PATH 9.
 */
static const struct patch_case memfd_cases[] = {
	{ "a memfd without CKPT_SHMEM_NORESERVE", M_SHMEM, SH(flags), CKPT_SHMEM_MEMFD, 4,
	  "flags 0x2: a memfd without CKPT_SHMEM_NORESERVE" },
	{ "a memfd with unknown flags", M_SHMEM, SH(flags), 0xb, 4,
	  "SHMEM record (type 35, len 36): unknown flags 0xb" },
	{ "a memfd with its reserved field set", M_SHMEM, SH(__reserved), 1, 4,
	  "SHMEM record (type 35, len 36): reserved field 0x1, not 0" },
	{ "a memfd with an unknown seal", M_SHMEM, SH(seals), MK_MEMFD_SEALS | 0x40, 4,
	  "a memfd's seals 0x66: unknown seals 0x40" },
	{ "a memfd neither executable nor sealed F_SEAL_EXEC", M_SHMEM, SH(seals), 0x6, 4,
	  "flags 0x3, seals 0x6: a memfd neither executable (CKPT_SHMEM_EXEC) nor sealed F_SEAL_EXEC" },
	{ "a memfd sealed F_SEAL_SEAL too", M_SHMEM, SH(seals), MK_MEMFD_SEALS | 0x1, 4, NULL },
	{ "a memfd's name length 0", M_SHMEM, SH(name_len), 0, 4,
	  "a memfd's name length 0, not 1 to 250" },
	{ "a memfd's name length 251", M_SHMEM, SH(name_len), 251, 4,
	  "a memfd's name length 251, not 1 to 250" },
	{ "a memfd's name length a byte short of its record", M_SHMEM, SH(name_len), 3, 4,
	  "length 36, expected 35: a memfd's name of 3 bytes after the record" },
	{ "a memfd's name not NUL-terminated", M_SHMEM, NAME(3), 'x', 1,
	  "a memfd's name not NUL-terminated at its length 4, or with a NUL before" },
	{ "a memfd's name with a NUL before its end", M_SHMEM, NAME(1), 0, 1,
	  "a memfd's name not NUL-terminated at its length 4, or with a NUL before" },
	{ "a memfd larger than a file can be", M_SHMEM, SH(size), 1ULL << 63, 8,
	  "SHMEM record (type 35, len 36): size 9223372036854775808 with 2 pages: empty, too large or more pages than fit" },
	{ "a memfd with more pages than its size holds", M_SHMEM, SH(size), 4096, 8,
	  "SHMEM record (type 35, len 36): size 4096 with 2 pages: empty, too large or more pages than fit" },
	{ "a memfd's file with an inode number", M_FILE, FI(ino), 7, 8,
	  "a memfd's file with a file's identity (ino 7, " },
	{ "a memfd's file with an mtime", M_FILE, FI(mtime_sec), 1700000000, 8,
	  "a memfd's file with a file's identity (ino 0, " },
	{ "a memfd's file with a device", M_FILE, FI(dev), 0x801, 4,
	  "a memfd's file with a file's identity (ino 0, dev 0x801, " },
	{ "a memfd's file of a regular file's mode", M_FILE, FI(i_mode), S_IFREG | 0644, 4,
	  "a memfd's file of mode 0100644, its memfd's is 0100666" },
	{ "a memfd's file of mode 0777, its memfd not executable", M_FILE, FI(i_mode),
	  S_IFREG | 0777, 4, "a memfd's file of mode 0100777, its memfd's is 0100666" },
	{ "a memfd's file opened neither for reading nor for writing", M_FILE, FI(f_flags), 3, 4,
	  "a memfd's file opened neither for reading nor for writing (flags 03)" },
	{ "a memfd's file with O_DIRECTORY", M_FILE, FI(f_flags), 0200002, 4,
	  "a memfd's file with flags 0200002 restart does not open a memfd with (0200000)" },
	{ "a memfd's file with FASYNC", M_FILE, FI(f_flags), 020002, 4,
	  "a memfd's file with flags 020002 restart does not open a memfd with (020000)" },
	{ "a memfd's file with O_NONBLOCK, O_APPEND and O_LARGEFILE", M_FILE, FI(f_flags),
	  0106002, 4, NULL },
	{ "a memfd's file naming no record before it", M_FILE, FI(obj_objref), 999, 4,
	  "FILE record (type 48, len 65): a pipe end, a memfd's or a deleted file's file (no path) of objref 999, which no PIPE, SHMEM or GHOST record before it has" },
	{ "a memfd's file opened O_PATH and for reading and writing", M_FILE, FI(f_flags),
	  010000002, 4,
	  "FILE record (type 48, len 65): a memfd's file opened O_PATH with flags 010000002 beyond O_LARGEFILE (02): open() keeps no other" },
	{ "a shared mapping of a memfd's file opened O_PATH", M_FILE, FI(f_flags), 010100000, 4,
	  "a shared mapping of memfd:buf, opened O_PATH (flags 010100000)" },
	{ "a shared-anon VMA naming a memfd's SHMEM record", M_VMA_MEMFD, VMA(kind),
	  CKPT_VMA_SHARED_ANON | 6ULL << 32, 8,
	  "shared memory objref 6 is a memfd's SHMEM record: a memfd is mapped through a FILE record" },
	{ "a writable shared mapping without VM_SHARED", M_VMA_MEMFD, VMA(vm_flags),
	  MK_MEMFD_FLAGS & ~0x8ULL, 8,
	  "vm_flags 0xf3: a writable shared mapping of memfd:buf without VM_SHARED" },
	{ "a writable shared mapping of a memfd sealed F_SEAL_WRITE", M_SHMEM, SH(seals),
	  MK_MEMFD_SEALS | 0x8, 4,
	  "a writable shared mapping of memfd:buf, a memfd sealed against writes (seals 0x2e)" },
	{ "a writable shared mapping of a memfd sealed F_SEAL_FUTURE_WRITE", M_SHMEM, SH(seals),
	  MK_MEMFD_SEALS | 0x10, 4,
	  "a writable shared mapping of memfd:buf, a memfd sealed against writes (seals 0x36)" },
	{ "a shared-file VMA with pages of its own", M_VMA_SHARED, VMA(nr_pages), 1, 8,
	  "1 pages do not fit this VMA" },
	{ "a shared-file VMA without VM_MAYSHARE", M_VMA_SHARED, VMA(vm_flags),
	  MK_SHARED_FLAGS & ~0x80ULL, 8, "vm_flags 0x79: a shared file mapping without VM_MAYSHARE" },
	{ "a shared-file VMA that grows down", M_VMA_SHARED, VMA(vm_flags),
	  MK_SHARED_FLAGS | 0x100, 8, "vm_flags 0x1f9: a shared file mapping without VM_MAYSHARE, growing down" },
	{ "a shared-file VMA locked (VM_LOCKED)", M_VMA_SHARED, VMA(vm_flags),
	  MK_SHARED_FLAGS | 0x2000, 8, NULL },
	{ "a shared-file VMA locked on fault (VM_LOCKED, VM_LOCKONFAULT)", M_VMA_SHARED,
	  VMA(vm_flags), MK_SHARED_FLAGS | 0x82000, 8, NULL },
	{ "a VMA with VM_LOCKONFAULT alone", M_VMA_SHARED, VMA(vm_flags),
	  MK_SHARED_FLAGS | 0x80000, 8,
	  "vm_flags 0x800f9: VM_LOCKONFAULT without VM_LOCKED, or a locked vDSO" },
	{ "a shared-file VMA of a character device", M_VMA_SHARED, VMA(file_objref), 4, 4,
	  "file objref 4 has no FILE record of a regular file" },
	{ "a shared-file VMA of a directory", M_VMA_SHARED, VMA(file_objref), 8, 4,
	  "file objref 8 has no FILE record of a regular file" },
	{ "a shared-file VMA naming a SHMEM record", M_VMA_SHARED, VMA(file_objref), 6, 4,
	  "file objref 6 has no FILE record of a regular file" },
	{ "VM_SHARED on a file opened read-only", M_SFILE, FI(f_flags), 0, 4,
	  "vm_flags 0xf9: VM_SHARED set, but /tmp/shared.dat is open read-only (flags 0)" },
	{ "no VM_SHARED on a file opened for reading and writing", M_VMA_SHARED, VMA(vm_flags),
	  MK_SHARED_FLAGS & ~0x8ULL, 8,
	  "vm_flags 0xf1: VM_SHARED clear, but /tmp/shared.dat is open for reading and writing (flags 02)" },
	{ "a shared-file VMA of a file opened write-only", M_SFILE, FI(f_flags), 01, 4,
	  "a shared mapping of /tmp/shared.dat, not open for reading (flags 01)" },
	{ "a shared-file VMA of a file opened O_PATH", M_SFILE, FI(f_flags), 010000002, 4,
	  "a shared mapping of /tmp/shared.dat, opened O_PATH (flags 010000002)" },
	{ "a regular file with an open() flag restart does not give back (__O_TMPFILE)", M_SFILE,
	  FI(f_flags), 020000002, 4,
	  "/tmp/shared.dat: flags 020000002: open() flags restart does not give back (020000000)" },
	{ "a VMA of an unknown kind (8)", M_VMA_SHARED, VMA(kind), 8, 4, "unknown VMA kind 8" },
	{ "the executable a regular file", M_MM, MMH(exe_objref), 9, 4, NULL },
	{ "mlockall(MCL_FUTURE) (def_flags VM_LOCKED)", M_MM, MMH(def_flags), 0x2000, 8, NULL },
	{ "def_flags VM_LOCKONFAULT alone", M_MM, MMH(def_flags), 0x80000, 8,
	  "def_flags 0x80000: not 0, VM_LOCKED, or VM_LOCKED with VM_LOCKONFAULT (mlockall(MCL_FUTURE))" },
	{ "def_flags VM_NOHUGEPAGE", M_MM, MMH(def_flags), 0x40000000, 8,
	  "def_flags 0x40000000: not 0, VM_LOCKED, or VM_LOCKED with VM_LOCKONFAULT (mlockall(MCL_FUTURE))" },
	{ "the executable a directory", M_MM, MMH(exe_objref), 8, 4,
	  "MM record (type 32, len 624): executable objref 8 has no FILE record of a regular file" },
};

#define NR_MEMFD_CASES (sizeof(memfd_cases) / sizeof(memfd_cases[0]))
#define MEMFD_RESULTS (1 + 2 + 2 + 1 + 1 + 1 + 1 + (int)NR_MEMFD_CASES)

/* The memfd image, read back (1 result). */
static void memfd_valid(const unsigned char *buf, size_t len)
{
	const struct ci_shmem *sh;
	const struct ci_file *f;
	const struct ci_proc *p;
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && ci.nr_shmems == 1 && ci.nr_procs == 3;

	sh = ok ? &ci.shmems[0] : NULL;
	f = ci_file_by_ref(&ci, 7);
	p = ci.procs;
	ok = ok && f && sh->objref == 6 && sh->name && !strcmp(sh->name, MK_MEMFD_NAME) &&
	     sh->s.size == MK_MEMFD_SIZE && sh->s.nr_pages == 2 && sh->pages == 2 &&
	     sh->s.flags == (CKPT_SHMEM_NORESERVE | CKPT_SHMEM_MEMFD) &&
	     sh->s.seals == MK_MEMFD_SEALS && sh->s.name_len == 4 && sh->proc == 0 &&
	     f->kind == CI_FILE_MEMFD && ci_file_memfd(&ci, f) == sh && !f->path[0] &&
	     !ci_file_memfd(&ci, ci_file_by_ref(&ci, 9)) &&
	     p[0].nr_vmas == 3 && p[0].vmas[1].v.kind == CKPT_VMA_SHARED_FILE &&
	     p[0].vmas[1].v.file_objref == 7 && ci_vma_shmem(&ci, &p[0].vmas[1].v) == 6 &&
	     p[0].vmas[2].v.kind == CKPT_VMA_SHARED_FILE && p[0].vmas[2].v.file_objref == 9 &&
	     !ci_vma_shmem(&ci, &p[0].vmas[2].v) && ci_proc_maps(&ci, &p[0], 6) &&
	     !ci_proc_maps(&ci, &p[1], 6) &&
	     p[0].nr_fds == 4 && p[0].fds[3].fd == 20 && p[0].fds[3].file_objref == 7 &&
	     p[0].nr_files == 5 && p[0].nr_shmems == 1 && p[0].pages == 1 &&
	     ci.pages == 3 + 2;
	tap_ok(ok, "a memfd of the root (its SHMEM, a file open on it as fd 20, a shared-file VMA on that file) and a shared-file VMA of a regular file: valid, read back%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/* ckptinfo shows the memfd, its file and the shared-file VMAs (2 results). */
static void memfd_cli(const struct mk_spec *s)
{
	static char out[1 << 16];
	int ret;

	ret = run_spec(s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "shared memory: 1 object\n  shmem 6: memfd \"buf\", 12288 bytes, 2 pages, noreserve, seals shrink,grow,exec, saved with 100, mapped by 100\n") == 1 &&
	       count(out, "memory: 3 VMAs, 1 pages;") == 1 &&
	       count(out, "  000000030000-000000033000 rw-s shared-file      0 pages  memfd:buf @0\n") == 1 &&
	       count(out, "  000000040000-000000042000 r--s shared-file      0 pages  /tmp/shared.dat @0\n") == 1 &&
	       count(out, "  fd 20  memfd:buf (shmem 6)  flags 02  pos 0\n") == 1 &&
	       count(out, "files: 5 open files, 4 descriptors\n") == 1,
	       "the summary shows the memfd (name, seals, mapped by), its descriptor as memfd:buf and both shared-file VMAs (exit %d)",
	       ret);
	ret = run_spec(s, "--json --records", out, sizeof(out));
	/* the root's keys twice: at the top level and in "processes" */
	tap_ok(!ret && count(out, "\"shmem\": [{\"objref\": 6, \"size\": 12288, \"nr_pages\": 2, \"flags\": 3, \"noreserve\": true, \"memfd\": true, \"name\": \"buf\", \"seals\": [\"shrink\", \"grow\", \"exec\"], \"exec\": false, \"saved_with\": 100, \"mapped_by\": [100]}]") == 1 &&
	       count(out, "{\"fd\": 20, \"path\": \"memfd:buf\", \"flags\": 2, \"mode\": 33206, \"pos\": 0, \"cloexec\": false, \"file\": 7, \"pipe\": null, \"memfd\": 6, \"ghost\": null, \"eventfd\": null, ") == 2 &&
	       count(out, "\"memfd\": null, ") > 6 &&
	       count(out, "\"kind\": \"shared-file\", \"pages\": 0, \"vm_flags\": \"0xfb\", \"file\": \"memfd:buf\", \"offset\": 0, \"shmem\": 6}") == 2 &&
	       count(out, "\"kind\": \"shared-file\", \"pages\": 0, \"vm_flags\": \"0xf9\", \"file\": \"/tmp/shared.dat\", \"offset\": 0}") == 2 &&
	       count(out, "\"type\": \"SHMEM\", \"type_id\": 35, \"len\": 36, \"objref\": 6}") == 1,
	       "--json: \"shmem\" has the memfd (memfd, name, seals, exec), fd 20 its \"memfd\" and path, each shared-file VMA its file (exit %d)",
	       ret);
}

/*
 * A memfd held by the root, open as fd 20 and mapped shared through that
 * file, and a shared mapping of a regular file opened for reading and
 * writing: valid, shown in the summary and --json; an executable memfd,
 * an empty one and a read-only shared mapping valid; each rule of the
 * SHMEM record of a memfd, of its FILE record and of a shared-file VMA
 * broken in turn.
 */
static void memfd_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .memfd = true,
			     .shared_file = true };
	unsigned char *buf, *copy;
	size_t len, pos[NR_M];
	struct ci_image ci;
	uint32_t v;
	int ret;

	buf = valid_image(&s, "the memfd image", &ci, memfd_at, NR_M, pos, &len);
	if (!pos[M_SHMEM] || !pos[M_SFILE] || !pos[M_MM] || pos[M_FILE] < pos[M_SHMEM] ||
	    ci.shmems[0].objref != 6 || !ci_file_by_ref(&ci, 7) || !ci_file_by_ref(&ci, 9) ||
	    strcmp(ci_file_by_ref(&ci, 8)->path, "/tmp/cwd.100") ||
	    strcmp(ci_file_by_ref(&ci, 9)->path, MK_SHARED_PATH))
		tap_bail("the memfd image lacks a record, or its objrefs moved");
	ci_free(&ci);

	memfd_valid(buf, len);
	memfd_cli(&s);
	exe_named(buf, len, pos[M_MM], 7, "memfd:buf", "a memfd's file (fexecve())");
	patch_cases(buf, len, pos, memfd_cases, NR_MEMFD_CASES);

	/* a read-only shared mapping of a file opened read-only: no VM_SHARED */
	copy = malloc(len);
	memcpy(copy, buf, len);
	v = 0;
	memcpy(copy + pos[M_SFILE] + FI(f_flags), &v, 4);
	v = MK_SHARED_FLAGS & ~0x8ULL;
	memcpy(copy + pos[M_VMA_SHARED] + VMA(vm_flags), &v, 4);
	ret = read_buf(copy, len, &ci);
	tap_ok(!ret, "a shared-file VMA without VM_SHARED of a file opened read-only: valid (%s)",
	       ret ? ci.error : "ok");
	ci_free(&ci);
	free(copy);
	free(buf);

	s.memfd_exec = true;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  shmem 6: memfd \"buf\", 12288 bytes, 2 pages, noreserve, seals shrink,grow, executable, saved with 100, mapped by 100\n") == 1,
	       "an executable memfd (CKPT_SHMEM_EXEC, its file's mode 0777) not sealed F_SEAL_EXEC: valid, shown so (exit %d)",
	       ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"flags\": 7, \"noreserve\": true, \"memfd\": true, \"name\": \"buf\", \"seals\": [\"shrink\", \"grow\"], \"exec\": true, ") == 1 &&
	       count(out, "\"path\": \"memfd:buf\", \"flags\": 2, \"mode\": 33279, ") == 2,
	       "--json: its \"exec\", its file's mode (exit %d)", ret);
	s.memfd_exec = false;
	s.memfd_empty = true;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  shmem 6: memfd \"buf\", 0 bytes, 0 pages, noreserve, seals shrink,grow,exec, ") == 1,
	       "an empty memfd, no page: valid (exit %d)", ret);
	s.memfd_empty = false;
	s.memfd_flags = CKPT_SHMEM_NORESERVE;
	refused("a file with no path naming shared anonymous memory's SHMEM record", &s,
		"a memfd's file (no path) naming shmem 6, shared anonymous memory, no memfd");
}

#define MEMFD_PRIVATE_RESULTS 4

/*
 * The root's memfd mapped privately too (a file VMA naming the memfd's
 * file, with a page of its own): valid, the VMA maps the memfd's SHMEM,
 * shown so in the summary and --json; the VMA naming the SHMEM record
 * instead of the file refused.
 */
static void memfd_private_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .memfd = true,
			     .memfd_private = true };
	const struct ckpt_hdr_vma *v = NULL;
	unsigned char *buf;
	struct ci_image ci;
	size_t len, pos;
	uint32_t ref = 6;	/* the memfd's SHMEM record */
	int ret;

	ret = read_spec(&s, &ci);
	if (!ret && ci.procs[0].nr_vmas == 3)
		v = &ci.procs[0].vmas[2].v;
	tap_ok(v && v->kind == CKPT_VMA_FILE && v->file_objref == 7 && v->pgoff == 1 &&
	       ci.procs[0].vmas[2].pages == 1 && ci_vma_shmem(&ci, v) == 6 &&
	       ci_proc_maps(&ci, &ci.procs[0], 6) &&
	       !ci_proc_maps(&ci, &ci.procs[1], 6) && ci.procs[0].pages == 2,
	       "a memfd mapped privately (a file VMA on its file, a page of its own): valid, the VMA maps its SHMEM (%s)",
	       ret ? ci.error : "read");
	ci_free(&ci);
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  shmem 6: memfd \"buf\", 12288 bytes, 2 pages, noreserve, seals shrink,grow,exec, saved with 100, mapped by 100\n") == 1 &&
	       count(out, "memory: 3 VMAs, 2 pages;") == 1 &&
	       count(out, "  000000050000-000000052000 rw-p file      1 pages  memfd:buf @0x1000\n") == 1,
	       "the summary shows the private VMA as memfd:buf at its offset, the memfd mapped by the root (exit %d)",
	       ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	/* the root's keys twice: at the top level and in "processes" */
	tap_ok(!ret && count(out, "\"kind\": \"file\", \"pages\": 1, \"vm_flags\": \"0x73\", \"file\": \"memfd:buf\", \"offset\": 4096, \"shmem\": 6}") == 2 &&
	       count(out, "\"mapped_by\": [100]}]") == 1,
	       "--json: the private VMA's file memfd:buf and its \"shmem\" (exit %d)", ret);
	buf = mk_image(&s, &len);
	if (read_buf(buf, len, &ci))
		tap_bail("the private memfd image is invalid: %s", ci.error);
	pos = record_of(&ci, CKPT_HDR_VMA, 2);
	ci_free(&ci);
	broken_in(buf, len, "a file VMA naming a memfd's SHMEM record, not its file", len,
		  pos + VMA(file_objref), &ref, sizeof(ref),
		  "VMA record (type 33, len 48): file objref 6 has no FILE record of a regular file");
	free(buf);
}

/* The records of the deleted file image that ghost_cases change. */
enum { G_GHOST, G_PAGES0, G_PAGES1, G_FILE, G_FD, G_VMA_SHARED, G_VMA_PRIVATE, G_MM, NR_G };
static const struct rec_at ghost_at[NR_G] = {
	[G_GHOST] = { CKPT_HDR_GHOST, 0 }, [G_PAGES0] = { CKPT_HDR_PAGES, 0 },
	[G_PAGES1] = { CKPT_HDR_PAGES, 1 }, [G_FILE] = { CKPT_HDR_FILE, 2 },
	[G_FD] = { CKPT_HDR_FD, 3 }, [G_VMA_SHARED] = { CKPT_HDR_VMA, 1 },
	[G_VMA_PRIVATE] = { CKPT_HDR_VMA, 2 }, [G_MM] = { CKPT_HDR_MM, 0 },
};

#define GH(m) (16 + offsetof(struct ckpt_hdr_ghost, m))
#define GPATH(i) (16 + sizeof(struct ckpt_hdr_ghost) + (i))
/* The GHOST record's header, as the reader names it in a refusal */
#define GHOST_REC "GHOST record (type 36, len 57): "
#define GHOST_FILE "FILE record (type 48, len 65): a file of " MK_GHOST_PATH " (deleted)"

/*
 * The root's objrefs in the deleted file image: TASK 1, files table 2,
 * fs_struct 3, FILEs /dev/null 4, /tmp/out.100 5, the GHOST 6 and the
 * file open on it 7, /tmp/cwd.100 8. Each rule restart applies to a
 * GHOST record, to the FILE record of a file open on it and to what
 * names them, broken in turn.
 */
static const struct patch_case ghost_cases[] = {
	{ "a GHOST record of its header alone, no path", G_GHOST, HDR(len), 40, 8,
	  "GHOST record (type 36, len 40): length 40: not a GHOST record (40 bytes, then a path of up to 4096 with its NUL)" },
	{ "a GHOST record of 32 bytes, shorter than its header", G_GHOST, HDR(len), 32, 8,
	  "GHOST record (type 36, len 32): length 32: not a GHOST record (40 bytes, then a path of up to 4096 with its NUL)" },
	{ "a GHOST with an unknown flag", G_GHOST, GH(flags), 0x2, 4,
	  GHOST_REC "unknown flags 0x2" },
	{ "a linkable GHOST with an unknown flag", G_GHOST, GH(flags), CKPT_GHOST_LINKABLE | 0x80000000U, 4,
	  GHOST_REC "unknown flags 0x80000001" },
	{ "a GHOST's reserved field not 0", G_GHOST, GH(__reserved), 1, 4,
	  GHOST_REC "reserved field 0x1, not 0" },
	{ "a linkable GHOST (CKPT_GHOST_LINKABLE)", G_GHOST, GH(flags), CKPT_GHOST_LINKABLE, 4, NULL },
	{ "a GHOST's path length a byte short of its record", G_GHOST, GH(path_len), 16, 4,
	  GHOST_REC "path length 16, expected 17: the path fills the record after its 40 bytes" },
	{ "a GHOST's path not NUL-terminated", G_GHOST, GPATH(16), 'x', 1,
	  GHOST_REC "a deleted file's path not NUL-terminated at its length 17, or with a NUL before" },
	{ "a GHOST's path with a NUL before its end", G_GHOST, GPATH(4), 0, 1,
	  GHOST_REC "a deleted file's path not NUL-terminated at its length 17, or with a NUL before" },
	{ "a GHOST's path not absolute", G_GHOST, GPATH(0), 'v', 1,
	  GHOST_REC "a deleted file's path \"vvar/log/app.log\": not absolute, or not ending in a name" },
	{ "a GHOST's path ending in a slash", G_GHOST, GPATH(15), '/', 1,
	  GHOST_REC "a deleted file's path \"/var/log/app.lo/\": not absolute, or not ending in a name" },
	{ "a GHOST's mode with a file type", G_GHOST, GH(mode), S_IFREG | MK_GHOST_MODE, 4,
	  GHOST_REC MK_GHOST_PATH ": mode 0100640, more than permissions (07777)" },
	{ "a GHOST's mode with a bit above 07777", G_GHOST, GH(mode), 010640, 4,
	  GHOST_REC MK_GHOST_PATH ": mode 010640, more than permissions (07777)" },
	{ "a GHOST larger than a file can be", G_GHOST, GH(size), 1ULL << 63, 8,
	  GHOST_REC "size 9223372036854775808 with 2 pages: too large or more pages than fit" },
	{ "a GHOST with more pages than its size holds", G_GHOST, GH(size), 4096, 8,
	  GHOST_REC "size 4096 with 2 pages: too large or more pages than fit" },
	{ "a GHOST whose last page is at its size's last byte", G_GHOST, GH(size), 0x2001, 8, NULL },
	{ "a GHOST owned by uid -1", G_GHOST, GH(uid), UINT32_MAX, 4,
	  GHOST_REC MK_GHOST_PATH ": owner 4294967295:100, and -1 is no user or group id" },
	{ "a GHOST owned by gid -1", G_GHOST, GH(gid), UINT32_MAX, 4,
	  GHOST_REC MK_GHOST_PATH ": owner 1000:4294967295, and -1 is no user or group id" },
	{ "a GHOST owned by 0:0", G_GHOST, GH(uid), 0, 8, NULL },
	{ "a GHOST with the root's TASK objref", G_GHOST, HDR(objref), 1, 4,
	  GHOST_REC "objref 1 is zero or already another object's" },
	{ "a GHOST with objref 0", G_GHOST, HDR(objref), 0, 4,
	  GHOST_REC "objref 0 is zero or already another object's" },
	{ "a GHOST counting a page more than its PAGES have", G_GHOST, GH(nr_pages), 3, 8,
	  "FILE record (type 48, len 65): the GHOST before has 2 of its 3 pages" },
	{ "a GHOST counting a page fewer than its PAGES have", G_GHOST, GH(nr_pages), 1, 8,
	  "offset 8192: PAGES record (type 34, len 8176): more pages than its GHOST record says (1)" },
	{ "a GHOST's page offset at its size", G_GHOST, GH(size), 0x2000, 8,
	  "offset 8192: PAGES record (type 34, len 8176): page offset 0x2000 outside its GHOST or out of order" },
	{ "a GHOST's page offsets out of order across PAGES records", G_PAGES1, PAGE1, 0, 8,
	  "offset 8192: PAGES record (type 34, len 8176): page offset 0 outside its GHOST or out of order" },
	{ "a GHOST's pages at offsets 0 and 0x1000, the hole after them", G_PAGES1, PAGE1, 0x1000,
	  8, NULL },
	{ "an unaligned GHOST page offset", G_PAGES1, PAGE1, 0x2001, 8,
	  "offset 8192: PAGES record (type 34, len 8176): page offset 0x2001 outside its GHOST or out of order" },
	{ "a GHOST's page offset beyond its size", G_PAGES1, PAGE1, 0x4000, 8,
	  "offset 8192: PAGES record (type 34, len 8176): page offset 0x4000 outside its GHOST or out of order" },
	{ "a GHOST's PAGES with the task's objref", G_PAGES0, HDR(objref), 1, 4,
	  "offset 3872: PAGES record (type 34, len 4304): objref 1 is not its owner's (6)" },
	{ "a GHOST record after the MM record", G_VMA_SHARED, HDR(type), CKPT_HDR_GHOST, 4,
	  "GHOST record (type 36, len 48): " ORDER },
	{ "a deleted file's file of another mode than the GHOST's", G_FILE, FI(i_mode),
	  S_IFREG | 0644, 4, GHOST_FILE " of mode 0100644, its deleted file's is 0100640" },
	{ "a GHOST of another mode than its file's", G_GHOST, GH(mode), 0600, 4,
	  GHOST_FILE " of mode 0100640, its deleted file's is 0100600" },
	{ "a deleted file's file of a directory's mode", G_FILE, FI(i_mode), S_IFDIR | 0640, 4,
	  GHOST_FILE " of mode 040640, its deleted file's is 0100640" },
	{ "a deleted file's file with an inode number", G_FILE, FI(ino), 7, 8,
	  GHOST_FILE " with a file's identity (ino 7, dev 0, rdev 0, generation 0, size 0 or an mtime): all 0" },
	{ "a deleted file's file with a size", G_FILE, FI(size), MK_GHOST_SIZE, 8,
	  GHOST_FILE " with a file's identity (ino 0, dev 0, rdev 0, generation 0, size 12388 or an mtime): all 0" },
	{ "a deleted file's file with an mtime", G_FILE, FI(mtime_nsec), 1, 4,
	  GHOST_FILE " with a file's identity (ino 0, dev 0, rdev 0, generation 0, size 0 or an mtime): all 0" },
	{ "a deleted file's file opened neither for reading nor for writing", G_FILE, FI(f_flags),
	  3, 4, GHOST_FILE " opened neither for reading nor for writing (flags 03)" },
	{ "a deleted file's file with O_DIRECTORY (an O_TMPFILE file's)", G_FILE, FI(f_flags),
	  0200002, 4, NULL },
	{ "a deleted file's file with O_NOFOLLOW", G_FILE, FI(f_flags), 0400002, 4,
	  GHOST_FILE " with flags 0400002 restart does not open a deleted file with (0400000)" },
	{ "a deleted file's file with FASYNC", G_FILE, FI(f_flags), 020002, 4,
	  GHOST_FILE " with flags 020002 restart does not open a deleted file with (020000)" },
	{ "a deleted file's file opened O_PATH and for reading and writing", G_FILE, FI(f_flags),
	  010000002, 4,
	  GHOST_FILE " opened O_PATH with flags 010000002 beyond O_LARGEFILE (02): open() keeps no other" },
	{ "a shared mapping of a deleted file's file opened O_PATH", G_FILE, FI(f_flags),
	  010100000, 4,
	  "VMA record (type 33, len 48): a shared mapping of " MK_GHOST_PATH " (deleted), opened O_PATH (flags 010100000)" },
	{ "VM_SHARED on a deleted file's file opened read-only", G_FILE, FI(f_flags), 0, 4,
	  "VMA record (type 33, len 48): vm_flags 0xfb: VM_SHARED set, but " MK_GHOST_PATH " (deleted) is open read-only (flags 0): mmap() gives VM_SHARED to a file open for writing only" },
	{ "a deleted file's file with O_NONBLOCK, O_APPEND and O_LARGEFILE", G_FILE, FI(f_flags),
	  0106002, 4, NULL },
	{ "a deleted file's file at offset 100", G_FILE, FI(f_pos), 100, 8, NULL },
	{ "a deleted file's file at a negative offset", G_FILE, FI(f_pos), -1LL, 8,
	  "FILE record (type 48, len 65): negative file offset" },
	{ "a deleted file's file naming no record before it", G_FILE, FI(obj_objref), 999, 4,
	  "FILE record (type 48, len 65): a pipe end, a memfd's or a deleted file's file (no path) of objref 999, which no PIPE, SHMEM or GHOST record before it has" },
	{ "an FD naming the GHOST record, not its file", G_FD, 16 + offsetof(struct ckpt_hdr_fd, file_objref),
	  6, 4, "FD record (type 49, len 16): fd 21 names objref 6, which no FILE record before it has" },
	{ "a file VMA naming the GHOST record, not its file", G_VMA_PRIVATE, VMA(file_objref), 6, 4,
	  "VMA record (type 33, len 48): file objref 6 has no FILE record of a regular file" },
	{ "a shared-anon VMA naming the GHOST record", G_VMA_SHARED, VMA(kind),
	  CKPT_VMA_SHARED_ANON | 6ULL << 32, 8,
	  "VMA record (type 33, len 48): shared memory objref 6 has no SHMEM record before it" },
};

#define NR_GHOST_CASES (sizeof(ghost_cases) / sizeof(ghost_cases[0]))
#define GHOST_RESULTS (1 + 5 + 1 + 4 + (int)NR_GHOST_CASES)

/* The deleted file image, read back (1 result). */
static void ghost_valid(const unsigned char *buf, size_t len)
{
	const struct ci_ghost *gh;
	const struct ci_file *f;
	const struct ci_proc *p;
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && ci.nr_ghosts == 1 && !ci.nr_shmems && ci.nr_procs == 3;

	gh = ok ? &ci.ghosts[0] : NULL;
	f = ci_file_by_ref(&ci, 7);
	p = ci.procs;
	ok = ok && f && gh->objref == 6 && !strcmp(gh->path, MK_GHOST_PATH) &&
	     gh->g.size == MK_GHOST_SIZE && gh->g.nr_pages == 2 && gh->pages == 2 &&
	     gh->g.mode == MK_GHOST_MODE && gh->g.uid == MK_GHOST_UID &&
	     gh->g.gid == MK_GHOST_GID && gh->g.path_len == sizeof(MK_GHOST_PATH) &&
	     !gh->g.flags && !gh->g.__reserved && gh->proc == 0 && ci_ghost_by_ref(&ci, 6) == gh &&
	     f->kind == CI_FILE_GHOST && ci_file_ghost(&ci, f) == gh && !ci_file_memfd(&ci, f) &&
	     !f->path[0] && f->f.i_mode == (S_IFREG | MK_GHOST_MODE) &&
	     p[0].nr_vmas == 3 && p[0].vmas[1].v.kind == CKPT_VMA_SHARED_FILE &&
	     p[0].vmas[2].v.kind == CKPT_VMA_FILE &&
	     ci_vma_ghost(&ci, &p[0].vmas[1].v) == 6 && ci_vma_ghost(&ci, &p[0].vmas[2].v) == 6 &&
	     !ci_vma_shmem(&ci, &p[0].vmas[1].v) && !ci_vma_ghost(&ci, &p[0].vmas[0].v) &&
	     ci_proc_maps(&ci, &p[0], 6) && !ci_proc_maps(&ci, &p[1], 6) &&
	     p[0].nr_fds == 4 && p[0].fds[3].fd == 21 && p[0].fds[3].file_objref == 7 &&
	     p[0].nr_ghosts == 1 && p[1].nr_ghosts == 0 && p[0].nr_files == 4 &&
	     p[0].pages == 2 && ci.pages == 3 + 1 + 2;
	tap_ok(ok, "a deleted file of the root (its GHOST with 2 pages and holes, a file open on it as fd 21, a shared-file and a private file VMA on that file): valid, read back%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/*
 * The JSON of the deleted file image, read by python3: "ghosts" has it
 * (path, size, pages, mode, owner, not linkable, saved with, mapped by), fd 21 and
 * both VMAs name it (at the top level and in "processes"), no other fd
 * does, and --records names the GHOST record.
 */
static const char ghost_json_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"g = {'objref': 6, 'path': '/var/log/app.log', 'size': 12388, 'nr_pages': 2,"
	" 'mode': '0640', 'uid': 1000, 'gid': 100, 'linkable': False, 'saved_with': 100,"
	" 'mapped_by': [100]}\n"
	"ok = d['ghosts'] == [g] and d['shmem'] == []\n"
	"for p in (d, d['processes'][0]):\n"
	"    fd = [f for f in p['fds'] if f['ghost'] is not None]\n"
	"    ok = ok and [(f['fd'], f['path'], f['ghost'], f['memfd'], f['pipe'], f['mode'],"
	" f['file']) for f in fd] == [(21, '/var/log/app.log (deleted)', 6, None, None,"
	" 0o100640, 7)]\n"
	"    v = [(m['kind'], m['file'], m['offset'], m['pages']) for m in p['mm']['vmas']"
	" if m.get('ghost') == 6]\n"
	"    ok = ok and v == [('shared-file', '/var/log/app.log (deleted)', 0, 0),"
	" ('file', '/var/log/app.log (deleted)', 4096, 1)]\n"
	"ok = ok and all(f['ghost'] is None for p in d['processes'][1:] for f in p['fds'])\n"
	"ok = ok and [r['objref'] for r in d['records'] if r['type'] == 'GHOST'"
	" and r['type_id'] == 36] == [6]\n"
	"print('ghost ok' if ok else 'ghost differs: %r %r' % (d['ghosts'], d['fds'][-1]))\n";

/* ckptinfo shows the deleted file, its file and the VMAs mapping it (5 results). */
static void ghost_cli(const struct mk_spec *s, const unsigned char *buf, size_t len)
{
	static const char *const summary[] = {
		"  `-130 zombie (status 1792) exit 7 pgid 100 sid 100\ndeleted files: 1\n"
		"  ghost 6: /var/log/app.log (deleted), 12388 bytes, 2 pages, mode 0640, owner 1000:100, saved with 100, mapped by 100\n"
		"task: pid 100, ",
		"memory: 3 VMAs, 2 pages;",
		"  000000060000-000000064000 rw-s shared-file      0 pages  /var/log/app.log (deleted) @0\n",
		"  000000070000-000000072000 rw-p file      1 pages  /var/log/app.log (deleted) @0x1000\n",
		"files: 4 open files, 4 descriptors\n",
	};
	static char out[1 << 16];
	int ret;

	ret = run_spec(s, "", out, sizeof(out));
	tap_ok(!ret && each_once(out, summary, sizeof(summary) / sizeof(summary[0])) &&
	       count(out, "(deleted)") == 4 && strstr(out, " records, 6 pages, "),
	       "the summary shows the deleted file once (path, size, pages, mode, owner, mapped by) and both VMAs as PATH (deleted) (exit %d)",
	       ret);
	tap_ok(!ret && count(out, "  fd 21  /var/log/app.log (deleted) (ghost 6)  flags 02  pos 0\n") == 1,
	       "the summary shows fd 21 as PATH (deleted) (ghost 6) (exit %d)", ret);
	ret = run_spec(s, "--records", out, sizeof(out));
	tap_ok(!ret && count(out, " type=GHOST(36) len=57 objref=6\npos=3872 type=PAGES(34) len=4304 objref=6\npos=8192 type=PAGES(34) len=8176 objref=6\n") == 1 &&
	       count(out, " objref=6\n") == 3,
	       "--records: the GHOST record and its 2 PAGES records (exit %d)", ret);
	ret = run_spec(s, "--json", out, sizeof(out));
	/* the root's keys twice: at the top level and in "processes" */
	tap_ok(!ret && count(out, "\"ghosts\": [{\"objref\": 6, \"path\": \"/var/log/app.log\", \"size\": 12388, \"nr_pages\": 2, \"mode\": \"0640\", \"uid\": 1000, \"gid\": 100, \"linkable\": false, \"saved_with\": 100, \"mapped_by\": [100]}]") == 1 &&
	       count(out, "{\"fd\": 21, \"path\": \"/var/log/app.log (deleted)\", \"flags\": 2, \"mode\": 33184, \"pos\": 0, \"cloexec\": false, \"file\": 7, \"pipe\": null, \"memfd\": null, \"ghost\": 6, \"eventfd\": null, ") == 2 &&
	       count(out, "\"kind\": \"shared-file\", \"pages\": 0, \"vm_flags\": \"0xfb\", \"file\": \"/var/log/app.log (deleted)\", \"offset\": 0, \"ghost\": 6}") == 2 &&
	       count(out, "\"kind\": \"file\", \"pages\": 1, \"vm_flags\": \"0x73\", \"file\": \"/var/log/app.log (deleted)\", \"offset\": 4096, \"ghost\": 6}") == 2,
	       "--json: \"ghosts\" has the deleted file, fd 21 its \"ghost\" and path, each VMA its file and \"ghost\" (exit %d)",
	       ret);
	ret = json_buf(buf, len, "--records", ghost_json_check, out, sizeof(out));
	tap_ok(!ret && strstr(out, "ghost ok\n"),
	       "--json parsed by python3: \"ghosts\", the fd's and the VMAs' \"ghost\", the GHOST record (\"%.200s\")",
	       out);
}

/*
 * A linkable deleted file (CKPT_GHOST_LINKABLE) in the image of @spec:
 * valid, "linkable" in the summary and the JSON, once (2 results).
 */
static void ghost_linkable(const struct mk_spec *spec)
{
	static const struct {
		const char *opts, *want, *word, *what;
	} shown[] = {
		{ "", "  ghost 6: /var/log/app.log (deleted), 12388 bytes, 2 pages, mode 0640, owner 1000:100, linkable, saved with 100, mapped by 100\n",
		  "linkable", "the summary says linkable" },
		{ "--json", "\"ghosts\": [{\"objref\": 6, \"path\": \"/var/log/app.log\", \"size\": 12388, \"nr_pages\": 2, \"mode\": \"0640\", \"uid\": 1000, \"gid\": 100, \"linkable\": true, \"saved_with\": 100, \"mapped_by\": [100]}]",
		  "\"linkable\"", "--json: \"linkable\": true" },
	};
	static char out[1 << 16];
	struct mk_spec s = *spec;
	size_t i;
	int ret;

	s.ghost_linkable = true;
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		ret = run_spec(&s, shown[i].opts, out, sizeof(out));
		tap_ok(!ret && count(out, shown[i].want) == 1 && count(out, shown[i].word) == 1,
		       "a linkable deleted file (CKPT_GHOST_LINKABLE): valid, %s (exit %d)",
		       shown[i].what, ret);
	}
}

/*
 * A deleted file held by the root, open as fd 21 and mapped shared and
 * privately through that file: valid, shown in the summary, --records
 * and --json (read back by python3); an empty one valid; a linkable
 * one shown as such; each rule of its GHOST record, of its FILE record
 * and of what names them broken in turn.
 */
static void ghost_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .ghost = true,
			     .ghost_private = true };
	unsigned char *buf;
	size_t len, pos[NR_G];
	struct ci_image ci;
	int ret;

	buf = valid_image(&s, "the deleted file image", &ci, ghost_at, NR_G, pos, &len);
	if (!pos[G_GHOST] || pos[G_PAGES0] < pos[G_GHOST] || pos[G_FILE] < pos[G_PAGES1] ||
	    !pos[G_FD] || !pos[G_VMA_PRIVATE] || !pos[G_MM] || ci.ghosts[0].objref != 6 ||
	    !ci_file_by_ref(&ci, 7) || strcmp(ci_file_by_ref(&ci, 8)->path, "/tmp/cwd.100"))
		tap_bail("the deleted file image lacks a record, or its objrefs moved");
	ci_free(&ci);

	ghost_valid(buf, len);
	ghost_cli(&s, buf, len);
	exe_named(buf, len, pos[G_MM], 7, "/var/log/app.log (deleted)",
		  "a deleted file's file (an upgrade replaced it)");
	patch_cases(buf, len, pos, ghost_cases, NR_GHOST_CASES);
	free(buf);

	s.ghost_private = false;
	s.ghost_empty = true;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  ghost 6: /var/log/app.log (deleted), 0 bytes, 0 pages, mode 0640, owner 1000:100, saved with 100, mapped by 100\n") == 1,
	       "an empty deleted file, no page: valid (exit %d)", ret);
	s.ghost_empty = false;
	ghost_linkable(&s);
	s.memfd = true;
	s.shared_file = true;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  shmem 6: memfd \"buf\", ") == 1 &&
	       count(out, "  ghost 8: /var/log/app.log (deleted), ") == 1 &&
	       count(out, "  fd 20  memfd:buf (shmem 6)  flags 02  pos 0\n") == 1 &&
	       count(out, "  fd 21  /var/log/app.log (deleted) (ghost 8)  flags 02  pos 0\n") == 1 &&
	       count(out, "memory: 4 VMAs, 1 pages;") == 1,
	       "a memfd, a deleted file and a shared mapping of a regular file together: valid, each named as its own (exit %d)",
	       ret);
}

/* The records of the FOWN image that fown_cases change: the pipe end's, the socketpair end's. */
enum { W_PIPE, W_UNIX, NR_W };
static const struct rec_at fown_at[NR_W] = {
	[W_PIPE] = { CKPT_HDR_FOWN, 0 }, [W_UNIX] = { CKPT_HDR_FOWN, 1 },
};

#define FW(m) (16 + offsetof(struct ckpt_hdr_fown, m))
#define FOWN_REC "FOWN record (type 60, len 16): "

/*
 * Each rule of a FOWN record broken in turn on the FOWN image (the pipe's
 * read end, objref 6, the write end 7 after it; the socketpair's ends 8
 * and 9), and what it may be.
 */
static const struct patch_case fown_cases[] = {
	{ "a FOWN record of 8 bytes", W_UNIX, HDR(len), 8, 8,
	  "FOWN record (type 60, len 8): length 8, expected 16" },
	{ "a FOWN record of 24 bytes", W_UNIX, HDR(len), 24, 8,
	  "FOWN record (type 60, len 24): length 24, expected 16" },
	{ "a FOWN record naming no object", W_UNIX, HDR(objref), 999, 4,
	  FOWN_REC "objref 999 names no file saved before it" },
	{ "a FOWN record naming a PIPE (a pipe is no file: its ends are)", W_PIPE,
	  HDR(objref), MK_PIPE_REF, 4,
	  FOWN_REC "objref 100 names no file saved before it" },
	{ "a FOWN record naming a file saved after it (the pipe's write end)", W_PIPE,
	  HDR(objref), 7, 4, FOWN_REC "objref 7 names no file saved before it" },
	{ "a FOWN record naming the files table", W_UNIX, HDR(objref), 2, 4,
	  FOWN_REC "objref 2 names no file saved before it" },
	{ "a FOWN record of the other end of the socketpair", W_UNIX,
	  HDR(objref), 9, 4, NULL },
	{ "a FOWN record of the pipe's read end where the socketpair's was (its second)", W_UNIX,
	  HDR(objref), 6, 4,
	  FOWN_REC "a second FOWN record for file 6 (one per file)" },
	{ "owner 3", W_UNIX, FW(owner), 3, 4,
	  FOWN_REC "owner 3: not CKPT_FOWN_NONE, CKPT_FOWN_PROCESS or CKPT_FOWN_THREAD (0 to 2)" },
	{ "no owner, SIGUSR1 with O_ASYNC", W_UNIX, FW(owner), CKPT_FOWN_NONE, 4, NULL },
	{ "signal 65", W_UNIX, FW(signum), 65, 4,
	  FOWN_REC "signal 65: not 0 (SIGIO) nor a signal (1 to 64)" },
	{ "signal -1", W_UNIX, FW(signum), (uint32_t)-1, 4,
	  FOWN_REC "signal -1: not 0 (SIGIO) nor a signal (1 to 64)" },
	{ "signal 64 (SIGRTMAX)", W_UNIX, FW(signum), 64, 4, NULL },
	{ "flags 0x2", W_UNIX, FW(flags), CKPT_FOWN_ASYNC | 2, 4,
	  FOWN_REC "unknown flags 0x3 (only CKPT_FOWN_ASYNC, 0x1)" },
	{ "O_ASYNC with fd -1", W_UNIX, FW(fd), (uint32_t)-1, 4,
	  FOWN_REC "fd -1 with CKPT_FOWN_ASYNC: a descriptor (0 or more) with it, -1 without" },
	{ "O_ASYNC with fd 0", W_UNIX, FW(fd), 0, 4, NULL },
	{ "an fd without O_ASYNC", W_PIPE, FW(fd), 4, 4,
	  FOWN_REC "fd 4 without CKPT_FOWN_ASYNC: a descriptor (0 or more) with it, -1 without" },
	{ "O_ASYNC cleared, its fd kept", W_UNIX, FW(flags), 0, 4,
	  FOWN_REC "fd 11 without CKPT_FOWN_ASYNC" },
	{ "no owner, no signal, no O_ASYNC", W_PIPE, FW(owner), CKPT_FOWN_NONE, 4,
	  FOWN_REC "no owner, no signal and no O_ASYNC: a record that says nothing" },
};

#define NR_FOWN_CASES (sizeof(fown_cases) / sizeof(fown_cases[0]))
#define FOWN_RESULTS (3 + (int)NR_FOWN_CASES + 2)

/*
 * The JSON of the FOWN image, read by python3: fd 11's "owner" the
 * process's, SIGUSR1, O_ASYNC, si_fd 11; fd 4's its main thread's, the
 * default signal; every other fd's null; at the top level and in
 * "processes".
 */
static const char fown_json_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"want = {11: {'owner': 'process', 'signum': 10, 'async': True, 'fd': 11},"
	" 4: {'owner': 'thread', 'signum': 0, 'async': False, 'fd': None}}\n"
	"ok = True\n"
	"for fds in (d['fds'], d['processes'][0]['fds']):\n"
	"    ok = ok and all(f['owner'] == want.get(f['fd']) for f in fds)\n"
	"    ok = ok and all(list(f['owner']) == ['owner', 'signum', 'async', 'fd']"
	" for f in fds if f['owner'])\n"
	"    ok = ok and list(fds[0])[-3:] == ['locks', 'owner', 'shared_with']\n"
	"ok = ok and all(f['owner'] is None for p in d['processes'][1:] for f in p['fds'])\n"
	"print('fown ok' if ok else 'fown differ: %r' % [f.get('owner') for f in d['fds']])\n";

/*
 * The root's pipe read end owned by its main thread (the default
 * signal), its socketpair's first end by the process (SIGUSR1, O_ASYNC):
 * valid, shown under their descriptors and in --json (read by python3);
 * each rule of a FOWN record broken in turn; a FOWN record twice for a
 * file, and one in a later process's records naming a file saved with
 * the root, refused.
 */
static void fown_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .pipe = true, .unix_pair = true,
			     .unix_end = { unix_stream[0], unix_stream[1] },
			     .fown_unix = true, .fown_pipe = true };
	const char *const lines[] = {
		"  fd 4   pipe 100, read end  flags 0  pos 0\n"
		"    owner: its main thread (F_SETOWN_EX F_OWNER_TID), signal SIGIO (default)\n"
		"  fd 5   pipe 100, write end  flags 01  pos 0\n",
		"shut down for reading  flags 02  pos 0\n"
		"    owner: the process (F_SETOWN), signal SIGUSR1, O_ASYNC (si_fd 11)\n"
		"  fd 12  unix stream socket",
		"    owner: ",
	};
	unsigned char *buf;
	size_t len, pos[NR_W];
	struct ci_image ci;
	const struct ci_file *rd, *end;
	int ret;

	buf = valid_image(&s, "the FOWN image", &ci, fown_at, NR_W, pos, &len);
	rd = ci_file_by_ref(&ci, 6);
	end = ci_file_by_ref(&ci, 8);
	if (!pos[W_PIPE] || !pos[W_UNIX] || !rd || rd->kind != CI_FILE_PIPE || !end ||
	    end->kind != CI_FILE_UNIX || !ci_file_by_ref(&ci, 7) || !ci_file_by_ref(&ci, 9))
		tap_bail("the FOWN image lacks a record, or its objrefs moved");
	tap_ok(rd->has_fown && rd->fown.owner == CKPT_FOWN_THREAD && !rd->fown.signum &&
	       !rd->fown.flags && rd->fown.fd == -1 && end->has_fown &&
	       end->fown.owner == CKPT_FOWN_PROCESS && end->fown.signum == MK_FOWN_SIG &&
	       end->fown.flags == CKPT_FOWN_ASYNC && end->fown.fd == 11 &&
	       !ci_file_by_ref(&ci, 7)->has_fown && !ci_file_by_ref(&ci, 9)->has_fown,
	       "FOWN records of a pipe end and a socketpair end: valid, each its file's");
	ci_free(&ci);
	tap_ok(shown_and_json(buf, len, lines, 2, fown_json_check, "fown ok\n", out, sizeof(out)),
	       "FOWN: shown under the file's first descriptor, and as each fd's \"owner\" in --json, parsed by python3 (\"%.300s\")",
	       out);
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, lines[2]) == 2, "FOWN: an owner line for each file that has one, none for the others (exit %d)",
	       ret);
	patch_cases(buf, len, pos, fown_cases, NR_FOWN_CASES);
	free(buf);

	s.fown_twice = true;
	refused("two FOWN records for a file", &s, "a second FOWN record for file 8 (one per file)");
	s.fown_twice = false;
	s.fown_elsewhere = true;
	refused("a FOWN record of /dev/null (not a pipe, FIFO or socket)", &s,
		"objref 4: not a pipe end, a FIFO's file or a socket (the files an owner, signal and O_ASYNC are saved for)");
	s.fown_elsewhere = false;
}

/*
 * The records of the SysV shared memory image that sysvshm_cases change:
 * the root's SYSVSHM, its 2 PAGES and SHM_ATTACH, the root's two VMAs of
 * the attach (read-write, read-only), the child's first, the root's first
 * FD and MM.
 */
enum { V_SEG, V_PAGES0, V_PAGES1, V_ATTACH, V_VMA_RW, V_VMA_RO, V_VMA_CHILD, V_FD, V_MM, NR_V };
static const struct rec_at sysvshm_at[NR_V] = {
	[V_SEG] = { CKPT_HDR_SYSVSHM, 0 }, [V_PAGES0] = { CKPT_HDR_PAGES, 0 },
	[V_PAGES1] = { CKPT_HDR_PAGES, 1 }, [V_ATTACH] = { CKPT_HDR_SHM_ATTACH, 0 },
	[V_VMA_RW] = { CKPT_HDR_VMA, 1 }, [V_VMA_RO] = { CKPT_HDR_VMA, 2 },
	[V_VMA_CHILD] = { CKPT_HDR_VMA, 4 }, [V_FD] = { CKPT_HDR_FD, 0 },
	[V_MM] = { CKPT_HDR_MM, 0 },
};

#define SV(m) (16 + offsetof(struct ckpt_hdr_sysvshm, m))
#define SA(m) (16 + offsetof(struct ckpt_hdr_shm_attach, m))
#define SYSVSHM_REC "SYSVSHM record (type 37, len 72): "
#define ATTACH_REC "SHM_ATTACH record (type 38, len 8): "
#define SEGMENT "SYSVSHM record (type 37, len 72): segment 32769: "
#define SYSV_VMA "VMA record (type 33, len 48): "
#define SYSV_FLAGS "a SysV shared memory mapping without VM_MAYSHARE, growing down, accounted, wiped on fork or with flags restart does not give back"

/*
 * Each rule of the SYSVSHM and SHM_ATTACH records and of a sysvshm VMA
 * broken in turn on the SysV shared memory image (the root's objrefs:
 * TASK 1, /dev/null 4, /tmp/out.100 5, SYSVSHM 7, SHM_ATTACH 8), and what
 * they may be.
 */
static const struct patch_case sysvshm_cases[] = {
	{ "a SYSVSHM record of 64 bytes", V_SEG, HDR(len), 64, 8,
	  "SYSVSHM record (type 37, len 64): length 64, expected 72" },
	{ "a SYSVSHM record of 80 bytes", V_SEG, HDR(len), 80, 8,
	  "SYSVSHM record (type 37, len 80): length 80, expected 72" },
	{ "a SYSVSHM record of objref 0", V_SEG, HDR(objref), 0, 4,
	  SYSVSHM_REC "objref 0 is zero or already another object's" },
	{ "a SYSVSHM record with the root's TASK objref", V_SEG, HDR(objref), 1, 4,
	  SYSVSHM_REC "objref 1 is zero or already another object's" },
	{ "a segment id -1", V_SEG, SV(id), (uint32_t)-1, 4,
	  SYSVSHM_REC "segment id -1: no IPC id (0 or more)" },
	{ "a segment id 0", V_SEG, SV(id), 0, 4, NULL },
	{ "an empty segment", V_SEG, SV(size), 0, 8,
	  SYSVSHM_REC "size 0 with 2 pages: empty, too large or more pages than fit" },
	{ "a segment larger than a file can be", V_SEG, SV(size), 1ULL << 63, 8,
	  SYSVSHM_REC "size 9223372036854775808 with 2 pages: empty, too large or more pages than fit" },
	{ "a segment with more pages than its size holds", V_SEG, SV(size), 4096, 8,
	  SYSVSHM_REC "size 4096 with 2 pages: empty, too large or more pages than fit" },
	{ "a segment of 8193 bytes, its last page saved", V_SEG, SV(size), 8193, 8, NULL },
	{ "a page offset at the segment's size", V_SEG, SV(size), 8192, 8,
	  "PAGES record (type 34, len 8176): page offset 0x2000 outside its SYSVSHM or out of order" },
	{ "a SYSVSHM counting a page more than its PAGES have", V_SEG, SV(nr_pages), 3, 8,
	  ATTACH_REC "the SYSVSHM before has 2 of its 3 pages" },
	{ "a SYSVSHM counting a page fewer than its PAGES have", V_SEG, SV(nr_pages), 1, 8,
	  "PAGES record (type 34, len 8176): more pages than its SYSVSHM record says (1)" },
	{ "a SYSVSHM counting no page, its PAGES after it", V_SEG, SV(nr_pages), 0, 8,
	  "more pages than its SYSVSHM record says (0)" },
	{ "a segment's mode with SHM_DEST (01000)", V_SEG, SV(mode), 01640, 4,
	  SEGMENT "mode 01640, more than permissions (0777)" },
	{ "a segment's mode 0777", V_SEG, SV(mode), 0777, 4, NULL },
	{ "a segment with unknown flags", V_SEG, SV(flags), 0x4, 4, SEGMENT "unknown flags 0x4" },
	{ "a segment made SHM_NORESERVE", V_SEG, SV(flags), CKPT_SYSVSHM_NORESERVE, 4, NULL },
	{ "a segment removed (IPC_RMID), its key kept", V_SEG, SV(flags), CKPT_SYSVSHM_REMOVED, 4,
	  SEGMENT "removed (CKPT_SYSVSHM_REMOVED) with key 0x5eed: IPC_RMID leaves a segment the key IPC_PRIVATE (0)" },
	{ "a segment of key IPC_PRIVATE, not removed", V_SEG, SV(key), 0, 4, NULL },
	{ "a segment of owner -1", V_SEG, SV(uid), (uint32_t)-1, 4,
	  SEGMENT "owner 4294967295:100, and -1 is no user or group id" },
	{ "a segment of group -1", V_SEG, SV(gid), (uint32_t)-1, 4,
	  SEGMENT "owner 1000:4294967295, and -1 is no user or group id" },
	{ "a segment of creator -1", V_SEG, SV(cuid), (uint32_t)-1, 4,
	  SEGMENT "creator 4294967295:101, and -1 is no user or group id" },
	{ "a segment of creator group -1", V_SEG, SV(cgid), (uint32_t)-1, 4,
	  SEGMENT "creator 1001:4294967295, and -1 is no user or group id" },
	{ "a segment owned by root", V_SEG, SV(uid), 0, 4, NULL },
	{ "a segment's times all 0 (never attached, never detached)", V_SEG, SV(atime), 0, 8, NULL },
	{ "a segment's page offsets out of order across PAGES records", V_PAGES1, PAGE1, 0, 8,
	  "PAGES record (type 34, len 8176): page offset 0 outside its SYSVSHM or out of order" },
	{ "an unaligned segment page offset", V_PAGES1, PAGE1, 0x2001, 8,
	  "page offset 0x2001 outside its SYSVSHM or out of order" },
	{ "a segment page offset beyond its size", V_PAGES1, PAGE1, 0x3000, 8,
	  "page offset 0x3000 outside its SYSVSHM or out of order" },
	{ "a segment's pages at offsets 0 and 0x1000, the hole after them", V_PAGES1, PAGE1,
	  0x1000, 8, NULL },
	{ "a segment's PAGES with the task's objref", V_PAGES0, HDR(objref), 1, 4,
	  "objref 1 is not its owner's (7)" },
	{ "a SYSVSHM record after the MM record", V_VMA_RW, HDR(type), CKPT_HDR_SYSVSHM, 4,
	  "SYSVSHM record (type 37, len 48): " ORDER },
	{ "a SHM_ATTACH record of 16 bytes", V_ATTACH, HDR(len), 16, 8,
	  "SHM_ATTACH record (type 38, len 16): length 16, expected 8" },
	{ "a SHM_ATTACH record of 4 bytes", V_ATTACH, HDR(len), 4, 8,
	  "SHM_ATTACH record (type 38, len 4): length 4, expected 8" },
	{ "a SHM_ATTACH record of objref 0", V_ATTACH, HDR(objref), 0, 4,
	  ATTACH_REC "objref 0 is zero or already another object's" },
	{ "a SHM_ATTACH record with its segment's objref", V_ATTACH, HDR(objref), 7, 4,
	  ATTACH_REC "objref 7 is zero or already another object's" },
	{ "a SHM_ATTACH naming no record", V_ATTACH, SA(shm_objref), 999, 4,
	  ATTACH_REC "segment objref 999 has no SYSVSHM record before it" },
	{ "a SHM_ATTACH naming a FILE", V_ATTACH, SA(shm_objref), 4, 4,
	  ATTACH_REC "segment objref 4 has no SYSVSHM record before it" },
	{ "a SHM_ATTACH naming itself", V_ATTACH, SA(shm_objref), 8, 4,
	  ATTACH_REC "segment objref 8 has no SYSVSHM record before it" },
	{ "a SHM_ATTACH with unknown flags", V_ATTACH, SA(flags), 0x3, 4,
	  ATTACH_REC "unknown flags 0x3 (only CKPT_SHM_ATTACH_RDONLY, 0x1)" },
	{ "a read-only attach (SHM_RDONLY) mapped VM_SHARED", V_ATTACH, SA(flags),
	  CKPT_SHM_ATTACH_RDONLY, 4,
	  SYSV_VMA "vm_flags 0xfb: VM_SHARED set, but attach 8 of segment 32769 is read-only: shmat() maps a read-write attach VM_SHARED, a read-only one (SHM_RDONLY) without it" },
	{ "a SHM_ATTACH record after the MM record", V_VMA_RW, HDR(type), CKPT_HDR_SHM_ATTACH, 4,
	  "SHM_ATTACH record (type 38, len 48): " ORDER },
	{ "a sysvshm VMA naming no record", V_VMA_RW, VMA(file_objref), 999, 4,
	  SYSV_VMA "SysV shared memory attach objref 999 has no SHM_ATTACH record before it" },
	{ "a sysvshm VMA naming the SYSVSHM, not its attach", V_VMA_RW, VMA(file_objref), 7, 4,
	  SYSV_VMA "SysV shared memory attach objref 7 has no SHM_ATTACH record before it" },
	{ "a sysvshm VMA naming a FILE", V_VMA_CHILD, VMA(file_objref), 5, 4,
	  SYSV_VMA "SysV shared memory attach objref 5 has no SHM_ATTACH record before it" },
	{ "a sysvshm VMA with pages of its own", V_VMA_RW, VMA(nr_pages), 1, 8,
	  SYSV_VMA "1 pages do not fit this VMA" },
	{ "a sysvshm VMA without VM_MAYSHARE", V_VMA_RW, VMA(vm_flags),
	  MK_SYSVSHM_FLAGS & ~0x80ULL, 8, SYSV_VMA "vm_flags 0x7b: " SYSV_FLAGS },
	{ "a sysvshm VMA that grows down", V_VMA_RW, VMA(vm_flags), MK_SYSVSHM_FLAGS | 0x100, 8,
	  SYSV_VMA "vm_flags 0x1fb: " SYSV_FLAGS },
	{ "a sysvshm VMA accounted (VM_ACCOUNT)", V_VMA_RO, VMA(vm_flags),
	  MK_SYSVSHM_RO_FLAGS | 0x100000, 8, SYSV_VMA "vm_flags 0x1000f9: " SYSV_FLAGS },
	{ "a sysvshm VMA wiped on fork (VM_WIPEONFORK)", V_VMA_CHILD, VMA(vm_flags),
	  MK_SYSVSHM_FLAGS | 0x2000000, 8, SYSV_VMA "vm_flags 0x20000fb: " SYSV_FLAGS },
	{ "a sysvshm VMA with VM_IO, which restart does not give back", V_VMA_RW, VMA(vm_flags),
	  MK_SYSVSHM_FLAGS | 0x4000, 8, SYSV_VMA "vm_flags 0x40fb: " SYSV_FLAGS },
	{ "a sysvshm VMA locked (VM_LOCKED)", V_VMA_RO, VMA(vm_flags), MK_SYSVSHM_RO_FLAGS | 0x2000,
	  8, NULL },
	{ "a sysvshm VMA executable (SHM_EXEC)", V_VMA_RW, VMA(vm_flags), MK_SYSVSHM_FLAGS | 0x4,
	  8, NULL },
	{ "a writable sysvshm VMA without VM_SHARED", V_VMA_RW, VMA(vm_flags),
	  MK_SYSVSHM_FLAGS & ~0x8ULL, 8,
	  SYSV_VMA "vm_flags 0xf3: a writable mapping of segment 32769 (attach 8) without VM_SHARED" },
	{ "a read-only sysvshm VMA of a read-write attach without VM_SHARED", V_VMA_RO,
	  VMA(vm_flags), MK_SYSVSHM_RO_FLAGS & ~0x8ULL, 8,
	  SYSV_VMA "vm_flags 0xf1: VM_SHARED clear, but attach 8 of segment 32769 is read-write" },
	{ "a shared-anon VMA naming the attach", V_VMA_RW, VMA(kind),
	  CKPT_VMA_SHARED_ANON | 8ULL << 32, 8,
	  SYSV_VMA "shared memory objref 8 has no SHMEM record before it" },
	{ "a shared-file VMA naming the attach", V_VMA_RW, VMA(kind),
	  CKPT_VMA_SHARED_FILE | 8ULL << 32, 8,
	  SYSV_VMA "file objref 8 has no FILE record of a regular file" },
	{ "a file VMA naming the segment", V_VMA_RO, VMA(kind), CKPT_VMA_FILE | 7ULL << 32, 8,
	  SYSV_VMA "file objref 7 has no FILE record of a regular file" },
	{ "an FD naming the attach", V_FD, 16 + offsetof(struct ckpt_hdr_fd, file_objref), 8, 4,
	  "FD record (type 49, len 16): fd 0 names objref 8, which no FILE record before it has" },
	{ "the executable the attach", V_MM, MMH(exe_objref), 8, 4,
	  "MM record (type 32, len 624): executable objref 8 has no FILE record of a regular file" },
};

#define NR_SYSVSHM_CASES (sizeof(sysvshm_cases) / sizeof(sysvshm_cases[0]))

/* The SysV shared memory image, read back (1 result). */
static void sysvshm_valid(const unsigned char *buf, size_t len)
{
	const struct ci_sysvshm *seg;
	const struct ci_shm_attach *at;
	const struct ci_proc *p;
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && ci.nr_sysvshms == 1 && ci.nr_shm_attaches == 1 && ci.nr_procs == 3;

	seg = ok ? &ci.sysvshms[0] : NULL;
	at = ok ? &ci.shm_attaches[0] : NULL;
	p = ci.procs;
	ok = ok && seg->objref == 7 && seg->proc == 0 && seg->s.id == MK_SYSVSHM_ID &&
	     seg->s.key == MK_SYSVSHM_KEY && seg->s.size == MK_SYSVSHM_SIZE &&
	     seg->s.nr_pages == 2 && seg->pages == 2 && seg->attaches == 1 &&
	     seg->s.mode == MK_SYSVSHM_MODE && seg->s.uid == MK_SYSVSHM_UID &&
	     seg->s.gid == MK_SYSVSHM_GID && seg->s.cuid == MK_SYSVSHM_CUID &&
	     seg->s.cgid == MK_SYSVSHM_CGID && seg->s.ctime == MK_SYSVSHM_CTIME &&
	     !seg->s.flags && ci_sysvshm_by_ref(&ci, 7) == seg &&
	     at->objref == 8 && at->proc == 0 && at->a.shm_objref == 7 && !at->a.flags &&
	     ci_shm_attach_by_ref(&ci, 8) == at && !ci_shm_attach_by_ref(&ci, 7) &&
	     p[0].nr_vmas == 3 && p[1].nr_vmas == 3 && p[2].nr_vmas == 1 &&
	     ci_vma_shm_attach(&ci, &p[0].vmas[1].v) == at &&
	     ci_vma_shm_attach(&ci, &p[0].vmas[2].v) == at &&
	     ci_vma_shm_attach(&ci, &p[1].vmas[2].v) == at &&
	     !ci_vma_shm_attach(&ci, &p[0].vmas[0].v) &&
	     ci_vma_object(&ci, &p[1].vmas[1].v) == 7 && !ci_vma_shmem(&ci, &p[0].vmas[1].v) &&
	     ci_proc_maps(&ci, &p[0], 7) && ci_proc_maps(&ci, &p[1], 7) &&
	     !ci_proc_maps(&ci, &p[2], 7) && p[0].pages == 1 && ci.pages == 3 + 2;
	tap_ok(ok, "a SysV segment saved with the root (2 pages, a hole), one attach, its two VMAs in the root and the child: valid, read back%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/*
 * The JSON of the SysV shared memory image, read by python3: "sysvshm"
 * has the segment, its keys in order; the root's and the child's VMAs of
 * the attach name it (at the top level and in "processes"), no other VMA
 * does; with --records, "records" names the SYSVSHM and SHM_ATTACH
 * records ("records ok").
 */
static const char sysvshm_json_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"s = {'objref': 7, 'id': 32769, 'key': 0x5eed, 'size': 12288, 'nr_pages': 2,"
	" 'mode': '0640', 'uid': 1000, 'gid': 100, 'cuid': 1001, 'cgid': 101,"
	" 'atime': 1700000100, 'dtime': 1700000050, 'ctime': 1700000000, 'removed': False,"
	" 'noreserve': False, 'attaches': 1, 'saved_with': 100, 'mapped_by': [100, 110]}\n"
	"ok = d['sysvshm'] == [s] and list(d['sysvshm'][0]) == list(s)\n"
	"a = {'objref': 7, 'id': 32769, 'attach': 8, 'rdonly': False}\n"
	"want = [('0x80000', 'rw-s', 0), ('0x81000', 'r--s', 4096)]\n"
	"for p in (d, d['processes'][0], d['processes'][1]):\n"
	"    v = [(m['start'], m['prot'], m['offset']) for m in p['mm']['vmas']"
	" if m['kind'] == 'sysvshm' and m['sysvshm'] == a and m['file'] is None]\n"
	"    ok = ok and v == want\n"
	"ok = ok and all('sysvshm' not in m for p in d['processes'] for m in p['mm']['vmas']"
	" if m['kind'] != 'sysvshm')\n"
	"print('sysvshm ok' if ok else 'sysvshm differs: %r' % d['sysvshm'])\n"
	"if 'records' in d and [(r['type'], r['type_id'], r['len'], r['objref']) for r in d['records']"
	" if r['type'] in ('SYSVSHM', 'SHM_ATTACH')] == [('SYSVSHM', 37, 72, 7), ('SHM_ATTACH', 38, 8, 8)]:\n"
	"    print('records ok')\n";

/* ckptinfo shows the segment and the VMAs of its attach (3 results). */
static void sysvshm_cli(const unsigned char *buf, size_t len)
{
	static const char *const summary[] = {
		"  `-130 zombie (status 1792) exit 7 pgid 100 sid 100\nSysV shared memory: 1 segment\n"
		"  sysvshm 7: shmid 32769, key 0x00005eed, 12288 bytes, 2 pages, mode 0640, owner 1000:100, creator 1001:101, ctime 2023-11-14 22:13:20 UTC, 1 attach, saved with 100, mapped by 100, 110\n"
		"task: pid 100, ",
		" records, 5 pages, ",
	};
	static char out[1 << 16];
	const char *path;
	int ret;

	tap_ok(shown_and_json(buf, len, summary, 2, sysvshm_json_check, "sysvshm ok\n", out,
			      sizeof(out)),
	       "the summary shows the segment once, after the tree; --json's \"sysvshm\" and the VMAs' \"sysvshm\" parsed by python3 (\"%.200s\")",
	       out);
	ret = json_buf(buf, len, "--records", sysvshm_json_check, out, sizeof(out));
	tap_ok(!ret && strstr(out, "sysvshm ok\nrecords ok\n"),
	       "--json --records: the SYSVSHM and SHM_ATTACH records named (\"%.200s\")", out);
	path = image_file(buf, len);
	ret = run(path, out, sizeof(out));
	tap_ok(!ret && count(out, "memory: 3 VMAs, 1 pages;") == 2 &&
	       count(out, "  000000080000-000000081000 rw-s sysvshm      0 pages  sysvshm 7 @0 (shmid 32769, attach 8)\n") == 2 &&
	       count(out, "  000000081000-000000083000 r--s sysvshm      0 pages  sysvshm 7 @0x1000 (shmid 32769, attach 8)\n") == 2 &&
	       count(out, "sysvshm 7") == 5,
	       "the summary names the segment, its offset and the attach in each VMA of it, the root's and the child's (exit %d)",
	       ret);
	unlink(path);
}

/*
 * The records of the image whose later processes attach the segment
 * themselves, read-only, that reattach_cases change: the root's first VMA
 * of its attach, the child's SHM_ATTACH and VMA of its own.
 */
enum { RA_ROOT_VMA, RA_ATTACH, RA_VMA, NR_RA };
static const struct rec_at reattach_at[NR_RA] = {
	[RA_ROOT_VMA] = { CKPT_HDR_VMA, 1 }, [RA_ATTACH] = { CKPT_HDR_SHM_ATTACH, 1 },
	[RA_VMA] = { CKPT_HDR_VMA, 4 },
};

/* The child's attach is objref 17, read-only, of the root's segment (7). */
static const struct patch_case reattach_cases[] = {
	{ "a read-only attach mapped writable", RA_VMA, VMA(vm_flags),
	  MK_SYSVSHM_RDONLY_FLAGS | 0x2, 8,
	  SYSV_VMA "vm_flags 0xd3: a writable mapping of segment 32769 (attach 17) without VM_SHARED" },
	{ "a read-only attach mapped VM_SHARED", RA_VMA, VMA(vm_flags),
	  MK_SYSVSHM_RDONLY_FLAGS | 0x8, 8,
	  SYSV_VMA "vm_flags 0xd9: VM_SHARED set, but attach 17 of segment 32769 is read-only" },
	{ "a read-only attach made read-write, its VMA without VM_SHARED", RA_ATTACH, SA(flags), 0,
	  4, SYSV_VMA "vm_flags 0xd1: VM_SHARED clear, but attach 17 of segment 32769 is read-write" },
	{ "the root's VMA naming the child's attach, saved after it", RA_ROOT_VMA,
	  VMA(file_objref), 17, 4,
	  SYSV_VMA "SysV shared memory attach objref 17 has no SHM_ATTACH record before it" },
	{ "the child's attach naming the root's SHM_ATTACH, not its SYSVSHM", RA_ATTACH,
	  SA(shm_objref), 8, 4, ATTACH_REC "segment objref 8 has no SYSVSHM record before it" },
};

#define NR_REATTACH_CASES (sizeof(reattach_cases) / sizeof(reattach_cases[0]))

/*
 * The segment attached again, read-only, by the child and the grandchild
 * (a SHM_ATTACH record each, in their own records, naming the root's
 * SYSVSHM): valid, shown (3 attaches, read-only VMAs); each rule of a
 * read-only attach broken in turn (1 + NR_REATTACH_CASES results).
 */
static void sysvshm_reattach(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .sysvshm_maps = 3,
			     .sysvshm_reattach = true };
	unsigned char *buf;
	size_t len, pos[NR_RA];
	struct ci_image ci;
	int ret;

	buf = valid_image(&s, "the image of three attaches", &ci, reattach_at, NR_RA, pos, &len);
	if (ci.nr_shm_attaches != 3 || ci.shm_attaches[1].objref != 17 ||
	    ci.shm_attaches[1].proc != 1 || !pos[RA_VMA])
		tap_bail("the image of three attaches lacks a record, or its objrefs moved");
	ci_free(&ci);
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, ", 3 attaches, saved with 100, mapped by 100, 110, 120\n") == 1 &&
	       count(out, "  000000080000-000000083000 r--p sysvshm      0 pages  sysvshm 7 @0 (shmid 32769, attach 17, read-only)\n") == 1 &&
	       count(out, "  000000080000-000000083000 r--p sysvshm      0 pages  sysvshm 7 @0 (shmid 32769, attach 24, read-only)\n") == 1 &&
	       count(out, "memory: 2 VMAs, 1 pages;") == 2,
	       "the segment attached read-only by two later processes, each its own SHM_ATTACH: valid, 3 attaches, their VMAs read-only (exit %d)",
	       ret);
	patch_cases(buf, len, pos, reattach_cases, NR_REATTACH_CASES);
	free(buf);
}

#define SYSVSHM_RESULTS (1 + 3 + (int)NR_SYSVSHM_CASES + 1 + (int)NR_REATTACH_CASES + 3)

/*
 * SysV shared memory: a segment of the root (its SYSVSHM with 2 pages and
 * a hole, one SHM_ATTACH, two VMAs of it split by mprotect()) whose attach
 * the child maps too (inherited across fork): valid, read back, shown in
 * the summary and --json (read by python3); each rule of its records and
 * of its VMAs broken in turn; attached read-only by later processes; a
 * removed segment shown so; a SHM_ATTACH before its SYSVSHM refused.
 */
static void sysvshm_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .sysvshm_maps = 2 };
	unsigned char *buf;
	size_t len, pos[NR_V];
	struct ci_image ci;
	int ret;

	buf = valid_image(&s, "the SysV shared memory image", &ci, sysvshm_at, NR_V, pos, &len);
	if (!pos[V_SEG] || pos[V_PAGES0] < pos[V_SEG] || pos[V_ATTACH] < pos[V_PAGES1] ||
	    !pos[V_VMA_CHILD] || !pos[V_MM] || ci.nr_sysvshms != 1 || ci.sysvshms[0].objref != 7 ||
	    !ci_shm_attach_by_ref(&ci, 8) || strcmp(ci_file_by_ref(&ci, 5)->path, "/tmp/out.100"))
		tap_bail("the SysV shared memory image lacks a record, or its objrefs moved");
	ci_free(&ci);

	sysvshm_valid(buf, len);
	sysvshm_cli(buf, len);
	patch_cases(buf, len, pos, sysvshm_cases, NR_SYSVSHM_CASES);
	free(buf);
	sysvshm_reattach();

	s.sysvshm_removed = true;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  sysvshm 7: shmid 32769, key 0x00000000, 12288 bytes, 2 pages, mode 0640, owner 1000:100, creator 1001:101, ctime 2023-11-14 22:13:20 UTC, removed, 1 attach, saved with 100, mapped by 100, 110\n") == 1,
	       "a segment removed while attached (CKPT_SYSVSHM_REMOVED, key IPC_PRIVATE): valid, shown removed (exit %d)",
	       ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"key\": 0, ") == 1 && count(out, "\"removed\": true, \"noreserve\": false, \"attaches\": 1, ") == 1,
	       "--json: the removed segment's key 0 and \"removed\" (exit %d)", ret);
	s.sysvshm_removed = false;
	s.sysvshm_attach_first = true;
	refused("a SHM_ATTACH record before the SYSVSHM record it names", &s,
		ATTACH_REC "segment objref 7 has no SYSVSHM record before it");
}

/*
 * The records of the inotify image that inotify_cases change: the root's
 * INOTIFY, the O_PATH FILE records of the directory and the file it
 * watches, its FD record, the root's MM and first VMA.
 */
enum { N_INO, N_DIR, N_FILE, N_FD, N_MM, N_VMA, NR_N };
static const struct rec_at inotify_at[NR_N] = {
	[N_INO] = { CKPT_HDR_INOTIFY, 0 }, [N_DIR] = { CKPT_HDR_FILE, 2 },
	[N_FILE] = { CKPT_HDR_FILE, 3 }, [N_FD] = { CKPT_HDR_FD, 3 },
	[N_MM] = { CKPT_HDR_MM, 0 }, [N_VMA] = { CKPT_HDR_VMA, 0 },
};

#define INH(m) (16 + offsetof(struct ckpt_hdr_inotify, m))
#define INW(i, m) (16 + sizeof(struct ckpt_hdr_inotify) + \
		   (i) * sizeof(struct ckpt_inotify_watch) + offsetof(struct ckpt_inotify_watch, m))
#define INOTIFY_REC "INOTIFY record (type 61, len 48): "
#define INOTIFY_LEN "(16 bytes, then 16 a watch)"
#define NOT_O_PATH "not opened O_PATH (flags 02): a watch names the O_PATH FILE record of what it watches"
#define BEYOND_BITS "bits beyond IN_ALL_EVENTS|IN_EXCL_UNLINK|IN_ONESHOT"

/*
 * Each rule of an INOTIFY record and of the watches it has broken in turn
 * on the inotify image (the root's objrefs: TASK 1, files table 2,
 * /dev/null 4, /tmp/out.100 5, the watched directory 6 and file 7, the
 * INOTIFY 8, the working directory 9, after it), and what they may be.
 */
static const struct patch_case inotify_cases[] = {
	{ "an INOTIFY record of 8 bytes", N_INO, HDR(len), 8, 8,
	  "INOTIFY record (type 61, len 8): length 8, shorter than an INOTIFY record (16 bytes)" },
	{ "an INOTIFY record of 32 bytes, room for one of its two watches", N_INO, HDR(len), 32, 8,
	  "INOTIFY record (type 61, len 32): nr_watches 2, but length 32 " INOTIFY_LEN },
	{ "an INOTIFY record of 64 bytes, room for three watches", N_INO, HDR(len), 64, 8,
	  "INOTIFY record (type 61, len 64): nr_watches 2, but length 64 " INOTIFY_LEN },
	{ "an INOTIFY record longer than CKPT_INOTIFY_MAX_WATCHES watches", N_INO, HDR(len),
	  16 + 16 * (CKPT_INOTIFY_MAX_WATCHES + 1ULL), 8,
	  "INOTIFY record (type 61, len 1048608): length beyond any record's" },
	{ "an INOTIFY record of CKPT_INOTIFY_MAX_WATCHES watches, the image ending in it", N_INO,
	  HDR(len), 16 + 16 * (uint64_t)CKPT_INOTIFY_MAX_WATCHES, 8,
	  "INOTIFY record (type 61, len 1048592): truncated" },
	{ "nr_watches 3 for two watches", N_INO, INH(nr_watches), 3, 4,
	  INOTIFY_REC "nr_watches 3, but length 48 " INOTIFY_LEN },
	{ "nr_watches 1 for two watches", N_INO, INH(nr_watches), 1, 4,
	  INOTIFY_REC "nr_watches 1, but length 48 " INOTIFY_LEN },
	{ "nr_watches 0x10000002, whose 16 + 16 a watch is 48 in 32 bits", N_INO, INH(nr_watches),
	  0x10000002, 4, INOTIFY_REC "nr_watches 268435458, but length 48 " INOTIFY_LEN },
	{ "an INOTIFY record of objref 0", N_INO, HDR(objref), 0, 4,
	  INOTIFY_REC "objref 0 is zero or already another object's" },
	{ "an INOTIFY record with the root's TASK objref", N_INO, HDR(objref), 1, 4,
	  INOTIFY_REC "objref 1 is zero or already another object's" },
	{ "an INOTIFY record with its watched file's objref", N_INO, HDR(objref), 7, 4,
	  INOTIFY_REC "objref 7 is zero or already another object's" },
	{ "an INOTIFY record blocking (f_flags 0)", N_INO, INH(f_flags), 0, 4, NULL },
	{ "an INOTIFY record with every flag fcntl(F_SETFL) sets", N_INO, INH(f_flags),
	  02000U | 04000U | 040000U | 01000000U, 4, NULL },
	{ "an INOTIFY record with O_CLOEXEC in f_flags (IN_CLOEXEC: its FD record's)", N_INO,
	  INH(f_flags), 02004000, 4,
	  INOTIFY_REC "f_flags 02004000: more than fcntl(F_SETFL) sets (02000000)" },
	{ "an INOTIFY record with an access mode in f_flags", N_INO, INH(f_flags), 04002, 4,
	  INOTIFY_REC "f_flags 04002: more than fcntl(F_SETFL) sets (02)" },
	{ "an INOTIFY record with O_ASYNC in f_flags (a FOWN record's)", N_INO, INH(f_flags),
	  024000, 4, INOTIFY_REC "f_flags 024000: more than fcntl(F_SETFL) sets (020000)" },
	{ "next wd 0", N_INO, INH(next_wd), 0, 4, NULL },
	{ "next wd 2, below the last watch's", N_INO, INH(next_wd), 2, 4, NULL },
	{ "next wd INT_MAX", N_INO, INH(next_wd), INT32_MAX, 4, NULL },
	{ "next wd 0x80000000 (a u32: any)", N_INO, INH(next_wd), 0x80000000, 4, NULL },
	{ "an INOTIFY record's reserved field set", N_INO, INH(__reserved), 1, 4,
	  INOTIFY_REC "reserved field 0x1, not 0" },
	{ "a first watch of wd 0", N_INO, INW(0, wd), 0, 4,
	  INOTIFY_REC "watch 0: wd 0, not above the one before (0; the first 1 or more)" },
	{ "a first watch of wd -1", N_INO, INW(0, wd), (uint32_t)-1, 4,
	  INOTIFY_REC "watch 0: wd -1, not above the one before (0; the first 1 or more)" },
	{ "a second watch of the first's wd", N_INO, INW(1, wd), MK_INOTIFY_DIR_WD, 4,
	  INOTIFY_REC "watch 1: wd 1, not above the one before (1; the first 1 or more)" },
	{ "watches out of wd order", N_INO, INW(0, wd), 5, 4,
	  INOTIFY_REC "watch 1: wd 3, not above the one before (5; the first 1 or more)" },
	{ "a second watch of wd 2, right after the first's", N_INO, INW(1, wd), 2, 4, NULL },
	{ "a second watch of wd INT_MAX", N_INO, INW(1, wd), INT32_MAX, 4, NULL },
	{ "a watch's reserved field set", N_INO, INW(1, __reserved), 1, 4,
	  INOTIFY_REC "wd 3: reserved field 0x1, not 0" },
	{ "a watch of file objref 0", N_INO, INW(0, file_objref), 0, 4,
	  INOTIFY_REC "wd 1: file objref 0 has no FILE record before it" },
	{ "a watch naming no record", N_INO, INW(1, file_objref), 999, 4,
	  INOTIFY_REC "wd 3: file objref 999 has no FILE record before it" },
	{ "a watch naming its own instance", N_INO, INW(1, file_objref), 8, 4,
	  INOTIFY_REC "wd 3: file objref 8 has no FILE record before it" },
	{ "a watch naming a FILE record after it (the working directory)", N_INO,
	  INW(1, file_objref), 9, 4, INOTIFY_REC "wd 3: file objref 9 has no FILE record before it" },
	{ "a watch naming the files table", N_INO, INW(0, file_objref), 2, 4,
	  INOTIFY_REC "wd 1: file objref 2 has no FILE record before it" },
	{ "a watch on a file opened for reading and writing", N_INO, INW(1, file_objref), 5, 4,
	  INOTIFY_REC "wd 3: file objref 5 " NOT_O_PATH },
	{ "a watch on a character device opened for reading and writing", N_INO,
	  INW(0, file_objref), 4, 4, INOTIFY_REC "wd 1: file objref 4 " NOT_O_PATH },
	{ "a watched directory opened O_DIRECTORY, not O_PATH", N_DIR, FI(f_flags), 0200000, 4,
	  INOTIFY_REC "wd 1: file objref 6 not opened O_PATH (flags 0200000)" },
	{ "a watch on a symbolic link (an O_PATH FILE record of mode S_IFLNK)", N_FILE,
	  FI(i_mode), S_IFLNK | 0777, 4, NULL },
	{ "a watched file opened O_PATH O_NOFOLLOW", N_FILE, FI(f_flags), 010400000, 4, NULL },
	{ "a watch on a character device (O_PATH, S_IFCHR)", N_DIR, FI(i_mode), S_IFCHR | 0666,
	  4, NULL },
	{ "a watch on a file opened O_PATH O_LARGEFILE", N_FILE, FI(f_flags), 010100000, 4,
	  NULL },
	{ "a watch's mask 0 (no event: one added with flag bits only)", N_INO, INW(0, mask), 0, 4,
	  NULL },
	{ "a watch's mask IN_ONESHOT alone (a flag, no event)", N_INO, INW(1, mask), 0x80000000,
	  4, NULL },
	{ "a watch's mask IN_EXCL_UNLINK alone (a flag, no event)", N_INO, INW(0, mask),
	  0x04000000, 4, NULL },
	{ "a watch's mask IN_ALL_EVENTS", N_INO, INW(0, mask), 0xfff, 4, NULL },
	{ "a watch's mask of every bit a watch may have", N_INO, INW(1, mask), 0x84000fff, 4,
	  NULL },
	{ "an INOTIFY record after the MM record", N_VMA, HDR(type), CKPT_HDR_INOTIFY, 4,
	  "INOTIFY record (type 61, len 48): " ORDER },
	{ "a descriptor on the watched directory's O_PATH file", N_FD,
	  16 + offsetof(struct ckpt_hdr_fd, file_objref), 6, 4, NULL },
	{ "the executable the inotify instance", N_MM, MMH(exe_objref), 8, 4,
	  "MM record (type 32, len 624): executable objref 8 has no FILE record of a regular file" },
	{ "a file VMA of the inotify instance", N_VMA, VMA(kind), CKPT_VMA_FILE | 8ULL << 32, 8,
	  "VMA record (type 33, len 48): file objref 8 has no FILE record of a regular file" },
};

#define NR_INOTIFY_CASES (sizeof(inotify_cases) / sizeof(inotify_cases[0]))

/* Bits beyond IN_ALL_EVENTS|IN_EXCL_UNLINK|IN_ONESHOT, each refused in a watch's mask. */
static const struct {
	const char *what;
	uint32_t bit;
} inotify_bad_bits[] = {
	{ "bit 12 (no IN_* bit)", 0x1000 }, { "IN_UNMOUNT (an event's bit)", 0x2000 },
	{ "IN_Q_OVERFLOW (an event's bit)", 0x4000 }, { "IN_IGNORED (an event's bit)", 0x8000 },
	{ "FAN_OPEN_PERM (0x10000, fanotify's)", 0x10000 },
	{ "IN_ONLYDIR (its lookup's)", 0x01000000 }, { "IN_DONT_FOLLOW (its lookup's)", 0x02000000 },
	{ "bit 27 (no IN_* bit)", 0x08000000 }, { "IN_MASK_CREATE", 0x10000000 },
	{ "IN_MASK_ADD", 0x20000000 }, { "IN_ISDIR (an event's bit)", 0x40000000 },
};

#define NR_INOTIFY_BAD_BITS (sizeof(inotify_bad_bits) / sizeof(inotify_bad_bits[0]))

/* Each of inotify_bad_bits added to a watch's mask, the two in turn: refused (a result each). */
static void inotify_bad_masks(const unsigned char *buf, size_t len, const size_t *pos)
{
	char what[128], want[256];
	uint32_t mask;
	size_t i;

	for (i = 0; i < NR_INOTIFY_BAD_BITS; i++) {
		mask = (i % 2 ? MK_INOTIFY_FILE_MASK : MK_INOTIFY_DIR_MASK) | inotify_bad_bits[i].bit;
		snprintf(what, sizeof(what), "a watch's mask with %s", inotify_bad_bits[i].what);
		snprintf(want, sizeof(want), INOTIFY_REC "wd %d: mask %#x: " BEYOND_BITS " (%#x)",
			 i % 2 ? MK_INOTIFY_FILE_WD : MK_INOTIFY_DIR_WD, mask,
			 inotify_bad_bits[i].bit);
		broken_in(buf, len, what, len, pos[N_INO] + INW(i % 2, mask), &mask, sizeof(mask),
			  want);
	}
}

/* The inotify image, read back (1 result). */
static void inotify_valid(const unsigned char *buf, size_t len)
{
	const struct ci_file *f, *dir, *file;
	const struct ckpt_hdr_inotify *h;
	struct ci_image ci;
	int ret = read_buf(buf, len, &ci);
	bool ok = !ret && ci.nr_procs == 3 && ci.procs[0].nr_fds == 4;

	f = ok ? ci_file_by_ref(&ci, 8) : NULL;
	dir = ok ? ci_file_by_ref(&ci, 6) : NULL;
	file = ok ? ci_file_by_ref(&ci, 7) : NULL;
	h = f ? f->ino : NULL;
	ok = ok && h && f->kind == CI_FILE_INOTIFY && f->proc == 0 && !*f->path &&
	     f->f.f_flags == 04000 && ci.procs[0].fds[3].fd == 28 &&
	     ci.procs[0].fds[3].file_objref == 8 && ci.procs[0].nr_files == 6 &&
	     h->nr_watches == 2 && h->next_wd == MK_INOTIFY_NEXT_WD &&
	     h->watches[0].wd == MK_INOTIFY_DIR_WD && h->watches[0].mask == MK_INOTIFY_DIR_MASK &&
	     h->watches[0].file_objref == 6 && h->watches[1].wd == MK_INOTIFY_FILE_WD &&
	     h->watches[1].mask == MK_INOTIFY_FILE_MASK && h->watches[1].file_objref == 7 &&
	     dir->kind == CI_FILE_PATH && !strcmp(dir->path, MK_INOTIFY_DIR) &&
	     S_ISDIR(dir->f.i_mode) && file->kind == CI_FILE_PATH &&
	     !strcmp(file->path, MK_INOTIFY_FILE) && S_ISREG(file->f.i_mode);
	tap_ok(ok, "an inotify instance of the root watching a directory and a file, each an O_PATH FILE record before it: valid, read back (O_RDONLY, nonblocking, fd 28)%s%s",
	       ret ? ": " : "", ret ? ci.error : "");
	ci_free(&ci);
}

/*
 * The JSON of the inotify image, read by python3: fd 28's "inotify" (at
 * the top level and in "processes"), its keys in order, right after
 * "epoll"; every other fd's null; with --records, "records" names the
 * INOTIFY record ("records ok").
 */
static const char inotify_json_check[] =
	"import json, sys\n"
	"d = json.load(sys.stdin)\n"
	"w = [{'wd': 1, 'mask': 0x380, 'events': ['IN_MOVED_TO', 'IN_CREATE', 'IN_DELETE'],"
	" 'path': '/var/spool/app', 'file': 6},"
	" {'wd': 3, 'mask': 0x40a, 'events': ['IN_MODIFY', 'IN_CLOSE_WRITE', 'IN_DELETE_SELF'],"
	" 'path': '/etc/app.conf', 'file': 7}]\n"
	"want = {'nonblock': True, 'next_wd': 4, 'watches': w}\n"
	"ok = True\n"
	"for fds in (d['fds'], d['processes'][0]['fds']):\n"
	"    i = [f for f in fds if f['inotify']]\n"
	"    ok = ok and len(i) == 1 and i[0]['fd'] == 28 and i[0]['inotify'] == want\n"
	"    ok = ok and list(i[0]['inotify']) == list(want) and"
	" all(list(x) == list(w[0]) for x in i[0]['inotify']['watches'])\n"
	"    ok = ok and i[0]['path'] == '' and i[0]['flags'] == 0o4000 and i[0]['file'] == 8\n"
	"    k = list(i[0])\n"
	"    ok = ok and k[k.index('epoll') + 1] == 'inotify'\n"
	"ok = ok and all(f['inotify'] is None for p in d['processes'][1:] for f in p['fds'])\n"
	"print('inotify ok' if ok else 'inotify differs: %r' % [f['inotify'] for f in d['fds']])\n"
	"if 'records' in d and [(r['type'], r['type_id'], r['len'], r['objref']) for r in d['records']"
	" if r['type'] == 'INOTIFY'] == [('INOTIFY', 61, 48, 8)]:\n"
	"    print('records ok')\n";

#define INOTIFY_LINE "  fd 28  inotify, 2 watches: 1 /var/spool/app (IN_MOVED_TO|IN_CREATE|IN_DELETE), 3 /etc/app.conf (IN_MODIFY|IN_CLOSE_WRITE|IN_DELETE_SELF), next wd 4, nonblocking  flags 04000  pos 0\n"

/* ckptinfo shows the instance and its watches (2 results). */
static void inotify_cli(const unsigned char *buf, size_t len)
{
	static const char *const summary[] = {
		"files: 6 open files, 4 descriptors\n", INOTIFY_LINE, " inotify, ",
	};
	static char out[1 << 16];
	int ret;

	tap_ok(shown_and_json(buf, len, summary, 3, inotify_json_check, "inotify ok\n", out,
			      sizeof(out)),
	       "the summary shows the instance in place of fd 28's path (each watch's wd, path, events by name; next wd; nonblocking), once; --json's \"inotify\" parsed by python3 (\"%.300s\")",
	       out);
	ret = json_buf(buf, len, "--records", inotify_json_check, out, sizeof(out));
	tap_ok(!ret && strstr(out, "inotify ok\nrecords ok\n"),
	       "--json --records: the INOTIFY record named (\"%.200s\")", out);
}

/* Every mask bit a watch may have, named; next wd 0xffffffff, shown unsigned (1 result). */
static void inotify_every_bit(const unsigned char *buf, size_t len, const size_t *pos)
{
	static const char want[] =
		"\"events\": [\"IN_ACCESS\", \"IN_MODIFY\", \"IN_ATTRIB\", \"IN_CLOSE_WRITE\", \"IN_CLOSE_NOWRITE\", \"IN_OPEN\", \"IN_MOVED_FROM\", \"IN_MOVED_TO\", \"IN_CREATE\", \"IN_DELETE\", \"IN_DELETE_SELF\", \"IN_MOVE_SELF\", \"IN_EXCL_UNLINK\", \"IN_ONESHOT\"]";
	static char out[1 << 16];
	unsigned char *copy = malloc(len);
	uint32_t every = 0x84000fff;	/* IN_ALL_EVENTS IN_EXCL_UNLINK IN_ONESHOT */
	uint32_t next_wd = 0xffffffff;
	const char *path;
	int ret;

	if (!copy)
		tap_bail("out of memory");
	memcpy(copy, buf, len);
	memcpy(copy + pos[N_INO] + INW(1, mask), &every, sizeof(every));
	memcpy(copy + pos[N_INO] + INH(next_wd), &next_wd, sizeof(next_wd));
	path = image_file(copy, len);
	snprintf(out, sizeof(out), "--json %s", path);
	ret = run(out, out, sizeof(out));
	tap_ok(!ret && count(out, want) == 2 && count(out, "\"mask\": 2214596607, ") == 2 &&
	       count(out, "\"next_wd\": 4294967295, ") == 2 && run(path, out, sizeof(out)) == 0 &&
	       count(out, ", 3 /etc/app.conf (IN_ACCESS|IN_MODIFY|IN_ATTRIB|IN_CLOSE_WRITE|IN_CLOSE_NOWRITE|IN_OPEN|IN_MOVED_FROM|IN_MOVED_TO|IN_CREATE|IN_DELETE|IN_DELETE_SELF|IN_MOVE_SELF|IN_EXCL_UNLINK|IN_ONESHOT), next wd 4294967295") == 1,
	       "a watch's mask of every bit a watch may have, next wd 0xffffffff: each bit named, lowest first, the next wd unsigned, in the summary and --json (exit %d)",
	       ret);
	unlink(path);
	free(copy);
}

/* The directory at a path of PATH_MAX - 1 bytes: the summary's line cut, "..." (1 result). */
static void inotify_long_path(struct mk_spec *s)
{
	static char out[1 << 17], path[4096];
	int ret;

	memset(path, 'd', sizeof(path) - 1);
	memcpy(path, "/tmp/", 5);
	s->inotify_dir = path;
	ret = run_spec(s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 28  inotify, 2 watches: 1 /tmp/ddd") == 1 &&
	       count(out, "...  flags 04000  pos 0\n") == 1 && !strstr(out, "/etc/app.conf") &&
	       !strstr(out, "next wd"),
	       "a watched directory at a path of 4095 bytes: valid, the summary's line cut to fit, ending \"...\" (exit %d)",
	       ret);
	ret = run_spec(s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, path) == 2 && count(out, "\"path\": \"/etc/app.conf\"") == 2,
	       "--json: the watched directory's 4095-byte path whole, and the other watch (exit %d)",
	       ret);
	s->inotify_dir = NULL;
}

#define INOTIFY_RESULTS (1 + 2 + 1 + (int)NR_INOTIFY_CASES + (int)NR_INOTIFY_BAD_BITS + 2 + 2 + 1)

/*
 * An inotify instance of the root (fd 28) watching a directory and a
 * regular file, each an O_PATH FILE record before its INOTIFY record:
 * valid, read back, shown in the summary and --json (read by python3),
 * every mask bit named; each rule of the record and of its watches broken
 * in turn; a watched path too long for the summary's line; an instance
 * with no watch; a watched file's FILE record after the INOTIFY record.
 */
static void inotify_tests(void)
{
	static char out[1 << 16];
	struct mk_spec s = { .tree = good, .nr_tree = NR_GOOD, .inotify = true };
	unsigned char *buf;
	size_t len, pos[NR_N];
	struct ci_image ci;
	int ret;

	buf = valid_image(&s, "the inotify image", &ci, inotify_at, NR_N, pos, &len);
	if (!pos[N_INO] || pos[N_FILE] > pos[N_INO] || pos[N_FD] < pos[N_INO] || !pos[N_VMA] ||
	    !ci_file_by_ref(&ci, 8) || ci_file_by_ref(&ci, 8)->kind != CI_FILE_INOTIFY ||
	    strcmp(ci_file_by_ref(&ci, 5)->path, "/tmp/out.100") ||
	    strcmp(ci_file_by_ref(&ci, 9)->path, "/tmp/cwd.100"))
		tap_bail("the inotify image lacks a record, or its objrefs moved");
	ci_free(&ci);

	inotify_valid(buf, len);
	inotify_cli(buf, len);
	inotify_every_bit(buf, len, pos);
	patch_cases(buf, len, pos, inotify_cases, NR_INOTIFY_CASES);
	inotify_bad_masks(buf, len, pos);
	free(buf);
	inotify_long_path(&s);

	s.inotify_empty = true;
	ret = run_spec(&s, "", out, sizeof(out));
	tap_ok(!ret && count(out, "  fd 28  inotify, 0 watches, next wd 4, nonblocking  flags 04000  pos 0\n") == 1 &&
	       count(out, "files: 4 open files, 4 descriptors\n") == 1,
	       "an inotify instance with no watch: valid, shown so (exit %d)", ret);
	ret = run_spec(&s, "--json", out, sizeof(out));
	tap_ok(!ret && count(out, "\"inotify\": {\"nonblock\": true, \"next_wd\": 4, \"watches\": []}") == 2,
	       "--json: its \"watches\" empty (exit %d)", ret);
	s.inotify_empty = false;
	s.inotify_file_after = true;
	refused("a watched file's O_PATH FILE record after the INOTIFY record", &s,
		INOTIFY_REC "wd 3: file objref 7 has no FILE record before it");
}

int main(void)
{
	const char *dir = getenv("CKPTINFO_FIXTURES");

	if (dir)
		fixtures = dir;
	tap_plan(TREE_RESULTS + SHMEM_RESULTS + SHARE_RESULTS + JSON_RESULTS + FS_RESULTS +
		 SIGPENDING_RESULTS + PIPE_RESULTS + FIFO_RESULTS + EVENTFD_RESULTS + SIGNALFD_RESULTS + TIMERFD_RESULTS + EPOLL_RESULTS + LOCK_RESULTS + UNIX_RESULTS + USOCK_RESULTS + INET_RESULTS + MEMFD_RESULTS + MEMFD_PRIVATE_RESULTS + GHOST_RESULTS + FOWN_RESULTS + SYSVSHM_RESULTS + INOTIFY_RESULTS + 4 +
		 3 + COUNTER_RESULTS + 5 + 1 + 3);
	tree_tests();
	shmem_tests();
	share_tests();
	pipe_tests();
	fifo_tests();
	eventfd_tests();
	signalfd_tests();
	timerfd_tests();
	epoll_tests();
	lock_tests();
	unix_tests();
	usock_tests();
	inet_tests();
	memfd_tests();
	memfd_private_tests();
	ghost_tests();
	fown_tests();
	sysvshm_tests();
	inotify_tests();
	unpadded_tests();
	json_tests();
	fs_tests();
	sigpending_tests();
	fixtures_valid();
	counter();
	threads();
	tree_fixture();

	tap_ok(run("tests/host/ckptinfo.c", NULL, 0) == 1,
	       "ckptinfo exits 1 on a file that is not an image");
	tap_ok(run("", NULL, 0) == 2 && run("/nonexistent", NULL, 0) == 2,
	       "ckptinfo exits 2 on usage and I/O errors");
	{
		char out[4096];

		tap_ok(run("--help", out, sizeof(out)) == 0 && strstr(out, "tree"),
		       "ckptinfo --help exits 0 and tells of the tree");
	}
	free(img);
	return tap_done();
}
