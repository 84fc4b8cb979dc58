#!/bin/sh
# Install the Debian packages the build, the guest and the tests need, if
# any is missing. Runs apt-get (through sudo when not root) only then.
set -eu

# Extra packages may be named on the command line (make bench: criu gnuplot-nox).
pkgs="$* linux-source-6.12 qemu-system-x86 busybox-static trace-cmd ccache
gcc musl-tools make flex bison bc libelf-dev libssl-dev cpio xz-utils rsync git
python3 kmod"

missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0

echo "install-deps: installing:$missing"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends $missing; then
	$sudo apt-get update
	$sudo apt-get install -y --no-install-recommends $missing
fi
