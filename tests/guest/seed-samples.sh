#!/bin/sh
# The original series' sample programs, built as written (only
# __NR_checkpoint and __NR_restart defined), in its usage.txt scenarios:
#  - test.c runs, is stopped, "ckpt PID > image" (the seed's ckpt.c writes
#    the image to its stdout), killed, "rstr < image" restarts it and it
#    counts on where it stopped;
#  - self.c checkpoints itself to its stdout, is killed, "rstr < image"
#    restarts it: the copy sees "checkpoint ret: 0" and counts on.
# Skipped when the seed documents were not at hand at build time.
. /tests/lib/tap.sh
seed=/tests/seed
out=/tmp/cr-test.out
tap_plan 6
if [ ! -x $seed/ckpt ]; then
	for i in 1 2 3 4 5 6; do echo "ok $i - # SKIP seed samples not built (no seed documents at build time)"; _tap_n=$i; done
	tap_done
fi
echo 1 > /sys/kernel/debug/checkpoint/enable
cd /tmp

# Consecutive "count N" lines, none missing or repeated, from FIRST on.
counts_ok() {
	awk -v first="$1" '/^count / { n = $2 + 0; if (seen && n != last + 1) bad = 1; if (!seen && n > first) bad = 1; last = n; seen = 1 }
		END { exit !(seen && !bad && last >= first) }' $out
}

$seed/test &
pid=$!
wait_until 60 grep -q "^count 1 " $out
kill -STOP $pid
wait_until 30 grep -q '^State:.*stopped' /proc/$pid/status
$seed/ckpt $pid > seed.img
tap_ok $? "seed ckpt.c checkpoints the stopped test.c into its stdout"
last=$(awk '/^count / { n = $2 } END { print n }' $out)
kill -9 $pid
$seed/rstr < seed.img &
rpid=$!
sleep 4
kill -9 $rpid 2>/dev/null
grep -q "^count $((last + 2)) " $out
tap_ok $? "seed rstr.c < image: test.c counts on past count $last"
counts_ok 0
tap_ok $? "the counts run on without a gap or a repeat"

rm -f $out
$seed/self > self.img &
pid=$!
wait_until 60 grep -q "^checkpoint ret: " $out
sleep 0.5
kill -9 $pid
grep -Eq "^checkpoint ret: [1-9][0-9]*$" $out
tap_ok $? "self.c: the original sees a crid ($(grep '^checkpoint ret' $out))"
$seed/rstr < self.img &
rpid=$!
sleep 4
kill -9 $rpid 2>/dev/null
grep -q "^checkpoint ret: 0$" $out
tap_ok $? "self.c restarted by rstr.c sees checkpoint ret: 0"
grep -q "^count 4 " $out
tap_ok $? "and counts on (count 4 reached)"
[ "$_tap_failed" = 0 ] || sed 's/^/# /' $out | tail -n 12
echo 0 > /sys/kernel/debug/checkpoint/enable
tap_done
