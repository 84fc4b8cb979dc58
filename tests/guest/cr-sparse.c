// SPDX-License-Identifier: GPL-2.0
/*
 * Cost follows the pages present: a 64 GiB mapping with 1 MiB written
 * checkpoints in about the time of a 1 MiB process (at most twice, plus
 * a few milliseconds of timer noise), with an image of the same size,
 * and restarts intact.
 */
#include "crtest.h"
#include "tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNS 3

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median checkpoint time of RUNS runs; the last image stays in @img. */
static double measure(const char *gib, const char *img, bool keep, pid_t *kept)
{
	char *argv[] = { HELPER("sparse"), "/tmp/sparse.ready", "/tmp/sparse.go",
			 (char *)gib, "1024", NULL };
	double ms[RUNS], t0;
	int i;

	for (i = 0; i < RUNS; i++) {
		pid_t pid;

		unlink("/tmp/sparse.ready");
		unlink("/tmp/sparse.go");
		pid = spawn(argv);
		if (!wait_file("/tmp/sparse.ready", 120) || !stop_task(pid))
			tap_bail("sparse helper (%s GiB) did not get ready", gib);
		t0 = now_ms();
		if (checkpoint_to(pid, img) <= 0)
			tap_bail("checkpoint of the %s GiB helper failed", gib);
		ms[i] = now_ms() - t0;
		if (keep && i == RUNS - 1)
			*kept = pid;
		else
			kill_wait(pid);
	}
	qsort(ms, RUNS, sizeof(ms[0]), cmp);
	return ms[RUNS / 2];
}

int main(void)
{
	double dense, sparse;
	long long dsize, ssize;
	pid_t pid = 0;
	int st;

	tap_plan(3);
	engine_on();
	dense = measure("0", "/tmp/dense.img", false, NULL);
	sparse = measure("64", "/tmp/sparse.img", true, &pid);
	dsize = file_size("/tmp/dense.img");
	ssize = file_size("/tmp/sparse.img");
	tap_ok(sparse <= 2 * dense + 5,
	       "64 GiB mapping, 1 MiB written: %.1f ms; 1 MiB process: %.1f ms (median of %d)",
	       sparse, dense, RUNS);
	tap_ok(ssize <= dsize + 65536, "images: sparse %lld bytes, dense %lld bytes",
	       ssize, dsize);
	kill_wait(pid);
	pid = restart_from("/tmp/sparse.img");
	if (pid <= 0)
		tap_bail("setup: no child to restart in");
	close(open("/tmp/sparse.go", O_WRONLY | O_CREAT, 0644));
	st = wait_exit(pid, 120);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "its pages are intact (status %#x)", st);
	return tap_done();
}
