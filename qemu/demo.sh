#!/bin/sh
# The guest side of "make run": show what this kernel offers.
# Until the engine lands, that is the gated interface: switch off ->
# refused, switch on -> the request reaches the engine (a stub).
ctl=/sys/kernel/debug/checkpoint
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }

say "the control files"
run "uname -r; ls -l $ctl"
say "the switch is off at boot: requests are refused with ENODEV"
run "cat $ctl/enable"
sleep 60 &
pid=$!
kill -STOP $pid
run "echo '$pid 1' > $ctl/checkpoint"
say "turn it on: the request reaches the engine"
run "echo 1 > $ctl/enable; cat $ctl/enable"
run "trace-cmd record -q -e checkpoint -o /tmp/demo.dat sh -c \"echo '$pid 1' > $ctl/checkpoint\""
say "what the checkpoint trace events saw"
run "trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep -E 'checkpoint_(begin|end)'"
say "and what the kernel said"
run "dmesg | grep 'checkpoint:'"
kill -9 $pid
echo 0 > $ctl/enable
