// SPDX-License-Identifier: GPL-2.0
/*
 * lockmem READY GO OUT [nocap]: locked memory in the state a checkpoint
 * must keep; creates READY, waits for GO, then checks it and exits 0 if
 * all holds (1 otherwise, what failed in OUT; 9: its set-up failed):
 *   - 16 pages mlock()ed, written: still locked, all 16 resident and
 *     locked (smaps "Locked:"), their bytes kept;
 *   - 16 pages mlock2(MLOCK_ONFAULT)ed, one touched: still locked, on
 *     fault only (one page locked, not 16);
 *   - 4 PROT_NONE pages mlock()ed (mlock() locks them though it cannot
 *     fault them in: ENOMEM): still locked, none resident, and the
 *     restarted process alive;
 *   - mlockall(MCL_FUTURE): a mapping made after the restart is locked
 *     and populated.
 * With "nocap", once locked (without MCL_FUTURE) it drops CAP_IPC_LOCK and
 * sets RLIMIT_MEMLOCK to 0, holding more locked memory than it could lock
 * again: restart must refuse its image (the test checks that; it checks
 * nothing itself).
 */
#include "helper.h"

#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT	0x01
#endif

#define PG	4096
#define PAGES	16

/*
 * @addr's VMA in /proc/self/smaps: its "Locked:" kB into *@locked_kb and
 * whether its VmFlags has "lo" (VM_LOCKED); false if not found.
 */
static bool smaps_of(const void *addr, long *locked_kb, bool *lo)
{
	char line[512], perms[5];
	unsigned long start, end;
	bool in = false, found = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	*locked_kb = -1;
	*lo = false;
	while (f && fgets(line, sizeof(line), f)) {
		/* a VMA's first line: "start-end perms ..." */
		if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) == 3) {
			in = start == (unsigned long)addr;
			found |= in;
			continue;
		}
		if (!in)
			continue;
		sscanf(line, "Locked: %ld kB", locked_kb);
		if (!strncmp(line, "VmFlags:", 8))
			*lo = strstr(line, " lo") != NULL;
	}
	if (f)
		fclose(f);
	return found;
}

static void check_locked(const char *what, const void *addr, long want_kb)
{
	long kb;
	bool lo;

	if (!smaps_of(addr, &kb, &lo) || !lo || kb != want_kb)
		check_fail("%s: VmFlags %s \"lo\", Locked %ld kB, want it, and %ld kB", what,
			   lo ? "with" : "without", kb, want_kb);
}

/* Drop CAP_IPC_LOCK and RLIMIT_MEMLOCK to 0: the memory stays locked. */
static bool drop_lock_rights(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct rlimit none = { 0, 0 };

	if (syscall(SYS_capget, &h, d))
		return false;
	d[0].effective &= ~(1u << CAP_IPC_LOCK);
	d[0].permitted &= ~(1u << CAP_IPC_LOCK);
	d[0].inheritable &= ~(1u << CAP_IPC_LOCK);
	return !syscall(SYS_capset, &h, d) && !setrlimit(RLIMIT_MEMLOCK, &none);
}

int main(int argc, char **argv)
{
	char *full, *onfault, *none, *later;
	long i;

	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "nocap")))
		return 9;
	checks_open(argv[3]);
	full = mmap(NULL, PAGES * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	onfault = mmap(NULL, PAGES * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (full == MAP_FAILED || onfault == MAP_FAILED || mlock(full, PAGES * PG) ||
	    syscall(SYS_mlock2, onfault, PAGES * PG, MLOCK_ONFAULT))
		return 9;
	for (i = 0; i < PAGES * PG; i++)
		full[i] = file_pattern(i);
	onfault[0] = 1;
	none = mmap(NULL, 4 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* locked, though not faulted in: ENOMEM */
	if (none == MAP_FAILED || mlock(none, 4 * PG) != -1)
		return 9;
	/* nocap: no MCL_FUTURE, which would fail its later mappings */
	if (argc == 5 ? !drop_lock_rights() : mlockall(MCL_FUTURE) != 0)
		return 9;

	helper_touch(argv[1], "");
	wait_go(argv[2]);

	check_locked("mlock()", full, PAGES * PG / 1024);
	for (i = 0; i < PAGES * PG; i++)
		if (full[i] != file_pattern(i)) {
			check_fail("mlock(): byte %ld is not the pattern", i);
			break;
		}
	check_locked("mlock2(MLOCK_ONFAULT)", onfault, PG / 1024);
	check_locked("mlock() of PROT_NONE pages", none, 0);
	later = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (later == MAP_FAILED)
		check_fail("mlockall(MCL_FUTURE): mmap: %m");
	else
		check_locked("mlockall(MCL_FUTURE): a later mapping", later, 4 * PG / 1024);
	return checks_status();
}
