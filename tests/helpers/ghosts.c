// SPDX-License-Identifier: GPL-2.0
/*
 * ghosts READY GO OUT: deleted files still open or mapped, in the state a
 * checkpoint must keep; creates READY, waits for GO, then checks them and
 * exits 0 if all holds (1 otherwise, what failed in OUT; 9: its set-up
 * failed). Its files are made in the directory OUT.d, then deleted (made
 * again by restart as O_TMPFILE makes a file, each is named "#INODE"):
 *   - A: 3 pages and 100 bytes, its second page a hole, mode 02640 (a
 *     set-group-ID bit that writes would clear), the offset at 5000, a
 *     second file of it open read-only, mapped shared (written through
 *     before the checkpoint) and privately (a copied-on-write page): its
 *     name, mode, owner, size, offset, bytes and hole kept, the shared
 *     mapping and both files still one object, the private copy still
 *     private, the read-only file still read-only, no link to it
 *     possible (ENOENT, as for any deleted file);
 *   - B: empty, open write-only in append mode: still so;
 *   - C: only mapped (its descriptor closed): the mapping still reads it;
 *   - D: held through O_PATH: still a deleted file of it;
 *   - E: 1 GiB, all a hole but its last byte: the hole kept;
 *   - F: made with O_TMPFILE (never named), linkable: linkat() still
 *     links it, once the checks are done;
 *   - G: owned by 65534:65534, mode 04755 (set-user-ID): kept.
 * ghosts READY GO OUT exe: the same, run from a copy of itself that it
 * deletes before READY (as an upgrade replaces a daemon's executable):
 * after GO, /proc/self/exe still opens it, deleted, in the same
 * directory, with its mode, size and bytes.
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

#define PG	4096
#define A_SIZE	(3 * PG + 100)
#define A_POS	5000
#define A_MODE	02640
#define E_SIZE	(1LL << 30)
#define MAPPED	"through the map"
#define PRIVATE	"a private copy"
#define C_TEXT	"mapped only"

static char dir[256];

/* The running executable, as /proc/self/exe reads it. */
struct exe {
	char path[512];
	struct stat st;
	unsigned long sum;
};

/* @e of /proc/self/exe now; false if it cannot be read. */
static bool exe_read(struct exe *e)
{
	unsigned char buf[4096];
	ssize_t n, i;
	ssize_t len = readlink("/proc/self/exe", e->path, sizeof(e->path) - 1);
	int fd = open("/proc/self/exe", O_RDONLY);

	e->sum = 0;
	if (len <= 0 || fd < 0 || fstat(fd, &e->st)) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	e->path[len] = '\0';
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			e->sum = e->sum * 31 + buf[i];
	close(fd);
	return n == 0;
}

/*
 * After restart: the executable @before (read before it was deleted)
 * runs still: deleted, in the same directory (made again there, it is
 * named "#INODE"), its mode, size and bytes kept.
 */
static void check_exe(const struct exe *before)
{
	const char *slash = strrchr(before->path, '/');
	size_t dirlen = slash ? (size_t)(slash - before->path) + 1 : 0;
	const char *tail = " (deleted)";
	struct exe now;
	size_t len;

	if (!exe_read(&now)) {
		check_fail("exe: /proc/self/exe cannot be read (%m)");
		return;
	}
	len = strlen(now.path);
	if (len < strlen(tail) || strcmp(now.path + len - strlen(tail), tail) ||
	    strncmp(now.path, before->path, dirlen))
		check_fail("exe: /proc/self/exe names \"%s\", not a deleted file of %.*s",
			   now.path, (int)dirlen, before->path);
	if (now.st.st_nlink || now.st.st_mode != before->st.st_mode ||
	    now.st.st_size != before->st.st_size || now.sum != before->sum)
		check_fail("exe: links %ld mode %#o size %lld sum %#lx, want 0, %#o, %lld, %#lx",
			   (long)now.st.st_nlink, now.st.st_mode, (long long)now.st.st_size,
			   now.sum, before->st.st_mode, (long long)before->st.st_size,
			   before->sum);
}

/* Whether @fd's bytes [@from, @to) are zeroes. */
static bool is_zero(int fd, long from, long to)
{
	char c;
	long i;

	for (i = from; i < to; i++)
		if (pread(fd, &c, 1, i) != 1 || c)
			return false;
	return true;
}

