// SPDX-License-Identifier: GPL-2.0
/*
 * SysV shared memory across checkpoint/restart (helper: sysvshms, which
 * checks its own segments once restarted; restarted by rstr, as a user
 * would):
 *   - its segments still there after the original is killed: attached
 *     again (a removed one made again), keys, sizes, modes, owners,
 *     creators, creation times, contents, attach counts, a read-only
 *     attach and one attach split in three VMAs (shmdt() takes all)
 *     kept; and the segments are not restarted without their attaches
 *     (the helper's run without a checkpoint checks the same);
 *   - all of them gone (ipcrm): made again at their ids, the same;
 *   - its key taken by another segment meanwhile: EBUSY, named;
 *   - a restart refused after it made them (a mapped file replaced):
 *     the segments it made are removed;
 *   - a segment locked in memory (SHM_LOCK): refused at the checkpoint;
 *   - a parent and child sharing the attaches, their segments gone before
 *     the restart: restarted as a tree, each segment made once, a write by
 *     the child read by the parent.
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
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY	"/tmp/sysvshms.ready"
#define GO	"/tmp/sysvshms.go"
#define OUT	"/tmp/sysvshms.out"
#define IMG	"/tmp/sysvshms.img"
#define MAPPED	"/tmp/sysvshms.file"
#define KEY	0x5eed5a5
#define KEYSTR	"0x5eed5a5"

/* Segments left by an earlier run (its key, or ids it wrote) removed. */
static void clean(void)
{
	int id = shmget(KEY, 0, 0);

	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
}

static int run(bool ckpt)
{
	char *argv[] = { HELPER("sysvshms"), READY, GO, OUT, KEYSTR, NULL };

	clean();
	return run_checked(argv, READY, GO, IMG, ckpt);
}

/* The ids the helper wrote: A, B, C. */
static void read_ids(int ids[3])
{
	FILE *f = fopen(OUT ".ids", "r");

	if (!f || fscanf(f, "%d %d %d", &ids[0], &ids[1], &ids[2]) != 3)
		tap_bail("setup: " OUT ".ids");
	fclose(f);
}

/* Whether a segment has id @id now. */
static bool seg_exists(int id)
{
	struct shmid_ds ds;

	return shmctl(id, IPC_STAT, &ds) == 0;
}

/* The helper @argv started afresh, ready; its segments' ids in @ids. */
static pid_t start(char *const argv[], int ids[3])
{
	pid_t pid;

	clean();
	unlink(READY);
	unlink(GO);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(READY, 60))
		tap_bail("setup: sysvshms did not start");
	read_ids(ids);
	return pid;
}

/* A failed run's checks and rstr's words, as diagnostics. */
static void show_failure(int st)
{
	if (st && system("cat " OUT " /tmp/sysvshms.err 2>/dev/null | sed 's/^/# /'"))
		tap_diag("no " OUT);
}

/*
 * The helper (@mode: NULL, "locked" or "file") started, stopped and
 * checkpointed into IMG (the crid, or -errno), killed; its ids in @ids.
 */
static long saved_helper(const char *mode, int ids[3])
{
	char *argv[] = { HELPER("sysvshms"), READY, GO, OUT, KEYSTR,
			 (char *)mode, mode && !strcmp(mode, "file") ? MAPPED : NULL,
			 NULL };
	pid_t pid = start(argv, ids);
	long crid;

	if (!stop_task(pid))
		tap_bail("setup: sysvshms did not stop");
	crid = checkpoint_retry(pid, IMG);
	kill_wait(pid);
	return crid;
}

