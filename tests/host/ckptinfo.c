// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of ckptinfo's reader on the fixtures (real images made by
 * the guest) and on images broken on purpose: each breakage gets its
 * precise message, nothing crashes, and the command line exits 0/1/2.
 */
#include "image.h"
#include "tap.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIXTURES "tests/fixtures/"
#define CKPTINFO "build/host/ckptinfo"

static unsigned char *img;
static size_t img_len;

static unsigned char *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	unsigned char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0)
		tap_bail("cannot read %s", path);
	rewind(f);
	buf = malloc(n);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		tap_bail("cannot read %s", path);
	fclose(f);
	*len = n;
	return buf;
}

/* Read @len bytes of @buf as an image: 0 valid, -1 with @err filled. */
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

/* The image with a patch applied must fail with @want in the message. */
static void broken(const char *what, size_t len, size_t off, const void *patch,
		   size_t plen, const char *want)
{
	unsigned char *copy = malloc(img_len);
	struct ci_image ci;
	int ret;

	memcpy(copy, img, img_len);
	if (patch)
		memcpy(copy + off, patch, plen);
	ret = read_buf(copy, len, &ci);
	tap_ok(ret == -1 && strstr(ci.error, want) && strstr(ci.error, "offset "),
	       "%s: \"%s\"", what, ret ? ci.error : "accepted");
	ci_free(&ci);
	free(copy);
}

