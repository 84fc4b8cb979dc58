// SPDX-License-Identifier: GPL-2.0
/*
 * counter OUT N [DELAY_US]: append N lines "i x" to OUT, where x is an
 * FPU-derived number that depends on every earlier step, sleeping
 * DELAY_US between lines. The lines are a pure function of i, so an
 * interrupted and restarted run must write exactly what an uninterrupted
 * run writes. Writes OUT.ready after the first line.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[96], ready[4096];
	double x = 1.0;
	long i, n, delay;
	int fd, len;

	if (argc < 3) {
		fprintf(stderr, "usage: counter OUT N [DELAY_US]\n");
		return 2;
	}
	n = atol(argv[2]);
	delay = argc > 3 ? atol(argv[3]) : 10000;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (i = 1; i <= n; i++) {
		struct timespec ts = { 0, delay * 1000 };

		x = x * 1.000001 + sqrt((double)i) / 3.0;
		len = snprintf(line, sizeof(line), "%ld %.17g\n", i, x);
		if (write(fd, line, len) != len)
			return 1;
		if (i == 1) {
			snprintf(ready, sizeof(ready), "%s.ready", argv[1]);
			close(open(ready, O_WRONLY | O_CREAT, 0644));
		}
		nanosleep(&ts, NULL);
	}
	return close(fd) ? 1 : 0;
}
