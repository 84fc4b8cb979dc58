// SPDX-License-Identifier: GPL-2.0
/*
 * Deleted files across checkpoint/restart (helper: ghosts, restarted by
 * rstr as a user would):
 *   - the helper's checks hold without a checkpoint, and after one: each
 *     deleted file's name, mode, owner, size, offset, bytes and holes,
 *     its files and mappings still one object (see the helper);
 *   - ckptinfo validates that image, and the image does not hold the
 *     helper's 1 GiB hole;
 *   - a process whose executable was deleted (the helper run from a copy
 *     it deletes): restarted, its checks hold, the executable running
 *     still deleted, with its mode, size and bytes; one another process
 *     outside runs too (it maps it privately: nothing shared) saved and
 *     restarted; one 32 processes outside run, each through a file of its
 *     own, saved; with a 33rd, EBUSY (too many files to count);
 *   - refusals at checkpoint, each refused child carrying on: a deleted
 *     file the test has another file of (EBUSY, naming the test), one
 *     still linked under another name, one whose directory was removed
 *     too, one locked (flock()) (EOPNOTSUPP);
 *     a deleted file with an extended attribute (EOPNOTSUPP; tmpfs has
 *     them in the distro variant only, CONFIG_TMPFS_XATTR);
 *   - a restart refused: the directory a file was deleted from is gone
 *     (ENOENT), the caller carrying on;
 *   - a deleted file made again in a directory that has a default ACL
 *     since: no access ACL from it (CONFIG_TMPFS_POSIX_ACL, distro).
 */
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define READY	"/tmp/ghosts.ready"
#define GO	"/tmp/ghosts.go"
#define OUT	"/tmp/ghosts.out"
#define IMG	"/tmp/ghosts.img"
#define DIR	"/tmp/ghost.d"
#define EXE	"/tmp/ghost.exe"

static int run(bool ckpt)
{
	char *argv[] = { HELPER("ghosts"), READY, GO, OUT, NULL };

	return run_checked(argv, READY, GO, IMG, ckpt);
}

/* DIR/@name made afresh, open read-write. */
static int make(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), DIR "/%s", name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "data", 4) != 4)
		tap_bail("setup: %s: %m", path);
	return fd;
}

static void delete(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), DIR "/%s", name);
	if (unlink(path))
		tap_bail("setup: unlink %s: %m", path);
}

/* A stopped child holding @fd, DIR/@name, deleted now; @fd closed. */
static pid_t hold_deleted(int fd, const char *name)
{
	pid_t pid;

	delete(name);
	pid = fork_holding(fd, fd, true);
	close(fd);
	return pid;
}

/* A child holding a deleted file the test has another file of: EBUSY. */
static void refuse_open(void)
{
	int fd = make("held"), mine = open(DIR "/held", O_RDONLY);
	char want[64];
	pid_t pid;

	if (mine < 0)
		tap_bail("setup: open " DIR "/held: %m");
	pid = hold_deleted(fd, "held");
	snprintf(want, sizeof(want), "also open by task %d", getpid());
	check_refused(pid, IMG, EBUSY, want, "a deleted file the test has another file of");
	close(mine);
}

/* A deleted name of a file still linked under another: EOPNOTSUPP. */
static void refuse_linked(void)
{
	int fd = make("linked");
	pid_t pid;

	if (link(DIR "/linked", DIR "/other"))
		tap_bail("setup: link: %m");
	pid = hold_deleted(fd, "linked");
	check_refused(pid, IMG, EOPNOTSUPP, "still linked under another name",
		      "a deleted name of a file linked under another");
	delete("other");
}

/* A deleted file of a removed directory: EOPNOTSUPP. */
static void refuse_dir(void)
{
	int fd = mkdir(DIR "/sub", 0755) ? -1 : open(DIR "/sub/f", O_RDWR | O_CREAT, 0644);
	pid_t pid;

	if (fd < 0 || unlink(DIR "/sub/f") || rmdir(DIR "/sub"))
		tap_bail("setup: " DIR "/sub: %m");
	pid = fork_holding(fd, fd, true);
	close(fd);
	check_refused(pid, IMG, EOPNOTSUPP, "deleted file of a removed directory",
		      "a deleted file whose directory was removed too");
}

/* A deleted file locked with flock(): EOPNOTSUPP. */
static void refuse_locked(void)
{
	int fd = make("locked");
	pid_t pid;

	if (flock(fd, LOCK_EX))
		tap_bail("setup: flock: %m");
	pid = hold_deleted(fd, "locked");
	check_refused(pid, IMG, EOPNOTSUPP, "a lock taken through it",
		      "a deleted file locked with flock()");
}

/*
 * A process whose executable was deleted since (the helper run from a
 * copy it deletes): restarted, running the executable made again.
 */
