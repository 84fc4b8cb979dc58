// SPDX-License-Identifier: GPL-2.0
/*
 * The deny-checkpoint mark (the original series' patch 12): a process
 * that opened a perf event (closed again since) is marked, one way:
 *   - /sys/kernel/debug/checkpoint/deny lists it, with the reason and the
 *     place in the kernel that set it;
 *   - the child it forks afterwards is not marked (it has no such object);
 *   - a checkpoint of the marked process is refused, EOPNOTSUPP, naming
 *     the reason; the kernel log warns;
 *   - a process that did nothing of the kind is not listed, and
 *     checkpoints.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define IMG	"/tmp/deny.img"
#define LIST	"/sys/kernel/debug/checkpoint/deny"

static int perf_open(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
	};

	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* The line of the deny list for process @pid, or "". */
static const char *deny_line(pid_t pid)
{
	static char line[512];
	char prefix[32];
	FILE *f = fopen(LIST, "r");
	bool found = false;

	snprintf(prefix, sizeof(prefix), "%d ", pid);
	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, prefix, strlen(prefix));
	if (f)
		fclose(f);
	if (!found)
		return "";
	line[strcspn(line, "\n")] = '\0';
	return line;
}

int main(void)
{
	int ready[2], st;
	pid_t pid, child = 0, clean;
	const char *why;
	long ret;

	tap_plan(6);
	engine_on();
	if (pipe(ready))
		tap_bail("pipe: %m");
	pid = fork();
	if (!pid) {
		int fd = perf_open();

		if (fd < 0)
			_exit(3);
		close(fd);
		child = fork();
		if (!child) {
			for (;;)
				pause();
		}
		if (write(ready[1], &child, sizeof(child)) != sizeof(child))
			_exit(4);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &child, sizeof(child)) != sizeof(child)) {
		st = wait_exit(pid, 10);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
			tap_skip("no perf_event_open() in this kernel");
			for (st = 1; st < 6; st++)
				tap_skip("no perf_event_open() in this kernel");
			return tap_done();
		}
		tap_bail("setup: the marked process did not start (%#x)", st);
	}
	clean = fork();
	if (!clean) {
		close(ready[0]);
		if (!null_stdio())
			_exit(2);
		for (;;)
			pause();
	}

	why = deny_line(pid);
	tap_ok(strstr(why, "perf event") && strstr(why, "kernel/events/core.c:"),
	       "a process that opened a perf event is listed, with the reason and the place (\"%s\")",
	       why);
	why = deny_line(child);
	tap_ok(!why[0], "the child it forked after is not: it has no such object (\"%s\")",
	       why);
	tap_ok(!deny_line(clean)[0], "a process that did nothing of the kind is not");

	if (!stop_task(pid) || !stop_task(child))
		tap_bail("setup: not stopped");
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "cannot be checkpointed: perf event"),
	       "its checkpoint is refused: EOPNOTSUPP with the reason (%ld, \"%s\")",
	       ret, why);
	tap_ok(system("dmesg | grep -q 'cannot be checkpointed: perf event'") == 0,
	       "the kernel log says so");
	if (!stop_task(clean))
		tap_bail("setup: not stopped");
	ret = checkpoint_to(clean, IMG);
	tap_ok(ret > 0, "the unmarked process checkpoints (%ld)", ret);
	kill(child, SIGKILL);
	kill_wait(pid);
	kill_wait(clean);
	return tap_done();
}