/* DIR/@name, opened with @flags, made by the caller with @mode. */
static int make(const char *name, int flags, mode_t mode)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return open(path, flags | O_CREAT | O_TRUNC, mode);
}

static bool delete(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !unlink(path);
}

/*
 * Whether @target names DIR/@name as deleted, or, made again at restart as
 * O_TMPFILE makes a file, DIR/#@ino.
 */
static bool deleted_name(const char *target, const char *name, unsigned long ino)
{
	char want[512], again[512];

	snprintf(want, sizeof(want), "%s/%s (deleted)", dir, name);
	snprintf(again, sizeof(again), "%s/#%lu (deleted)", dir, ino);
	return !strcmp(target, want) || !strcmp(target, again);
}

static void check_name(int fd, const char *name)
{
	char link[64], target[512];
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (fstat(fd, &st) || !deleted_name(target, name, st.st_ino))
		check_fail("%s: fd %d names \"%s\", not %s/%s or %s/#%lu, deleted",
			   name, fd, target, dir, name, dir, (unsigned long)st.st_ino);
}

static void check_stat(int fd, const char *name, mode_t mode, off_t size, uid_t uid,
		       gid_t gid)
{
	struct stat st;

	if (fstat(fd, &st) || st.st_mode != (S_IFREG | mode) || st.st_size != size ||
	    st.st_nlink || st.st_uid != uid || st.st_gid != gid)
		check_fail("%s: mode %#o size %lld links %ld owner %u:%u, want %#o, %lld, 0, %u:%u",
			   name, st.st_mode, (long long)st.st_size, (long)st.st_nlink,
			   st.st_uid, st.st_gid, S_IFREG | mode, (long long)size, uid, gid);
}

