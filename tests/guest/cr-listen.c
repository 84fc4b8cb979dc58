// SPDX-License-Identifier: GPL-2.0
/*
 * Unix sockets bound to a name or listening, across checkpoint/restart
 * (helper: listeners, restarted by rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: a
 *     listener on a path (its socket file's mode, owner, options) accepts
 *     a client that sees the restored process through SO_PEERCRED; one on
 *     an abstract name accepts a message; a bound datagram socket receives
 *     one; an autobound and an unbound socket keep their names; a
 *     listener whose socket file was removed stays so;
 *   - ckptinfo validates that image and lists the sockets;
 *   - refusals, each refused child carrying on: a connection waiting to
 *     be accepted (EBUSY); a socket bound to a relative path, an abstract
 *     name of another network namespace (EOPNOTSUPP);
 *   - restarts of a listener on a path: refused while its process lives
 *     (EADDRINUSE, the caller carrying on, the live socket's file kept),
 *     done once it was killed (the file it left replaced: a client
 *     connects); refused where another file is at the path (kept); a
 *     restart refused later (its abstract name taken) removes the socket
 *     file it made.
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/listen.ready"
#define GO	"/tmp/listen.go"
#define OUT	"/tmp/listen.out"
#define IMG	"/tmp/listen.img"
#define PATH	"/tmp/listen.path"
#define ABSTRACT "\0cr-listen-taken"

/* The helper's status, checkpointed and restarted on the way if @ckpt. */
static int run(bool ckpt)
{
	char *argv[] = { HELPER("listeners"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

static socklen_t make_addr(struct sockaddr_un *sun, const char *name, size_t len)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, name, len);
	return offsetof(struct sockaddr_un, sun_path) + len;
}

/* A stream socket listening on @name (@len bytes), or bail out. */
static int listener(const char *name, size_t len)
{
	struct sockaddr_un sun;
	socklen_t alen = make_addr(&sun, name, len);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, alen) || listen(fd, 4))
		tap_bail("setup: listen on %s: %m", name[0] ? name : name + 1);
	return fd;
}

/* Whether a client can connect to the path @path. */
static bool connects(const char *path)
{
	struct sockaddr_un sun;
	socklen_t len = make_addr(&sun, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	bool ok = fd >= 0 && !connect(fd, (struct sockaddr *)&sun, len);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A child holding @fd, closed here: refused with @err and @want. */
static void refused(int fd, int err, const char *want, const char *what)
{
	pid_t pid = fork_holding(fd, fd, true);

	close(fd);
	check_refused(pid, IMG, err, want, what);
}

/* A restart of IMG refused with @err and @want; the caller carries on. */
static void restart_refused(int err, const char *want, const char *what)
{
	int st = wait_exit(restart_from(IMG), 60);
	const char *why = engine_stat("restart.refused");

	tap_ok(st == RESTART_FAILED(err) << 8 && strstr(why, want),
	       "%s: restart refused with %s, the caller carries on (%#x, \"%s\")",
	       what, strerror(err), st, why);
}

/* Listening on an abstract name, in a child's network namespace. */
static bool abstract_listener(void)
{
	return listener(ABSTRACT, sizeof(ABSTRACT) - 1) >= 0;
}

/*
 * Restarts of the image of a child listening on PATH: refused while the
 * child lives, done once it was killed, refused where another file is.
 */
static void restarts(void)
{
	struct stat st;
	pid_t pid, r;
	long crid;
	int fd;

	unlink(PATH);
	fd = listener(PATH, sizeof(PATH));
	pid = fork_holding(fd, fd, false);
	close(fd);
	crid = checkpoint_retry(pid, IMG);
	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld (%s)", crid, engine_stat("checkpoint.refused"));

	restart_refused(EADDRINUSE, PATH ": cannot bind a unix socket to it: a live socket",
			"its listener still living");
	tap_ok(connects(PATH), "the living listener's socket file is still its own");
	kill_wait(pid);

	r = restart_from(IMG);
	fd = -1;
	for (int i = 0; i < 100 && fd < 0; i++) {
		sleep_ms(100);
		if (connects(PATH))
			fd = 0;
	}
	tap_ok(!fd && waitpid(r, NULL, WNOHANG) == 0,
	       "restarted once it was killed: the socket file it left replaced, a client connects");
	kill_wait(r);

	unlink(PATH);
	close(open(PATH, O_WRONLY | O_CREAT, 0644));
	restart_refused(EADDRINUSE, PATH ": cannot bind a unix socket to it: another file",
			"a regular file at its path");
	tap_ok(!stat(PATH, &st) && S_ISREG(st.st_mode), "the regular file is kept");
	unlink(PATH);
}

/*
 * A listener on PATH and one on ABSTRACT, checkpointed; the test takes
 * ABSTRACT: the restart, refused, removes the socket file it made at
 * PATH (after replacing the one the killed child left).
 */
static void refused_restart_removes(void)
{
	struct stat st;
	int fd, fd2, taken;
	pid_t pid;
	long crid;

	unlink(PATH);
	fd = listener(PATH, sizeof(PATH));
	fd2 = listener(ABSTRACT, sizeof(ABSTRACT) - 1);
	if (fd2 != fd + 1)
		tap_bail("setup: descriptors %d %d", fd, fd2);
	pid = fork_holding(fd, fd2, false);
	close(fd);
	close(fd2);
	crid = checkpoint_retry(pid, IMG);
	kill_wait(pid);
	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld (%s)", crid, engine_stat("checkpoint.refused"));
	taken = listener(ABSTRACT, sizeof(ABSTRACT) - 1);
	restart_refused(EADDRINUSE, "@cr-listen-taken: cannot bind", "its abstract name taken");
	tap_ok(stat(PATH, &st) && errno == ENOENT,
	       "the refused restart removed the socket file it made (%s)",
	       stat(PATH, &st) ? strerror(errno) : "still there");
	close(taken);
}

int main(void)
{
	struct sockaddr_un sun;
	socklen_t len;
	int fd, c;

	tap_plan(16);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/listen.info && "
		      "grep -q 'listening " OUT ".sock' /tmp/listen.info && "
		      "grep -q 'listening @cr-listen' /tmp/listen.info && "
		      "grep -q 'removed' /tmp/listen.info") == 0,
	       "ckptinfo validates the image and lists the listeners");

	unlink(PATH);
	fd = listener(PATH, sizeof(PATH));
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	len = make_addr(&sun, PATH, sizeof(PATH));
	if (c < 0 || connect(c, (struct sockaddr *)&sun, len))
		tap_bail("setup: connect: %m");
	refused(fd, EBUSY, "waiting to be accepted", "a listener with a connection waiting");
	close(c);
	unlink(PATH);

	if (chdir("/tmp"))
		tap_bail("setup: chdir: %m");
	unlink("listen.rel");
	fd = listener("listen.rel", sizeof("listen.rel"));
	refused(fd, EOPNOTSUPP, "relative path", "a socket bound to a relative path");
	unlink("listen.rel");

	check_refused(fork_netns(abstract_listener), IMG, EOPNOTSUPP,
		      "of another network namespace", "a name of another network namespace");
	restarts();
	refused_restart_removes();
	return tap_done();
}