static int run(const char *args)
{
	char cmd[512];
	int st;

	snprintf(cmd, sizeof(cmd), CKPTINFO " %s >/dev/null 2>&1", args);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* threads.img: a leader and 8 threads, and what makes such an image invalid. */
static void threads(void)
{
	size_t i, task2 = 0, ok = 0, ids = 0, tasks = 0;
	struct ci_image ci;
	uint32_t v32;
	int32_t s32;

	free(img);
	img = load(FIXTURES "threads.img", &img_len);
	if (read_buf(img, img_len, &ci))
		tap_bail("threads.img invalid: %s", ci.error);
	for (i = 0; i < ci.nr_threads; i++) {
		ok += ci.threads[i].task.tgid == ci.task.pid &&
		      !strncmp(ci.threads[i].task.comm, "worker-", 7);
		ids += ci.threads[i].task.pid != ci.task.pid;
	}
	/* the second TASK record: the first thread's */
	for (i = 0; i < ci.nr_kept && !task2; i++)
		if (ci.records[i].type == CKPT_HDR_TASK && tasks++)
			task2 = ci.records[i].pos;
	tap_ok(ci.header.nr_tasks == 9 && ci.nr_threads == 8 && ok == 8 && ids == 8 && task2,
	       "threads.img: %u tasks, %zu threads of process %d named worker-N",
	       ci.header.nr_tasks, ci.nr_threads, ci.task.pid);
	ci_free(&ci);
	if (!task2)
		tap_bail("threads.img has no thread TASK record");
	s32 = 1;
	broken("a thread of another process", img_len,
	       task2 + 16 + offsetof(struct ckpt_hdr_task, tgid), &s32, 4,
	       "not a thread of process");
	v32 = 10;
	broken("a header counting a task the image lacks", img_len,
	       16 + offsetof(struct ckpt_hdr_header, nr_tasks), &v32, 4,
	       "the header says 10 tasks");
	v32 = 8;
	broken("a header counting one task fewer", img_len,
	       16 + offsetof(struct ckpt_hdr_header, nr_tasks), &v32, 4,
	       "not expected here");
}

int main(void)
{
	static const char *const fixtures[] = { "counter.img", "files.img", "threads.img" };
	struct ci_image ci;
	uint64_t v64;
	uint32_t v32;
	char want[64];
	size_t i, bounds = 0, ok_bounds = 0, fd_pos = 0, vma_pos = 0, file_pos = 0, file_len = 0, signal_pos = 0, creds_pos = 0;

	tap_plan(28);
	for (i = 0; i < 3; i++) {
		char path[256];
		size_t len;
		unsigned char *buf;
		int ret;

		snprintf(path, sizeof(path), FIXTURES "%s", fixtures[i]);
		buf = load(path, &len);
		ret = read_buf(buf, len, &ci);
		tap_ok(ret == 0 && ci.nr_records == ci.tail.nr_records + 1 &&
		       ci.pages > 0 && ci.nr_fds > 0,
		       "fixture %s reads as valid (%zu records, %llu pages, %zu fds)",
		       fixtures[i], ci.nr_records, (unsigned long long)ci.pages, ci.nr_fds);
		ci_free(&ci);
		free(buf);
	}

	img = load(FIXTURES "counter.img", &img_len);
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
		if (ci.records[i].type == CKPT_HDR_FD && !fd_pos)
			fd_pos = ci.records[i].pos;
		if (ci.records[i].type == CKPT_HDR_SIGNAL)
			signal_pos = ci.records[i].pos;
		if (ci.records[i].type == CKPT_HDR_CREDS)
			creds_pos = ci.records[i].pos;
		if (ci.records[i].type == CKPT_HDR_VMA && ci.records[i + 1].type == CKPT_HDR_PAGES && !vma_pos)
			vma_pos = ci.records[i].pos;
		if (ci.records[i].type == CKPT_HDR_FILE && !file_pos) {
			file_pos = ci.records[i].pos;
			file_len = ci.records[i].len;
		}
	}
	tap_ok(ok_bounds == bounds, "truncated at and between all %zu record boundaries: %zu precise refusals",
	       bounds / 2, ok_bounds);
	ci_free(&ci);

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
	if (file_len % 8 == 0)
		tap_bail("the first FILE record has no padding to spoil");
	broken("non-zero padding", img_len, file_pos + 16 + file_len, "\1", 1,
	       "non-zero padding");
	v64 = 3;
	broken("tail record count wrong", img_len, img_len - 16, &v64, 8, "the tail says");
	broken("tail magic wrong", img_len, img_len - 24, "XXXXXXX", 8, "bad tail magic");
	broken("ARCH after the header replaced by TASK", img_len, 256, "\x10\0\0\0", 4, "not expected here");
	if (!signal_pos)
		tap_bail("counter.img has no SIGNAL record");
	v64 = 0x401000;		/* action[8]: SIGKILL's handler */
	broken("SIGKILL with a handler", img_len,
	       signal_pos + 16 + offsetof(struct ckpt_hdr_signal, action[8].handler), &v64, 8,
	       "SIGKILL or SIGSTOP");
	v64 = 1ULL << 60;	/* action[1]: SIGINT's handler */
	broken("a handler above user space", img_len,
	       signal_pos + 16 + offsetof(struct ckpt_hdr_signal, action[1].handler), &v64, 8,
	       "no user address");
	if (!creds_pos)
		tap_bail("counter.img has no CREDS record");
	v64 = 0;		/* root's effective capabilities, none permitted */
	broken("an effective capability that is not permitted", img_len,
	       creds_pos + 16 + offsetof(struct ckpt_hdr_creds, cap_permitted), &v64, 8,
	       "not permitted");
	v32 = 5;		/* five groups in a record with room for none */
	broken("a group count beyond the record", img_len,
	       creds_pos + 16 + offsetof(struct ckpt_hdr_creds, nr_groups), &v32, 4,
	       "room for");

	threads();

	/* Trailing bytes (the seed's ckpt.c prints after its image) are noted, not an error. */
	{
		unsigned char *more = malloc(img_len + 20);

		memcpy(more, img, img_len);
		memcpy(more + img_len, "checkpoint id 3\n\0\0\0\0", 20);
		tap_ok(read_buf(more, img_len + 20, &ci) == 0 && ci.trailing == 20,
		       "20 bytes after the tail: valid, noted");
		ci_free(&ci);
		free(more);
	}

	tap_ok(run(FIXTURES "counter.img") == 0 && run("--json " FIXTURES "files.img") == 0,
	       "ckptinfo exits 0 on valid images");
	/* A valid image whose time no calendar holds (libFuzzer found gmtime() NULL). */
	{
		char path[] = "/tmp/ckptinfo-time-XXXXXX", args[64];
		int fd = mkstemp(path);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

		v64 = 0x7fffffffffffffffULL;
		if (!f)
			tap_bail("mkstemp: cannot write a temporary image");
		fwrite(img, 1, 40, f);
		fwrite(&v64, 1, 8, f);
		fwrite(img + 48, 1, img_len - 48, f);
		fclose(f);
		snprintf(args, sizeof(args), "%s", path);
		tap_ok(run(args) == 0, "an image dated beyond any calendar: summary printed, exit 0");
		unlink(path);
	}
	tap_ok(run("tests/host/ckptinfo.c") == 1, "ckptinfo exits 1 on a file that is not an image");
	tap_ok(run("") == 2 && run("/nonexistent") == 2, "ckptinfo exits 2 on usage and I/O errors");
	free(img);
	return tap_done();
}
