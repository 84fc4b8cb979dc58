// SPDX-License-Identifier: GPL-2.0
/*
 * threads OUT count|handoff|child: a multi-threaded program for the
 * thread tests. It writes what its threads see into OUT, one 32-byte
 * struct rec per thread at offset 32 * index, rewritten as they go.
 *
 *   count    8 workers named worker-N, each blocking SIGRTMIN+N: each
 *            loads its own pattern into its vector registers (ymm0-7
 *            with AVX2, else xmm0-7), spins, checks them, and counts in
 *            a __thread variable; rec: tid, count, errors.
 *   handoff  two threads passing a turn through a mutex and a condition
 *            variable; rec 0: handoffs, errors (a turn seen out of
 *            order).
 *   child    forks a child that sleeps, then sleeps (a process tree);
 *            rec 0: the child's pid.
 *
 * The main thread sleeps 5 ms at a time. Exit 9: bad arguments.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NR_WORKERS	8

struct rec {
	int64_t tid;
	int64_t count;
	int64_t errors;
	int64_t spare;
};

static int out;
static __thread int64_t count, errors;

static void put(unsigned int i, int64_t a, int64_t b, int64_t c)
{
	struct rec r = { a, b, c, 0 };

	pwrite(out, &r, sizeof(r), (off_t)i * sizeof(r));
}

static void nap(void)
{
	struct timespec ts = { 0, 5000000 };

	nanosleep(&ts, NULL);
}

/* Load @pat into the vector registers, spin, store them into @got. */
static void spin_avx2(const unsigned char pat[8][32], unsigned char got[8][32])
{
	__asm__ __volatile__(
		"vmovdqu 0*32(%[p]), %%ymm0\n\t" "vmovdqu 1*32(%[p]), %%ymm1\n\t"
		"vmovdqu 2*32(%[p]), %%ymm2\n\t" "vmovdqu 3*32(%[p]), %%ymm3\n\t"
		"vmovdqu 4*32(%[p]), %%ymm4\n\t" "vmovdqu 5*32(%[p]), %%ymm5\n\t"
		"vmovdqu 6*32(%[p]), %%ymm6\n\t" "vmovdqu 7*32(%[p]), %%ymm7\n\t"
		"mov $200000, %%ecx\n"
		"1:\tdec %%ecx\n\t"
		"jnz 1b\n\t"
		"vmovdqu %%ymm0, 0*32(%[g])\n\t" "vmovdqu %%ymm1, 1*32(%[g])\n\t"
		"vmovdqu %%ymm2, 2*32(%[g])\n\t" "vmovdqu %%ymm3, 3*32(%[g])\n\t"
		"vmovdqu %%ymm4, 4*32(%[g])\n\t" "vmovdqu %%ymm5, 5*32(%[g])\n\t"
		"vmovdqu %%ymm6, 6*32(%[g])\n\t" "vmovdqu %%ymm7, 7*32(%[g])\n\t"
		"vzeroupper\n\t"
		: : [p] "r" (pat), [g] "r" (got)
		: "rcx", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
		  "xmm6", "xmm7");
}

static void spin_sse(const unsigned char pat[8][32], unsigned char got[8][32])
{
	__asm__ __volatile__(
		"movdqu 0*32(%[p]), %%xmm0\n\t" "movdqu 1*32(%[p]), %%xmm1\n\t"
		"movdqu 2*32(%[p]), %%xmm2\n\t" "movdqu 3*32(%[p]), %%xmm3\n\t"
		"movdqu 4*32(%[p]), %%xmm4\n\t" "movdqu 5*32(%[p]), %%xmm5\n\t"
		"movdqu 6*32(%[p]), %%xmm6\n\t" "movdqu 7*32(%[p]), %%xmm7\n\t"
		"mov $200000, %%ecx\n"
		"1:\tdec %%ecx\n\t"
		"jnz 1b\n\t"
		"movdqu %%xmm0, 0*32(%[g])\n\t" "movdqu %%xmm1, 1*32(%[g])\n\t"
		"movdqu %%xmm2, 2*32(%[g])\n\t" "movdqu %%xmm3, 3*32(%[g])\n\t"
		"movdqu %%xmm4, 4*32(%[g])\n\t" "movdqu %%xmm5, 5*32(%[g])\n\t"
		"movdqu %%xmm6, 6*32(%[g])\n\t" "movdqu %%xmm7, 7*32(%[g])\n\t"
		: : [p] "r" (pat), [g] "r" (got)
		: "rcx", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
		  "xmm6", "xmm7");
}

static void *worker(void *arg)
{
	unsigned int n = (unsigned int)(uintptr_t)arg, i, j;
	unsigned char pat[8][32], got[8][32];
	int avx = __builtin_cpu_supports("avx2"), width = avx ? 32 : 16;
	int64_t tid = syscall(SYS_gettid);
	char name[16];
	sigset_t set;

	snprintf(name, sizeof(name), "worker-%u", n);
	pthread_setname_np(pthread_self(), name);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + (int)n);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < 8; i++)
		for (j = 0; j < 32; j++)
			pat[i][j] = (unsigned char)(n * 31 + i * 7 + j + 1);
	for (;;) {
		memset(got, 0, sizeof(got));
		if (avx)
			spin_avx2(pat, got);
		else
			spin_sse(pat, got);
		for (i = 0; i < 8; i++)
			if (memcmp(pat[i], got[i], width))
				errors++;
		count++;
		put(n + 1, tid, count, errors);
	}
	return NULL;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int64_t turns;

/* Thread @arg takes the turns of its parity, one after the other. */
static void *handoff(void *arg)
{
	int64_t mine = (int64_t)(uintptr_t)arg, last = -1;

	for (;;) {
		pthread_mutex_lock(&lock);
		while ((turns & 1) != mine)
			pthread_cond_wait(&cond, &lock);
		/* the other thread took exactly one turn since ours */
		if (last >= 0 && turns != last + 2)
			errors++;
		last = turns;
		turns++;
		pthread_cond_broadcast(&cond);
		if (mine)
			put(0, syscall(SYS_gettid), turns, errors);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	unsigned int i;

	if (argc != 3)
		return 9;
	out = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return 9;
	if (!strcmp(argv[2], "count")) {
		for (i = 0; i < NR_WORKERS; i++)
			pthread_create(&t, NULL, worker, (void *)(uintptr_t)i);
	} else if (!strcmp(argv[2], "handoff")) {
		pthread_create(&t, NULL, handoff, (void *)0);
		pthread_create(&t, NULL, handoff, (void *)1);
	} else if (!strcmp(argv[2], "child")) {
		pid_t c = fork();

		if (!c)
			for (;;)
				pause();
		put(0, c, 1, 0);
	} else {
		return 9;
	}
	for (;;) {
		count++;
		nap();
	}
}
