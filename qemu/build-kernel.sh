#!/bin/sh
# Configure (tinyconfig + fragments) and build the guest kernel of one
# variant, out of tree, with ccache.
# Usage: qemu/build-kernel.sh TREE OUT VARIANT
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
variant=$3
. "$top/qemu/series-lib.sh"

case $variant in
default) frags="$top/qemu/config/base.config" ;;
debug) frags="$top/qemu/config/base.config $top/qemu/config/debug.config" ;;
*) frags="$top/qemu/config/base.config $top/qemu/config/$variant.config" ;;
esac
for f in $frags; do
	[ -f "$f" ] || { echo "build-kernel: unknown variant '$variant' (no $f)" >&2; exit 1; }
done

# ccache's own default cache (~/.cache/ccache), shared by every clone on
# the machine; paths under the tree are hashed relative to it.
export CCACHE_BASEDIR="$tree"
export KBUILD_BUILD_USER=cr KBUILD_BUILD_HOST=guest
kmake() { make -s -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" "$@"; }

# Re-configure when a fragment or the patch series changed.
want=$( (cat $frags; series_hash "$top") | sha1sum | cut -d' ' -f1)
if [ "$(cat "$out/.cr-config" 2>/dev/null)" != "$want" ] || [ ! -f "$out/.config" ]; then
	echo "build-kernel: configuring $variant (tinyconfig +$(for f in $frags; do printf ' %s' "${f##*/}"; done))"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG="$out/.config" "$tree/scripts/kconfig/merge_config.sh" \
		-m -O "$out" "$out/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
	"$top/qemu/check-config.sh" "$out/.config" $frags
	echo "$want" > "$out/.cr-config"
fi

echo "build-kernel: building $variant kernel in $out"
start=$(date +%s)
kmake -j"$(nproc)" bzImage
echo "build-kernel: $variant kernel ready ($(($(date +%s) - start)) s): $out/arch/x86/boot/bzImage"
