#!/bin/sh
# The test runner: host unit tests, then the guest suite in QEMU; prints
# every result and, last, exactly "N passed, M failed".
#
# Usage: tests/run.sh HOST_TEST_DIR [-- RUN_QEMU...]
#   HOST_TEST_DIR  TAP-producing executables run on the host
#   RUN_QEMU       the qemu/run-qemu.sh command line (kernel, image,
#                  memory...) without --cmd: the harness tests boot it,
#                  then it runs "run-tests" in the guest
# Logs: build/logs/*.tap.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
host=$1
shift
[ "${1:-}" = -- ] && shift
logs=$top/build/logs
mkdir -p "$logs"
results=$(mktemp)
status=$(mktemp)
trap 'rm -f "$results" "$status"' EXIT

# collect SUITE STATUSFILE < TAP: print and record each result of one
# stream as it comes; a missing plan, missing results or a failing exit
# status (read from STATUSFILE at the end) are failures.
collect() {
	awk -v suite="$1" -v statusfile="$2" -v out="$results" '
	function res(ok, desc) {
		printf "%s %s: %s\n", ok ? "PASS" : "FAIL", suite, desc >> out
		printf "%s %s: %s\n", ok ? "ok    " : "NOT OK", suite, desc
	}
	/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; next }
	/^(not )?ok / {
		ok = ($1 == "ok"); k++; bad += !ok
		sub(/^(not )?ok [0-9]+ */, ""); sub(/^- */, "")
		if (ok && $0 ~ /# SKIP/) {	# neither passed nor failed
			printf "skip   %s: %s\n", suite, $0
			next
		}
		res(ok, $0); next
	}
	/^Bail out!/ { print suite ": " $0 }
	/^#/ { if ($0 ~ /^# (expected|got|planned|---)/ || !ok) print "        " $0 }
	END {
		status = "?"
		getline status < statusfile
		if (plan == "")
			res(0, "no TAP plan: the run stopped early (exit status " status ")")
		else if (k < plan)
			res(0, (plan - k) " of " plan " planned results missing (exit status " status ")")
		else if (status != 0 && bad == 0)
			res(0, "exited with status " status " though every result passed")
	}'
}

for t in "$host"/*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	name=host/${t##*/}
	{ "$t" 2>&1; echo $? > "$status"; } | tee "$logs/host-${t##*/}.tap" |
		collect "$name" "$status"
done

if [ $# -gt 0 ]; then
	{ "$top/tests/host/harness.sh" "$@" 2>&1; echo $? > "$status"; } |
		tee "$logs/harness.tap" | collect harness "$status"

	echo "guest: booting and running the suite (log: build/logs/guest-tests.tap) ..."
	{ "$@" --cmd run-tests 2> "$logs/guest-tests.err"; echo $? > "$status"; } |
		tee "$logs/guest-tests.tap" | collect guest "$status"
	rc=$(cat "$status")
	case $rc in
	124) why="the guest timed out" ;;
	125) why="the guest crashed or panicked" ;;
	*) why= ;;
	esac
	if [ -n "$why" ]; then
		echo "FAIL guest: $why (console log below)" >> "$results"
		echo "NOT OK guest: $why"
		sed 's/^/        /' "$logs/guest-tests.err"
	fi
fi

passed=$(grep -c '^PASS' "$results")
failed=$(grep -c '^FAIL' "$results")
# nothing run is not a pass
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
	echo "NOT OK run: no result at all (no host test found, no guest run)"
	failed=1
fi
if [ "$failed" != 0 ]; then
	echo "the failures:"
	grep '^FAIL' "$results" | sed 's/^FAIL /NOT OK /'
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