static void restart_exe(void)
{
	char *argv[] = { EXE, READY, GO, OUT, "exe", NULL };
	int st;

	if (system("cp " HELPER("ghosts") " " EXE))
		tap_bail("setup: cp " HELPER("ghosts") " " EXE);
	st = run_checked(argv, READY, GO, IMG, true);
	if (!tap_ok(st == 0, "a process whose executable was deleted: restarted, running it still (deleted, its mode, size and bytes; status %#x)",
		    st))
		diag_file(OUT);
	unlink(EXE);
}

/* busybox sleep @secs, run from EXE, once it runs. */
static pid_t run_exe(const char *secs)
{
	pid_t pid = fork();

	if (pid < 0)
		tap_bail("setup: fork: %m");
	if (!pid) {
		if (!null_stdio())
			_exit(126);
		execl(EXE, "sleep", secs, (char *)NULL);
		_exit(127);
	}
	if (!wait_comm(pid, "ghost.exe", 10))
		tap_bail("setup: " EXE " did not run");
	return pid;
}

/*
 * A deleted executable another process outside the tree runs too (an
 * upgrade replaced a program two processes run): mapped privately
 * there, nothing is shared: saved and restarted, and the restarted
 * process's sleep ends with status 0, as the other's does.
 */
static void restart_exe_shared(void)
{
	pid_t pid, other;
	long crid;
	int st, st2;

	if (system("cp /bin/busybox " EXE))
		tap_bail("setup: cp /bin/busybox " EXE);
	pid = run_exe("5");
	other = run_exe("5");
	if (unlink(EXE) || !stop_task(pid))
		tap_bail("setup: " EXE ": %m");
	crid = checkpoint_to(pid, IMG);
	kill_wait(pid);
	pid = crid > 0 ? rstr_cli(NULL, IMG, NULL) : -1;
	st = pid > 0 ? wait_exit(pid, 60) : -1;
	st2 = wait_exit(other, 60);
	tap_ok(crid > 0 && WIFEXITED(st) && !WEXITSTATUS(st) && WIFEXITED(st2) &&
	       !WEXITSTATUS(st2),
	       "a deleted executable another process runs too: saved (%ld, \"%s\"), restarted, exits 0 (status %#x), as the other (%#x)",
	       crid, crid > 0 ? "" : engine_stat("checkpoint.refused"), st, st2);
}

/* Whether @pid comes to run what @as runs (/proc/PID/exe) within 10 s. */
static bool runs_as(pid_t pid, pid_t as)
{
	char path[32], want[256], got[256];
	ssize_t n, m;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/exe", as);
	n = readlink(path, want, sizeof(want));
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	for (i = 0; n > 0 && i < 1000; i++) {
		m = readlink(path, got, sizeof(got));
		if (m == n && !memcmp(got, want, n))
			return true;
		sleep_ms(10);
	}
	return false;
}

/*
 * The same run by 32 processes outside the tree, each mapping it through
 * a file of its own: saved (a checkpoint counts up to 32 such files). A
 * 33rd, run through /proc/PID/exe of one of them (a file of its own too):
 * refused with EBUSY, too many to count.
 */
static void exe_outside_files(void)
{
	pid_t pid, others[33];
	char exe[32];
	unsigned int i;
	long crid;

	if (system("cp /bin/busybox " EXE))
		tap_bail("setup: cp /bin/busybox " EXE);
	/* killed at the end; the target's sleep starts last, stopped at once */
	for (i = 0; i < 32; i++)
		others[i] = run_exe("600");
	pid = run_exe("5");
	if (unlink(EXE) || !stop_task(pid))
		tap_bail("setup: " EXE ": %m");
	crid = checkpoint_to(pid, IMG);
	tap_ok(crid > 0, "a deleted executable 32 processes outside run too: saved (%ld, \"%s\")",
	       crid, crid > 0 ? "" : engine_stat("checkpoint.refused"));
	snprintf(exe, sizeof(exe), "/proc/%d/exe", others[0]);
	others[32] = fork();
	if (others[32] < 0)
		tap_bail("setup: fork: %m");
	if (!others[32]) {
		if (!null_stdio())
			_exit(126);
		execl(exe, "sleep", "600", (char *)NULL);
		_exit(127);
	}
	/* known by what it runs: its comm differs between kernels ("exe", "sleep") */
	if (!runs_as(others[32], others[0]))
		tap_bail("setup: %s did not run", exe);
	check_refused(pid, IMG, EBUSY, "through more than 32 files of it: too many to count",
		      "a deleted executable 33 processes outside run too");
	for (i = 0; i < 33; i++)
		kill_wait(others[i]);
}

/* A deleted file with a user extended attribute: EOPNOTSUPP. */
static void refuse_xattr(void)
{
	int fd = make("xattr");
	pid_t pid;

	if (fsetxattr(fd, "user.test", "1", 1, 0)) {
		if (errno != EOPNOTSUPP)
			tap_bail("setup: fsetxattr: %m");
		tap_skip("extended attributes: not on this kernel's tmpfs (CONFIG_TMPFS_XATTR)");
		tap_skip("extended attributes: not on this kernel's tmpfs (CONFIG_TMPFS_XATTR)");
		close(fd);
		delete("xattr");
		return;
	}
	pid = hold_deleted(fd, "xattr");
	check_refused(pid, IMG, EOPNOTSUPP, "deleted file with extended attributes",
		      "a deleted file with an extended attribute");
}

