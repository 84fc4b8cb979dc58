// SPDX-License-Identifier: GPL-2.0
/*
 * sysvshms READY GO OUT KEY [locked | pair | file PATH]: SysV shared memory
 * segments in the state a checkpoint must keep; writes OUT.ids ("A B C"),
 * creates READY, waits for GO, then checks them and exits 0 if all holds
 * (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - A, key KEY, 16 pages, mode 0640, given to uid:gid 1000:1000 by
 *     IPC_SET (its creator stays root): a pattern in its first 8 pages,
 *     the rest never touched; attached read-write, the attach split into
 *     three VMAs by mprotect(): its key, size, mode, owner, creator,
 *     creation time, 3 attached VMAs and contents kept, and shmdt() of the
 *     attach still unmaps all three (one attach, as before);
 *   - B, IPC_PRIVATE, one page, attached twice, read-write and
 *     read-only: a write through one is read through the other, the
 *     read-only one stays read-only in /proc/self/maps;
 *   - C, IPC_PRIVATE, two pages, removed (IPC_RMID) while attached: still
 *     removed (SHM_DEST, key 0), its contents kept.
 * "locked": A is locked in memory (SHM_LOCK) too; "file": PATH is mapped
 * shared first (above the attaches: its record comes after theirs);
 * "pair": a child shares the attaches (READY holds its pid); told GO, it
 * writes 77 into B through the read-write attach it inherited and exits,
 * and the parent reads it through its own attaches before its checks.
 * At the end it removes A and B.
 */
#include "helper.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG		4096L
#define A_PAGES		16
#define C_PAGES		2
#define SHM_DEST_BIT	01000

static int ids[3];
static struct shmid_ds before[3];

static unsigned char pattern(long i, int seg)
{
	return (unsigned char)(i * 13 + i / 4091 + seg + 1);
}

/* What IPC_STAT tells of segment @k now, against before the checkpoint. */
static void check_stat(int k, const char *name, unsigned long nattch)
{
	struct shmid_ds now;
	const struct ipc_perm *b = &before[k].shm_perm, *n = &now.shm_perm;

	if (shmctl(ids[k], IPC_STAT, &now)) {
		check_fail("%s: IPC_STAT of %d: %m", name, ids[k]);
		return;
	}
	if (n->__key != b->__key || now.shm_segsz != before[k].shm_segsz ||
	    n->mode != b->mode || n->uid != b->uid || n->gid != b->gid ||
	    n->cuid != b->cuid || n->cgid != b->cgid ||
	    now.shm_ctime != before[k].shm_ctime)
		check_fail("%s: key %#x size %zu mode %#o owner %u:%u creator %u:%u ctime %ld, was %#x %zu %#o %u:%u %u:%u %ld",
			   name, n->__key, now.shm_segsz, n->mode, n->uid, n->gid,
			   n->cuid, n->cgid, (long)now.shm_ctime, b->__key,
			   before[k].shm_segsz, b->mode, b->uid, b->gid, b->cuid,
			   b->cgid, (long)before[k].shm_ctime);
	if (now.shm_nattch != nattch)
		check_fail("%s: %lu attached VMAs, not %lu", name,
			   (unsigned long)now.shm_nattch, nattch);
}

/* The permissions of the VMAs of /proc/self/maps in [@lo, @hi), joined. */
static void maps_in(unsigned long lo, unsigned long hi, char *out, size_t len)
{
	unsigned long start, end;
	char line[512], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 &&
		    start < hi && end > lo && strlen(out) + 6 < len)
			sprintf(out + strlen(out), "%s%s", out[0] ? " " : "", perms);
	if (f)
		fclose(f);
}

static void check_contents(const unsigned char *p, long len, long set, int seg,
			   const char *name)
{
	long i;

	for (i = 0; i < len; i++)
		if (p[i] != (i < set ? pattern(i, seg) : 0)) {
			check_fail("%s: byte %ld is %#x", name, i, p[i]);
			return;
		}
}

