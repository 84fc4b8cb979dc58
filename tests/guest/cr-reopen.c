// SPDX-License-Identifier: GPL-2.0
/*
 * Restart reopens files by path, and must reopen the same ones. A task
 * holding /tmp/r/f0000 (read-only) is checkpointed; then, before each
 * restart, the path is made to name something else, and the restart must
 * be refused before its point of no return with the caller carrying on:
 *   - another file renamed over it: ESTALE;
 *   - the same file, grown (opened read-only, so it must not change):
 *     ESTALE;
 *   - a FIFO in its place (opening it would block the restart): ESTALE,
 *     at once;
 *   - the image patched to name /proc/version, a path of the same length
 *     (a file system not marked FS_CHECKPOINTABLE): EINVAL.
 * The untouched file restarts (the check is not a refusal of everything).
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/r"
#define FILE_PATH DIR "/f0000"	/* as long as "/proc/version" */
#define IMG DIR "/reopen.img"

static void put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd))
		tap_bail("setup: write %s: %m", path);
}

/* The holder's SIGUSR1 handler: proof that it runs (restarted). */
static void on_usr1(int sig)
{
	int fd = open(DIR "/alive", O_WRONLY | O_CREAT, 0600);

	(void)sig;
	if (fd >= 0)
		close(fd);
}

/*
 * A task holding FILE_PATH open for reading, checkpointed into IMG. It
 * answers SIGUSR1 by creating DIR/alive.
 */
static void holder_image(void)
{
	pid_t pid;

	unlink(DIR "/ready");
	put_file(FILE_PATH, "original\n");
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid) {
		if (!null_stdio() || open(FILE_PATH, O_RDONLY) < 0 ||
		    signal(SIGUSR1, on_usr1) == SIG_ERR)
			_exit(1);
		put_file(DIR "/ready", "");
		for (;;)
			pause();
	}
	if (!wait_file(DIR "/ready", 60) || !stop_task(pid) || checkpoint_to(pid, IMG) <= 0)
		tap_bail("setup: no image of the file holder");
	kill_wait(pid);
}

/*
 * Restart from @img: the errno it was refused with; -1 if the restarted
 * holder answers SIGUSR1 (the caller ignores it until the image's handler
 * is in place); -2 for another exit; -3 if neither happened in 5 s (a
 * restart blocked somewhere).
 */
static int restart_errno(const char *img)
{
	pid_t pid;
	int st, i;

	unlink(DIR "/alive");
	pid = restart_from(img);
	for (i = 0; i < 500; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			if (WIFEXITED(st) && WEXITSTATUS(st) >= RESTART_FAILED(0))
				return WEXITSTATUS(st) - RESTART_FAILED(0);
			return -2;
		}
		kill(pid, SIGUSR1);
		usleep(10000);
		if (!access(DIR "/alive", F_OK)) {
			kill_wait(pid);
			return -1;
		}
	}
	kill_wait(pid);
	return -3;
}

/* A copy of IMG whose FILE record path reads @path (same length). */
static void image_naming(const char *to, const char *path)
{
	static char buf[1 << 20];
	int fd = open(IMG, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	char *p;

	if (n <= 0 || n == sizeof(buf))
		tap_bail("setup: read %s", IMG);
	close(fd);
	p = memmem(buf, n, FILE_PATH, sizeof(FILE_PATH));
	if (!p)
		tap_bail("setup: %s does not name %s", IMG, FILE_PATH);
	memcpy(p, path, sizeof(FILE_PATH));
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, buf, n) != n || close(fd))
		tap_bail("setup: write %s", to);
}

int main(void)
{
	int err;

	tap_plan(5);
	engine_on();
	signal(SIGUSR1, SIG_IGN);	/* restart_from()'s children inherit it */
	mkdir(DIR, 0700);
	holder_image();

	err = restart_errno(IMG);
	tap_ok(err == -1, "the file as it was: the restart goes through, the restarted task answers a signal (%d)",
	       err);

	put_file(DIR "/other", "original\n");
	rename(DIR "/other", FILE_PATH);
	err = restart_errno(IMG);
	tap_ok(err == ESTALE, "another file renamed over the path: ESTALE (%d)", err);

	holder_image();
	{
		int fd = open(FILE_PATH, O_WRONLY | O_APPEND);

		if (fd < 0 || write(fd, "more\n", 5) != 5 || close(fd))
			tap_bail("setup: append to %s", FILE_PATH);
	}
	err = restart_errno(IMG);
	tap_ok(err == ESTALE, "a read-only file grown since the checkpoint: ESTALE (%d)", err);

	holder_image();
	unlink(FILE_PATH);
	if (mkfifo(FILE_PATH, 0644))
		tap_bail("setup: mkfifo: %m");
	err = restart_errno(IMG);
	tap_ok(err == ESTALE, "a FIFO in its place: ESTALE at once, not a blocked restart (%d)", err);

	unlink(FILE_PATH);
	holder_image();
	image_naming(DIR "/proc.img", "/proc/version");
	err = restart_errno(DIR "/proc.img");
	tap_ok(err == EINVAL, "an image naming /proc/version: EINVAL (%d)", err);
	return tap_done();
}