/*
 * IMG: the image of a stopped child holding DIR/@sub/f (mode @mode),
 * deleted; the child killed since. DIR/@sub is left for the caller.
 */
static void image_of_deleted(const char *sub, mode_t mode)
{
	char dir[64], path[80];
	pid_t pid;
	long crid;
	int fd;

	snprintf(dir, sizeof(dir), DIR "/%s", sub);
	snprintf(path, sizeof(path), "%s/f", dir);
	if (mkdir(dir, 0755))
		tap_bail("setup: mkdir %s: %m", dir);
	fd = open(path, O_RDWR | O_CREAT, mode);
	if (fd < 0 || unlink(path))
		tap_bail("setup: %s: %m", path);
	pid = fork_holding(fd, fd, false);
	close(fd);
	crid = checkpoint_retry(pid, IMG);
	kill_wait(pid);
	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld (%s)", crid, engine_stat("checkpoint.refused"));
}

/* A default ACL giving user 65534 rwx, as setfacl -d -m u:65534:rwx would. */
static int set_default_acl(const char *dir)
{
	struct { uint16_t tag, perm; uint32_t id; } e[] = {
		{ 0x01, 7, UINT32_MAX }, { 0x02, 7, 65534 }, { 0x04, 5, UINT32_MAX },
		{ 0x10, 7, UINT32_MAX }, { 0x20, 5, UINT32_MAX },
	};
	char buf[4 + sizeof(e)];
	uint32_t version = 2;

	memcpy(buf, &version, 4);
	memcpy(buf + 4, e, sizeof(e));
	return setxattr(dir, "system.posix_acl_default", buf, sizeof(buf), 0);
}

/*
 * A deleted file checkpointed, then restarted in its directory once that
 * has a default ACL: the new file has no access ACL (the saved file had
 * none), its mode the saved one.
 */
static void acl_not_inherited(void)
{
	char link[64], target[256] = "";
	struct stat st;
	int i, acl;
	pid_t r;

	image_of_deleted("acl", 0640);
	if (set_default_acl(DIR "/acl")) {
		if (errno != EOPNOTSUPP)
			tap_bail("setup: default ACL: %m");
		tap_skip("ACLs: not on this kernel's tmpfs (CONFIG_TMPFS_POSIX_ACL)");
		rmdir(DIR "/acl");
		return;
	}
	r = restart_from(IMG);
	snprintf(link, sizeof(link), "/proc/%d/fd/3", r);
	/* restarted once its descriptor names the file made again */
	for (i = 0; i < 100 && !strstr(target, "/acl/#"); i++) {
		ssize_t n = readlink(link, target, sizeof(target) - 1);

		target[n > 0 ? n : 0] = '\0';
		sleep_ms(100);
	}
	acl = getxattr(link, "system.posix_acl_access", NULL, 0) < 0 ? errno : 0;
	if (stat(link, &st))
		st.st_mode = 0;
	tap_ok(strstr(target, "/acl/#") && acl == ENODATA && (st.st_mode & 07777) == 0640,
	       "a deleted file made again where a default ACL is: no ACL from it, mode 0640 (%s, %s, %#o)",
	       target, acl ? strerror(acl) : "it has an ACL", st.st_mode & 07777);
	kill_wait(r);
	rmdir(DIR "/acl");
}

/*
 * An image of a deleted file whose directory is gone at restart: ENOENT,
 * naming it; the restarting caller carries on.
 */
static void refuse_restart(void)
{
	const char *why;
	int st;

	image_of_deleted("gone", 0644);
	if (rmdir(DIR "/gone"))
		tap_bail("setup: rmdir " DIR "/gone: %m");
	st = wait_exit(restart_from(IMG), 60);
	why = engine_stat("restart.refused");
	tap_ok(st == RESTART_FAILED(ENOENT) << 8 &&
	       strstr(why, DIR "/gone/f: cannot find the directory it was deleted from"),
	       "a deleted file whose directory is gone at restart: ENOENT, the caller carries on (%#x, \"%s\")",
	       st, why);
}

int main(void)
{
	long long size;

	tap_plan(21);
	engine_on();
	check_both(run, OUT);
	tap_ok(system("ckptinfo " IMG " > /tmp/ghosts.info") == 0,
	       "ckptinfo validates the image");
	size = file_size(IMG);
	tap_ok(size > 0 && size < (16 << 20),
	       "the image holds the data, not the 1 GiB hole (%lld bytes)", size);
	if (mkdir(DIR, 0755) && errno != EEXIST)
		tap_bail("setup: mkdir " DIR ": %m");
	refuse_open();
	refuse_linked();
	refuse_dir();
	refuse_locked();
	restart_exe();
	restart_exe_shared();
	exe_outside_files();
	refuse_xattr();
	refuse_restart();
	acl_not_inherited();
	rmdir(DIR);
	return tap_done();
}
