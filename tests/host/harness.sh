#!/bin/sh
# The QEMU harness itself (needs the built kernel and image): a command's
# exit status and output come back, SHARE is read-write at /mnt/host, and
# a crashed or hung guest is a failure, never a pass.
# Usage: tests/host/harness.sh RUN-QEMU-COMMAND...  (without --cmd)
. "$(dirname "$0")/../lib/tap.sh"
tap_plan 7
share=$(mktemp -d)
trap 'rm -rf "$share"' EXIT

out=$("$@" --share "$share" --cmd 'echo hello from $(uname -n); echo data > /mnt/host/from-guest; exit 7' 2>/dev/null)
rc=$?
tap_is "$rc" 7 "the command's exit status (7) comes back"
tap_is "$out" "hello from guest" "the command's output comes back"
tap_is "$(cat "$share/from-guest" 2>/dev/null)" data "a file written to /mnt/host appears in SHARE"

echo from-host > "$share/from-host"
out=$("$@" --share "$share" --cmd 'cat /mnt/host/from-host' 2>/dev/null)
tap_is "$out" from-host "SHARE's files are visible in the guest"

# A kernel crash (sysrq c) panics; panic=-1 reboots, QEMU stops.
"$@" --cmd 'echo c > /proc/sysrq-trigger; sleep 30' > /dev/null 2> "$share/crash.err"
rc=$?
tap_is "$rc" 125 "a guest that panics gives status 125"
grep -q "Kernel panic" "$share/crash.err"
tap_ok $? "and its console log is printed"

"$@" --timeout 8 --cmd 'sleep 100' > /dev/null 2>&1
tap_is $? 124 "a guest that hangs past --timeout gives status 124"
tap_done
