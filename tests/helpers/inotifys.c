// SPDX-License-Identifier: GPL-2.0
/*
 * inotifys READY GO OUT DIR [queued | root | unreachable MNT]: inotify instances
 * in the state a checkpoint must keep; creates READY, waits for GO, then
 * checks them and exits 0 if all holds (1 otherwise, what failed in OUT;
 * 9: its set-up failed). Its working directory is DIR.
 *   - A (IN_NONBLOCK) watches DIR for IN_CREATE | IN_DELETE (wd 1) and
 *     DIR/watched.conf for IN_MODIFY | IN_CLOSE_WRITE (wd 2); a third
 *     watch (wd 3) was removed: nothing is queued, a file made in DIR and
 *     a write to watched.conf are told with their watch descriptors, and
 *     a new watch gets wd 4, as it would have;
 *   - B (blocking) watches DIR/sub for IN_OPEN, IN_ONESHOT: opening it is
 *     told once, then IN_IGNORED.
 * "queued": an event is left queued on A. "unreachable": A also watches
 * MNT, a mount it holds nothing of. "root": A also watches "/", its root
 * (a file system's root dentry, never hashed).
 */
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define EVBUF	4096

/* The next event of @fd (blocking or not), or NULL: in @buf. */
static const struct inotify_event *next_event(int fd, char *buf, ssize_t *len,
					      ssize_t *off)
{
	const struct inotify_event *ev;

	if (*off >= *len) {
		*len = read(fd, buf, EVBUF);
		*off = 0;
		if (*len <= 0)
			return NULL;
	}
	ev = (const struct inotify_event *)(buf + *off);
	*off += sizeof(*ev) + ev->len;
	return ev;
}

static void expect(int fd, int wd, unsigned int mask, const char *name,
		   const char *what)
{
	static char buf[EVBUF] __attribute__((aligned(8)));
	static ssize_t len, off;
	const struct inotify_event *ev = next_event(fd, buf, &len, &off);

	if (!ev) {
		check_fail("%s: no event (%m)", what);
		return;
	}
	if (ev->wd != wd || ev->mask != mask ||
	    (name && (!ev->len || strcmp(ev->name, name))))
		check_fail("%s: wd %d mask %#x name \"%s\", not wd %d mask %#x \"%s\"",
			   what, ev->wd, ev->mask, ev->len ? ev->name : "", wd, mask,
			   name ? name : "");
}

int main(int argc, char **argv)
{
	char buf[EVBUF];
	int a, b, wd, fd;

	if (argc < 5 || (argc == 6 && strcmp(argv[5], "queued") && strcmp(argv[5], "root")) ||
	    (argc == 7 && strcmp(argv[5], "unreachable")) || argc > 7)
		return 9;
	checks_open(argv[3]);
	if (chdir(argv[4]))
		return 9;
	fd = open("watched.conf", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || mkdir("sub", 0755) || close(fd))
		return 9;

	a = inotify_init1(IN_NONBLOCK);
	b = inotify_init1(0);
	if (a < 0 || b < 0 ||
	    inotify_add_watch(a, ".", IN_CREATE | IN_DELETE) != 1 ||
	    inotify_add_watch(a, "watched.conf", IN_MODIFY | IN_CLOSE_WRITE) != 2 ||
	    inotify_add_watch(a, "sub", IN_ATTRIB) != 3 ||
	    inotify_rm_watch(a, 3) ||
	    inotify_add_watch(b, "sub", IN_OPEN | IN_ONESHOT) != 1)
		return 9;
	/* the removal's IN_IGNORED, read */
	if (read(a, buf, sizeof(buf)) <= 0)
		return 9;
	if (argc == 7 && inotify_add_watch(a, argv[6], IN_CREATE) < 0)
		return 9;
	if (argc == 6 && !strcmp(argv[5], "root") &&
	    inotify_add_watch(a, "/", IN_DELETE_SELF) < 0)
		return 9;
	if (argc == 6 && !strcmp(argv[5], "queued")) {
		fd = open("queued", O_WRONLY | O_CREAT, 0644);
		if (fd < 0 || close(fd))
			return 9;
	}

	helper_touch(argv[1], "");
	wait_go(argv[2]);

	if (!(fcntl(a, F_GETFL) & O_NONBLOCK) || fcntl(b, F_GETFL) & O_NONBLOCK)
		check_fail("O_NONBLOCK not as it was");
	if (read(a, buf, sizeof(buf)) >= 0 || errno != EAGAIN)
		check_fail("A: something was queued (%m)");
	fd = open("new", O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		check_fail("cannot make DIR/new: %m");
	expect(a, 1, IN_CREATE, "new", "A: a file made in DIR");
	fd = open("watched.conf", O_WRONLY);
	if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
		check_fail("cannot write watched.conf: %m");
	expect(a, 2, IN_MODIFY, NULL, "A: watched.conf written");
	expect(a, 2, IN_CLOSE_WRITE, NULL, "A: watched.conf closed");
	wd = inotify_add_watch(a, "sub", IN_ATTRIB);
	if (wd != 4)
		check_fail("A: a new watch got wd %d, not 4", wd);
	fd = open("sub", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || close(fd))
		check_fail("cannot open sub: %m");
	expect(b, 1, IN_OPEN | IN_ISDIR, NULL, "B: sub opened");
	expect(b, 1, IN_IGNORED, NULL, "B: its one-shot watch gone");
	return checks_status();
}