/* rstr from IMG, told GO: its exit status, or -1. */
static int restart_checked(void)
{
	pid_t pid = rstr_cli(NULL, IMG, "/tmp/sysvshms.err");
	int fd;

	if (pid < 0)
		return -1;
	fd = open(GO, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		tap_bail("setup: " GO);
	close(fd);
	return wait_exit(pid, 60);
}

static void made_again(void)
{
	int ids[3], k, st;
	long crid = saved_helper(NULL, ids);

	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld", crid);
	for (k = 0; k < 2; k++)
		shmctl(ids[k], IPC_RMID, NULL);
	if (seg_exists(ids[0]) || seg_exists(ids[1]) || seg_exists(ids[2]))
		tap_bail("setup: the segments did not go");
	st = restart_checked();
	tap_ok(st == 0,
	       "gone since the checkpoint, its segments are made again at their ids with their state (status %#x)",
	       st);
	show_failure(st);
}

static void key_taken(void)
{
	int ids[3], other;
	long crid = saved_helper(NULL, ids);
	pid_t pid;
	int st;

	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld", crid);
	shmctl(ids[0], IPC_RMID, NULL);
	shmctl(ids[1], IPC_RMID, NULL);
	other = shmget(KEY, 4096, IPC_CREAT | 0600);
	if (other < 0 || other == ids[0])
		tap_bail("setup: another segment with the key: %d", other);
	pid = rstr_cli(NULL, IMG, "/tmp/sysvshms.err");
	st = wait_exit(pid, 60);
	tap_ok(st && strstr(engine_stat("restart.refused"), "key 0x5eed5a5 is another segment's"),
	       "its key taken by another segment: refused (status %#x, \"%s\")", st,
	       engine_stat("restart.refused"));
	tap_ok(!seg_exists(ids[1]), "and the refused restart made none of them");
	shmctl(other, IPC_RMID, NULL);
}

static void rolled_back(void)
{
	int ids[3], fd, k;
	long crid;
	pid_t pid;
	int st;

	fd = open(MAPPED, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 4096))
		tap_bail("setup: " MAPPED);
	close(fd);
	crid = saved_helper("file", ids);
	if (crid <= 0)
		tap_bail("setup: checkpoint: %ld", crid);
	for (k = 0; k < 2; k++)
		shmctl(ids[k], IPC_RMID, NULL);
	/* another file at the path: the mapping cannot be restored */
	unlink(MAPPED);
	fd = open(MAPPED, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 8192))
		tap_bail("setup: " MAPPED " again");
	close(fd);
	pid = rstr_cli(NULL, IMG, "/tmp/sysvshms.err");
	st = wait_exit(pid, 60);
	tap_ok(st != 0, "a restart refused after its segments (a mapped file replaced) fails (status %#x, \"%s\")",
	       st, engine_stat("restart.refused"));
	tap_ok(!seg_exists(ids[0]) && !seg_exists(ids[1]) && !seg_exists(ids[2]),
	       "and removes the segments it made");
	unlink(MAPPED);
}

static void locked(void)
{
	int ids[3];
	long crid = saved_helper("locked", ids);

	tap_ok(crid == -EOPNOTSUPP && strstr(engine_stat("checkpoint.refused"), "SHM_LOCK"),
	       "a segment locked in memory is refused (%ld, \"%s\")", crid,
	       engine_stat("checkpoint.refused"));
	clean();
	shmctl(ids[1], IPC_RMID, NULL);
}

static void pair(void)
{
	char *argv[] = { HELPER("sysvshms"), READY, GO, OUT, KEYSTR, "pair", NULL };
	int ids[3], k, st = -1;
	pid_t pid = start(argv, ids), kid = pid_in(READY);
	long crid = -1;

	if (kid > 0 && stop_task(pid) && stop_task(kid))
		crid = checkpoint_retry(pid, IMG);
	if (kid > 0)
		kill(kid, SIGKILL);
	kill_wait(pid);
	if (kid > 0)
		waitpid(kid, NULL, 0);
	if (crid > 0) {
		for (k = 0; k < 2; k++)
			shmctl(ids[k], IPC_RMID, NULL);
		st = restart_checked();
	}
	tap_ok(crid > 0 && st == 0,
	       "a parent and child sharing the attaches, their segments gone: restarted as a tree, made once, shared (crid %ld, status %#x)",
	       crid, st);
	show_failure(st);
}

int main(void)
{
	tap_plan(9);
	engine_on();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_bail("PR_SET_CHILD_SUBREAPER: %m");
	check_both(run, OUT);
	made_again();
	key_taken();
	rolled_back();
	locked();
	pair();
	return tap_done();
}
