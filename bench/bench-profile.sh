#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: what --profile costs the loop it samples.  Interleaved pairs
# of `pipebench throughput` on anonymous pipes and FIFOs, with and without
# --profile (the order alternating), each row's median TT read from the
# JSON; the figure is the median over pairs and rows of TT with over TT
# without, target at most 1.05 (the sampling period, 1 ms of CPU time,
# was chosen for it).  Exits 0 unless BENCH_STRICT=1 and the target is
# missed; skips (exit 0) where perf events cannot be opened.
#
# Usage: bench-profile.sh PIPEBENCH
set -u
PB=${1:?usage: bench-profile.sh PIPEBENCH}
PAIRS=${BENCH_PAIRS:-5}
LOOPS=${BENCH_LOOPS:-20000}
TARGET=1.05

. "${0%/*}/lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-bench-profile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
ARGS="throughput --kind anon,fifo --loops $LOOPS --repeat 3 --warmup 1 --format json --quiet"

# tts FILE: each row's median TT, one a line
tts() {
	perl -MJSON::PP -e 'print "$_->{summary}{tt_ns}{median}\n"
		for @{ decode_json(do { local $/; <STDIN> })->{results} }' <"$1"
}

"$PB" throughput --loops 100 --repeat 1 --warmup 0 --profile --format json -o "$tmp/probe.json" \
	2>/dev/null
if ! perl -MJSON::PP -e 'exit !decode_json(do { local $/; <STDIN> })->{profile}{available}' \
	<"$tmp/probe.json" 2>/dev/null; then
	echo "bench-profile: skipped: perf events cannot be opened here"
	exit 0
fi
echo "profile: $PAIRS pairs of 'pipebench $ARGS' with and without --profile"
ratios=""
i=1
while [ "$i" -le "$PAIRS" ]; do
	for side in 1 0; do
		if [ $((i % 2)) = "$side" ]; then
			# shellcheck disable=SC2086
			"$PB" $ARGS -o "$tmp/plain.json" 2>/dev/null || exit 1
		else
			# shellcheck disable=SC2086
			"$PB" $ARGS --profile -o "$tmp/prof.json" 2>/dev/null || exit 1
		fi
	done
	r=$(paste -d' ' "$(tts "$tmp/prof.json" >"$tmp/p"; echo "$tmp/p")" \
		"$(tts "$tmp/plain.json" >"$tmp/q"; echo "$tmp/q")" | awk '$2 > 0 { print $1 / $2 }')
	echo "  pair $i: TT with/without, per row: $(echo $r)"
	ratios="$ratios $r"
	i=$((i + 1))
done
med=$(printf '%s\n' $ratios | median)
echo "profile: median TT with --profile / without: $med (target <= $TARGET)"
if awk -v m="$med" -v t="$TARGET" 'BEGIN { exit !(m > t) }'; then
	echo "profile: target missed"
	[ "${BENCH_STRICT:-0}" = 1 ] && exit 1
fi
exit 0
