// SPDX-License-Identifier: GPL-2.0
/*
 * sparse READY GO GIB KIB: map GIB GiB read-write (MAP_NORESERVE) and
 * write KIB KiB of it, one page at a time spread evenly over the whole
 * mapping; create READY; wait for GO; check the pages; exit 0 if intact.
 * GIB 0 maps just the KIB KiB (the dense case).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long gib, pages, len, stride, i;
	char *p;

	if (argc != 5)
		return 9;
	gib = strtoul(argv[3], NULL, 10);
	pages = strtoul(argv[4], NULL, 10) / 4;
	len = gib ? gib << 30 : pages * 4096;
	stride = len / pages;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return 9;
	/*
	 * Sparse means small pages: with transparent huge pages always on,
	 * each written page would bring its 2 MiB in (cr-thp tests those).
	 * Without THP in the kernel the advice fails, harmlessly.
	 */
	madvise(p, len, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		*(uint64_t *)(p + i * stride) = i * 0x9e3779b97f4a7c15ULL + 1;
	close(open(argv[1], O_WRONLY | O_CREAT, 0644));
	while (access(argv[2], F_OK)) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}
	for (i = 0; i < pages; i++)
		if (*(uint64_t *)(p + i * stride) != i * 0x9e3779b97f4a7c15ULL + 1)
			return 1;
	return 0;
}
