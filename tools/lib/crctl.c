// SPDX-License-Identifier: GPL-2.0
/* The control-file protocol of /sys/kernel/debug/checkpoint: see crctl.h. */
#include "crctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *cr_path(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s", CR_DEBUGFS, name);
	return path;
}

int cr_enable_get(void)
{
	char c;
	int fd = open(cr_path("enable"), O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, &c, 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	if (n != 1 || (c != '0' && c != '1'))
		return -EPROTO;
	return c - '0';
}

int cr_enable_set(int on)
{
	int fd = open(cr_path("enable"), O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1\n" : "0\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

int cr_format_request(char *buf, size_t size, long id, int fd,
		      unsigned long flags)
{
	int n = snprintf(buf, size, "%ld %d %lu\n", id, fd, flags);

	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	return n;
}

long cr_parse_crid(const char *buf, size_t len)
{
	long crid = 0;
	size_t i;

	if (len < 2 || buf[len - 1] != '\n')
		return -EINVAL;
	for (i = 0; i < len - 1; i++) {
		int d = buf[i] - '0';

		if (d < 0 || d > 9 || crid > (0x7fffffffL - d) / 10)
			return -EINVAL;
		crid = crid * 10 + d;
	}
	return crid;
}

static long ctl_request(int ctlfd, long id, int fd, unsigned long flags)
{
	char req[64];
	int n = cr_format_request(req, sizeof(req), id, fd, flags);

	if (n < 0)
		return n;
	if (write(ctlfd, req, n) != n)
		return -errno;
	return 0;
}

long cr_ctl_checkpoint(int ctlfd, pid_t pid, int fd, unsigned long flags)
{
	char ans[32];
	long ret = ctl_request(ctlfd, pid, fd, flags);
	ssize_t n;

	if (ret)
		return ret;
	n = read(ctlfd, ans, sizeof(ans));
	if (n < 0)
		return -errno;
	return cr_parse_crid(ans, n);
}

long cr_ctl_restart(int ctlfd, int crid, int fd, unsigned long flags)
{
	return ctl_request(ctlfd, crid, fd, flags);
}

static int ctl_open(const char *name, int mode)
{
	int fd = open(cr_path(name), mode | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

long cr_checkpoint(pid_t pid, int fd, unsigned long flags)
{
	int ctlfd = ctl_open("checkpoint", O_RDWR);
	long ret;

	if (ctlfd < 0)
		return ctlfd;
	ret = cr_ctl_checkpoint(ctlfd, pid, fd, flags);
	close(ctlfd);
	return ret;
}

long cr_restart(int crid, int fd, unsigned long flags)
{
	int ctlfd = ctl_open("restart", O_WRONLY);
	long ret;

	if (ctlfd < 0)
		return ctlfd;
	ret = cr_ctl_restart(ctlfd, crid, fd, flags);
	close(ctlfd);
	return ret;
}

long cr_sys_checkpoint(pid_t pid, int fd, unsigned long flags)
{
	long ret = syscall(__NR_checkpoint, pid, fd, flags);

	return ret < 0 ? -errno : ret;
}

long cr_sys_restart(int crid, int fd, unsigned long flags)
{
	long ret = syscall(__NR_restart, crid, fd, flags);

	return ret < 0 ? -errno : ret;
}

const char *cr_stat(const char *key)
{
	static char line[512];
	FILE *f = fopen(CR_DEBUGFS "/stats", "re");
	size_t n = strlen(key);
	const char *v = "";

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ') {
			line[strcspn(line, "\n")] = '\0';
			v = line + n + 1;
			break;
		}
	if (f)
		fclose(f);
	return v;
}

void cr_print_refusal(const char *tool, const char *op, int err)
{
	char key[64];
	const char *why;

	/* the last operation may be another one (stats are global) */
	snprintf(key, sizeof(key), "%s.result", op);
	if (atol(cr_stat(key)) != -err)
		return;
	snprintf(key, sizeof(key), "%s.refused", op);
	why = cr_stat(key);
	if (*why)
		fprintf(stderr, "%s: the engine says: %s\n", tool, why);
}

/*
 * Every errno's name, as glibc's strerrorname_np() gives it (the tools
 * are built with musl, which has no such function; EWOULDBLOCK, ENOTSUP
 * and EDEADLOCK are other names of EAGAIN, EOPNOTSUPP and EDEADLK).
 */
#define E(e) [e] = #e
static const char *const errnames[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK),
	E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(ECHRNG),
	E(EL2NSYNC), E(EL3HLT), E(EL3RST), E(ELNRNG), E(EUNATCH), E(ENOCSI),
	E(EL2HLT), E(EBADE), E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC),
	E(EBADSLT), E(EBFONT), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR),
	E(ENONET), E(ENOPKG), E(EREMOTE), E(ENOLINK), E(EADV), E(ESRMNT),
	E(ECOMM), E(EPROTO), E(EMULTIHOP), E(EDOTDOT), E(EBADMSG),
	E(EOVERFLOW), E(ENOTUNIQ), E(EBADFD), E(EREMCHG), E(ELIBACC),
	E(ELIBBAD), E(ELIBSCN), E(ELIBMAX), E(ELIBEXEC), E(EILSEQ),
	E(ERESTART), E(ESTRPIPE), E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ),
	E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(EPFNOSUPPORT), E(EAFNOSUPPORT),
	E(EADDRINUSE), E(EADDRNOTAVAIL), E(ENETDOWN), E(ENETUNREACH),
	E(ENETRESET), E(ECONNABORTED), E(ECONNRESET), E(ENOBUFS), E(EISCONN),
	E(ENOTCONN), E(ESHUTDOWN), E(ETOOMANYREFS), E(ETIMEDOUT),
	E(ECONNREFUSED), E(EHOSTDOWN), E(EHOSTUNREACH), E(EALREADY),
	E(EINPROGRESS), E(ESTALE), E(EUCLEAN), E(ENOTNAM), E(ENAVAIL),
	E(EISNAM), E(EREMOTEIO), E(EDQUOT), E(ENOMEDIUM), E(EMEDIUMTYPE),
	E(ECANCELED), E(ENOKEY), E(EKEYEXPIRED), E(EKEYREVOKED),
	E(EKEYREJECTED), E(EOWNERDEAD), E(ENOTRECOVERABLE), E(ERFKILL),
	E(EHWPOISON),
};
#undef E

