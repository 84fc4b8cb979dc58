#!/bin/sh
# Create (or bring up to date) the throw-away kernel tree under the build
# folder: Debian's linux-source-6.12 unpacked, committed as the pristine base
# (tag "pristine"), then every patch of the series applied with git am, one
# commit per patch, in the order the series files give (qemu/series-lib.sh:
# debugfs-iface/, tracepoints/, then patches/).
#
# Usage: qemu/kernel-tree.sh TREE
# FORCE=1 throws away local commits/changes in TREE and re-applies the series.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
tarball=/usr/src/linux-source-6.12.tar.xz
tested=$(cat "$top/qemu/kernel-version")
. "$top/qemu/series-lib.sh"

die() { echo "kernel-tree: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball missing: run 'make deps' (apt-get install linux-source-6.12)"
have=$(dpkg-query -W -f '${Version}' linux-source-6.12 2>/dev/null || echo unknown)

state=$tree/.git/cr-state
want=$(series_hash "$top")

apply_series() {
	n=0
	for p in $(series_files "$top"); do
		n=$((n + 1))
		if ! git -C "$tree" am -q --keep-cr "$top/$p" >/dev/null 2>"$tree/.git/cr-am.log"; then
			cat "$tree/.git/cr-am.log" >&2
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			die "patch $n ($p) does not apply to linux-source-6.12 $have" \
			    "(the series was tested on $tested). Rebase it: make kernel-tree," \
			    "fix the commit in $tree, make refresh."
		fi
	done
	echo "$want $(git -C "$tree" rev-parse HEAD)" > "$state"
	echo "kernel-tree: $n patches applied on linux-source-6.12 $have in $tree"
}

if [ ! -d "$tree/.git" ]; then
	[ "$have" = "$tested" ] ||
		echo "kernel-tree: note: linux-source-6.12 is $have; the series was tested on $tested"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	echo "kernel-tree: unpacking $tarball ..."
	tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	# Debian's tarball ignores every new top-level path ("/*" in its
	# .gitignore, for its packaging repository): drop those two lines in
	# the throw-away tree so that new kernel files can be committed.
	sed -i -e '\|^/\*$|d' -e '\|^!/debian/$|d' "$tree.tmp/.gitignore"
	git -C "$tree.tmp" init -q
	git -C "$tree.tmp" config user.name "${GIT_AUTHOR_NAME:-$(git config user.name || echo builder)}"
	git -C "$tree.tmp" config user.email "${GIT_AUTHOR_EMAIL:-$(git config user.email || echo builder@localhost)}"
	git -C "$tree.tmp" config gc.auto 0
	echo "kernel-tree: committing the pristine tree ..."
	git -C "$tree.tmp" add -A -f . >/dev/null
	git -C "$tree.tmp" commit -q -m "linux-source-6.12 $have (Debian, pristine)"
	git -C "$tree.tmp" tag pristine
	mv "$tree.tmp" "$tree"
	apply_series
	exit 0
fi

read -r had head < "$state" 2>/dev/null || { had=none; head=none; }
[ "$had" = "$want" ] && exit 0

# The patch files changed since the tree was made. Re-apply them unless the
# tree holds work that was never exported.
cur=$(git -C "$tree" rev-parse HEAD)
dirty=$(git -C "$tree" status --porcelain --untracked-files=no)
if [ "${FORCE:-0}" != 1 ] && { [ "$cur" != "$head" ] || [ -n "$dirty" ]; }; then
	die "the patch files changed, but $tree has commits or changes that" \
	    "were not exported. Export them with 'make refresh' (then commit the" \
	    "patch files), or discard them with 'make kernel-tree FORCE=1'."
fi
git -C "$tree" am --abort >/dev/null 2>&1 || true
git -C "$tree" reset -q --hard pristine
apply_series
