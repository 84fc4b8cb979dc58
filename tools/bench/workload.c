// SPDX-License-Identifier: GPL-2.0
/*
 * workload MIB READY RESUMED [MAP_GIB [THREADS]]: the benchmark's process.
 * It writes MIB MiB of pseudo-random data into private anonymous memory
 * (spread one page at a time over a MAP_GIB GiB mapping when given and
 * not 0), starts THREADS - 1 more threads that wait (default: none),
 * creates READY, then sleeps. When its sleep is cut short (as a restart
 * by this engine does: an interrupted sleep returns EINTR) it creates
 * RESUMED, the benchmark's "running again", and waits to be killed (30 s
 * at most).
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL, *p;
	size_t pages, len, stride, i, j;
	long threads = argc > 5 ? strtol(argv[5], NULL, 10) : 1;
	pthread_attr_t attr;
	pthread_t t;
	char *mem;

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
	for (i = 0; i < pages; i++) {
		p = (uint64_t *)(mem + i * stride);
		for (j = 0; j < 512; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[j] = x;
		}
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 1; i < (size_t)threads; i++)
		if (pthread_create(&t, &attr, idle, NULL))
			return 2;
	close(open(argv[2], O_WRONLY | O_CREAT, 0644));
	for (;;) {
		struct timespec ts = { 3600, 0 };

		if (nanosleep(&ts, NULL) && errno == EINTR) {
			close(open(argv[3], O_WRONLY | O_CREAT, 0644));
			/*
			 * The benchmark kills it: a restorer still finishing
			 * (CRIU detaching from every thread) must find it.
			 */
			sleep(30);
			return 0;
		}
	}
}
