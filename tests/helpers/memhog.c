// SPDX-License-Identifier: GPL-2.0
/*
 * memhog READY GO OUT MIB: fill MIB MiB of pseudo-random data across
 * mappings of several kinds, write their checksums to OUT, create READY,
 * wait for GO, then check the checksums and the protections again.
 *   A  anonymous, read-write, MIB/2, every page written
 *   B  anonymous, MIB/4, written then made read-only
 *   C  anonymous PROT_NONE hole, 16 MiB, never touched
 *   D  anonymous, read-write, MIB/4, every other page written
 *   E  private mapping of a 1 MiB file, every 4th page written
 * Exit 0 when everything is as it was.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define PAGE 4096UL

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void fill(char *p, size_t len, size_t stride)
{
	size_t off, i;

	for (off = 0; off < len; off += stride)
		for (i = 0; i < PAGE; i += 8)
			*(uint64_t *)(p + off + i) = next();
}

static uint64_t sum(const char *p, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i += 8)
		h = (h ^ *(const uint64_t *)(p + i)) * 1099511628211ULL;
	return h;
}

static void *map(size_t len, int prot, int flags, int fd)
{
	void *p = mmap(NULL, len, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		exit(9);
	/*
	 * The checks count the pages written: no huge page may fill in the
	 * rest (cr-thp tests those). Fails harmlessly without THP.
	 */
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/* The protection of the mapping at @p, as /proc/self/maps shows it. */
static int perms_are(const void *p, const char *want)
{
	char line[512], perms[8];
	unsigned long lo, hi;
	FILE *f = fopen("/proc/self/maps", "r");
	int ok = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    lo <= (unsigned long)p && (unsigned long)p < hi)
			ok = !strcmp(perms, want);
	if (f)
		fclose(f);
	return ok;
}

int main(int argc, char **argv)
{
	size_t mib, la, lb, lc = 16 * MIB, ld, le = MIB;
	uint64_t before[4], after[4];
	char *a, *b, *c, *d, *e, buf[256];
	int fd, ok, i;
	FILE *out;

	if (argc != 5)
		return 9;
	mib = strtoul(argv[4], NULL, 10);
	la = mib / 2 * MIB;
	lb = ld = mib / 4 * MIB;

	fd = open("/tmp/memhog.file", O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (i = 0; i < (int)(le / sizeof(buf)); i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return 9;
	}
	a = map(la, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	b = map(lb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	c = map(lc, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	d = map(ld, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	e = map(le, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd);
	close(fd);
	fill(a, la, PAGE);
	fill(b, lb, PAGE);
	mprotect(b, lb, PROT_READ);
	fill(d, ld, 2 * PAGE);
	fill(e, le, 4 * PAGE);

	before[0] = sum(a, la);
	before[1] = sum(b, lb);
	before[2] = sum(d, ld);
	before[3] = sum(e, le);
	out = fopen(argv[3], "w");
	if (!out)
		return 9;
	fprintf(out, "before %016llx %016llx %016llx %016llx\n",
		(unsigned long long)before[0], (unsigned long long)before[1],
		(unsigned long long)before[2], (unsigned long long)before[3]);
	fflush(out);
	close(open(argv[1], O_WRONLY | O_CREAT, 0644));

	while (access(argv[2], F_OK)) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}

	after[0] = sum(a, la);
	after[1] = sum(b, lb);
	after[2] = sum(d, ld);
	after[3] = sum(e, le);
	ok = !memcmp(before, after, sizeof(before)) &&
	     perms_are(a, "rw-p") && perms_are(b, "r--p") &&
	     perms_are(c, "---p") && perms_are(e, "rw-p");
	fprintf(out, "after  %016llx %016llx %016llx %016llx %s\n",
		(unsigned long long)after[0], (unsigned long long)after[1],
		(unsigned long long)after[2], (unsigned long long)after[3],
		ok ? "ok" : "DIFFERENT");
	fclose(out);
	return ok ? 0 : 1;
}
