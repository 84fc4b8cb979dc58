#!/bin/sh
# Prove the one-to-one match between the checkpoint trace events of one
# operation and the records of its image: same count, order, offsets,
# types, lengths and objrefs; and the end event's byte count is the
# image's size.
#
# Usage: tracepoints/check-trace.sh [--read] TRACE.dat IMAGE
#   --read  check ckpt_record_read events (a restart) instead of writes
# Needs trace-cmd and ckptinfo on PATH (both are in the guest image).
# Exit 0: they match; 1: they do not (the differences are printed);
# 2: usage or a tool failed.
set -u
event=ckpt_record_write end=checkpoint_end
if [ "${1:-}" = --read ]; then
	event=ckpt_record_read end=restart_end
	shift
fi
[ $# = 2 ] || { echo "usage: check-trace.sh [--read] TRACE.dat IMAGE" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

trace-cmd report -i "$1" > "$tmp/report" 2>/dev/null ||
	{ echo "check-trace: trace-cmd report -i $1 failed" >&2; exit 2; }
ckptinfo --records "$2" > "$tmp/records" ||
	{ echo "check-trace: ckptinfo: $2 is not a valid image" >&2; exit 2; }

# Both as "pos type(n) len objref"
sed -n "s/.* $event: .*type=\([A-Z]*([0-9]*)\) len=\([0-9]*\) objref=\([0-9]*\) pos=\([0-9]*\).*/\4 \1 \2 \3/p" \
	"$tmp/report" > "$tmp/events"
sed -n 's/^pos=\([0-9]*\) type=\([A-Z]*([0-9]*)\) len=\([0-9]*\) objref=\([0-9]*\)$/\1 \2 \3 \4/p' \
	"$tmp/records" > "$tmp/image"

status=0
# nothing against nothing is not a match: the trace or the parsing failed
if [ ! -s "$tmp/image" ] || [ ! -s "$tmp/events" ]; then
	echo "check-trace: $(wc -l < "$tmp/events") $event events, $(wc -l < "$tmp/image") image records parsed: an empty side proves nothing"
	exit 1
fi
if ! cmp -s "$tmp/events" "$tmp/image"; then
	echo "check-trace: $event events ($(wc -l < "$tmp/events")) differ from the image's records ($(wc -l < "$tmp/image")):"
	diff "$tmp/events" "$tmp/image" | head -n 20
	status=1
fi
size=$(wc -c < "$2")
bytes=$(sed -n "s/.* $end: .*ret=0 bytes=\([0-9]*\).*/\1/p" "$tmp/report" | tail -n 1)
if [ "$bytes" != "$size" ]; then
	echo "check-trace: $end says ${bytes:-nothing} bytes, the image has $size"
	status=1
fi
[ $status = 0 ] && echo "check-trace: $(wc -l < "$tmp/events") $event events = $(wc -l < "$tmp/image") image records; $end bytes=$size"
exit $status
