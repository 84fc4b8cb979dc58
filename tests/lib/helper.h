/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the helpers (the programs guest tests checkpoint) share: how they
 * tell the test where they are. A failure exits 9, the helpers' set-up
 * failure status.
 */
#ifndef HELPER_H
#define HELPER_H

#include <stdbool.h>
#include <sys/types.h>

/* Create the empty file @out@suffix ("OUT.ready"). */
void helper_touch(const char *out, const char *suffix);

/* Write @text to @out whole: the test sees all of it or no file. */
void helper_result(const char *out, const char *text);
/*
 * The same for a helper with a child @kid waiting for GO: if it fails,
 * the child is killed and reaped before exiting 9.
 */
void helper_result_kid(const char *out, const char *text, pid_t kid);

/*
 * A helper that checks its own state after GO (run by the test's
 * check_both()): what failed goes to the file @out, a line each.
 * checks_open() exits 9 if it cannot create it.
 */
void checks_open(const char *out);
void check_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 if a check failed, else 0: the helper's exit status. */
int checks_status(void);
/* Sleep until the file @go exists. */
void wait_go(const char *go);

/* The byte at offset @i of the file helpers' pattern. */
char file_pattern(long i);
/* Whether @fd's bytes [@from, @to) are that pattern (read with pread()). */
bool is_file_pattern(int fd, long from, long to);

#endif
