// SPDX-License-Identifier: GPL-2.0
/*
 * Transparent huge pages (kernels with THP; skipped elsewhere). A task
 * fills 8 MiB of 2 MiB-aligned memory advised MADV_HUGEPAGE, so that it is
 * mapped by PMDs:
 *   - checkpoint reads the huge pages as they are, without splitting the
 *     target's page tables (AnonHugePages in /proc/meminfo unchanged);
 *   - the restarted copy finds every byte (restored as small pages).
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR "/tmp/thp"
#define IMG DIR "/thp.img"
#define HUGE (2UL << 20)
#define LEN (4 * HUGE)

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

/* AnonHugePages of /proc/meminfo, in KiB, or -1. */
static long anon_huge_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static uint64_t pattern(size_t i)
{
	return i * 0x9e3779b97f4a7c15ULL + 7;
}

/* The THP holder: fill, say ready, wait for SIGUSR1, check, exit 0 if intact. */
static void holder(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	char *raw, *p;
	uint64_t *w;
	size_t i;

	if (!null_stdio() || prctl(PR_SET_NAME, "thpholder"))
		_exit(90);
	raw = mmap(NULL, LEN + HUGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		_exit(91);
	p = (char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	if (madvise(p, LEN, MADV_HUGEPAGE) || sigaction(SIGUSR1, &sa, NULL))
		_exit(92);
	w = (uint64_t *)p;
	for (i = 0; i < LEN / 8; i++)
		w[i] = pattern(i);
	close(open(DIR "/ready", O_CREAT | O_WRONLY, 0600));
	while (!go)
		pause();
	for (i = 0; i < LEN / 8; i++)
		if (w[i] != pattern(i))
			_exit(1);
	_exit(0);
}

int main(void)
{
	long before, after;
	pid_t pid;
	int st, i;

	tap_plan(2);
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK)) {
		tap_skip("no transparent huge pages in this kernel");
		tap_skip("no transparent huge pages in this kernel");
		return tap_done();
	}
	engine_on();
	mkdir(DIR, 0700);
	unlink(DIR "/ready");
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %m");
	if (!pid)
		holder();
	if (!wait_file(DIR "/ready", 60) || !stop_task(pid))
		tap_bail("setup: the THP holder did not start");
	before = anon_huge_kb();
	if (before < (long)(LEN >> 10))
		tap_bail("setup: only %ld KiB of anonymous huge pages, not the holder's %lu",
			 before, LEN >> 10);
	if (checkpoint_to(pid, IMG) <= 0)
		tap_bail("setup: no image of the THP holder");
	after = anon_huge_kb();
	tap_ok(after == before,
	       "checkpoint leaves the huge pages mapped as they were (AnonHugePages %ld KiB, then %ld KiB)",
	       before, after);
	kill_wait(pid);

	pid = restart_from(IMG);
	/* Again until it exits: one before its pause() is back would be lost. */
	st = -1;
	if (wait_comm(pid, "thpholder", 60))
		for (i = 0; i < 600 && waitpid(pid, &st, WNOHANG) == 0; i++) {
			kill(pid, SIGUSR1);
			usleep(100000);
		}
	if (st == -1)
		kill_wait(pid);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the restarted copy finds all 8 MiB that huge pages held (status %#x)", st);
	return tap_done();
}
