/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the helpers (the programs guest tests checkpoint) share: how they
 * tell the test where they are. A failure exits 9, the helpers' set-up
 * failure status.
 */
#ifndef HELPER_H
#define HELPER_H

/* Create the empty file @out@suffix ("OUT.ready"). */
void helper_touch(const char *out, const char *suffix);

/* Write @text to @out whole: the test sees all of it or no file. */
void helper_result(const char *out, const char *text);

#endif
