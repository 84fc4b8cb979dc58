// SPDX-License-Identifier: GPL-2.0
/* libFuzzer entry: the image reader and every printer on arbitrary bytes. */
#include "image.h"

#include <stddef.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct ci_image img;
	FILE *f, *out;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	out = fopen("/dev/null", "w");
	if (!f || !out)
		return 0;
	if (!ci_read(f, &img, true)) {
		ci_print_summary(out, &img, true);
		ci_print_json(out, &img, true, true);
	}
	ci_print_records(out, &img);
	ci_free(&img);
	fclose(f);
	fclose(out);
	return 0;
}
