// SPDX-License-Identifier: GPL-2.0
/*
 * memfds READY GO OUT: memfds and a shared file mapping in the state a
 * checkpoint must keep; creates READY, waits for GO, then checks them and
 * exits 0 if all holds (1 otherwise, what failed in OUT; 9: its set-up
 * failed):
 *   - "cr-memfd A" (MFD_EXEC, sealable): 3 pages and 100 bytes of a
 *     pattern, the offset at 5000, sealed against growing and shrinking;
 *     mapped shared (a write through it before the checkpoint) and
 *     privately (a copied-on-write first page); reopened read-only
 *     through /proc/self/fd: its name, mode, size, offset, seals and
 *     bytes kept, the shared mapping and the descriptors still one
 *     object, the private copy still private, the read-only file still
 *     read-only;
 *   - "noexec" (MFD_NOEXEC_SEAL), sealed against writes, mapped shared
 *     read-only: mode 0666, the seals, writes refused, the mapping not
 *     made writable again;
 *   - "empty" (no sealing allowed): size 0, F_SEAL_SEAL;
 *   - OUT.file, a regular file mapped shared and writable, its
 *     descriptor closed: what was written through the mapping before the
 *     checkpoint is in the file, and so is a write after the restart; a
 *     read-only shared mapping of it (opened read-only) cannot be made
 *     writable.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL	0x0008U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC	0x0010U
#endif
#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC	0x0020
#endif

#define PG	4096
#define A_SIZE	(3 * PG + 100)
#define A_POS	5000
#define MAPPED	"through the map"
#define PRIVATE	"a private copy"

static void check_name(int fd, const char *want)
{
	char link[64], target[256];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (strcmp(target, want))
		check_fail("fd %d names \"%s\", want \"%s\"", fd, target, want);
}

static void check_mode(int fd, const char *what, mode_t mode, off_t size)
{
	struct stat st;

	if (fstat(fd, &st) || st.st_mode != (S_IFREG | mode) || st.st_size != size)
		check_fail("%s: mode %#o size %lld, want %#o and %lld", what,
			   st.st_mode, (long long)st.st_size, S_IFREG | mode,
			   (long long)size);
}

static void check_seals(int fd, const char *what, int want)
{
	int seals = fcntl(fd, F_GET_SEALS);

	if (seals != want)
		check_fail("%s: seals %#x, want %#x", what, seals, want);
}

int main(int argc, char **argv)
{
	static char buf[A_SIZE];
	char path[256], rpath[64];
	char *shared, *priv, *sealed, *fmap, *fro;
	int a, ar, b, c, f, fd;
	long i;

	if (argc != 4)
		return 9;
	checks_open(argv[3]);

	a = memfd_create("cr-memfd A", MFD_ALLOW_SEALING | MFD_EXEC);
	for (i = 0; i < A_SIZE; i++)
		buf[i] = file_pattern(i);
	if (a < 0 || write(a, buf, A_SIZE) != A_SIZE || lseek(a, A_POS, SEEK_SET) != A_POS ||
	    fcntl(a, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK))
		return 9;
	shared = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, a, 0);
	priv = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, a, 0);
	if (shared == MAP_FAILED || priv == MAP_FAILED)
		return 9;
	memcpy(shared + 2 * PG, MAPPED, sizeof(MAPPED));
	memcpy(priv, PRIVATE, sizeof(PRIVATE));
	snprintf(rpath, sizeof(rpath), "/proc/self/fd/%d", a);
	ar = open(rpath, O_RDONLY);

	b = memfd_create("noexec", MFD_NOEXEC_SEAL);
	/* sealed first: a shared mapping, even read-only, may be made writable */
	if (ar < 0 || b < 0 || write(b, "sealed", 6) != 6 || ftruncate(b, PG) ||
	    fcntl(b, F_ADD_SEALS, F_SEAL_WRITE))
		return 9;
	sealed = mmap(NULL, PG, PROT_READ, MAP_SHARED, b, 0);
	if (sealed == MAP_FAILED)
		return 9;

	c = memfd_create("empty", 0);
	if (c < 0)
		return 9;

	snprintf(path, sizeof(path), "%s.file", argv[3]);
	f = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (f < 0 || ftruncate(f, 2 * PG))
		return 9;
	fmap = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	close(f);
	fd = open(path, O_RDONLY);
	if (fmap == MAP_FAILED || fd < 0)
		return 9;
	fro = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (fro == MAP_FAILED)
		return 9;
	memcpy(fmap, "before", 6);

	helper_touch(argv[1], "");
	wait_go(argv[2]);

	/* A: what it is */
	check_name(a, "/memfd:cr-memfd A (deleted)");
	check_name(ar, "/memfd:cr-memfd A (deleted)");
	check_mode(a, "A", 0777, A_SIZE);
	check_seals(a, "A", F_SEAL_GROW | F_SEAL_SHRINK);
	if (lseek(a, 0, SEEK_CUR) != A_POS)
		check_fail("A: offset %lld, want %d", (long long)lseek(a, 0, SEEK_CUR), A_POS);
	if (!is_file_pattern(a, 0, 2 * PG) ||
	    !is_file_pattern(a, 2 * PG + sizeof(MAPPED), A_SIZE))
		check_fail("A: its bytes are not the pattern");
	if (pread(a, buf, sizeof(MAPPED), 2 * PG) != sizeof(MAPPED) || strcmp(buf, MAPPED))
		check_fail("A: the write through the shared mapping is not in it");
	/* one object: the shared mapping, both files */
	memcpy(shared + 100, "new", 3);
	if (pread(ar, buf, 3, 100) != 3 || memcmp(buf, "new", 3))
		check_fail("A: a write through the shared mapping is not read by the read-only file");
	if (pwrite(a, "fd", 2, PG + 10) != 2 || memcmp(shared + PG + 10, "fd", 2) ||
	    memcmp(priv + PG + 10, "fd", 2))
		check_fail("A: a write to the file is not seen by its mappings");
	if (strcmp(priv, PRIVATE) || pread(a, buf, 1, 0) != 1 || buf[0] != file_pattern(0))
		check_fail("A: the private copy is not private any more");
	if ((fcntl(ar, F_GETFL) & O_ACCMODE) != O_RDONLY || write(ar, "x", 1) != -1 ||
	    errno != EBADF)
		check_fail("A: the read-only file is not read-only");
	if (ftruncate(a, 8 * PG) != -1 || errno != EPERM)
		check_fail("A: it grows, sealed against it");
	if (shared[A_SIZE] != 0)
		check_fail("A: the mapping beyond its size is not zero");

	/* B, C */
	check_name(b, "/memfd:noexec (deleted)");
	check_mode(b, "noexec", 0666, PG);
	check_seals(b, "noexec", F_SEAL_EXEC | F_SEAL_WRITE);
	if (write(b, "x", 1) != -1 || errno != EPERM)
		check_fail("noexec: a write, sealed against it, is not refused");
	if (memcmp(sealed, "sealed", 6))
		check_fail("noexec: the shared mapping does not read \"sealed\"");
	if (!mprotect(sealed, PG, PROT_READ | PROT_WRITE))
		check_fail("noexec: its read-only shared mapping was made writable");
	check_name(c, "/memfd:empty (deleted)");
	check_mode(c, "empty", 0777, 0);
	check_seals(c, "empty", F_SEAL_SEAL);

	/* the regular file */
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, buf, 6, 0) != 6 || memcmp(buf, "before", 6))
		check_fail("file: the write through the mapping before the checkpoint is lost");
	memcpy(fmap + PG, "after", 5);
	if (pread(fd, buf, 5, PG) != 5 || memcmp(buf, "after", 5))
		check_fail("file: a write through the mapping after it does not reach the file");
	if (memcmp(fro, "before", 6))
		check_fail("file: its read-only mapping does not read \"before\"");
	if (!mprotect(fro, PG, PROT_READ | PROT_WRITE))
		check_fail("file: the mapping of a file opened read-only was made writable");
	close(fd);
	unlink(path);
	return checks_status();
}
