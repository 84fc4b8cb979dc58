#!/bin/sh
# tests/lib/tap.sh, the shell tests' TAP producer, fails where it should:
# a wait that times out bails out (it once looped until the guest's
# 600 s timeout), a short run is a failure, a failed result too.
# Usage: tap-sh.sh [TAP.SH]   (default: tests/lib/tap.sh of this checkout)
lib=${1:-$(dirname "$0")/../lib/tap.sh}
. "$lib"
tap_plan 6
out=$(mktemp)
trap 'rm -f "$out"' EXIT

start=$(date +%s)
timeout 20 sh -c '. "$1"; wait_until 1 false; echo after' sh "$lib" > "$out"
rc=$?
took=$(($(date +%s) - start))
tap_is "$rc" 1 "wait_until 1 false: exits 1 ($took s)"
[ "$took" -le 5 ]
tap_ok $? "within a few seconds of its 1 s, not at an outer timeout"
grep -q "^Bail out! timed out waiting for: false$" "$out" && ! grep -q after "$out"
tap_ok $? "says what it waited for and runs nothing after ($(head -c 80 "$out"))"

timeout 20 sh -c '. "$1"; wait_until 5 test -e /; echo after' sh "$lib" > "$out"
tap_ok $? "wait_until on what is already true returns 0 and the test goes on"

sh -c '. "$1"; tap_plan 2; tap_ok 0 one; tap_done' sh "$lib" > "$out"
tap_is $? 1 "tap_done after 1 of 2 planned results exits 1"
sh -c '. "$1"; tap_plan 2; tap_ok 0 one; tap_ok 1 two; tap_done' sh "$lib" > "$out"
tap_is $? 1 "tap_done after a failed result exits 1"
tap_done
