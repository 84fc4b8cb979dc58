// SPDX-License-Identifier: GPL-2.0
/* A small TAP producer: see tap.h. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int planned = -1, count, failed;

static void result(bool ok, const char *directive, const char *fmt, va_list ap)
{
	printf("%sok %d - ", ok ? "" : "not ", ++count);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		failed++;
}

void tap_plan(int n)
{
	planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result(cond, NULL, fmt, ap);
	va_end(ap);
	return cond;
}

bool tap_errno(long ret, int want, const char *fmt, ...)
{
	bool ok = ret == -want;
	va_list ap;

	va_start(ap, fmt);
	result(ok, NULL, fmt, ap);
	va_end(ap);
	if (!ok)
		tap_diag("expected %s (-%d), got %ld%s%s", strerrorname_np(want) ?
			 strerrorname_np(want) : "?", want, ret,
			 ret < 0 ? " = " : "",
			 ret < 0 && strerrorname_np(-ret) ? strerrorname_np(-ret) : "");
	return ok;
}

void tap_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result(true, "SKIP", fmt, ap);
	va_end(ap);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void tap_bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(2);
}

int tap_done(void)
{
	if (planned >= 0 && count != planned) {
		tap_diag("planned %d tests but ran %d", planned, count);
		return 1;
	}
	return failed ? 1 : 0;
}
