#!/bin/sh
# One trace event per image record: the events captured around a
# checkpoint (trace-capture: trace-cmd start/extract) show exactly the
# image's records (same offsets, types, lengths and objrefs, in order, as
# ckptinfo --records lists them), and "trace-cmd record" around a restart
# one read event per record; the end events carry the image's byte count
# (tracepoints/check-trace.sh).
. /tests/lib/tap.sh
ctl=/sys/kernel/debug/checkpoint
tap_plan 10
echo 1 > $ctl/enable
cd /tmp
rm -f tr.out.ready
counter /tmp/tr.out 100000 5000 </dev/null >/dev/null 2>&1 &
pid=$!
wait_until 30 test -e tr.out.ready
kill -STOP $pid
wait_until 30 grep -q '^State:.*stopped' /proc/$pid/status

trace-capture ckpt.dat ckpt $pid -o tr.img > /dev/null 2>&1
tap_ok $? "trace-capture (trace-cmd start/extract) around ckpt"

ckptinfo tr.img > info.txt
tap_ok $? "ckptinfo finds the image valid ($(grep '^total' info.txt))"
stat() { sed -n "s/^$1 //p" $ctl/stats; }
pages=$(sed -n 's/^total: .* records, \([0-9]*\) pages.*/\1/p' info.txt)
[ "$(stat checkpoint.result)" = 0 ] && [ "$(stat checkpoint.bytes)" = "$(wc -c < tr.img)" ] &&
	[ "$(stat checkpoint.pages_written)" = "$pages" ] && [ "$(stat checkpoint.pages_scanned)" -ge "$pages" ]
tap_ok $? "stats: checkpoint result 0, bytes and pages_written as in the image ($pages pages), pages_scanned >= written"
check-trace ckpt.dat tr.img > check.txt
tap_ok $? "write events = image records, field for field ($(cat check.txt | tail -n 1))" ||
	sed 's/^/# /' check.txt
# a trace without the checkpoint's events proves nothing: check-trace fails
trace-capture none.dat true > /dev/null 2>&1
check-trace none.dat tr.img > check.txt
tap_is $? 1 "a trace with no checkpoint event fails check-trace ($(tail -n 1 check.txt))"

# The same stopped task checkpointed into kernel memory: the events carry
# its crid, and their offsets are the ones the fd form wrote (tr.img).
trace-capture kept.dat sh -c "echo $pid > $ctl/checkpoint" > /dev/null 2>&1
crid=$(cat $ctl/checkpoint)
check-trace kept.dat tr.img > check.txt
tap_ok $? "echo PID > checkpoint: its write events are tr.img's records, pos for pos ($(tail -n 1 check.txt))" ||
	sed 's/^/# /' check.txt
trace-cmd report -i kept.dat 2>/dev/null | grep ' ckpt_record_write: ' > kept.txt
n=$(wc -l < kept.txt)
bad=$(grep -vc " crid=$crid pid=$pid " kept.txt)
[ "$n" -gt 0 ] && [ "$bad" = 0 ]
tap_ok $? "each of its $n write events carries crid=$crid and pid=$pid ($bad do not)"
echo "$crid" > $ctl/drop
kill -9 $pid

# The restarted counter keeps the pid of the shell that became it.
rm -f rstr.pid
trace-cmd record -q -e checkpoint -o rstr.dat \
	sh -c 'echo $$ > /tmp/rstr.pid; exec rstr -i /tmp/tr.img' > /dev/null 2>&1 &
wait_until 30 test -s rstr.pid
sleep 2
kill -9 "$(cat rstr.pid)"
wait
# A restart takes time, but a kernel whose TSC could not be calibrated (a
# loaded TCG host) counts in 4 ms jiffies, and then it may measure 0.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
min=1
[ "$cs" = tsc ] || { min=0; tap_diag "clocksource ${cs:-unknown}: times under a tick read 0"; }
[ "$(stat restart.result)" = 0 ] && [ "$(stat restart.pages_restored)" = "$pages" ] &&
	[ "$(stat restart.bytes)" = "$(wc -c < tr.img)" ] && [ "$(stat restart.time_us)" -ge $min ]
tap_ok $? "stats: restart result 0, pages_restored and bytes as in the image" || sed 's/^/# /' $ctl/stats
check-trace --read rstr.dat tr.img > check.txt
tap_ok $? "restart: one read event per image record, and restart_end's bytes ($(tail -n 1 check.txt))" ||
	sed 's/^/# /' check.txt
# every record type of <linux/checkpoint_hdr.h> (CKPT_HDR_*, kept in step
# with it) has its name in the events' format, not a bare number
fmt=/sys/kernel/tracing/events/checkpoint/ckpt_record_write/format
missing=
for t in HEADER ARCH TAIL TREE TASK CPU XSTATE SIGNAL CREDS RLIMITS FS SIGPENDING \
	ITIMERS PROCESS POSIX_TIMERS MM VMA PAGES SHMEM GHOST FILE FD PIPE EVENTFD \
	SIGNALFD TIMERFD EPOLL EPOLL_ITEMS LOCK UNIX_PAIR UNIX_SOCK INET_SOCK; do
	grep -q "\"$t\"" $fmt || missing="$missing $t"
done
[ -z "$missing" ] && grep -q "print fmt" $fmt
tap_ok $? "every record type is named in the events' format (missing:${missing:- none})"
echo 0 > $ctl/enable
tap_done
