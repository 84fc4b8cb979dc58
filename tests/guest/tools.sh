#!/bin/sh
# ckpt and rstr as users meet them: usage, --help, and failures that name
# the errno and what to check.
. /tests/lib/tap.sh
ctl=/sys/kernel/debug/checkpoint
tap_plan 19
cd /tmp
echo 0 > $ctl/enable

ckpt --help > help.txt 2>&1
tap_ok $? "ckpt --help exits 0"
grep -q "usage: ckpt PID" help.txt
tap_ok $? "and prints the usage"
ckpt > /dev/null 2>&1
tap_is $? 2 "ckpt without a pid is a usage error (exit 2)"
grep -q "^-k, --keep: keep the image in kernel memory" help.txt
tap_ok $? "ckpt --help explains -k (keep the image in kernel memory)"
ckpt 1 -k -o tools.img 2> err.txt
rc=$?
[ $rc = 2 ] && grep -q "one or the other" err.txt && [ ! -e tools.img ]
tap_ok $? "ckpt -k with -o: a usage error (exit $rc: $(cat err.txt))"

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
# a stopped target holding the deleted name of a file still linked under
# another: the engine's own reason follows the errno
echo x > tools.del
ln tools.del tools.link
/tests/counter /tmp/tools.count 100000 5000 3<tools.del </dev/null >/dev/null 2>&1 &
pid=$!
wait_until 30 test -e /tmp/tools.count.ready	# it has the file open
rm -f tools.del
kill -STOP $pid
wait_until 30 grep -q '^State:.*stopped' /proc/$pid/status
ckpt $pid -o tools.img 2> err.txt
rm -f tools.link
grep -q "EOPNOTSUPP" err.txt && grep -q "ckpt: the engine says: file: /tmp/tools.del (deleted): deleted name of a file still linked under another name (-95)" err.txt
tap_ok $? "a refusal: ckpt names EOPNOTSUPP and the engine's reason ($(tr '\n' ' ' < err.txt))"
kill -9 $pid

# A failed checkpoint keeps the image it would have replaced; a restart
# whose file is gone says which errno and what it means.
/tests/counter /tmp/tools.count2 100000 5000 </dev/null >/dev/null 2>&1 &
pid=$!
wait_until 30 test -e /tmp/tools.count2.ready
kill -STOP $pid
wait_until 30 grep -q '^State:.*stopped' /proc/$pid/status
ckpt $pid -o good.img 2> err.txt && cp good.img good.copy
kill -CONT $pid
ckpt $pid -o good.img 2> err.txt
rc=$?
cmp -s good.img good.copy && [ $rc = 1 ] && [ -z "$(ls good.img.* 2>/dev/null)" ]
tap_ok $? "a failed checkpoint (EBUSY) leaves the image it would have replaced as it was, no temporary file"
kill -9 $pid
rm -f /tmp/tools.count2
rstr -i good.img 2> err.txt
grep -q "ENOENT" err.txt && grep -q "a file the image names is missing" err.txt
tap_ok $? "a file the image names is gone: rstr names ENOENT and says so ($(grep 'restart failed' err.txt))"
head -n 1 err.txt | grep -q "^rstr: restarting process $pid in place, as pid [0-9]* (this process)$"
tap_ok $? "a lone process: rstr first says it restarts it in place ($(head -n 1 err.txt))"

rstr -i /nonexistent 2> err.txt
tap_is $? 1 "rstr of a missing file exits 1 ($(cat err.txt))"
: > empty.img
rstr -i empty.img 2> err.txt
grep -q "EIO" err.txt && grep -q "truncated" err.txt
tap_ok $? "rstr of an empty image names EIO ($(cat err.txt))"

# A multi-threaded process: rstr gives it its pid back, in a child it waits for.
threads /tmp/tools-threads.out count </dev/null >/dev/null 2>&1 &
pid=$!
n=0
while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 9 ] && [ $n -lt 600 ]; do
	sleep 0.1; n=$((n + 1))
done
kill -STOP $pid
n=0
until ckpt $pid -o threads.img 2> err.txt || [ $n -ge 50 ]; do
	sleep 0.1; n=$((n + 1))	# a thread still on its way to the stop: EBUSY
done
kill -9 $pid
wait $pid 2>/dev/null
rstr -i threads.img 2> rstr.txt &
rstr=$!
n=0
while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 9 ] && [ $n -lt 300 ]; do
	sleep 0.1; n=$((n + 1))
done
[ "$(ls /proc/$pid/task | wc -l)" = 9 ] && grep -q "restarting pid $pid;" rstr.txt
tap_ok $? "rstr restarts a process of 9 threads under its pid $pid ($(cat rstr.txt))"
kill -9 $pid
wait $rstr
tap_is $? 137 "and exits with its status when it dies (128 + SIGKILL)"

# A process tree, as a user does it: ckpt the root, rstr < image (stdin).
mkdir -p /tmp/tools-tree
tree /tmp/tools-tree wait </dev/null >/dev/null 2>&1 &
root=$!
n=0
while [ ! -e /tmp/tools-tree/child ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
child=$(cat /tmp/tools-tree/child)
kill -STOP $root $child
n=0
until ckpt $root -o tree.img 2> err.txt || [ $n -ge 50 ]; do
	sleep 0.1; n=$((n + 1))
done
kill -9 $root $child
wait $root 2>/dev/null
sleep 0.5
rstr < tree.img 2> rstr.txt &
rstr=$!
n=0
while [ ! -e /proc/$child ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
sleep 0.3
grep -q "restarted a tree of 2 processes and threads, root pid $root" rstr.txt &&
	[ -e /proc/$root ] && [ -e /proc/$child ]
tap_ok $? "rstr < tree.img restarts the tree under its pids and says so ($(cat rstr.txt))"
touch /tmp/tools-tree/go
n=0
while [ ! -e /tmp/tools-tree/result ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
[ "$(cat /tmp/tools-tree/result)" = "$child 10752" ]
tap_ok $? "the restarted parent reaps its restarted child's exit 42 ($(cat /tmp/tools-tree/result))"
kill -9 $root
wait $rstr
tap_is $? 137 "rstr exits with the root's status (128 + SIGKILL)"
echo 0 > $ctl/enable
tap_done
