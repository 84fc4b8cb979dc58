// SPDX-License-Identifier: GPL-2.0
/*
 * Memory across checkpoint/restart: 256 MiB of pseudo-random data in
 * anonymous mappings of several protections, a PROT_NONE hole and a
 * private file mapping with some pages written (memhog). Checksums and
 * protections must be equal after restart, and the image must hold the
 * touched pages and little more. Restart fills the pages without a fault
 * per page: the restarting task's minor-fault count stays far below the
 * number of pages.
 */
#include "crtest.h"
#include "tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB 256

int main(void)
{
	char *argv[] = { HELPER("memhog"), "/tmp/mem.ready", "/tmp/mem.go",
			 "/tmp/mem.out", "256", NULL };
	/* A + B + half of D + a quarter of E's 256 pages */
	long long touched = (MIB / 2 + MIB / 4 + MIB / 8) * 256LL + 64, size, flt;
	double t0, ms;
	pid_t pid;
	long crid;
	int st;

	tap_plan(6);
	engine_on();
	unlink("/tmp/mem.ready");
	unlink("/tmp/mem.go");
	pid = spawn(argv);
	if (!tap_ok(wait_file("/tmp/mem.ready", 300), "memhog filled %d MiB", MIB))
		tap_bail("memhog did not get ready");
	stop_task(pid);
	t0 = now_ms();
	crid = checkpoint_to(pid, "/tmp/mem.img");
	ms = now_ms() - t0;
	tap_ok(crid > 0, "checkpoint (crid %ld) in %.0f ms", crid, ms);
	size = file_size("/tmp/mem.img");
	tap_ok(size >= touched * 4096 && size <= touched * 4096 * 101 / 100 + 65536 + 64 * 4096,
	       "image %lld bytes for %lld touched pages (%lld bytes): touched + metadata",
	       size, touched, touched * 4096);
	kill_wait(pid);

	t0 = now_ms();
	pid = restart_from("/tmp/mem.img");
	tap_ok(pid > 0 && wait_comm(pid, "memhog", 300), "restart");
	flt = task_minflt(pid);
	tap_ok(flt >= 0 && flt < touched / 16,
	       "%lld pages restored with %lld minor faults: no fault per page",
	       touched, flt);
	close(open("/tmp/mem.go", O_WRONLY | O_CREAT, 0644));
	st = wait_exit(pid, 300);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "checksums and protections equal after restart (status %#x, %.0f ms)",
	       st, now_ms() - t0);
	unlink("/tmp/mem.img");
	return tap_done();
}
