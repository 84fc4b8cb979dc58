#!/bin/sh
# One trace event per image record: trace-cmd record -e checkpoint around
# a checkpoint shows exactly the image's records (same offsets, types,
# lengths and objrefs, in order), and around a restart one read event per
# record; the end events carry the image's byte count.
. /tests/lib/tap.sh
ctl=/sys/kernel/debug/checkpoint
tap_plan 6
echo 1 > $ctl/enable
cd /tmp
rm -f tr.out.ready
counter /tmp/tr.out 100000 5000 </dev/null >/dev/null 2>&1 &
pid=$!
while [ ! -e tr.out.ready ]; do sleep 0.05; done
kill -STOP $pid
while ! grep -q '^State:.*stopped' /proc/$pid/status; do sleep 0.05; done

trace-cmd record -q -e checkpoint -o ckpt.dat ckpt $pid -o tr.img > /dev/null 2>&1
tap_ok $? "trace-cmd record -e checkpoint around ckpt"
kill -9 $pid

# "pos type len objref", from the events and from the image
fields='s/.*type=[A-Z]*(\([0-9]*\)) len=\([0-9]*\) objref=\([0-9]*\) pos=\([0-9]*\).*/\4 \1 \2 \3/p'
trace-cmd report -i ckpt.dat 2>/dev/null > ckpt.report
grep ckpt_record_write ckpt.report | sed -n "$fields" > events.txt
imgwalk tr.img > records.txt
tap_ok $? "the image walks cleanly to its end ($(wc -l < records.txt) records)"
if cmp -s events.txt records.txt; then tap_ok 0 "write events = image records ($(wc -l < events.txt)), field for field"
else tap_ok 1 "write events = image records"; diff events.txt records.txt | head -n 10 | sed 's/^/# /'; fi
size=$(wc -c < tr.img)
grep -q "checkpoint_end: .* ret=0 bytes=$size\$" ckpt.report
tap_ok $? "checkpoint_end reports the image's $size bytes"

# The restarted counter keeps the pid of the shell that became it.
rm -f rstr.pid
trace-cmd record -q -e checkpoint -o rstr.dat \
	sh -c 'echo $$ > /tmp/rstr.pid; exec rstr -i /tmp/tr.img' > /dev/null 2>&1 &
while [ ! -s rstr.pid ]; do sleep 0.05; done
sleep 2
kill -9 "$(cat rstr.pid)"
wait
trace-cmd report -i rstr.dat 2>/dev/null > rstr.report
grep ckpt_record_read rstr.report | sed -n "$fields" > reads.txt
if cmp -s reads.txt records.txt; then tap_ok 0 "restart: one read event per image record ($(wc -l < reads.txt))"
else tap_ok 1 "restart: read events = image records"; diff reads.txt records.txt | head -n 10 | sed 's/^/# /'; fi
grep -q "restart_end: .* ret=0 bytes=$size\$" rstr.report
tap_ok $? "restart_end reports ret=0 and the image's bytes" ||
	grep -E "restart_(begin|end)|CPU|lost" rstr.report | head -n 5 | sed 's/^/# /'

echo 0 > $ctl/enable
tap_done
