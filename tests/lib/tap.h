/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small TAP producer in the manner of kselftest.h: a plan, one line per
 * result, diagnostics as "# " comments, an exit status that says whether
 * everything passed.
 */
#ifndef TAP_H
#define TAP_H

#include <stdbool.h>

void tap_plan(int n);
/* Record one result; returns cond so callers can bail out on failure. */
bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* ret must be -want (a negative errno, as crctl.h returns). */
bool tap_errno(long ret, int want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Stop with a "Bail out!" when the test cannot go on. */
void tap_bail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* Checks results against the plan; returns the exit status for main(). */
int tap_done(void);

#endif /* TAP_H */
