#!/bin/sh
# Print one of the sample programs of the original series (ckpt.c, rstr.c,
# self.c, test.c) out of the seed documentation patch, so that the tests
# can build them as written. They are extracted at build time into the
# build folder, never committed here.
# Usage: qemu/seed-sample.sh SEED-PATCH NAME.c
set -eu
awk -v f="+++ b/Documentation/checkpoint/$2" '
	$0 == f { on = 1; next }
	on && /^@@/ { next }
	on && /^diff --git/ { exit }
	on { sub(/^\+/, ""); print }' "$1"
