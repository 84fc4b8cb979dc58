// SPDX-License-Identifier: GPL-2.0
/*
 * Self checkpoint (the seed's self.c): a program checkpoints itself, with
 * the system call and with a write to the control file. The original
 * run sees the crid (syscall) or the byte count (write) and the restarted
 * copy sees 0, its heap and FPU results intact; the control-file
 * descriptor is not in the image, so it is closed in the restarted copy.
 */
#include "crtest.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void read_note(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, size, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static void one(const char *mode)
{
	char *argv[] = { HELPER("selfckpt"), "/tmp/self.img", "/tmp/self.out",
			 (char *)mode, NULL };
	char note[128];
	long n = 0;
	int st;

	unlink("/tmp/self.out");
	st = wait_exit(spawn(argv), 120);
	read_note("/tmp/self.out", note, sizeof(note));
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 10 &&
	       sscanf(note, "original %ld", &n) == 1 && n > 0,
	       "%s: the original run sees %s (\"%s\")", mode,
	       strcmp(mode, "syscall") ? "the write's byte count" : "the crid",
	       note);
	st = wait_exit(restart_from("/tmp/self.img"), 120);
	read_note("/tmp/self.out", note, sizeof(note));
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "%s: the restarted copy sees 0 and its state intact (status %#x, \"%s\")",
	       mode, st, note);
	tap_ok(!strcmp(mode, "syscall") ? strstr(note, "ctlfd=none") != NULL :
	       strstr(note, "ctlfd=closed") != NULL,
	       "%s: control-file descriptor in the restarted copy: %s", mode,
	       strcmp(mode, "syscall") ? "closed" : "none was open");
}

int main(void)
{
	tap_plan(6);
	engine_on();
	one("syscall");
	one("ctl");
	return tap_done();
}
