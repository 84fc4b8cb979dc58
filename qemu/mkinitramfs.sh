#!/bin/sh
# Build the guest's initramfs (an uncompressed newc cpio): busybox-static,
# trace-cmd with the shared libraries it needs, the project's statically
# linked tools and tests, and qemu/init.
# Usage: qemu/mkinitramfs.sh OUT.cpio TOOLS_DIR TESTS_DIR
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
tools=$2
tests=$3
die() { echo "mkinitramfs: $*" >&2; exit 1; }

[ -x /bin/busybox ] || die "/bin/busybox missing (make deps: busybox-static)"
ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' ||
	die "/bin/busybox is not the static one (apt-get install busybox-static)"
tc=$(command -v trace-cmd) || die "trace-cmd missing (make deps)"

root=$(mktemp -d "${TMPDIR:-/tmp}/cr-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"
mkdir -p "$root"/bin "$root"/sbin "$root"/usr/bin "$root"/usr/sbin "$root"/etc \
	"$root"/proc "$root"/sys "$root"/dev "$root"/tmp "$root"/root \
	"$root"/mnt "$root"/tests "$root"/usr/share/cr
chmod 1777 "$root/tmp"

cp /bin/busybox "$root/bin/busybox"
for app in $(/bin/busybox --list-full); do
	[ -e "$root/$app" ] || ln -s /bin/busybox "$root/$app"
done

# trace-cmd is dynamically linked: bring the loader and every library.
copy_with_libs() {
	cp "$1" "$root/usr/bin/"
	ldd "$1" | sed -n -e 's/.*=> \(\/[^ ]*\).*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_with_libs "$tc"
# CRIU, for "make bench" (installed by it): the same way, when present.
[ -x /usr/sbin/criu ] && copy_with_libs /usr/sbin/criu

cp "$top/qemu/init" "$root/init"
cp "$top/qemu/motd" "$root/etc/motd"
cp "$top/qemu/demo.sh" "$root/usr/bin/demo"
cp "$top/tracepoints/check-trace.sh" "$root/usr/bin/check-trace"
cp "$top/tracepoints/trace-capture.sh" "$root/usr/bin/trace-capture"
cp "$top/qemu/bench-guest.sh" "$root/usr/bin/bench-guest"
chmod 755 "$root/init"
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/false' >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

[ -d "$tools" ] && find "$tools" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/usr/bin/" \;
[ -d "$tests" ] && cp -R "$tests"/. "$root/tests/"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(($(stat -c %s "$out") / 1024)) KiB)"
