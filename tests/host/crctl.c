// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of the control-file protocol helper (no kernel needed). */
#include "crctl.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

static void test_format(void)
{
	char buf[64], tiny[8];
	int n;

	n = cr_format_request(buf, sizeof(buf), 1234, 3, 0);
	tap_ok(n == 9 && !strcmp(buf, "1234 3 0\n"), "checkpoint request \"1234 3 0\" plus newline");
	n = cr_format_request(buf, sizeof(buf), 0, 17, 5);
	tap_ok(n > 0 && !strcmp(buf, "0 17 5\n"), "restart request with flags");
	tap_errno(cr_format_request(tiny, sizeof(tiny), 123456, 3, 0), ENOSPC,
		  "a request that does not fit is ENOSPC");
}

static void test_parse(void)
{
	tap_ok(cr_parse_crid("42\n", 3) == 42, "crid 42 parsed");
	tap_ok(cr_parse_crid("0\n", 2) == 0, "crid 0 parsed");
	tap_ok(cr_parse_crid("2147483647\n", 11) == 2147483647L, "largest crid parsed");
	tap_errno(cr_parse_crid("2147483648\n", 11), EINVAL, "crid past INT_MAX refused");
	tap_errno(cr_parse_crid("42", 2), EINVAL, "answer without newline refused");
	tap_errno(cr_parse_crid("\n", 1), EINVAL, "empty answer refused");
	tap_errno(cr_parse_crid("-1\n", 3), EINVAL, "negative answer refused");
	tap_errno(cr_parse_crid("4 2\n", 4), EINVAL, "answer with a space refused");
	tap_errno(cr_parse_crid("", 0), EINVAL, "zero-length answer refused");
}

static void test_hints(void)
{
	tap_ok(strstr(cr_hint(ENODEV), "echo 1 >") != NULL, "ENODEV hint says how to enable");
	tap_ok(strstr(cr_hint(EPERM), "root") != NULL, "EPERM hint says root");
	tap_ok(strstr(cr_hint(ENOENT), "debugfs") != NULL, "ENOENT hint names debugfs");
	tap_ok(strstr(cr_hint(EFBIG), "ulimit -f") != NULL, "EFBIG hint names the file size limit");
	tap_ok(strstr(cr_hint(EROFS), "read-only") != NULL, "EROFS hint says read-only");
	tap_ok(strstr(cr_hint(ENOSPC), "images_max_bytes") != NULL &&
	       strstr(cr_hint(ENOSPC), "is full") != NULL,
	       "ENOSPC hint names both causes: the kept images' limit, a full file system");
	tap_ok(strstr(cr_hint(EADDRINUSE), "still running") != NULL,
	       "EADDRINUSE hint asks whether the checkpointed process still runs");
	tap_ok(strstr(cr_hint(12345), "stats") != NULL,
	       "an unknown errno's hint points at the engine's reason in stats");
	tap_ok(!strcmp(cr_path("enable"), CR_DEBUGFS "/enable"), "control file path");
}

/*
 * The tools' errno names (they are built with musl, which lacks glibc's
 * strerrorname_np()): the same as glibc's for every errno it names.
 */
static void test_errnames(void)
{
	int e, same = 0, named = 0;

	for (e = 1; e < 4096; e++) {
		const char *glibc = strerrorname_np(e);

		if (!glibc)
			continue;
		named++;
		if (!strcmp(cr_errname(e), glibc))
			same++;
		else
			tap_diag("errno %d: cr_errname() says %s, glibc %s", e,
				 cr_errname(e), glibc);
	}
	tap_ok(named >= 131 && same == named,
	       "cr_errname() names each of glibc's %d errnos as glibc does (%d do)",
	       named, same);
	tap_ok(!strcmp(cr_errname(0), "errno 0") && !strcmp(cr_errname(4096), "errno 4096") &&
	       !strcmp(cr_errname(-1), "errno -1"),
	       "an errno it does not know is \"errno N\"");
}

int main(void)
{
	tap_plan(23);
	test_format();
	test_parse();
	test_hints();
	test_errnames();
	return tap_done();
}