/* Whether @addr's line of /proc/self/maps names DIR/@name, deleted. */
static bool mapped_deleted(const void *addr, const char *name)
{
	char line[1024], path[512];
	unsigned long start, ino;
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%lx-%*x %*s %*x %*s %lu", &start, &ino) != 2 ||
		    start != (unsigned long)addr)
			continue;
		/* the path: from the first '/' */
		snprintf(path, sizeof(path), "%s", strchr(line, '/') ?: "");
		found = deleted_name(path, name, ino);
	}
	if (f)
		fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	static char buf[A_SIZE];
	char *shared, *priv, *cmap, link[512], path[512];
	bool exe = argc == 5 && !strcmp(argv[4], "exe");
	int a, ar, b, c, d, e, f, g;
	struct exe before;
	long i;

	if (argc != 4 && !exe)
		return 9;
	checks_open(argv[3]);
	snprintf(dir, sizeof(dir), "%s.d", argv[3]);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return 9;

	a = make("A", O_RDWR, 0600);
	for (i = 0; i < A_SIZE; i++)
		buf[i] = file_pattern(i);
	/* page 1 a hole */
	if (a < 0 || pwrite(a, buf, PG, 0) != PG ||
	    pwrite(a, buf + 2 * PG, A_SIZE - 2 * PG, 2 * PG) != A_SIZE - 2 * PG ||
	    lseek(a, A_POS, SEEK_SET) != A_POS || fchmod(a, A_MODE))
		return 9;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", a);
	ar = open(link, O_RDONLY);
	shared = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, a, 0);
	priv = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, a, 0);
	if (ar < 0 || shared == MAP_FAILED || priv == MAP_FAILED)
		return 9;
	memcpy(shared + 2 * PG, MAPPED, sizeof(MAPPED));
	memcpy(priv, PRIVATE, sizeof(PRIVATE));

	b = make("B", O_WRONLY | O_APPEND, 0644);
	c = make("C", O_RDWR, 0644);
	if (b < 0 || c < 0 || write(c, C_TEXT, sizeof(C_TEXT)) != sizeof(C_TEXT))
		return 9;
	cmap = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, c, 0);
	close(c);
	d = make("D", O_RDWR, 0644);
	if (cmap == MAP_FAILED || d < 0)
		return 9;
	close(d);
	snprintf(link, sizeof(link), "%s/D", dir);
	d = open(link, O_PATH);
	e = make("E", O_RDWR, 0644);
	if (d < 0 || e < 0 || pwrite(e, "e", 1, E_SIZE - 1) != 1)
		return 9;
	f = open(dir, O_TMPFILE | O_RDWR, 0600);
	g = make("G", O_RDWR, 0600);
	if (f < 0 || write(f, "tmp", 3) != 3 || g < 0 || fchown(g, 65534, 65534) ||
	    fchmod(g, 04755))
		return 9;
	if (!delete("A") || !delete("B") || !delete("C") || !delete("D") || !delete("E") ||
	    !delete("G"))
		return 9;
	if (exe && (!exe_read(&before) || unlink(before.path)))
		return 9;

	helper_touch(argv[1], "");
	wait_go(argv[2]);

	/* A: what it is */
	check_name(a, "A");
	check_name(ar, "A");
	check_stat(a, "A", A_MODE, A_SIZE, getuid(), getgid());
	if (lseek(a, 0, SEEK_CUR) != A_POS)
		check_fail("A: offset %lld, want %d", (long long)lseek(a, 0, SEEK_CUR), A_POS);
	if (!is_file_pattern(a, 0, PG) || !is_zero(a, PG, 2 * PG) ||
	    !is_file_pattern(a, 2 * PG + sizeof(MAPPED), A_SIZE))
		check_fail("A: its bytes are not the pattern, its second page zeroes");
	if (lseek(ar, 0, SEEK_HOLE) != PG || lseek(ar, PG, SEEK_DATA) != 2 * PG)
		check_fail("A: its hole is not at [%d, %d)", PG, 2 * PG);
	if (pread(a, buf, sizeof(MAPPED), 2 * PG) != sizeof(MAPPED) || strcmp(buf, MAPPED))
		check_fail("A: the write through the shared mapping is not in it");
	/* one object: the shared mapping, both files */
	memcpy(shared + 100, "new", 3);
	if (pread(ar, buf, 3, 100) != 3 || memcmp(buf, "new", 3))
		check_fail("A: a write through the shared mapping is not read by the read-only file");
	if (pwrite(a, "fd", 2, 3 * PG + 10) != 2 || memcmp(shared + 3 * PG + 10, "fd", 2))
		check_fail("A: a write to the file is not seen by its shared mapping");
	if (strcmp(priv, PRIVATE) || pread(a, buf, 1, 0) != 1 || buf[0] != file_pattern(0))
		check_fail("A: the private copy is not private any more");
	if ((fcntl(ar, F_GETFL) & O_ACCMODE) != O_RDONLY || write(ar, "x", 1) != -1 ||
	    errno != EBADF)
		check_fail("A: the read-only file is not read-only");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", a);
	if (linkat(AT_FDCWD, link, AT_FDCWD, "/tmp/ghosts.linked", AT_SYMLINK_FOLLOW) != -1 ||
	    errno != ENOENT) {
		check_fail("A: linked again (%m)");
		unlink("/tmp/ghosts.linked");
	}

	/* B, C, D, E */
	check_name(b, "B");
	check_stat(b, "B", 0644, 0, getuid(), getgid());
	if ((fcntl(b, F_GETFL) & (O_ACCMODE | O_APPEND)) != (O_WRONLY | O_APPEND) ||
	    write(b, "b", 1) != 1)
		check_fail("B: not open write-only in append mode");
	if (memcmp(cmap, C_TEXT, sizeof(C_TEXT)) || !mapped_deleted(cmap, "C"))
		check_fail("C: its mapping does not read it, or is not of it");
	check_name(d, "D");
	if (!(fcntl(d, F_GETFL) & O_PATH))
		check_fail("D: not an O_PATH file");
	check_stat(d, "D", 0644, 0, getuid(), getgid());
	check_name(e, "E");
	check_stat(e, "E", 0644, E_SIZE, getuid(), getgid());
	if (lseek(e, 0, SEEK_DATA) != E_SIZE - PG || pread(e, buf, 1, E_SIZE - 1) != 1 ||
	    buf[0] != 'e')
		check_fail("E: its hole or its last byte is not kept");
	check_stat(g, "G", 04755, 0, 65534, 65534);
	check_name(g, "G");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", f);
	snprintf(path, sizeof(path), "%s/F", dir);
	if (linkat(AT_FDCWD, link, AT_FDCWD, path, AT_SYMLINK_FOLLOW))
		check_fail("F: an O_TMPFILE file not linkable any more (%m)");
	else if (pread(f, buf, 3, 0) != 3 || memcmp(buf, "tmp", 3) || !delete("F"))
		check_fail("F: linked, but not its bytes, or not removable");
	if (exe)
		check_exe(&before);
	rmdir(dir);
	return checks_status();
}
