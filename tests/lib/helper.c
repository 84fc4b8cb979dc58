// SPDX-License-Identifier: GPL-2.0
#include "helper.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void helper_touch(const char *out, const char *suffix)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", out, suffix);
	f = fopen(path, "w");
	if (!f)
		_exit(9);
	fclose(f);
}

/* @text into @out whole, or -1 (nothing at @out) */
static int try_result(const char *out, const char *text)
{
	char tmp[4200];
	FILE *f;
	int ret;

	/* one temporary file per writer: processes of a tree share a folder */
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", out, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	ret = fputs(text, f) < 0;
	ret |= fclose(f) != 0;
	if (ret || rename(tmp, out)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void helper_result(const char *out, const char *text)
{
	if (try_result(out, text))
		_exit(9);
}

void helper_result_kid(const char *out, const char *text, pid_t kid)
{
	if (try_result(out, text)) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
		_exit(9);
	}
}

static FILE *checks_out;
static int checks_failed;

void checks_open(const char *out)
{
	checks_out = fopen(out, "w");
	if (!checks_out)
		_exit(9);
}

void check_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(checks_out, fmt, ap);
	va_end(ap);
	fputc('\n', checks_out);
	fflush(checks_out);
	checks_failed = 1;
}

int checks_status(void)
{
	return checks_failed;
}

void wait_go(const char *go)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	while (access(go, F_OK))
		nanosleep(&ts, NULL);
}

char file_pattern(long i)
{
	return (char)(i * 7 + 3);
}

bool is_file_pattern(int fd, long from, long to)
{
	char c;
	long i;

	for (i = from; i < to; i++)
		if (pread(fd, &c, 1, i) != 1 || c != file_pattern(i))
			return false;
	return true;
}
