# A small TAP producer for shell tests (sourced): the shell twin of tap.h.
#   tap_plan N; tap_ok COND-STATUS "description"; tap_is GOT WANT "desc";
#   tap_diag "text"; tap_bail "reason" (stops the test: exit 1);
#   tap_done (exit status: 0 when all passed as planned)
_tap_n=0 _tap_failed=0 _tap_planned=-1

tap_plan() { _tap_planned=$1; echo "1..$1"; }
tap_diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

# tap_bail REASON: the test cannot go on; the results it planned and did
# not report count as failures.
tap_bail() { echo "Bail out! $*"; exit 1; }

# tap_ok STATUS DESCRIPTION: STATUS 0 passes (pass $? of a command).
tap_ok() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
	return "$1"
}

# tap_is GOT WANT DESCRIPTION
tap_is() {
	if [ "$1" = "$2" ]; then
		tap_ok 0 "$3"
	else
		tap_ok 1 "$3"
		tap_diag "got '$1', expected '$2'"
	fi
}

tap_done() {
	if [ "$_tap_planned" -ge 0 ] && [ "$_tap_n" != "$_tap_planned" ]; then
		tap_diag "planned $_tap_planned tests but ran $_tap_n"
		exit 1
	fi
	[ "$_tap_failed" = 0 ]
	exit $?
}

# wait_until SECONDS CMD...: until CMD succeeds (its errors hidden), every
# 0.05 s; after SECONDS the test bails out, naming what it waited for.
wait_until() {
	_wu_n=$(($1 * 20))
	shift
	until "$@" 2>/dev/null; do
		_wu_n=$((_wu_n - 1))
		[ $_wu_n -gt 0 ] || tap_bail "timed out waiting for: $*"
		sleep 0.05
	done
}
