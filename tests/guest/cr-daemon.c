// SPDX-License-Identifier: GPL-2.0
/*
 * A daemon-style process across checkpoint/restart (helper: crdaemon):
 * its own session, stdin on /dev/null, an O_APPEND log, a SIGTERM handler
 * with SA_RESTART, a SIGUSR1 blocked and pending, ITIMER_REAL every
 * 500 ms, a POSIX timer every 300 ms, a working directory of its own,
 * umask 077, RLIMIT_NOFILE 64/128 and nice 5. Checkpointed, killed and
 * restarted by rstr, it logs on; sent SIGTERM, it checks every one of
 * those itself and logs PASS.
 */
#include "crctl.h"
#include "crtest.h"
#include "tap.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DDIR	"/tmp/crdaemon.d"
#define IMG	"/tmp/crdaemon.img"

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* The process that is crdaemon now: the restarter itself or a child of rstr. */
static pid_t find_daemon(pid_t a, pid_t b)
{
	int i;

	for (i = 0; i < 30; i++) {
		if (wait_comm(a, "crdaemon", 1))
			return a;
		if (wait_comm(b, "crdaemon", 1))
			return b;
	}
	return 0;
}

int main(void)
{
	char *argv[] = { HELPER("crdaemon"), DDIR, NULL };
	char log[65536];
	pid_t pid, r, d;
	long crid, beats;
	int i;

	tap_plan(4);
	engine_on();
	if (system("rm -rf " DDIR "; mkdir -p " DDIR "/work"))
		tap_bail("setup: " DDIR);
	pid = spawn(argv);
	if (pid < 0 || !wait_file(DDIR "/ready", 30))
		tap_bail("setup: crdaemon did not start");
	kill(pid, SIGUSR1);	/* blocked: it stays pending */
	sleep_ms(1000);
	if (!stop_task(pid))
		tap_bail("setup: crdaemon did not stop");
	crid = checkpoint_retry(pid, IMG);
	tap_ok(crid > 0, "the daemon checkpoints (crid %ld, %s)", crid,
	       crid > 0 ? "ok" : engine_stat("checkpoint.refused"));
	kill_wait(pid);
	if (crid <= 0)
		return tap_done();

	beats = count_lines(DDIR "/log");
	r = rstr_cli(NULL, IMG, NULL);
	d = find_daemon(r, pid);
	tap_ok(d > 0, "restarted by rstr, it runs (pid %d)", d);
	for (i = 0; i < 100 && count_lines(DDIR "/log") <= beats + 5; i++)
		sleep_ms(100);
	tap_ok(count_lines(DDIR "/log") > beats + 5, "it logs on, appending (%lld lines, %ld at the checkpoint)",
	       count_lines(DDIR "/log"), beats);
	if (d > 0)
		kill(d, SIGTERM);
	for (i = 0; i < 100; i++) {
		slurp(DDIR "/log", log, sizeof(log));
		if (strstr(log, "PASS") || strstr(log, "FAIL"))
			break;
		sleep_ms(100);
	}
	tap_ok(strstr(log, "\nPASS\n") != NULL,
	       "on SIGTERM it finds its session, stdin, O_APPEND log, handler, pending SIGUSR1, itimer, POSIX timer, cwd, umask, RLIMIT_NOFILE and nice as they were (%s)",
	       strstr(log, "FAIL") ? strstr(log, "FAIL") : strstr(log, "PASS") ? "PASS" : "no answer");
	if (d > 0)
		kill(d, SIGKILL);
	if (r > 0)
		kill_wait(r);
	return tap_done();
}
