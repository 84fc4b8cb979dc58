#!/bin/sh
# The guest side of "make run": a program counting into a file is stopped,
# checkpointed into kernel memory (echo $PID > checkpoint) while trace-cmd
# captures the checkpoint events (tracepoints/trace-capture.sh), killed,
# and restarted from the kept image (echo $CRID > restart); it counts on
# from where it was. Then a summary of the trace; the image, still kept,
# saved to a file, checked by ckptinfo and dropped.
ctl=/sys/kernel/debug/checkpoint
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# run CMD: show it and its output, indented; its exit status
run() {
	printf '$ %s\n' "$*"
	{ sh -c "$*" 2>&1; echo $? > /tmp/demo.rc; } | sed 's/^/  /'
	return "$(cat /tmp/demo.rc)"
}
# The demo fails (make run fails) when a step it shows does not work.
fail() { printf '\ndemo: FAILED: %s\n' "$*"; echo 0 > $ctl/enable; exit 1; }
# until CMD succeeds, 30 s at most
wait_until() {
	n=600
	until "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || fail "timed out waiting for: $*"
		sleep 0.05
	done
}
stopped() { grep -q '^State:.*stopped' /proc/$1/status; }
lines() { wc -l < /tmp/count.txt; }
cd /tmp

say "turn the engine on (it is off at boot)"
run "cat $ctl/enable; echo 1 > $ctl/enable; cat $ctl/enable"

say "a program counting into a file, one line every 0.1 s"
counter /tmp/count.txt 100000 100000 </dev/null >/dev/null 2>&1 &
pid=$!
sleep 2
run "tail -n 3 /tmp/count.txt"

say "stop it, checkpoint it into kernel memory, trace-cmd capturing (trace-capture)"
kill -STOP $pid
wait_until stopped $pid
run "trace-capture /tmp/demo.dat sh -c 'echo $pid > $ctl/checkpoint'" ||
	fail "the checkpoint did not complete"
run "cat $ctl/checkpoint"
crid=$(cat $ctl/checkpoint)
run "ls -l $ctl/images/; cat $ctl/images_list"
[ -s $ctl/images/$crid ] || fail "no kept image $crid"

say "kill it; the file ends where it was checkpointed"
kill -9 $pid
run "tail -n 2 /tmp/count.txt"

say "restart it from the kept image: it counts on"
before=$(lines)
run "sh -c 'echo $crid > $ctl/restart' & sleep 2; tail -n 4 /tmp/count.txt; kill -9 \$!"
[ "$(lines)" -gt "$before" ] || fail "the restarted program did not count on (restart: $(grep '^restart\.' $ctl/stats | tr '\n' ' '))"

say "what the trace saw: one event per image record"
trace-cmd report -i /tmp/demo.dat 2>/dev/null | awk '
/ckpt_record_write:/ {
	match($0, /type=[A-Z_]+/); t = substr($0, RSTART + 5, RLENGTH - 5)
	match($0, /len=[0-9]+/); len = substr($0, RSTART + 4, RLENGTH - 4)
	if (!(t in n)) order[++types] = t
	n[t]++; b[t] += 16 + int((len + 7) / 8) * 8; recs++; total += 16 + int((len + 7) / 8) * 8
}
/checkpoint_end:/ { sub(/.*checkpoint_end: */, ""); end = $0 }
END {
	for (i = 1; i <= types; i++)
		printf "  %-12s %4d records %10d bytes\n", order[i], n[order[i]], b[order[i]]
	printf "  %-12s %4d records %10d bytes\n  checkpoint_end: %s\n", "total", recs, total, end
}'

say "the image is still kept: save it to a file, check it, drop it"
run "cat $ctl/images/$crid > /tmp/count.img; ckptinfo /tmp/count.img | head -n 4"
run "echo $crid > $ctl/drop; cat $ctl/images_list"
echo 0 > $ctl/enable
