#!/bin/sh
# A target frozen with the cgroup v2 freezer (instead of stopped) is
# checkpointed; thawed, the original runs on; the image restarts.
. /tests/lib/tap.sh
tap_plan 5
echo 1 > /sys/kernel/debug/checkpoint/enable
mkdir -p /sys/fs/cgroup
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
cg=/sys/fs/cgroup/crfreeze
mkdir -p $cg
cd /tmp
rm -f freeze.out freeze.out.ready
counter /tmp/freeze.out 100000 5000 </dev/null >/dev/null 2>&1 &
pid=$!
echo $pid > $cg/cgroup.procs
wait_until 30 test -e freeze.out.ready
echo 1 > $cg/cgroup.freeze
n=0
while ! grep -q '^frozen 1' $cg/cgroup.events && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
grep -q '^frozen 1' $cg/cgroup.events
tap_ok $? "the counter's cgroup is frozen"
ckpt $pid -o /tmp/freeze.img 2>/tmp/freeze.err
tap_ok $? "checkpoint of the frozen task ($(cat /tmp/freeze.err))"
echo 0 > $cg/cgroup.freeze
before=$(wc -l < freeze.out)
sleep 0.5
[ "$(wc -l < freeze.out)" -gt "$before" ]
tap_ok $? "thawed, the original counts on"
kill -9 $pid
wait $pid 2>/dev/null
sh -c 'echo $$ > /tmp/freeze.rpid; exec rstr -i /tmp/freeze.img' &
sleep 1
before=$(wc -l < freeze.out)
sleep 0.5
[ "$(wc -l < freeze.out)" -gt "$before" ]
tap_ok $? "the image restarts and counts on"
kill -9 "$(cat /tmp/freeze.rpid)"
wait 2>/dev/null
rmdir $cg
tap_ok $? "the cgroup is left empty and removed"
echo 0 > /sys/kernel/debug/checkpoint/enable
tap_done
