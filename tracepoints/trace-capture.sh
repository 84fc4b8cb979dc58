#!/bin/sh
# Capture the checkpoint trace events of one command into a trace.dat:
#   trace-capture OUT.dat COMMAND [ARG...]
# Exits with COMMAND's status (2 if tracing could not be set up).
#
# trace-cmd start / COMMAND / stop / extract rather than "trace-cmd record
# COMMAND": in a 1-CPU guest, trace-cmd 3.1's record loses every event of a
# command that is over within a few milliseconds (about 1 run in 5: its
# recorder is told to stop before it has read the buffer), and a checkpoint
# is that short. extract reads the ring buffer after the command: nothing
# is lost. Long commands can use "trace-cmd record -e checkpoint" as usual.
set -u
[ $# -ge 2 ] || { echo "usage: trace-capture OUT.dat COMMAND [ARG...]" >&2; exit 2; }
out=$1
shift
trace-cmd reset > /dev/null 2>&1
trace-cmd start -e checkpoint > /dev/null 2>&1 ||
	{ echo "trace-capture: trace-cmd start -e checkpoint failed (tracefs mounted? CONFIG_CHECKPOINT?)" >&2; exit 2; }
"$@"
status=$?
trace-cmd stop > /dev/null 2>&1
trace-cmd extract -o "$out" > /dev/null 2>&1 ||
	{ echo "trace-capture: trace-cmd extract -o $out failed" >&2; status=2; }
trace-cmd reset > /dev/null 2>&1
exit $status