int main(int argc, char **argv)
{
	unsigned char *a, *c;
	volatile int *brw;
	const volatile int *bro;
	char path[256], line[64], maps[64];
	bool pair = argc == 6 && !strcmp(argv[5], "pair");
	struct shmid_ds ds;
	pid_t kid = 0;
	long i;
	int k, st;

	if (argc < 5 || (argc == 6 && strcmp(argv[5], "locked") && !pair) ||
	    (argc == 7 && strcmp(argv[5], "file")) || argc > 7)
		return 9;
	checks_open(argv[3]);

	if (argc == 7) {
		int fd = open(argv[6], O_RDWR);
		void *m = fd < 0 ? MAP_FAILED :
			  mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (m == MAP_FAILED)
			return 9;
		close(fd);
	}

	ids[0] = shmget((key_t)strtol(argv[4], NULL, 0), A_PAGES * PG,
			IPC_CREAT | IPC_EXCL | 0640);
	ids[1] = shmget(IPC_PRIVATE, PG, IPC_CREAT | 0600);
	ids[2] = shmget(IPC_PRIVATE, C_PAGES * PG, IPC_CREAT | 0600);
	if (ids[0] < 0 || ids[1] < 0 || ids[2] < 0 || shmctl(ids[0], IPC_STAT, &ds))
		return 9;
	ds.shm_perm.uid = 1000;
	ds.shm_perm.gid = 1000;
	if (shmctl(ids[0], IPC_SET, &ds) ||
	    (argc == 6 && !pair && shmctl(ids[0], SHM_LOCK, NULL)))
		return 9;

	a = shmat(ids[0], NULL, 0);
	brw = shmat(ids[1], NULL, 0);
	bro = shmat(ids[1], NULL, SHM_RDONLY);
	c = shmat(ids[2], NULL, 0);
	if (a == (void *)-1 || brw == (void *)-1 || bro == (void *)-1 ||
	    c == (void *)-1)
		return 9;
	for (i = 0; i < A_PAGES / 2 * PG; i++)
		a[i] = pattern(i, 0);
	for (i = 0; i < C_PAGES * PG; i++)
		c[i] = pattern(i, 2);
	*brw = 42;
	if (mprotect(a + 4 * PG, 2 * PG, PROT_READ) || shmctl(ids[2], IPC_RMID, NULL))
		return 9;
	for (k = 0; k < 3; k++)
		if (shmctl(ids[k], IPC_STAT, &before[k]))
			return 9;

	snprintf(path, sizeof(path), "%s.ids", argv[3]);
	snprintf(line, sizeof(line), "%d %d %d\n", ids[0], ids[1], ids[2]);
	helper_result(path, line);
	if (pair) {
		kid = fork();
		if (kid < 0)
			return 9;
		if (!kid) {
			wait_go(argv[2]);
			brw[256] = 77;
			_exit(0);
		}
		snprintf(line, sizeof(line), "%d\n", (int)kid);
		helper_result(argv[1], line);
	} else {
		helper_touch(argv[1], "");
	}
	wait_go(argv[2]);
	if (pair) {
		if (waitpid(kid, &st, 0) != kid || !WIFEXITED(st) || WEXITSTATUS(st))
			check_fail("the child did not exit 0 (%#x)", st);
		else if (brw[256] != 77 || bro[256] != 77)
			check_fail("B: the child's write is not read by its parent (%d, %d)",
				   brw[256], bro[256]);
	}

	check_stat(0, "A", 3);
	check_stat(1, "B", 2);
	check_stat(2, "C", 1);
	if (!(before[2].shm_perm.mode & SHM_DEST_BIT) || before[2].shm_perm.__key)
		check_fail("C: not removed before the checkpoint");
	check_contents(a, A_PAGES * PG, A_PAGES / 2 * PG, 0, "A");
	check_contents(c, C_PAGES * PG, C_PAGES * PG, 2, "C");
	maps_in((unsigned long)a, (unsigned long)a + A_PAGES * PG, maps, sizeof(maps));
	if (strcmp(maps, "rw-s r--s rw-s"))
		check_fail("A: its VMAs are \"%s\"", maps);
	maps_in((unsigned long)bro, (unsigned long)bro + PG, maps, sizeof(maps));
	if (strcmp(maps, "r--s"))
		check_fail("B: its read-only attach is \"%s\"", maps);
	if (*bro != 42)
		check_fail("B: the read-only attach reads %d, not 42", *bro);
	*brw = 43;
	if (*bro != 43)
		check_fail("B: a write through one attach is not read through the other");

	/* shmdt() finds the VMAs of one attach: all three go */
	if (shmdt(a))
		check_fail("A: shmdt: %m");
	maps_in((unsigned long)a, (unsigned long)a + A_PAGES * PG, maps, sizeof(maps));
	if (maps[0])
		check_fail("A: shmdt() left \"%s\" mapped", maps);
	if (!shmctl(ids[0], IPC_STAT, &ds) && ds.shm_nattch)
		check_fail("A: %lu attached after shmdt()", (unsigned long)ds.shm_nattch);

	shmctl(ids[0], IPC_RMID, NULL);
	shmctl(ids[1], IPC_RMID, NULL);
	return checks_status();
}
