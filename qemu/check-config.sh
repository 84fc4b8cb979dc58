#!/bin/sh
# Fail when an option requested by a config fragment is not what the final
# .config holds (a missing dependency makes Kconfig drop it silently).
# Usage: qemu/check-config.sh DOTCONFIG FRAGMENT...
set -eu
cfg=$1
shift
bad=0
for frag in "$@"; do
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p' \
	       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1=n/p' "$frag" |
	while IFS= read -r want; do
		opt=${want%%=*}
		val=${want#*=}
		got=$(sed -n -e "s/^$opt=//p" -e "s/^# $opt is not set/n/p" "$cfg")
		[ -n "$got" ] || got=n
		if [ "$got" != "$val" ]; then
			echo "check-config: $opt=$val requested by ${frag##*/}, but the .config has $opt=$got" >&2
			echo x
		fi
	done
done | grep -q x && bad=1
[ $bad = 0 ] || { echo "check-config: the kernel config lacks requested options (see above); a dependency is missing from the fragments" >&2; exit 1; }
exit 0
