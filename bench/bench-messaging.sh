#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: `pipebench messaging` against `hackbench -p` (rt-tests) on the
# same workload, in interleaved pairs (pipebench first in odd pairs,
# hackbench first in even ones) so that drift on a busy machine hits both alike.  Each side is timed as a
# whole process (fork of every worker included), one repetition per run.
# Prints each pair and the median of the per-pair ratios pipebench/hackbench;
# the target is at most 1.05.  Exits 0 unless BENCH_STRICT=1 and a ratio is
# over target.  Skips (exit 0) when hackbench is not installed.
#
# Usage: bench-messaging.sh PIPEBENCH [HACKBENCH]
set -u
PB=${1:?usage: bench-messaging.sh PIPEBENCH [HACKBENCH]}
HB=${2:-${HACKBENCH:-hackbench}}
PAIRS=${BENCH_PAIRS:-5}
TARGET=1.05

if ! command -v "$HB" >/dev/null 2>&1; then
	echo "bench-messaging: skipped: hackbench not found (install rt-tests)"
	exit 0
fi

. "${0%/*}/lib.sh"

pb_failed() { echo "bench-messaging: pipebench messaging $* failed"; exit 1; }
hb_failed() { echo "bench-messaging: hackbench -p $* failed"; exit 1; }

# hackbench's options in pipebench's vocabulary (-l is --loops there).
pb_args() { for a in "$@"; do [ "$a" = -l ] && a=--loops; printf '%s\n' "$a"; done; }

status=0
bench() {
	label=$1; shift
	ratios=""
	echo "messaging $label: $PAIRS pairs of 'pipebench messaging $* --repeat 1 --warmup 0' vs 'hackbench -p $*'"
	i=1
	while [ "$i" -le "$PAIRS" ]; do
		# Alternate which side goes first: the second run of a pair
		# tends to find the machine in a different state.
		if [ $((i % 2)) -eq 0 ]; then
			h=$(time_ns "$HB" -p "$@") || hb_failed "$@"
		fi
		p=$(time_ns "$PB" messaging $(pb_args "$@") --repeat 1 --warmup 0 --quiet) || pb_failed "$@"
		if [ $((i % 2)) -eq 1 ]; then
			h=$(time_ns "$HB" -p "$@") || hb_failed "$@"
		fi
		r=$(awk -v p="$p" -v h="$h" 'BEGIN { printf "%.3f", p / h }')
		printf '  pair %d: pipebench %.3f s  hackbench %.3f s  ratio %s\n' "$i" \
			"$(awk -v x="$p" 'BEGIN { print x / 1e9 }')" \
			"$(awk -v x="$h" 'BEGIN { print x / 1e9 }')" "$r"
		ratios="$ratios $r"
		i=$((i + 1))
	done
	m=$(printf '%s\n' $ratios | median)
	verdict=$(awk -v m="$m" -v t="$TARGET" 'BEGIN { print (m <= t) ? "ok" : "SLOW" }')
	printf 'messaging %s: median ratio pipebench/hackbench %.3f (target <= %s): %s\n' \
		"$label" "$m" "$TARGET" "$verdict"
	[ "$verdict" = ok ] || status=1
}

bench "-g 2 -l 1000" -g 2 -l 1000   # hackbench's -l is pipebench's -n (--loops)
bench "defaults"
if [ "$status" -ne 0 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then
	exit 1
fi
exit 0
