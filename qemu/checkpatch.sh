#!/bin/sh
# Run the kernel tree's scripts/checkpatch.pl on every patch of the series.
# Fails on any error or warning, except the ones qemu/checkpatch-accepted
# lists (a patch-file pattern, a checkpatch type and the reason). --strict
# checks are printed too, for information (trace-event headers cannot
# satisfy them).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
. "$top/qemu/series-lib.sh"
[ -x "$tree/scripts/checkpatch.pl" ] || { echo "checkpatch: no kernel tree at $tree (make kernel-tree)" >&2; exit 2; }

accepted() { # accepted PATCH TYPE
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/qemu/checkpatch-accepted" |
	while read -r pat type why; do
		case $1 in $pat) [ "$type" = "$2" ] && echo yes && break ;; esac
	done
}

bad=0
for p in $(series_files "$top"); do
	out=$("$tree/scripts/checkpatch.pl" --no-tree --terse --show-types \
		--ignore FILE_PATH_CHANGES "$top/$p" 2>&1)
	rc=$?
	n=0
	# 0: clean, 1: findings; anything else is checkpatch.pl failing itself
	if [ $rc -gt 1 ]; then
		echo "checkpatch: $p: checkpatch.pl failed (exit $rc): $out"
		bad=1
		continue
	fi
	for t in $(echo "$out" | sed -n 's/.*: \(ERROR\|WARNING\):\([A-Z_]*\):.*/\2/p' | sort -u); do
		if [ -n "$(accepted "$p" "$t")" ]; then
			echo "checkpatch: $p: $t accepted (qemu/checkpatch-accepted)"
		else
			echo "$out" | grep ":$t:"
			n=1
		fi
	done
	strict=$("$tree/scripts/checkpatch.pl" --no-tree --terse --strict \
		--ignore FILE_PATH_CHANGES "$top/$p" 2>&1 | grep -c ': CHECK:')
	[ $n = 0 ] && echo "checkpatch: $p: clean ($strict --strict checks)"
	[ $n = 0 ] || bad=1
done
exit $bad
