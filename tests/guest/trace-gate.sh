#!/bin/sh
# The checkpoint trace system: its events exist in tracefs, and
# trace-cmd (trace-capture) captures the begin and end of operations that the engine
# refuses (no such pid: ESRCH, -3; unknown flags: EINVAL, -22).
. /tests/lib/tap.sh
ctl=/sys/kernel/debug/checkpoint
events=/sys/kernel/tracing/events/checkpoint
tap_plan 6

missing=
for e in checkpoint_begin checkpoint_end restart_begin restart_end \
	ckpt_record_write ckpt_record_read ckpt_refuse; do
	[ -d "$events/$e" ] || missing="$missing $e"
done
tap_is "$missing" "" "tracefs has every checkpoint event"

echo 1 > $ctl/enable
trace-capture /tmp/gate.dat sh -c "
	echo \$\$ > /tmp/gate.pid
	echo '999999 1' > $ctl/checkpoint
	echo '7 0 0x4' > $ctl/restart
	true" > /tmp/gate.record 2>&1
tap_ok $? "trace-capture (trace-cmd start/extract) around two refused operations"
echo 0 > $ctl/enable
pid=$(cat /tmp/gate.pid)
trace-cmd report -i /tmp/gate.dat > /tmp/gate.report 2>&1
grep -q "sh-$pid .*checkpoint_begin: *pid=999999 fd=1 flags=0x0" /tmp/gate.report
tap_ok $? "report shows checkpoint_begin pid=999999 fd=1 from sh-$pid"
grep -Eq "checkpoint_end: *crid=[0-9]+ ret=-3 bytes=0" /tmp/gate.report
tap_ok $? "report shows checkpoint_end ret=-3 (ESRCH)"
grep -q "restart_begin: *crid=7 fd=0 flags=0x4" /tmp/gate.report
tap_ok $? "report shows restart_begin crid=7 fd=0 flags=0x4"
grep -q "restart_end: *crid=7 ret=-22 bytes=0" /tmp/gate.report
tap_ok $? "report shows restart_end crid=7 ret=-22 (EINVAL)"
[ "$_tap_failed" = 0 ] || { tap_diag "trace-cmd report:"; sed 's/^/# /' /tmp/gate.report | head -n 30; }
tap_done
