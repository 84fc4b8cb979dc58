// SPDX-License-Identifier: GPL-2.0
/*
 * workload MIB READY RESUMED [MAP_GIB [THREADS [PROCS]]]: the benchmark's
 * process. It writes MIB MiB of pseudo-random data into private anonymous
 * memory (spread one page at a time over a MAP_GIB GiB mapping when given
 * and not 0), starts THREADS - 1 more threads that wait (default: none),
 * forks PROCS - 1 children that each write their own MIB MiB (default:
 * none), creates READY (the children's pids in it, one a line), then
 * sleeps. When a restart cuts its sleep short it creates RESUMED, the benchmark's
 * "running again", and waits to be killed (30 s at most); so do the
 * children, without RESUMED.
 *
 * For the scaling rows, WORKLOAD_VMAS=N gives it N more VMAs (N pages
 * written, every other one then made read-only, so that none merge) and
 * WORKLOAD_FILES=N N more open files (DIR/files.dat, READY's directory,
 * opened N times; RLIMIT_NOFILE raised to fit).
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Fill @pages pages, @stride bytes apart from @mem, with the pattern of @x. */
static void fill(char *mem, size_t pages, size_t stride, uint64_t x)
{
	uint64_t *p;
	size_t i, j;

	for (i = 0; i < pages; i++) {
		p = (uint64_t *)(mem + i * stride);
		for (j = 0; j < 512; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[j] = x;
		}
	}
}

/*
 * Sleep; once restarted, create @resumed and wait. The sleep is on the
 * process's CPU-time clock, which does not advance while it sleeps: it
 * ends only when a restart cuts it short, as CRIU's does and as this
 * engine does for a sleep on a CPU-time clock (docs/limits.md). A sleep on
 * a wall clock would not do: this engine resumes it for its time left.
 * No file is opened meanwhile: a checkpoint may come at any moment.
 */
static int sleep_on(const char *resumed)
{
	for (;;) {
		struct timespec ts = { 3600, 0 };

		if (clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &ts, NULL) == EINTR) {
			if (resumed)
				close(open(resumed, O_WRONLY | O_CREAT, 0644));
			/*
			 * The benchmark kills it: a restorer still finishing
			 * (CRIU detaching from every thread) must find it.
			 */
			sleep(30);
			return 0;
		}
	}
}

/* WORKLOAD_VMAS and WORKLOAD_FILES: 0 on success. */
static int objects(const char *ready)
{
	const char *v = getenv("WORKLOAD_VMAS"), *f = getenv("WORKLOAD_FILES");
	size_t nv = v ? strtoul(v, NULL, 10) : 0, nf = f ? strtoul(f, NULL, 10) : 0, i;
	char path[256], *dir;

	if (nv) {
		char *m = mmap(NULL, nv * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return -1;
		for (i = 0; i < nv; i++)
			m[i * 4096] = (char)i;
		for (i = 1; i < nv; i += 2)
			if (mprotect(m + i * 4096, 4096, PROT_READ))
				return -1;
	}
	if (nf) {
		struct rlimit rl = { nf + 64, nf + 64 };

		snprintf(path, sizeof(path), "%s", ready);
		dir = strrchr(path, '/');
		snprintf(dir ? dir + 1 : path, sizeof(path) - (dir ? dir + 1 - path : 0),
			 "files.dat");
		close(open(path, O_WRONLY | O_CREAT, 0644));
		if (setrlimit(RLIMIT_NOFILE, &rl))
			return -1;
		for (i = 0; i < nf; i++)
			if (open(path, O_RDONLY) < 0)
				return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long threads = argc > 5 ? strtol(argv[5], NULL, 10) : 1;
	long procs = argc > 6 ? strtol(argv[6], NULL, 10) : 1;
	size_t pages, len, stride, i;
	pthread_attr_t attr;
	char line[32], tmp[256], *mem;
	int ready, filled[2];
	pthread_t t;

	if (argc < 4)
		return 2;
	pages = strtoul(argv[1], NULL, 10) * 256;
	len = argc > 4 ? strtoul(argv[4], NULL, 10) << 30 : 0;
	if (!len)
		len = pages * 4096;
	stride = len / pages;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return 2;
	fill(mem, pages, stride, 0x9e3779b97f4a7c15ULL);
	if (objects(argv[2]))
		return 2;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 1; i < (size_t)threads; i++)
		if (pthread_create(&t, &attr, idle, NULL))
			return 2;
	/* READY appears complete, once every child has its own pages */
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
	ready = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (ready < 0 || pipe(filled))
		return 2;
	for (i = 1; i < (size_t)procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 2;
		if (!pid) {
			close(ready);
			close(filled[0]);
			/* its own pages, not its parent's shared copy-on-write */
			fill(mem, pages, stride, 0x9e3779b97f4a7c15ULL + i);
			if (write(filled[1], "x", 1) != 1)
				return 2;
			close(filled[1]);
			return sleep_on(NULL);
		}
		snprintf(line, sizeof(line), "%d\n", pid);
		if (write(ready, line, strlen(line)) < 0)
			return 2;
	}
	/* to its end: every child has written and closed its end */
	close(filled[1]);
	for (i = 1; read(filled[0], line, 1) == 1; i++)
		;
	close(filled[0]);
	if (i != (size_t)procs)
		return 2;
	if (rename(tmp, argv[2]))
		return 2;
	close(ready);
	return sleep_on(argv[3]);
}
