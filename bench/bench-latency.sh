#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: `pipebench latency` against `perf bench sched pipe` (linux-perf)
# on the same work: two processes, a 4-byte message (perf's int), LOOPS
# round trips.  Two figures:
#  - speed: interleaved pairs (pipebench first in odd pairs, perf first in
#    even ones), each side timed as a whole process, unpinned; the median of
#    the per-pair ratios pipebench/perf, target at most 1.05;
#  - agreement: both pinned the same way (every process on CPU 0 with
#    taskset for perf, --cpu 0 for pipebench), the mean microseconds per
#    round trip of each; they should agree within 10%.
# Exits 0 unless BENCH_STRICT=1 and a target is missed.  Skips (exit 0) when
# perf is not installed or cannot run the benchmark.
#
# Usage: bench-latency.sh PIPEBENCH [PERF]
set -u
PB=${1:?usage: bench-latency.sh PIPEBENCH [PERF]}
PERF=${2:-${PERF:-perf}}
PAIRS=${BENCH_PAIRS:-5}
LOOPS=${BENCH_LOOPS:-1000000}
TARGET=1.05
AGREE=0.10

if ! command -v "$PERF" >/dev/null 2>&1; then
	echo "bench-latency: skipped: perf not found (install linux-perf)"
	exit 0
fi
if ! "$PERF" bench sched pipe -l 10 >/dev/null 2>&1; then
	echo "bench-latency: skipped: 'perf bench sched pipe' does not run here"
	exit 0
fi

. "${0%/*}/lib.sh"

PBARGS="latency --kind anon --placement any --size 4 --loops $LOOPS --repeat 1 --warmup 0 --quiet"
status=0
ratios=""
echo "latency: $PAIRS pairs of 'pipebench $PBARGS' vs 'perf bench sched pipe -l $LOOPS'"
i=1
while [ "$i" -le "$PAIRS" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		h=$(time_ns "$PERF" bench sched pipe -l "$LOOPS") || { echo "bench-latency: perf failed"; exit 1; }
	fi
	# shellcheck disable=SC2086
	p=$(time_ns "$PB" $PBARGS) || { echo "bench-latency: pipebench latency failed"; exit 1; }
	if [ $((i % 2)) -eq 1 ]; then
		h=$(time_ns "$PERF" bench sched pipe -l "$LOOPS") || { echo "bench-latency: perf failed"; exit 1; }
	fi
	r=$(awk -v p="$p" -v h="$h" 'BEGIN { printf "%.3f", p / h }')
	printf '  pair %d: pipebench %.3f s  perf %.3f s  ratio %s\n' "$i" \
		"$(awk -v x="$p" 'BEGIN { print x / 1e9 }')" "$(awk -v x="$h" 'BEGIN { print x / 1e9 }')" "$r"
	ratios="$ratios $r"
	i=$((i + 1))
done
m=$(printf '%s\n' $ratios | median)
v=$(awk -v m="$m" -v t="$TARGET" 'BEGIN { print (m <= t) ? "ok" : "SLOW" }')
printf 'latency: median whole-process time ratio pipebench/perf %.3f (target <= %s): %s\n' "$m" "$TARGET" "$v"
[ "$v" = ok ] || status=1

# Agreement, both pinned to CPU 0: the median of PAIRS interleaved runs each.
if command -v taskset >/dev/null 2>&1; then
	pus="" bus=""
	i=1
	while [ "$i" -le "$PAIRS" ]; do
		pus="$pus $(taskset -c 0 "$PERF" bench sched pipe -l "$LOOPS" 2>/dev/null |
			awk '/usecs\/op/ { print $1 }')"
		bus="$bus $("$PB" latency --kind anon --cpu 0 --size 4 --loops "$LOOPS" --repeat 1 \
			--warmup 0 --quiet --format json |
			awk -F: '/"rtt_mean_ns"/ { gsub(/[ ,]/, "", $2); print $2 / 1000; exit }')"
		i=$((i + 1))
	done
	pu=$(printf '%s\n' $pus | median)
	bu=$(printf '%s\n' $bus | median)
	if [ -n "$pu" ] && [ -n "$bu" ]; then
		d=$(awk -v a="$bu" -v b="$pu" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; printf "%.3f", d }')
		v=$(awk -v d="$d" -v t="$AGREE" 'BEGIN { print (d <= t) ? "ok" : "DISAGREE" }')
		printf 'latency: median of mean us per round trip on CPU 0: pipebench %.3f, perf %.3f; difference %.1f%% (target <= 10%%): %s\n' \
			"$bu" "$pu" "$(awk -v d="$d" 'BEGIN { print d * 100 }')" "$v"
		[ "$v" = ok ] || status=1
	else
		echo "latency: agreement not measured (no figure from one of the tools)"
	fi
else
	echo "latency: agreement skipped: taskset not found"
fi
if [ "$status" -ne 0 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then
	exit 1
fi
exit 0
