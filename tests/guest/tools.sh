#!/bin/sh
# ckpt and rstr as users meet them: usage, --help, and failures that name
# the errno and what to check.
. /tests/lib/tap.sh
ctl=/sys/kernel/debug/checkpoint
tap_plan 8
cd /tmp
echo 0 > $ctl/enable

ckpt --help > help.txt 2>&1
tap_ok $? "ckpt --help exits 0"
grep -q "usage: ckpt PID" help.txt
tap_ok $? "and prints the usage"
ckpt > /dev/null 2>&1
tap_is $? 2 "ckpt without a pid is a usage error (exit 2)"

ckpt 1 -o tools.img 2> err.txt
rc=$?
grep -q "ENODEV" err.txt && grep -q "echo 1 > $ctl/enable" err.txt && [ $rc = 1 ] && [ ! -e tools.img ]
tap_ok $? "engine off: ckpt names ENODEV, says how to turn it on, leaves no file"
[ "$_tap_failed" = 0 ] || sed 's/^/# /' err.txt

echo 1 > $ctl/enable
ckpt 999999 -o tools.img 2> err.txt
grep -q "ESRCH" err.txt && grep -q "is the pid right" err.txt
tap_ok $? "no such pid: ckpt names ESRCH ($(cat err.txt))"
sleep 100 </dev/null >/dev/null 2>&1 &
ckpt $! -o tools.img 2> err.txt
grep -q "EBUSY" err.txt && grep -q "kill -STOP" err.txt
tap_ok $? "running target: ckpt names EBUSY and says to stop it"
kill $!

rstr -i /nonexistent 2> err.txt
tap_is $? 1 "rstr of a missing file exits 1 ($(cat err.txt))"
: > empty.img
rstr -i empty.img 2> err.txt
grep -q "EIO" err.txt && grep -q "truncated" err.txt
tap_ok $? "rstr of an empty image names EIO ($(cat err.txt))"
echo 0 > $ctl/enable
tap_done
