#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: pipebench throughput against a minimal reference program of
# the 2025 mail's loop, interleaved in one run (ref, pb, pb, ref, ...), so
# machine noise hits both alike.  Prints per configuration the median of the
# per-pair TT ratios pipebench/reference; fails when one exceeds the limit.
# With REFERENCE_ZC (bench/reference-zc), --mode vmsplice and splice are held
# to their reference loops the same way (pipebench with --verify off: the
# reference checks no bytes either).
#   bench.sh PIPEBENCH REFERENCE [REFERENCE_ZC [PAIRS]]
set -u
PB=$1 REF=$2 REFZC=${3:-} PAIRS=${4:-${BENCH_PAIRS:-9}} LIMIT=${BENCH_LIMIT:-1.02}

# Both run pinned to the same CPU (BENCH_CPU, default 0; empty: unpinned):
# migrations between CPUs are the largest source of noise on small VMs.
CPU=${BENCH_CPU-0}
PIN=""
[ -n "$CPU" ] && command -v taskset >/dev/null && PIN="taskset -c $CPU"
# A configuration is "LOOPS SIZE" (rw) or "LOOPS SIZE MODE".
ref_tt() {
	if [ -n "${3:-}" ]; then $PIN "$REFZC" "$3" "$1" "$2"; else $PIN "$REF" "$1" "$2"; fi |
		awk '{ print $9 * 1e9 }'
}
pb_tt() {
	$PIN "$PB" throughput --repeat 1 --warmup 0 --quiet --loops "$1" --size "$2" \
		${3:+--mode "$3" --verify off} --format csv | awk -F, 'NR == 2 { print $8 }'
}
. "${0%/*}/lib.sh"

status=0
echo "pairs interleaved; ${PIN:-not pinned}"
printf '%-22s %6s %12s %12s %9s %9s\n' config pairs "ref TT s" "pb TT s" ratio limit
configs='10000:100 10000:4096 20000:65536'
[ -n "$REFZC" ] && configs="$configs 10000:4096:vmsplice 20000:65536:vmsplice 10000:4096:splice 20000:65536:splice"
for cfg in $configs; do
	set -- $(printf '%s\n' "$cfg" | tr ':' ' ')
	ref_tt "$@" >/dev/null; pb_tt "$@" >/dev/null   # warm caches
	ratios="" refs="" pbs=""
	i=0
	while [ $i -lt "$PAIRS" ]; do
		if [ $((i % 2)) -eq 0 ]; then r=$(ref_tt "$@"); p=$(pb_tt "$@")
		else p=$(pb_tt "$@"); r=$(ref_tt "$@"); fi
		[ -n "$r" ] && [ -n "$p" ] || { echo "bench: a run failed" >&2; exit 3; }
		ratios="$ratios $(awk -v p="$p" -v r="$r" 'BEGIN { print p / r }')"
		refs="$refs $r" pbs="$pbs $p"
		i=$((i + 1))
	done
	mr=$(printf '%s\n' $ratios | median)
	rr=$(printf '%s\n' $refs | median)
	pr=$(printf '%s\n' $pbs | median)
	verdict=$(awk -v m="$mr" -v l="$LIMIT" 'BEGIN { print (m <= l) ? "ok" : "SLOWER" }')
	printf '%-22s %6d %12.4f %12.4f %9.4f %9s %s\n' "$1x$2${3:+ $3}" "$PAIRS" "$(awk -v v="$rr" 'BEGIN{print v/1e9}')" \
		"$(awk -v v="$pr" 'BEGIN{print v/1e9}')" "$mr" "$LIMIT" "$verdict"
	[ "$verdict" = ok ] || status=1
done
exit $status
