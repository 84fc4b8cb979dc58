#!/bin/sh
# Boot the guest kernel and initramfs under QEMU (TCG) and either run one
# shell command non-interactively or give an interactive shell.
#
#   qemu/run-qemu.sh [options] --cmd 'shell command'
#   qemu/run-qemu.sh [options] --shell
#
# Options (the Makefile passes its variables here):
#   --kernel BZIMAGE  --initrd CPIO    what to boot
#   --share DIR        host folder mounted read-write at /mnt/host
#   --mem SIZE         guest memory (default 2G)    --smp N   vCPUs (default 2)
#   --timeout SEC      hard limit for --cmd (default 900)
#   --append ARGS      extra kernel command-line arguments
#   --log FILE         where the guest console (kernel log) is kept
#
# With --cmd, the command runs as root with /bin/sh -c, its output (stdout
# and stderr) is printed here, and this script exits with its exit status.
# If the guest crashes, panics or times out, the console log is printed and
# the exit status is 125 (crash) or 124 (timeout).
set -eu

kernel= initrd= share= mem=2G smp=2 timeout=900 append= log= cmd= mode=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--share) share=$2; shift ;;
	--mem) mem=$2; shift ;;
	--smp) smp=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--append) append=$2; shift ;;
	--log) log=$2; shift ;;
	--cmd) mode=cmd; cmd=$2; shift ;;
	--shell) mode=shell ;;
	*) echo "run-qemu: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done

die() { echo "run-qemu: $*" >&2; exit 2; }
[ -n "$mode" ] || die "give --cmd 'command' or --shell"
[ -f "$kernel" ] || die "no kernel at '$kernel' (make kernel)"
[ -f "$initrd" ] || die "no initramfs at '$initrd' (make image)"
[ -z "$share" ] || [ -d "$share" ] || die "SHARE=$share is not a folder"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps)"

ctl=$(mktemp -d "${TMPDIR:-/tmp}/cr-guest.XXXXXX")
trap 'rm -rf "$ctl"' EXIT
[ -n "$log" ] || log=$ctl/console.log
mkdir -p "$(dirname "$log")"
: > "$log"

# KVM hangs at boot on these machines: always TCG.
set -- -accel tcg -cpu max -m "$mem" -smp "$smp" -no-reboot \
	-display none -nodefaults \
	-kernel "$kernel" -initrd "$initrd" \
	-virtfs "local,path=$ctl,mount_tag=crctl,security_model=none"
[ -z "$share" ] ||
	set -- "$@" -virtfs "local,path=$(cd "$share" && pwd),mount_tag=crhost,security_model=none"
# TCG's TSC fails the clocksource watchdog, which then falls back to jiffies
# (4 ms steps): keep the TSC, timings need it.
kargs="panic=-1 oops=panic printk.devkmsg=on tsc=reliable $append"

if [ "$mode" = shell ]; then
	# Console and shell on the terminal; Ctrl-A X quits QEMU.
	qemu-system-x86_64 "$@" -serial mon:stdio \
		-append "console=ttyS0 cr.mode=shell $kargs"
	exit 0
fi

printf '%s\n' "$cmd" > "$ctl/cmd"
rc=0
timeout -k 10 "$timeout" qemu-system-x86_64 "$@" \
	-serial "file:$log" -chardev stdio,id=out,signal=off -serial chardev:out \
	-append "console=ttyS0 cr.mode=cmd $kargs" < /dev/null || rc=$?

# The command's status counts only if the guest then ended cleanly: a
# hang, a panic, a BUG or an oops after it (in teardown, sync, reboot)
# fails the run too.
if [ -f "$ctl/status" ] && [ $rc != 124 ] && [ $rc != 137 ] &&
   ! grep -qE 'Kernel panic|BUG:|Oops:' "$log"; then
	exit "$(cat "$ctl/status")"
fi
if [ -f "$ctl/status" ] && [ $rc != 124 ] && [ $rc != 137 ]; then
	echo "run-qemu: the command finished (status $(cat "$ctl/status")), but the kernel then reported a panic, BUG or oops; its console log ($log):" >&2
	rc=125
elif [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "run-qemu: the guest timed out after ${timeout}s; its console log ($log):" >&2
	rc=124
else
	echo "run-qemu: the guest stopped before the command finished (crash or panic); its console log ($log):" >&2
	rc=125
fi
tail -n 60 "$log" >&2
exit $rc
