#!/bin/sh
# The image is a stream: checkpoint into a pipe and restart from a pipe;
# checkpoint onto and restart from a 9p file (the guest's control share),
# whose file system moves the iterator its own way.
. /tests/lib/tap.sh
tap_plan 5
echo 1 > /sys/kernel/debug/checkpoint/enable
cd /tmp
start_counter() {
	rm -f /tmp/stream.out.ready
	counter /tmp/stream.out 100000 5000 </dev/null >/dev/null 2>&1 &
	pid=$!
	wait_until 30 test -e /tmp/stream.out.ready
	kill -STOP $pid
	wait_until 30 grep -q '^State:.*stopped' /proc/$pid/status
}
# Restart from the image at $1, check that the restarted counter counts
# on (the original is dead: new lines are the restarted one's; up to 30 s
# for a slow restart on a loaded host), kill it.
counts_on() {
	n=$(wc -l < /tmp/stream.out)
	sh -c "echo \$\$ > /tmp/stream.rpid; exec rstr -i $1" &
	r=1
	for i in $(seq 300); do
		[ "$(wc -l < /tmp/stream.out)" -gt "$n" ] && { r=0; break; }
		sleep 0.1
	done
	kill -9 "$(cat /tmp/stream.rpid)" 2>/dev/null
	wait 2>/dev/null
	return $r
}

start_counter
# ckpt's own status, not cat's (the shell has no pipefail)
{ timeout 60 ckpt $pid 2>/dev/null; echo $? > /tmp/pipe.rc; } | cat > /tmp/pipe.img
[ "$(cat /tmp/pipe.rc)" = 0 ] && ckptinfo /tmp/pipe.img > /dev/null
tap_ok $? "checkpoint into a pipe: ckpt exits 0, a valid image ($(wc -c < /tmp/pipe.img) bytes)"
kill -9 $pid
rm -f /tmp/img.fifo
mkfifo /tmp/img.fifo
cat /tmp/pipe.img > /tmp/img.fifo &
counts_on /tmp/img.fifo
tap_ok $? "restart from a pipe (a FIFO fed by cat): the counter counts on"

start_counter
timeout 60 ckpt $pid -o /mnt/ctl/stream.img 2>/dev/null
tap_ok $? "checkpoint onto 9p completes"
kill -9 $pid
size=$(wc -c < /mnt/ctl/stream.img)
ckptinfo /mnt/ctl/stream.img > /dev/null && [ "$size" -lt 10000000 ]
tap_ok $? "the 9p image is valid, $size bytes"
counts_on /mnt/ctl/stream.img
tap_ok $? "restart from the 9p file: the counter counts on"
rm -f /mnt/ctl/stream.img
echo 0 > /sys/kernel/debug/checkpoint/enable
tap_done
