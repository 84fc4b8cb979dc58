// SPDX-License-Identifier: GPL-2.0
/*
 * lockers READY GO OUT DIR: takes locks on files in DIR, creates READY,
 * waits for GO, then checks them and exits 0 if all hold (1 otherwise,
 * what failed in OUT; 9: its set-up failed):
 *   - DIR/a, flock(LOCK_EX): another open of it cannot take it
 *     (EWOULDBLOCK) until this one is unlocked;
 *   - DIR/b, an OFD write lock on bytes 10-19: another open's F_OFD_GETLK
 *     over bytes 0-99 names it, and bytes 0-9 are free;
 *   - DIR/c, read-only, an OFD read lock on the whole file and a shared
 *     flock(): another open's write lock is refused, a read lock and a
 *     shared flock() are granted;
 *   - DIR/d, a POSIX write lock on bytes 0-4: a child's F_GETLK finds it,
 *     this process's (its pid now), and the child cannot take it.
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

static int open_in(const char *dir, const char *name, int flags)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return open(path, flags | O_CREAT, 0644);
}

static int ofd(int fd, int cmd, short type, off_t start, off_t len, struct flock *fl)
{
	*fl = (struct flock){ .l_type = type, .l_whence = SEEK_SET,
			      .l_start = start, .l_len = len };
	return fcntl(fd, cmd, fl);
}

/* In a child: what F_GETLK and F_SETLK say of bytes 0-4 of @fd's file. */
static int child_sees(int fd)
{
	struct flock fl;
	pid_t pid = fork();
	int st;

	if (!pid) {
		if (ofd(fd, F_GETLK, F_WRLCK, 0, 5, &fl) || fl.l_type != F_WRLCK ||
		    fl.l_pid != getppid() || fl.l_start || fl.l_len != 5)
			_exit(1);
		_exit(ofd(fd, F_SETLK, F_WRLCK, 0, 5, &fl) == -1 &&
		      (errno == EAGAIN || errno == EACCES) ? 0 : 2);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	int a, b, c, d, a2, b2, c2, fd, seen;
	struct flock fl;

	if (argc != 5)
		return 9;
	checks_open(argv[3]);
	a = open_in(argv[4], "a", O_RDWR);
	b = open_in(argv[4], "b", O_RDWR);
	c = open_in(argv[4], "c", O_RDONLY);
	d = open_in(argv[4], "d", O_RDWR);
	if (a < 0 || b < 0 || c < 0 || d < 0 || flock(a, LOCK_EX | LOCK_NB) ||
	    ofd(b, F_OFD_SETLK, F_WRLCK, 10, 10, &fl) ||
	    ofd(c, F_OFD_SETLK, F_RDLCK, 0, 0, &fl) || flock(c, LOCK_SH | LOCK_NB) ||
	    ofd(d, F_SETLK, F_WRLCK, 0, 5, &fl))
		return 9;
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return 9;
	wait_go(argv[2]);

	a2 = open_in(argv[4], "a", O_RDWR);
	if (!flock(a2, LOCK_EX | LOCK_NB) || errno != EWOULDBLOCK)
		check_fail("a: another open took the flock() lock (%s)", strerror(errno));
	if (flock(a, LOCK_UN) || flock(a2, LOCK_EX | LOCK_NB))
		check_fail("a: once unlocked, another open could not take it (%s)",
			   strerror(errno));

	b2 = open_in(argv[4], "b", O_RDWR);
	if (ofd(b2, F_OFD_GETLK, F_WRLCK, 0, 100, &fl) || fl.l_type != F_WRLCK ||
	    fl.l_start != 10 || fl.l_len != 10)
		check_fail("b: F_OFD_GETLK over 0-99 found type %d at %lld, %lld bytes",
			   fl.l_type, (long long)fl.l_start, (long long)fl.l_len);
	if (ofd(b2, F_OFD_SETLK, F_WRLCK, 0, 10, &fl))
		check_fail("b: bytes 0-9 not free (%s)", strerror(errno));

	c2 = open_in(argv[4], "c", O_RDWR);
	if (!ofd(c2, F_OFD_SETLK, F_WRLCK, 0, 0, &fl) || errno != EAGAIN)
		check_fail("c: another open took a write lock over the read lock (%s)",
			   strerror(errno));
	if (ofd(c2, F_OFD_SETLK, F_RDLCK, 0, 0, &fl) || flock(c2, LOCK_SH | LOCK_NB))
		check_fail("c: another open could not share the read locks (%s)",
			   strerror(errno));
	if (!flock(c2, LOCK_EX | LOCK_NB) || errno != EWOULDBLOCK)
		check_fail("c: another open took flock(LOCK_EX) over the shared one");

	seen = child_sees(d);
	if (seen)
		check_fail("d: a child %s (%d)", seen == 1 ?
			   "did not find this process's POSIX write lock on bytes 0-4" :
			   "took the POSIX lock, or could not ask", seen);
	return checks_status();
}
