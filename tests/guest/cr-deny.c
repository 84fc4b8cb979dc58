// SPDX-License-Identifier: GPL-2.0
/*
 * The deny-checkpoint mark (the original series' patch 12): a process
 * that opened a perf event (closed again since) is marked, one way:
 *   - /sys/kernel/debug/checkpoint/deny lists it, with the reason and the
 *     place in the kernel that set it;
 *   - the child it forks afterwards inherits the mark (listed, "inherited",
 *     its own checkpoint refused); a child that execs loses it, and
 *     checkpoints;
 *   - a checkpoint of the marked process is refused, EOPNOTSUPP, naming
 *     the reason; the kernel log warns;
 *   - perf counters inherited across fork (perf_event_attr.inherit) go on
 *     counting the child after its exec: its checkpoint is refused;
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

static int perf_open(bool inherit)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
		.inherit = inherit,
	};

	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* A child that pauses (@run: that runs /bin/sleep), stdio on /dev/null: its pid. */
static pid_t child_of_mine(bool run)
{
	pid_t pid = fork();

	if (!pid) {
		if (!null_stdio())
			_exit(2);
		/* only the standard three descriptors: no pipe to the test */
		if (run && !close_range(3, ~0U, 0))
			execl("/bin/sleep", "sleep", "1000", (char *)NULL);
		for (;;)
			pause();
	}
	return pid;
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
	pid_t pid, kids[2], counted, counter, clean;
	const char *why;
	long ret;

	tap_plan(10);
	engine_on();
	if (pipe(ready))
		tap_bail("pipe: %m");
	pid = fork();
	if (!pid) {
		int fd = perf_open(false);

		if (fd < 0)
			_exit(3);
		close(fd);
		kids[0] = child_of_mine(false);
		kids[1] = child_of_mine(true);
		if (write(ready[1], kids, sizeof(kids)) != sizeof(kids))
			_exit(4);
		for (;;)
			pause();
	}
	if (read(ready[0], kids, sizeof(kids)) != sizeof(kids)) {
		st = wait_exit(pid, 10);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
			for (st = 0; st < 10; st++)
				tap_skip("no perf_event_open() in this kernel");
			return tap_done();
		}
		tap_bail("setup: the marked process did not start (%#x)", st);
	}
	/* counters inherited by a child that then runs another program */
	counted = fork();
	if (!counted) {
		if (perf_open(true) < 0)
			_exit(3);
		counter = child_of_mine(true);
		if (write(ready[1], &counter, sizeof(counter)) != sizeof(counter))
			_exit(4);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &counter, sizeof(counter)) != sizeof(counter))
		tap_bail("setup: the counted process did not start");
	clean = fork();
	if (!clean) {
		close(ready[0]);
		if (!null_stdio())
			_exit(2);
		for (;;)
			pause();
	}
	/* the children ran their program: /proc/PID/comm says sleep */
	if (!wait_comm(kids[1], "sleep", 10) || !wait_comm(counter, "sleep", 10))
		tap_bail("setup: the children did not run /bin/sleep");

	why = deny_line(pid);
	tap_ok(strstr(why, "perf event") && strstr(why, "kernel/events/core.c:") &&
	       !strstr(why, "inherited"),
	       "a process that opened a perf event is listed, with the reason and the place (\"%s\")",
	       why);
	why = deny_line(kids[0]);
	tap_ok(strstr(why, "perf event") && strstr(why, ", inherited)"),
	       "the child it forked after is listed too: it inherited the mark (\"%s\")", why);
	why = deny_line(kids[1]);
	tap_ok(!why[0], "a child that ran another program since is not (\"%s\")", why);
	tap_ok(!deny_line(clean)[0], "a process that did nothing of the kind is not");

	if (!stop_task(kids[0]) || !stop_task(kids[1]) || !stop_task(counter))
		tap_bail("setup: not stopped");
	ret = checkpoint_to(kids[0], IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "perf event") && strstr(why, ", inherited)"),
	       "the inheriting child's checkpoint is refused: EOPNOTSUPP (%ld, \"%s\")",
	       ret, why);
	ret = checkpoint_to(kids[1], IMG);
	tap_ok(ret > 0, "the child that ran another program checkpoints (%ld, \"%s\")", ret,
	       ret > 0 ? "" : engine_stat("checkpoint.refused"));
	ret = checkpoint_to(counter, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "has perf events"),
	       "a child its parent's inherited perf counters still count is refused: EOPNOTSUPP (%ld, \"%s\")",
	       ret, why);

	if (!stop_task(pid))
		tap_bail("setup: not stopped");
	ret = checkpoint_to(pid, IMG);
	why = engine_stat("checkpoint.refused");
	tap_ok(ret == -EOPNOTSUPP && strstr(why, "cannot be checkpointed: perf event"),
	       "the marked process's checkpoint is refused: EOPNOTSUPP with the reason (%ld, \"%s\")",
	       ret, why);
	tap_ok(system("dmesg | grep -q 'cannot be checkpointed: perf event'") == 0,
	       "the kernel log says so");
	if (!stop_task(clean))
		tap_bail("setup: not stopped");
	ret = checkpoint_to(clean, IMG);
	tap_ok(ret > 0, "the unmarked process checkpoints (%ld)", ret);
	kill(kids[0], SIGKILL);
	kill(kids[1], SIGKILL);
	kill(counter, SIGKILL);
	kill_wait(pid);
	kill_wait(counted);
	kill_wait(clean);
	return tap_done();
}
