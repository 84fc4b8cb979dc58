# Shared by kernel-tree.sh and refresh.sh: where the kernel patches live and
# in which order they are applied. Sourced, not run.
#
# The three folders are applied in this order, each in the order of its
# "series" file: the control interface and its switch first, then the trace
# events, then the engine, so that new engine patches append to the tree.
SERIES_DIRS="debugfs-iface tracepoints patches"

# series_files TOP: the patch files, relative to TOP, in application order.
series_files() {
	for d in $SERIES_DIRS; do
		[ -f "$1/$d/series" ] || continue
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/$d/series" |
			while read -r p; do echo "$d/$p"; done
	done
}

# series_hash TOP: changes whenever a series file or a patch file changes.
series_hash() {
	(cd "$1" && for d in $SERIES_DIRS; do
		[ -f "$d/series" ] && cat "$d/series"
	done
	series_files . | while read -r p; do cat "$p"; done) | sha1sum | cut -d' ' -f1
}

# series_dir_for SUBJECT: the folder a tree commit is exported to, from the
# prefix of its subject line.
series_dir_for() {
	case $1 in
	checkpoint/debugfs:*) echo debugfs-iface ;;
	checkpoint/trace:*) echo tracepoints ;;
	*) echo patches ;;
	esac
}
