#!/bin/sh
# Regenerate the patch files and series files from the kernel tree's commits
# (pristine..HEAD). Each commit goes to the folder its subject prefix names
# (qemu/series-lib.sh); the folders must appear in the tree in the order they
# are applied. Patch files are never edited by hand: edit the tree, commit
# (or git commit --fixup + git rebase -i --autosquash pristine), run this.
#
# Usage: qemu/refresh.sh TREE
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
. "$top/qemu/series-lib.sh"

die() { echo "refresh: $*" >&2; exit 1; }

[ -d "$tree/.git" ] || die "no kernel tree at $tree: run 'make kernel-tree' first"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit them (git -C $tree commit -s) first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Check the order: folder index must never go down along the history.
rank() { i=0; for d in $SERIES_DIRS; do [ "$d" = "$1" ] && echo $i; i=$((i + 1)); done; }
last=0
for c in $(git -C "$tree" rev-list --reverse pristine..HEAD); do
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	d=$(series_dir_for "$subj")
	r=$(rank "$d")
	[ "$r" -ge "$last" ] ||
		die "commit '$subj' ($d/) comes after a commit of a later folder;" \
		    "order in the tree must be: $SERIES_DIRS (git rebase -i pristine)"
	last=$r
	echo "$c" >> "$tmp/$d.commits"
done

for d in $SERIES_DIRS; do
	mkdir -p "$tmp/$d"
	n=0
	: > "$tmp/$d/series"
	[ -f "$tmp/$d.commits" ] && for c in $(cat "$tmp/$d.commits"); do
		n=$((n + 1))
		f=$(git -C "$tree" format-patch -1 "$c" -N --zero-commit --no-signature \
			--start-number "$n" -o "$tmp/$d")
		echo "${f##*/}" >> "$tmp/$d/series"
	done
	rm -f "$top/$d"/*.patch
	cp "$tmp/$d"/* "$top/$d/"
	echo "refresh: $d/: $n patches"
done

state=$tree/.git/cr-state
echo "$(series_hash "$top") $(git -C "$tree" rev-parse HEAD)" > "$state"
git -C "$top" status --short -- $SERIES_DIRS
