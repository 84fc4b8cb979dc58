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
	# each command line's own start and end (musl static tools, criu dynamic)
	echo "fork, exec, exit (median of 21, ms): ckpt --help $(crbench start 21 ckpt --help), rstr --help $(crbench start 21 rstr --help), criu --version $(crbench start 21 criu --version)"
	echo "criu: $(criu --version 2>&1 | head -n 1)"
	echo "$kdat"
} > /mnt/host/guest.txt
# Warm-up, untimed: touch most of the guest's memory once (1.5 GiB three
# times over: the data, the file, the copy). QEMU's guest
# RAM is backed by the host only when first touched, and on a host that is
# itself a VM that first touch is slow: without this, whichever tool first
# uses a given range of guest memory (the 1 GiB rows) pays for it.
crbench floor 1536 1 > /dev/null || failed "warm-up failed"
# Both tools on one workload in turns (engine, CRIU, engine, ...; the
# floor too when t_floor is 1): the machine's slower spells (its host is
# itself a VM; the same 1 MiB checkpoint took 8 to 14 ms in different
# minutes of one boot) fall on both tools, not on whichever ran then.
# Turns of 5 runs for 10 runs or more, else of 2. Each tool's turn begins
# with one run out of the medians (CRBENCH_WARMUP: its line's kind is
# "first-..."): a tool's first run after the other's may be slower (the
# engine's 1 MiB checkpoint 2 to 5 times in one run); the report shows
# those runs apart.
# Usage: turns RUNS WHAT MIB [THREADS [PROCS]]
turns() {
	t_runs=$1 t_what=$2 t_mib=$3 t_first=1 t_size=2
	shift 3
	[ "$t_runs" -ge 10 ] && t_size=5
	while [ $t_first -le $t_runs ]; do
		t_k=$((t_runs - t_first + 1))
		[ $t_k -gt $t_size ] && t_k=$t_size
		if [ "$t_floor" = 1 ]; then
			CRBENCH_FIRST_REP=$t_first crbench floor "$t_mib" $t_k >> $out ||
				{ failed "floor $t_what failed"; return; }
		fi
		CRBENCH_WARMUP=1 CRBENCH_FIRST_REP=$t_first crbench engine "$t_mib" $t_k 0 "$@" >> $out ||
			{ failed "engine $t_what failed"; return; }
		CRBENCH_WARMUP=1 CRBENCH_FIRST_REP=$t_first crbench criu "$t_mib" $t_k /mnt/host/criu-stats "$@" >> $out ||
			{ failed "criu $t_what failed"; return; }
		t_first=$((t_first + t_k))
	done
}
# The sparse case: a 64 GiB mapping, 1 MiB written one page every 256 MiB,
# after the 1 MiB turns, with its own run out of the median first.
sparse() {
	echo "bench: sparse (64 GiB mapping, 1 MiB written)" >&2
	CRBENCH_WARMUP=1 crbench engine 1 "$1" 64 >> $out || failed "sparse failed"
}
t_floor=0
did_sparse=
for mib in $sizes; do
	# Small cases take milliseconds and move the most: three times the runs.
	n=$reps
	[ "$mib" -le 16 ] && n=$((reps * 3))
	echo "bench: $mib MiB, $n runs" >&2
	t_floor=1
	turns "$n" "$mib MiB" "$mib"
	t_floor=0
	[ "$mib" = 1 ] && sparse "$n" && did_sparse=1
done
[ -n "$did_sparse" ] || sparse $((reps * 3))
# One 1 MiB process with 1, 8 and 64 threads.
for t in 1 8 64; do
	echo "bench: 1 MiB, $t threads, $((reps * 3)) runs" >&2
	turns $((reps * 3)) "$t threads" 1 $t
done
# A tree of 1, 10 and 100 processes of 1 MiB each.
for p in 1 10 100; do
	n=$((reps * 3))
	[ "$p" -ge 100 ] && n=$reps
	echo "bench: tree of $p processes of 1 MiB, $n runs" >&2
	turns $n "tree of $p" 1 1 $p
done
# Scaling: one 1 MiB process with more VMAs, then more open files.
scale() { # VAR N WHAT
	echo "bench: 1 MiB with $2 more $3, $reps runs" >&2
	export "$1=$2"
	turns "$reps" "$2 $3" 1
	unset "$1"
}
for v in 100 1000 10000; do scale WORKLOAD_VMAS $v VMAs; done
for f in 10 1000 10000; do scale WORKLOAD_FILES $f "open files"; done
cat $out