const char *cr_errname(int err)
{
	static char other[24];

	if (err > 0 && (size_t)err < sizeof(errnames) / sizeof(errnames[0]) &&
	    errnames[err])
		return errnames[err];
	snprintf(other, sizeof(other), "errno %d", err);
	return other;
}

const char *cr_hint(int err)
{
	switch (err) {
	case ENODEV:
		return "the engine is off: echo 1 > " CR_DEBUGFS "/enable";
	case ENOSYS:
		return "the engine is off or not built in (CONFIG_CHECKPOINT): echo 1 > "
		       CR_DEBUGFS "/enable";
	case ENOENT:
		/* the engine answered: a path the image names */
		if (!access(CR_DEBUGFS "/restart", F_OK))
			return "a file the image names is missing (the engine's reason: the refused line of " CR_DEBUGFS "/stats)";
		return "is debugfs mounted (mount -t debugfs none /sys/kernel/debug) and the kernel built with CONFIG_CHECKPOINT?";
	case ESTALE:
		return "a file the image names is not the one saved any more (another file at its path, or changed since): see the refused line of " CR_DEBUGFS "/stats";
	case EACCES:
	case EPERM:
		return "checkpoint/restart needs root (CAP_SYS_ADMIN)";
	case EOPNOTSUPP:
		return "this kernel's engine cannot do that yet (the engine's reason: the refused line of " CR_DEBUGFS "/stats, or the ckpt_refuse trace event)";
	case EINVAL:
		return "a malformed request or flags, or a damaged image (or one from a CPU with other xstate features)";
	case EIO:
		return "the image is truncated: did its checkpoint complete?";
	case EBADF:
		return "the image fd is not open (or not open for the right direction) in the caller";
	case ESRCH:
		return "is the pid right (in this pid namespace)?";
	case EBUSY:
		return "the target must be stopped (kill -STOP) or frozen first";
	case EFBIG:
		return "a deleted file the image holds is larger than the restarting shell's file size limit (ulimit -f)";
	case EROFS:
		return "the directory a deleted file of the image is made again in is read-only (see the refused line of " CR_DEBUGFS "/stats)";
	case EADDRINUSE:
		return "a unix socket's name is taken: is the checkpointed process still running, or another file at the socket's path? (see the refused line of " CR_DEBUGFS "/stats)";
	case ENOSPC:
		return "no room: a kept image would pass images_max_bytes (drop one), or the file system a deleted file of the image is made again on is full";
	default:
		return "see the refused line of " CR_DEBUGFS "/stats and the checkpoint trace events";
	}
}
