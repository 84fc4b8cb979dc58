#!/bin/sh
# Images kept in kernel memory, the way a user in a QEMU shell works:
# echo $PID > checkpoint, cat checkpoint, images/<crid>, images_list,
# echo $CRID > restart (twice: two copies), the budget (ENOSPC), drop,
# 100 kept images, and the switch freeing them all.
. /tests/lib/tap.sh
tap_plan 34
D=/sys/kernel/debug/checkpoint
echo 1 > $D/enable
# The test's own files go to $W: the image saves the mtime of the
# target's cwd (/tmp), and a file created there between two checkpoints
# would change it.
W=/tmp/kept.d
rm -rf $W
mkdir $W
cd /tmp

stopped() { grep -q '^State:.*T (stopped)' "/proc/$1/status"; }
# the images_list total: "<images> <bytes>"
total() { awk '$1 == "total" { print $2, $3 }' $D/images_list; }
rows() { awk 'NR > 1 && $1 != "total"' $D/images_list | wc -l; }
shmem_kib() { awk '$1 == "Shmem:" { print $2 }' /proc/meminfo; }
# a ticker counting into kept.out, stopped: its pid in $pid
start_ticker() {
	rm -f kept.out kept.out.ready
	ticker /tmp/kept.out </dev/null >/dev/null 2>&1 &
	pid=$!
	wait_until 30 test -e kept.out.ready
	kill -STOP $pid
	wait_until 10 stopped $pid
}

tap_is "$(total)" "0 0" "nothing is kept after boot (images_list: total 0 0)"

start_ticker

# 1. echo $PID > checkpoint; cat checkpoint
echo $pid > $D/checkpoint
tap_ok $? "echo $pid > checkpoint: checkpointed into kernel memory"
crid=$(cat $D/checkpoint)
case $crid in '' | *[!0-9]*) false ;; *) true ;; esac
tap_ok $? "cat checkpoint (another open file): the newest kept crid ($crid)"
held=$(wc -l < kept.out)

# 2. images/<crid>: the stream, byte for byte as the fd form writes it
size=$(stat -c %s $D/images/$crid 2>/dev/null)
row=$(awk -v c="$crid" '$1 == c { print $2, $3, $4 }' $D/images_list)
tap_is "$row" "$pid ticker $size" "images_list: crid $crid, pid, comm, bytes as ls -l shows"
cat $D/images/$crid > $W/kept.img
tap_is "$(stat -c %s $W/kept.img)" "$size" "cat images/$crid gives $size bytes"
ckpt $pid -o $W/kept.fd.img > /dev/null
fd_crid=$?
# the header's time (bytes 41-48) and crid (49-52) differ, nothing else
diff=$(cmp -l $W/kept.img $W/kept.fd.img 2>&1 | awk '!($1 >= 41 && $1 <= 52)' | head -3)
[ $fd_crid = 0 ] && [ "$(stat -c %s $W/kept.fd.img)" = "$size" ] && [ -z "$diff" ]
tap_ok $? "it equals the fd form's image of the same stopped task but for crid and time (${diff:-same})"
ckptinfo $D/images/$crid > $W/kept.info 2>&1
tap_ok $? "ckptinfo reads images/$crid and validates it"
grep -q "ticker" $W/kept.info
tap_ok $? "ckptinfo shows the task (ticker)"
# the file is there (root read it above), and nobody cannot read it
su nobody -s /bin/sh -c "cat $D/images/$crid" > /dev/null 2>&1
rc=$?
[ -s $D/images/$crid ] && [ $rc != 0 ]
tap_ok $? "a non-root user cannot read images/$crid"

# 3. restart by crid, twice: two independent copies count on
kill -9 $pid
wait $pid 2>/dev/null
sh -c "exec 2>/dev/null; echo $crid > $D/restart" &
c1=$!
sh -c "exec 2>/dev/null; echo $crid > $D/restart" &
c2=$!
# and rstr -i images/<crid>: an open kept image restarts as the kept one
rstr -i $D/images/$crid 2>/dev/null &
c3=$!
# and the system call: restart(crid, -1, RESTART_KEPT)
keptsys restart $crid 2>/dev/null &
c4=$!
ticked() { grep -q " $1\$" kept.out; }
wait_until 60 ticked $c1
wait_until 60 ticked $c2
wait_until 60 ticked $c3
wait_until 60 ticked $c4
sleep 0.3
# Each copy counts on from the saved count: its first line is held + 1,
# or held + 2 when the original was stopped after dprintf() formatted line
# held + 1 (with getpid(): the original's pid) and before its write(): then
# each copy first writes that line, the original's pid in it.
for c in $c1 $c2 $c3 $c4; do
	seq=$(awk -v p=$c '$2 == p { print $1 }' kept.out | head -5 | tr '\n' ' ')
	first=${seq%% *}
	[ -n "$first" ] && { [ "$first" = $((held + 1)) ] ||
		{ [ "$first" = $((held + 2)) ] && grep -q "^$((held + 1)) $pid\$" kept.out; }; } &&
		[ "$seq" = "$first $((first + 1)) $((first + 2)) $((first + 3)) $((first + 4)) " ]
	tap_ok $? "copy $c (echo $crid > restart twice, rstr -i images/$crid, restart(2)) counts on from the saved $held: $seq"
done
tap_is "$(rows)" 1 "the image stays kept after its restarts"
kill -9 $c1 $c2 $c3 $c4
wait 2>/dev/null

