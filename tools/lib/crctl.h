/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control-file protocol of /sys/kernel/debug/checkpoint and the two
 * system calls, in one place for every tool and test.
 *
 * Functions return a value >= 0 on success and a negative errno on
 * failure; they never print.
 */
#ifndef CRCTL_H
#define CRCTL_H

#include <stddef.h>
#include <sys/types.h>

#define CR_DEBUGFS "/sys/kernel/debug/checkpoint"

/* The x86_64 numbers the series reserves (548 and up: not x32's range). */
#ifndef __NR_checkpoint
#define __NR_checkpoint 548
#endif
#ifndef __NR_restart
#define __NR_restart 549
#endif

/* Path of a control file: "enable", "checkpoint" or "restart". */
const char *cr_path(const char *name);

/* The runtime switch: 0 or 1, or -errno. */
int cr_enable_get(void);
int cr_enable_set(int on);

/* "<id> <fd> <flags>\n" into buf; the length, or -ENOSPC. */
int cr_format_request(char *buf, size_t size, long id, int fd,
		      unsigned long flags);

/* A checkpoint file's answer "<crid>\n": the crid, or -EINVAL. */
long cr_parse_crid(const char *buf, size_t len);

/*
 * Send one request on an open control file (write) and, for the
 * checkpoint file, read the crid back. Returns the crid (checkpoint),
 * 0 (restart never returns on success), or -errno.
 */
long cr_ctl_checkpoint(int ctlfd, pid_t pid, int fd, unsigned long flags);
long cr_ctl_restart(int ctlfd, int crid, int fd, unsigned long flags);

/* The same through a fresh open of the control file. */
long cr_checkpoint(pid_t pid, int fd, unsigned long flags);
long cr_restart(int crid, int fd, unsigned long flags);

/* The system calls; -errno on failure. */
long cr_sys_checkpoint(pid_t pid, int fd, unsigned long flags);
long cr_sys_restart(int crid, int fd, unsigned long flags);

/* The name of errno @err ("EBUSY"), or "errno N" for one it does not know. */
const char *cr_errname(int err);
/* What to check when an operation failed with -err (never NULL). */
const char *cr_hint(int err);
/*
 * The value of @key ("checkpoint.refused", "restart.refused"...) in the
 * engine's debugfs stats file (the last operation's), or "" if it has
 * none. The string lives until the next call.
 */
const char *cr_stat(const char *key);
/*
 * "ckpt: the engine says: <its reason>\n" on stderr, if the engine's last
 * @op ("checkpoint", "restart") failed with @err and gave a reason.
 */
void cr_print_refusal(const char *tool, const char *op, int err);

#endif /* CRCTL_H */
