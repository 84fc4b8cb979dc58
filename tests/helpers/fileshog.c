// SPDX-License-Identifier: GPL-2.0
/*
 * fileshog READY GO OUT DIR: open files of several kinds in DIR, create
 * READY, wait for GO, then check offsets, flags, O_APPEND, close-on-exec,
 * descriptors sharing one open file, a directory descriptor and O_PATH
 * descriptors (of a file, of a symbolic link itself, of a FIFO). Writes
 * the failed checks (or "ok") to OUT; exit 0 when all hold.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static FILE *out;
static int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(out, "FAILED: %s\n", what);
		failed++;
	}
}

static int make(const char *dir, const char *name, const char *text)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return -1;
	return close(fd);
}

int main(int argc, char **argv)
{
	char path[512], buf[16] = "";
	int a, b, c, d, e, f, g, h, l, p;
	struct stat st, cst;

	if (argc != 5)
		return 9;
	out = fopen(argv[3], "w");
	if (!out || make(argv[4], "a", "0123456789") || make(argv[4], "b", "xy") ||
	    make(argv[4], "c", "hello"))
		return 9;
	snprintf(path, sizeof(path), "%s/a", argv[4]);
	a = open(path, O_RDWR);
	snprintf(path, sizeof(path), "%s/b", argv[4]);
	b = open(path, O_WRONLY | O_APPEND);
	snprintf(path, sizeof(path), "%s/c", argv[4]);
	c = open(path, O_RDONLY | O_CLOEXEC);
	d = dup(a);
	e = dup2(a, 20);
	f = open(argv[4], O_RDONLY | O_DIRECTORY);
	if (a < 0 || b < 0 || c < 0 || d < 0 || e != 20 || f < 0)
		return 9;
	/* O_PATH: the file c, a symbolic link to it, a FIFO (nothing opened) */
	snprintf(path, sizeof(path), "%s/c", argv[4]);
	h = open(path, O_PATH);
	snprintf(path, sizeof(path), "%s/l", argv[4]);
	unlink(path);
	if (symlink("c", path))
		return 9;
	l = open(path, O_PATH | O_NOFOLLOW);
	snprintf(path, sizeof(path), "%s/p", argv[4]);
	unlink(path);
	if (mkfifo(path, 0600))
		return 9;
	p = open(path, O_PATH);
	if (h < 0 || l < 0 || p < 0)
		return 9;
	lseek(a, 3, SEEK_SET);
	if (read(c, buf, 2) != 2)
		return 9;

	close(open(argv[1], O_WRONLY | O_CREAT, 0644));
	while (access(argv[2], F_OK)) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}

	check(lseek(a, 0, SEEK_CUR) == 3, "offset of a is 3");
	check(lseek(d, 0, SEEK_CUR) == 3, "dup'd d shares a's offset");
	check(read(d, buf, 1) == 1 && buf[0] == '3', "read through d");
	check(lseek(a, 0, SEEK_CUR) == 4 && lseek(e, 0, SEEK_CUR) == 4,
	      "a and fd 20 moved with d: one open file");
	check((fcntl(a, F_GETFL) & O_ACCMODE) == O_RDWR, "a is O_RDWR");
	check(fcntl(b, F_GETFL) & O_APPEND, "b is O_APPEND");
	lseek(b, 0, SEEK_SET);
	check(write(b, "z", 1) == 1, "write to b");
	snprintf(path, sizeof(path), "%s/b", argv[4]);
	check(stat(path, &st) == 0 && st.st_size == 3, "O_APPEND write went to the end");
	check(fcntl(c, F_GETFD) == FD_CLOEXEC, "c is close-on-exec");
	check(fcntl(a, F_GETFD) == 0, "a is not close-on-exec");
	memset(buf, 0, sizeof(buf));
	check(read(c, buf, sizeof(buf) - 1) == 3 && !strcmp(buf, "llo"), "c reads on from offset 2");
	check(fstat(f, &st) == 0 && S_ISDIR(st.st_mode), "f is a directory");
	g = openat(f, "c", O_RDONLY);
	check(g >= 0, "openat() relative to the directory fd");
	check((fcntl(h, F_GETFL) & O_PATH) && fstatat(f, "c", &cst, 0) == 0 &&
	      fstat(h, &st) == 0 && st.st_ino == cst.st_ino, "h is O_PATH on c");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", h);
	g = open(path, O_RDONLY);
	memset(buf, 0, sizeof(buf));
	check(g >= 0 && read(g, buf, sizeof(buf) - 1) == 5 && !strcmp(buf, "hello"),
	      "c reopened through h reads hello");
	memset(buf, 0, sizeof(buf));
	check((fcntl(l, F_GETFL) & O_PATH) && readlinkat(l, "", buf, sizeof(buf) - 1) == 1 &&
	      !strcmp(buf, "c"), "l is O_PATH on the symbolic link itself, to c");
	check((fcntl(p, F_GETFL) & O_PATH) && fstat(p, &st) == 0 && S_ISFIFO(st.st_mode),
	      "p is O_PATH on the FIFO");
	check(fcntl(21, F_GETFD) < 0, "no extra descriptors (fd 21 closed)");
	if (!failed)
		fprintf(out, "ok\n");
	fclose(out);
	return failed ? 1 : 0;
}