# errors
echo 999999 > $D/restart 2> $W/kept.err
tap_ok $(( $? == 0 )) "restart of a crid not kept fails ($(cat $W/kept.err))"
grep -q 'No such file' $W/kept.err
tap_ok $? "with ENOENT"
echo 0 > $D/restart 2> $W/kept.err
grep -q 'Invalid argument' $W/kept.err
tap_ok $? "restart of crid 0 with no fd: EINVAL"

# 4. the budget: nothing partial kept
start_ticker
before=$(total)
max=$(cat $D/images_max_bytes)
echo $((${before#* } + 8192)) > $D/images_max_bytes
echo $pid > $D/checkpoint 2> $W/kept.err
rc=$?
echo $max > $D/images_max_bytes
grep -q 'No space left' $W/kept.err
tap_ok $(( rc == 0 || $? )) "past images_max_bytes: ENOSPC ($(cat $W/kept.err))"
grep -q 'refused image: kept images would exceed images_max_bytes' $D/stats
tap_ok $? "the stats name the reason"
tap_is "$(total)" "$before" "nothing of it is kept or counted"

# the system call keeps an image too: checkpoint(pid, -1, CHECKPOINT_KEPT)
sys_crid=$(keptsys checkpoint $pid)
tap_ok $? "checkpoint(2) with CHECKPOINT_KEPT returns crid $sys_crid"
[ -s $D/images/$sys_crid ]
tap_ok $? "and keeps images/$sys_crid"
echo $sys_crid > $D/drop
k_crid=$(ckpt -k $pid 2>/dev/null)
[ -n "$k_crid" ] && [ -s $D/images/$k_crid ]
tap_ok $? "ckpt -k $pid keeps images/$k_crid and prints its crid"
echo $k_crid > $D/drop

# 5. 100 kept images
i=0
while [ $i -lt 100 ] && echo $pid > $D/checkpoint; do i=$((i + 1)); done
tap_is "$(rows)" 101 "100 more checkpoints: 101 rows in images_list"
tap_is "$(ls $D/images | wc -l)" 101 "and 101 files in images/"
sum=$(stat -c %s $D/images/* | awk '{ s += $1 } END { print s }')
tap_is "$(total)" "101 $sum" "the total is the sum of their sizes"
echo all > $D/drop
tap_is "$(total) $(ls $D/images | wc -l)" "0 0 0" "echo all > drop frees them all"

# 6. a process tree kept, restarted by rstr -i images/<crid>
kill -9 $pid
wait $pid 2>/dev/null
mkdir -p $W/tree
tree $W/tree wait </dev/null >/dev/null 2>&1 &
root=$!
wait_until 30 test -s $W/tree/child
child=$(cat $W/tree/child)
kill -STOP $root $child
wait_until 10 stopped $root
wait_until 10 stopped $child
echo $root > $D/checkpoint
crid=$(cat $D/checkpoint)
kill -9 $root $child
wait $root 2>/dev/null
wait_until 10 eval "! test -e /proc/$child"
rstr -i $D/images/$crid 2> $W/rstr.txt &
rstr=$!
wait_until 30 test -e /proc/$child
sleep 0.3
grep -q "restarted a tree of 2 processes and threads, root pid $root" $W/rstr.txt
tap_ok $? "a tree kept: rstr -i images/$crid restarts it under its pids ($(cat $W/rstr.txt))"
touch $W/tree/go
wait_until 30 test -s $W/tree/result
tap_is "$(cat $W/tree/result)" "$child 10752" "the restarted parent reaps its restarted child's exit 42"
kill -9 $root
wait $rstr 2>/dev/null
echo all > $D/drop

# 7. the memory comes back on drop
rm -f hog.ready hog.go
memhog /tmp/hog.ready /tmp/hog.go /tmp/hog.out 64 </dev/null >/dev/null 2>&1 &
pid=$!
wait_until 120 test -e hog.ready
kill -STOP $pid
wait_until 10 stopped $pid
s0=$(shmem_kib)
echo $pid > $D/checkpoint
crid=$(cat $D/checkpoint)
s1=$(shmem_kib)
[ $((s1 - s0)) -gt 40000 ]
tap_ok $? "a 64 MiB process kept: Shmem grows by $((s1 - s0)) KiB"
echo $crid > $D/drop
s2=$(shmem_kib)
[ $((s1 - s2)) -gt 40000 ] && [ "$(total)" = "0 0" ]
tap_ok $? "echo $crid > drop: Shmem shrinks by $((s1 - s2)) KiB, total 0 0"

# charged to the memory cgroup of the task that wrote it
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
cg=/sys/fs/cgroup/kept
if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $cg
	m0=$(cat $cg/memory.current)
	sh -c "echo \$\$ > $cg/cgroup.procs; echo $pid > $D/checkpoint"
	m1=$(cat $cg/memory.current)
	[ $((m1 - m0)) -gt 40000000 ]
	tap_ok $? "a 64 MiB image is charged to the writer's memory cgroup ($(((m1 - m0) / 1024)) KiB)"
	echo all > $D/drop
	rmdir $cg
else
	tap_ok 0 "charged to the writer's memory cgroup # SKIP no memory controller in this kernel"
fi

# 8. the switch turned off frees what is kept
echo $pid > $D/checkpoint && echo $pid > $D/checkpoint
tap_is "$(rows)" 2 "two images kept"
echo 0 > $D/enable
echo 1 > $D/enable
tap_is "$(total) $(ls $D/images | wc -l)" "0 0 0" "switch off and on: none kept"
kill -9 $pid
wait $pid 2>/dev/null
echo 0 > $D/enable
rm -rf $W
tap_done
