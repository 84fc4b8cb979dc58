#!/bin/sh
# The guest side of "make bench": this engine, CRIU and the copy-once
# floor on the same workload, in one boot, images on tmpfs. Results go to
# /mnt/host (results.tsv, criu stats, guest.txt).
# Usage: bench-guest.sh "SIZES (MiB)" REPS
set -u
sizes=$1 reps=$2
out=/mnt/host/results.tsv
mkdir -p /tmp/bench /mnt/host/criu-stats /mnt/host/engine-stats
: > $out
rm -f /mnt/host/failed
# A failed run fails the whole benchmark: no partial report (bench-report.sh).
failed() {
	echo "bench: $*" >&2
	echo "$*" >> /mnt/host/failed
}
echo 1 > /sys/kernel/debug/checkpoint/enable
# criu caches what it probes of the kernel in /run/criu.kdat (the init
# makes /run): probed once here, untimed, as on an installed system.
[ -d /run ] || failed "no /run for criu's kernel-feature cache"
criu check > /tmp/criu-check.txt 2>&1
kdat="criu check: $(tail -n 1 /tmp/criu-check.txt); kernel-feature cache"
[ -s /run/criu.kdat ] && kdat="$kdat /run/criu.kdat" || kdat="$kdat absent"
{
	echo "kernel: $(uname -r) $(uname -v)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) ($(grep -c ^processor /proc/cpuinfo) vCPU)"
	echo "memory: $(grep MemTotal /proc/meminfo | tr -s ' ' | cut -d' ' -f2-)"
	# a TSC the guest could not calibrate (a loaded host) leaves jiffies:
	# times in 4 ms steps, which the millisecond rows feel
	echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "criu: $(criu --version 2>&1 | head -n 1)"
	echo "$kdat"
} > /mnt/host/guest.txt
# Warm-up, untimed: touch most of the guest's memory once (1.5 GiB three
# times over: the data, the file, the copy). QEMU's guest
# RAM is backed by the host only when first touched, and on a host that is
# itself a VM that first touch is slow: without this, whichever tool first
# uses a given range of guest memory (the 1 GiB rows) pays for it.
crbench floor 1536 1 > /dev/null || failed "warm-up failed"
# The sparse case: a 64 GiB mapping, 1 MiB written one page every 256 MiB.
sparse() {
	echo "bench: sparse (64 GiB mapping, 1 MiB written)" >&2
	crbench engine 1 "$1" 64 >> $out || failed "sparse failed"
}
did_sparse=
for mib in $sizes; do
	# Small cases take milliseconds and move the most: three times the runs.
	n=$reps
	[ "$mib" -le 16 ] && n=$((reps * 3))
	echo "bench: $mib MiB, $n runs" >&2
	crbench floor "$mib" "$n" >> $out || failed "floor $mib failed"
	crbench engine "$mib" "$n" >> $out || failed "engine $mib failed"
	# right after the dense 1 MiB runs, in the same conditions
	[ "$mib" = 1 ] && sparse "$n" && did_sparse=1
	crbench criu "$mib" "$n" /mnt/host/criu-stats >> $out || failed "criu $mib failed"
done
[ -n "$did_sparse" ] || sparse $((reps * 3))
# One 1 MiB process with 1, 8 and 64 threads, both tools in turn.
for t in 1 8 64; do
	echo "bench: 1 MiB, $t threads, $((reps * 3)) runs" >&2
	crbench engine 1 $((reps * 3)) 0 $t >> $out || failed "engine $t threads failed"
	crbench criu 1 $((reps * 3)) /mnt/host/criu-stats $t >> $out ||
		failed "criu $t threads failed"
done
# A tree of 1, 10 and 100 processes of 1 MiB each, both tools in turn.
for p in 1 10 100; do
	n=$((reps * 3))
	[ "$p" -ge 100 ] && n=$reps
	echo "bench: tree of $p processes of 1 MiB, $n runs" >&2
	crbench engine 1 $n 0 1 $p >> $out || failed "engine tree of $p failed"
	crbench criu 1 $n /mnt/host/criu-stats 1 $p >> $out ||
		failed "criu tree of $p failed"
done
# Scaling: one 1 MiB process with more VMAs, then more open files.
scale() { # VAR N WHAT
	echo "bench: 1 MiB with $2 more $3, $reps runs" >&2
	env "$1=$2" crbench engine 1 "$reps" >> $out || failed "engine $2 $3 failed"
	env "$1=$2" crbench criu 1 "$reps" /mnt/host/criu-stats >> $out ||
		failed "criu $2 $3 failed"
}
for v in 100 1000 10000; do scale WORKLOAD_VMAS $v VMAs; done
for f in 10 1000 10000; do scale WORKLOAD_FILES $f "open files"; done
cat $out
