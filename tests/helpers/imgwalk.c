// SPDX-License-Identifier: GPL-2.0
/*
 * imgwalk IMAGE: one line per record, "<pos> <type> <len> <objref>", by
 * following the record headers (16 bytes: type, objref, len; payload
 * padded to 8 bytes). Exit 1 if a record runs past the end of the file.
 * (ckptinfo will be the full reader; this is what the trace test needs.)
 */
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct { uint32_t type, objref; uint64_t len; } h;
	unsigned long long pos = 0;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r")))
		return 2;
	while (fread(&h, sizeof(h), 1, f) == 1) {
		printf("%llu %u %llu %u\n", pos, h.type,
		       (unsigned long long)h.len, h.objref);
		pos += sizeof(h) + ((h.len + 7) & ~7ULL);
		if (fseeko(f, pos, SEEK_SET))
			return 1;
	}
	fseeko(f, 0, SEEK_END);
	return (unsigned long long)ftello(f) == pos ? 0 : 1;
}
